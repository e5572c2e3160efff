public import Logging
public import TaskWidgetCore
public import TaskWidgetWatch

/// Keeps the server's cache current, as watch keeps its line: it follows the timeline
/// (``StoreFollowing``), publishes the state of each entry that becomes current (at its date, after
/// a store change or a clock jump) and broadcasts the change when a viewer would see one. Pure
/// logic over the clock readings it is given; a ``FollowLoop`` runs it.
public struct DashboardFollower<Source: FollowedSource>: Follower where Source.Value == Timeline {
    private var following: StoreFollowing<Source>
    private let cache: DashboardCache
    private let broadcaster: EventBroadcaster
    private let logger: Logger
    private var currentEntry: TimelineEntry?
    private var reportedFailure: String?

    /// `clockSpeed` is the speed of the clock the instants come from (``WatchClock/speed``).
    public init(source: Source, cache: DashboardCache, broadcaster: EventBroadcaster, clockSpeed: Int64 = 1, logger: Logger) {
        following = StoreFollowing(source: source, clockSpeed: clockSpeed, logger: logger)
        self.cache = cache
        self.broadcaster = broadcaster
        self.logger = logger
    }

    /// The current entry's next change, or the timeline's ``Timeline/rereadDeadline`` when it comes
    /// first: then the timeline is read again, so that `/timeline.json` is never one past its own
    /// reload time.
    public var entryDeadline: Instant? {
        guard let nextChange = currentEntry?.nextChange else { return nil }
        return min(nextChange, following.value?.rereadDeadline ?? nextChange)
    }
    public var followUpDeadline: Int64? { following.followUpDeadline }

    public mutating func start(at now: WatchInstant) throws {
        try handle(.refresh, at: now)
    }

    public mutating func handle(_ wake: FollowWake, at now: WatchInstant) throws {
        let reread = following.handle(wake, at: now)
        let timeline = following.value
        let entry = timeline?.entry(at: now.wallInstant)
        guard reread || entry != currentEntry else { return }
        currentEntry = entry
        var state: DashboardState?
        if let timeline, let entry { state = DashboardState(timeline: timeline, entry: entry) }
        let failure = state == nil ? following.failure ?? TaskWidgetError(.storeMissing, "the store has no entry for now") : nil
        // Logs name a failure by its code, never by its message, which may quote a list's name.
        if failure?.logDescription != reportedFailure, let failure { logger.error("\(failure.logDescription)") }
        // At the failure's own default level, so that the journal says it ended (helper-131).
        if failure == nil, reportedFailure != nil { logger.warning("the store can be read again: serving it") }
        reportedFailure = failure?.logDescription
        if let event = cache.publish(state, failure: failure) {
            logger.debug("published", metadata: ["version": "\(event.version)"])
            broadcaster.publish(event)
        }
    }
}
