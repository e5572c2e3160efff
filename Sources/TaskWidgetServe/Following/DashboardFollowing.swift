import Foundation
public import Logging
public import ServiceLifecycle
public import TaskWidgetCore
public import TaskWidgetStore
public import TaskWidgetWatch
import UnixSignals

/// The service that follows the store for the server: a ``FollowLoop`` driving a
/// ``DashboardFollower`` on a thread of its own (it sleeps in `poll`, which must not hold a thread
/// of Swift's cooperative pool). Graceful shutdown stops the loop and ends every `/events` stream.
/// SIGUSR1 opens the store again and reads it, as in watch (it killed serve).
public struct DashboardFollowing: Service {
    /// Everything the loop needs, made on its thread (the store is opened there).
    public struct Settings: Sendable {
        public var location: StoreLocation
        public var calendar: LocalCalendar
        public var view: TaskView
        public var clock: WatchClock

        public init(location: StoreLocation, calendar: LocalCalendar, view: TaskView, clock: WatchClock) {
            self.location = location
            self.calendar = calendar
            self.view = view
            self.clock = clock
        }
    }

    private let settings: Settings
    private let cache: DashboardCache
    private let broadcaster: EventBroadcaster
    private let logger: Logger

    public init(settings: Settings, cache: DashboardCache, broadcaster: EventBroadcaster, logger: Logger) {
        self.settings = settings
        self.cache = cache
        self.broadcaster = broadcaster
        self.logger = logger
    }

    /// Runs until graceful shutdown; throws when the loop cannot be set up.
    public func run() async throws {
        let stop = try StopSignal()
        let (ended, continuation) = AsyncStream.makeStream(of: Result<Void, TaskWidgetError>.self)
        let (settings, cache, broadcaster, logger) = (settings, cache, broadcaster, logger)
        // Trapped before the loop starts (and logs that it watches the store).
        let signals = await UnixSignalsSequence(trapping: .sigusr1)
        let refreshes = Task {
            for await _ in signals {
                logger.debug("SIGUSR1: refreshing")
                stop.refresh()
            }
        }
        defer { refreshes.cancel() }
        let thread = Thread {
            let source = StoreFollower(
                location: settings.location, calendar: settings.calendar, view: settings.view, family: .large, logger: logger)
            var follower = DashboardFollower(
                source: source, cache: cache, broadcaster: broadcaster, clockSpeed: settings.clock.speed, logger: logger)
            do {
                try FollowLoop.run(
                    &follower, clock: settings.clock, storePath: settings.location.path, options: .init(handlesSignals: false), stop: stop,
                    logger: logger)
                continuation.yield(.success(()))
            } catch {
                let failure = error as? TaskWidgetError ?? TaskWidgetError(.ioFailure, "cannot follow the store")
                // Whoever waits for the first publication learns of it too.
                cache.publish(nil, failure: failure)
                continuation.yield(.failure(failure))
            }
            continuation.finish()
        }
        thread.name = "taskwidget-serve follow"
        thread.start()
        try await withGracefulShutdownHandler {
            for await result in ended { try result.get() }
        } onGracefulShutdown: {
            stop.stop()
        }
        broadcaster.finish()
    }
}

/// ServiceLifecycle names services in its log lines by their description, which Swift would
/// otherwise write out field by field: the view, with the name of the list it shows (logs never
/// carry names, SPEC §2).
extension DashboardFollowing: CustomStringConvertible, CustomDebugStringConvertible {
    public var description: String { "DashboardFollowing" }
    public var debugDescription: String { description }
}
