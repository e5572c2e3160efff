public import Foundation

/// The widget sizes of SPEC §7; each shows a different number of tasks.
public enum WidgetFamily: String, Sendable, Codable, CaseIterable {
    case small
    case medium
    case large

    /// How many tasks a widget of this family shows.
    public var taskRows: Int {
        switch self {
        case .small: 3
        case .medium: 5
        case .large: 12
        }
    }
}

/// What a timeline is computed for: the clock, the zone and the scope, resolved once by the caller.
public struct TimelineRequest: Sendable {
    public var now: Date
    public var timeZone: TimeZone
    public var scope: TaskScope
    /// The widget the timeline is for; `nil` (status bars, `timeline`) keeps the top 8 tasks.
    public var family: WidgetFamily?

    public init(now: Date, timeZone: TimeZone, scope: TaskScope = .all, family: WidgetFamily? = nil) {
        self.now = now
        self.timeZone = timeZone
        self.scope = scope
        self.family = family
    }

    /// The most tasks an entry's `top` holds (SPEC §5: up to 8).
    public var topLimit: Int { family?.taskRows ?? 8 }

    /// The due dates a timeline looks at one by one: after now and within three days (the last
    /// entry's day ends at most 49 hours after now). Earlier ones are only counted. Unix milliseconds.
    var dueWindow: ClosedRange<Int64> {
        let start = Int64(now.timeIntervalSince1970.rounded(.down)) * 1000
        return (start + 1)...(start + 3 * 86_400_000)
    }

    /// The local day of `now`: the first day the timeline shows.
    var firstDay: LocalDay { LocalDay(containing: now, in: timeZone) }

    /// The start of ``firstDay`` in Unix milliseconds: completions before it never count.
    var firstDayStart: Int64 {
        StoredInstant.encode(Calendar.gregorian(in: timeZone).startOfDay(for: now))
    }
}
