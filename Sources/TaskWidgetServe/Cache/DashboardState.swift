public import TaskWidgetCore

/// What the server shows at one moment: the current timeline and the entry for now in it, both
/// read for the large widget (the most rows); status lines take the first rows of it.
public struct DashboardState: Sendable {
    public let timeline: Timeline
    public let entry: TimelineEntry
    /// The entries after the current one that show something else, in order: what changes next.
    /// Worked out once, as ``lineValidUntil`` is: every answer's `max-age` reads them, and the scans
    /// compare whole entries (with 96 entries alike, a scan per request tripled a status line's cost).
    public let upcomingChanges: [TimelineEntry]
    /// When a status line of the current entry next changes, at the latest when the timeline is
    /// read again (``Timeline/rereadDeadline``), which may change it: a view's `due_within` moves
    /// with the clock, and a task that came within it waited for the next entry (helper-131).
    public let lineValidUntil: Instant
    /// When an image of the current entry next changes (its content or its day), at the latest
    /// when the timeline is read again.
    public var imageValidUntil: Instant { min(upcomingChanges.first?.date ?? timeline.reloadAfter, timeline.rereadDeadline) }
    /// When the current entry's JSON line next changes (it carries the entry's times), at the
    /// latest when the timeline is read again.
    public var entryValidUntil: Instant { min(entry.nextChange, timeline.rereadDeadline) }

    /// The entry as `status` shows it.
    public var barEntry: TimelineEntry { entry.limitingTop(to: TimelineRequest.defaultTopLimit) }

    public init(timeline: Timeline, entry: TimelineEntry) {
        self.timeline = timeline
        self.entry = entry
        var last = entry
        var changes: [TimelineEntry] = []
        for next in timeline.entries where next.date > entry.date {
            if !WidgetImageSpec.drawsTheSame(next, as: last) { changes.append(next) }
            last = next
        }
        upcomingChanges = changes
        lineValidUntil = min(
            timeline.entries.first { $0.date > entry.date && !$0.hasSameContent(as: entry) }?.date ?? timeline.reloadAfter,
            timeline.rereadDeadline)
    }
}
