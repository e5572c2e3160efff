public import Foundation

/// A widget timeline (SPEC §5): what to show from each entry's date on, and when to ask again.
public struct Timeline: Sendable, Equatable {
    public static let schema = "taskwidget.timeline/1"

    public var timeZone: TimeZone
    /// The anchor: now, floored to whole seconds (Unix seconds, like every instant below).
    public var generatedAt: Int64
    /// Ask again by then at the latest (seed NFR4: at most 15 minutes stale after a store change).
    public var reloadAfter: Int64
    /// Past this instant the content is stale.
    public var validUntil: Int64
    /// Whether crossings were dropped beyond the cap of 96.
    public var truncated: Bool
    public var entries: [TimelineEntry]

    /// The entry a consumer shows at `instant`: the one with the greatest date ≤ instant.
    public func entry(at instant: Int64) -> TimelineEntry? {
        var low = 0
        var high = entries.count
        while low < high {
            let middle = (low + high) / 2
            if entries[middle].date <= instant { low = middle + 1 } else { high = middle }
        }
        return low == 0 ? nil : entries[low - 1]
    }
}

/// Why a timeline has an entry at an instant; an instant keeps the union of its reasons.
public struct EntryReasons: OptionSet, Sendable, Hashable, Codable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    public static let now = EntryReasons(rawValue: 1)
    public static let cadence = EntryReasons(rawValue: 2)
    public static let due = EntryReasons(rawValue: 4)
    public static let midnight = EntryReasons(rawValue: 8)

    /// The reasons' names in a fixed order: `now`, `cadence`, `due`, `midnight`.
    public var names: [String] {
        [(Self.now, "now"), (.cadence, "cadence"), (.due, "due"), (.midnight, "midnight")]
            .filter { contains($0.0) }.map(\.1)
    }
}

/// What a widget shows from `date` until `nextChange`; every value holds for that whole interval.
public struct TimelineEntry: Sendable, Equatable, Codable {
    public var date: Int64
    public var reasons: EntryReasons
    /// The local calendar day of `date`: it may last 23 or 25 hours, or start at 01:00.
    public var dayStart: Int64
    public var dayEnd: Int64
    public var counts: TaskCounts
    public var top: [TopTask]
    public var habits: HabitSummary
    public var relevance: Relevance
    public var nextChange: Int64
    /// `nil` for all tasks; the list's name, or `Inbox`, for a scoped widget.
    public var scopeTitle: String?

    /// A hash of everything but the dates and reasons: equal hashes, equal widgets. Computed when
    /// asked (JSON output, image reuse), not for every entry of every timeline.
    public var contentHash: String { TimelineJSON.contentHash(of: self) }

    /// Whether `other` shows the same as this entry: what ``contentHash`` hashes, compared
    /// directly (the relevance score follows from the counts).
    public func hasSameContent(as other: TimelineEntry) -> Bool {
        counts == other.counts && top == other.top && habits == other.habits && scopeTitle == other.scopeTitle
    }
}

public struct TaskCounts: Sendable, Equatable, Hashable, Codable {
    /// Open tasks in scope.
    public var open: Int
    /// Open and due at or before the entry's date.
    public var overdue: Int
    /// Open and due later on the entry's local day.
    public var dueToday: Int
    /// Open and due within the hour, at some instant of the entry's interval.
    public var dueSoon: Int
    /// Completed during the entry's local day.
    public var completedToday: Int
    /// Open and in no list.
    public var inbox: Int
}

/// One of the tasks an entry shows, with what is true of it during the entry.
public struct TopTask: Sendable, Equatable, Hashable, Codable {
    public var id: UUID
    public var title: String
    public var listName: String?
    public var colorHex: String?
    public var dueDate: Date?
    public var isOverdue: Bool
    public var state: TaskState
    /// `09:30`, `Tomorrow 09:00`, `Mon 24 Nov`, `Overdue · 17:00`; `nil` without a due date.
    public var dueLabel: String?
}

public struct HabitSummary: Sendable, Equatable, Hashable, Codable {
    public struct Item: Sendable, Equatable, Hashable, Codable {
        public var name: String
        public var icon: String
        public var colorHex: String
        /// What was recorded for the entry's day, `nil` if nothing.
        public var status: HabitStatus?
    }

    public var done: Int
    public var total: Int
    public var items: [Item]
}

/// How much the entry matters, for a consumer that picks among widgets (like WidgetKit's relevance).
public struct Relevance: Sendable, Equatable, Hashable, Codable {
    /// 10 per overdue task plus 1 per task due today.
    public var score: Int
    /// Seconds until the next change.
    public var duration: Int64
}
