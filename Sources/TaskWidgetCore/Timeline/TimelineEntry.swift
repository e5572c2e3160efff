/// What a widget shows from `date` until `nextChange`; every value holds for that whole interval.
/// All instants are whole seconds.
public struct TimelineEntry: Sendable, Equatable {
    public var date: Instant
    public var reasons: EntryReasons
    /// The local calendar day of `date`, which starts at `dayStart` and ends at `dayEnd`: it may
    /// last 23 or 25 hours, or start at 01:00.
    public var day: LocalDay
    public var dayStart: Instant
    public var dayEnd: Instant
    public var counts: TaskCounts
    public var top: [TopTask]
    public var habits: HabitSummary
    public var relevance: Relevance
    public var nextChange: Instant
    /// `nil` for all tasks; the list's name, or `Inbox`, for a scoped widget.
    public var scopeTitle: String?

    public init(
        date: Instant, reasons: EntryReasons, day: LocalDay, dayStart: Instant, dayEnd: Instant, counts: TaskCounts,
        top: [TopTask], habits: HabitSummary, relevance: Relevance, nextChange: Instant, scopeTitle: String?
    ) {
        self.date = date
        self.reasons = reasons
        self.day = day
        self.dayStart = dayStart
        self.dayEnd = dayEnd
        self.counts = counts
        self.top = top
        self.habits = habits
        self.relevance = relevance
        self.nextChange = nextChange
        self.scopeTitle = scopeTitle
    }

    /// The task a bar names as "next", and the one `done --top`, `start --top` and `snooze --top`
    /// act on: the first overdue task of ``top``, else the first with a due date, else the first;
    /// `nil` when nothing is open.
    public var next: TopTask? {
        top.first(where: \.isOverdue) ?? top.first(where: { $0.dueDate != nil }) ?? top.first
    }

    /// A hash of everything but the dates and reasons: equal hashes, equal widgets. Computed when
    /// asked (JSON output, image reuse), not for every entry of every timeline.
    public var contentHash: String { TimelineJSON.contentHash(of: self) }

    /// Whether `other` shows the same as this entry: what ``contentHash`` hashes, compared
    /// directly (the relevance score follows from the counts).
    public func hasSameContent(as other: TimelineEntry) -> Bool {
        counts == other.counts && top == other.top && habits == other.habits && scopeTitle == other.scopeTitle
    }

    /// The same entry with at most `count` tasks in `top`.
    public func limitingTop(to count: Int) -> TimelineEntry {
        guard top.count > count else { return self }
        var limited = self
        limited.top = Array(top.prefix(count))
        return limited
    }
}
