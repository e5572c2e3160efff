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
    /// How much of the timeline is asked for: the snapshot holds what it needs, and no more.
    public var extent: Extent

    /// The entries a request is for.
    public enum Extent: Sendable {
        /// Every entry of the next 24 hours (`timeline`, watch, serve).
        case whole
        /// The first entry only (``TimelineProvider/currentEntry(for:snapshot:)``: `status`, `render`).
        case currentEntry
    }

    public init(
        now: Instant, calendar: LocalCalendar, view: TaskView = TaskView(), family: WidgetFamily? = nil, extent: Extent = .whole
    ) {
        self.now = now.flooredToSecond
        self.calendar = calendar
        self.view = view
        self.family = family
        self.extent = extent
    }

    public var scope: TaskScope { view.scope }

    public var timeZone: TimeZone { calendar.timeZone }

    /// The most tasks an entry's `top` holds without a widget (SPEC §5: up to 8).
    public static let defaultTopLimit = 8

    /// The most tasks an entry's `top` holds: the widget's rows, else ``defaultTopLimit``.
    public var topLimit: Int { family?.taskRows ?? Self.defaultTopLimit }

    /// The due dates a timeline looks at one by one: after now and within three days (the last
    /// entry's day ends at most 49 hours after now). Earlier ones are only counted, as overdue.
    /// The current entry looks no further than the end of today and an hour after the next quarter
    /// (its due-soon count), which at 100k tasks reads a few hundred dates instead of thousands.
    public var dueWindow: ClosedRange<Instant> {
        let end = switch extent {
        case .whole: now.adding(seconds: 3 * 86_400)
        case .currentEntry: max(firstDay.end, TimelineProvider.nextQuarter(after: now).adding(seconds: 3600))
        }
        return Instant(millisecondsSince1970: now.millisecondsSince1970 + 1)...end
    }

    /// The local day of `now`: the first day the timeline shows. Completions and habit records
    /// before it never count.
    public var firstDay: LocalCalendar.Day { calendar.day(containing: now) }
}
