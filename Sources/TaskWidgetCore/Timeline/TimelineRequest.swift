public import Foundation

/// What a timeline is computed for: the clock, the zone and the view, resolved once by the caller.
public struct TimelineRequest: Sendable {
    /// The anchor of the timeline, floored to whole seconds.
    public var now: Instant
    public var calendar: LocalCalendar
    /// The tasks shown: a scope, or a view of config.toml (read at ``now``).
    public var view: TaskView
    /// The widget the timeline is for; `nil` (status bars, `timeline`) keeps the top 8 tasks.
    public var family: WidgetFamily?

    public init(now: Instant, calendar: LocalCalendar, view: TaskView = TaskView(), family: WidgetFamily? = nil) {
        self.now = now.flooredToSecond
        self.calendar = calendar
        self.view = view
        self.family = family
    }

    public var scope: TaskScope { view.scope }

    public var timeZone: TimeZone { calendar.timeZone }

    /// The most tasks an entry's `top` holds without a widget (SPEC §5: up to 8).
    public static let defaultTopLimit = 8

    /// The most tasks an entry's `top` holds: the widget's rows, else ``defaultTopLimit``.
    public var topLimit: Int { family?.taskRows ?? Self.defaultTopLimit }

    /// The due dates a timeline looks at one by one: after now and within three days (the last
    /// entry's day ends at most 49 hours after now). Earlier ones are only counted, as overdue.
    public var dueWindow: ClosedRange<Instant> {
        Instant(millisecondsSince1970: now.millisecondsSince1970 + 1)...now.adding(seconds: 3 * 86_400)
    }

    /// The local day of `now`: the first day the timeline shows. Completions and habit records
    /// before it never count.
    public var firstDay: LocalCalendar.Day { calendar.day(containing: now) }
}
