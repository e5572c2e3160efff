public import Logging
public import TaskWidgetCore
public import TaskWidgetStore

/// Follows the store file read-only (``FollowedStore``) for the timelines of watch and serve.
public struct StoreFollower: FollowedSource {
    public var location: StoreLocation { followed.location }
    public let calendar: LocalCalendar
    public let view: TaskView
    /// The widget of `--render-dir`, if any. Bars show 8 tasks; only the large widget needs more.
    public let family: WidgetFamily?
    private var followed: FollowedStore

    public init(location: StoreLocation, calendar: LocalCalendar, view: TaskView, family: WidgetFamily? = nil, logger: Logger) {
        self.followed = FollowedStore(location: location, logger: logger)
        self.calendar = calendar
        self.view = view
        self.family = family
    }

    public mutating func check() -> StoreCheck {
        followed.check()
    }

    public mutating func reopen() {
        followed.reopen()
    }

    public func read(at now: Instant) throws -> Timeline {
        let store = try followed.opened()
        let request = TimelineRequest(now: now, calendar: calendar, view: view, family: family == .large ? .large : nil)
        return TimelineProvider().timeline(for: request, snapshot: try store.timelineSnapshot(for: request))
    }

    /// A timeline is read again past its reload date, and after the clock went back before it began.
    public func isStale(_ timeline: Timeline, at now: Instant) -> Bool {
        now >= timeline.reloadAfter || now < timeline.generatedAt
    }
}
