public import Logging
public import TaskWidgetCore
public import TaskWidgetStore

/// Follows the store file read-only (``FollowedStore``) for the timelines of watch and serve.
///
/// The views of one watch share one followed store (``showing(_:)``): a connection of its own for
/// each view held SQLite's state of the file (its `-shm`) open, and once the files were replaced
/// the view shown read the old state for good.
public struct StoreFollower: FollowedSource {
    public var location: StoreLocation { followed.store.location }
    public let calendar: LocalCalendar
    public private(set) var view: TaskView
    /// The widget of `--render-dir`, if any. Bars show 8 tasks; only the large widget needs more.
    public let family: WidgetFamily?
    private let followed: Shared

    /// The one followed store of the views that show it.
    private final class Shared {
        var store: FollowedStore

        init(_ store: FollowedStore) {
            self.store = store
        }
    }

    public init(location: StoreLocation, calendar: LocalCalendar, view: TaskView, family: WidgetFamily? = nil, logger: Logger) {
        self.followed = Shared(FollowedStore(location: location, logger: logger))
        self.calendar = calendar
        self.view = view
        self.family = family
    }

    /// This follower for `view`, on the same followed store.
    public func showing(_ view: TaskView) -> StoreFollower {
        var follower = self
        follower.view = view
        return follower
    }

    public mutating func check() -> StoreCheck {
        followed.store.check()
    }

    public mutating func reopen() {
        followed.store.reopen()
    }

    public func read(at now: Instant) throws -> Timeline {
        let store = try followed.store.opened()
        let request = TimelineRequest(now: now, calendar: calendar, view: view, family: family == .large ? .large : nil)
        return TimelineProvider().timeline(for: request, snapshot: try store.timelineSnapshot(for: request))
    }

    /// A timeline is read again past its ``Timeline/rereadDeadline``, and after the clock went back
    /// before it began.
    public func isStale(_ timeline: Timeline, at now: Instant) -> Bool {
        now >= timeline.rereadDeadline || now < timeline.generatedAt
    }
}
