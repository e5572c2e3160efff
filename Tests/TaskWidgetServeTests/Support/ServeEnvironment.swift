import Foundation
import Hummingbird
import Logging
import NIOPosix
import ServiceLifecycle
import TaskWidgetConfig
import TaskWidgetCore
import TaskWidgetFormats
import TaskWidgetServe
import TaskWidgetStore
import TaskWidgetWatch

@testable import TaskWidgetTestSupport

/// A store with a few tasks on a Monday morning in Berlin, and the server's parts over it: the
/// cache (with the real renderer and templates), the broadcaster and the devices.
final class ServeEnvironment: Sendable {
    /// 09:00 on Monday 23 November 2026; the next change is "Pay rent" falling due at 09:30.
    static let now = Fixed.instant("2026-11-23T09:00:00+01:00")
    static let zone = Fixed.zone("Europe/Berlin")
    static let device = DeviceRecord(id: "AA:BB:CC:DD:EE:FF", apiKey: "device-key-123", friendlyID: "TW1ABC")

    let store: TemporaryStore
    let cache: DashboardCache
    let broadcaster: EventBroadcaster
    let devices: DeviceRegistry
    /// The cache's clock: it stands still.
    let now: Instant

    /// - Parameters:
    ///   - now: what the cache takes for now (the follower's clock starts at ``now`` whatever it is).
    ///   - draw: the real renderer, unless a test needs other bytes.
    init(
        devices: [DeviceRecord] = [ServeEnvironment.device], now: Instant = ServeEnvironment.now,
        draw: @escaping DashboardCache.Drawing = DashboardServer.draw
    ) throws {
        self.now = now
        store = try TemporaryStore()
        let at = { (text: String) in Fixed.instant("2026-11-23T\(text):00+01:00") }
        for (title, due) in [("Water plants", at("08:00")), ("Pay rent", at("09:30")), ("Call Mum", at("18:00"))] {
            _ = try store.store.addTask(NewTask(title: title, dueDate: due), now: at("07:00"))
        }
        _ = try store.store.addTask(NewTask(title: "Read a book"), now: at("07:00"))
        cache = DashboardCache(draw: draw, renderers: try Self.renderers(), now: { now })
        broadcaster = EventBroadcaster()
        self.devices = DeviceRegistry(devices)
    }

    static func renderers() throws -> [StatusFormat: StatusRenderer] {
        var renderers: [StatusFormat: StatusRenderer] = [:]
        for format in StatusFormat.allCases {
            renderers[format] = try StatusRenderer(format: format, template: .resolve(format: format, path: nil, environment: [:]))
        }
        return renderers
    }

    var location: StoreLocation { StoreLocation(path: store.path, isDefault: false) }

    /// The state of the store at `instant` (default ``now``), as the follower reads it.
    func state(at instant: Instant? = nil) throws -> DashboardState {
        let instant = instant ?? now
        let request = TimelineRequest(now: instant, calendar: LocalCalendar(timeZone: Self.zone), family: .large)
        let timeline = try TL.timeline(for: request, from: store.reopen(mode: .readOnly))
        return DashboardState(timeline: timeline, entry: timeline.entry(at: instant)!)
    }

    /// Publishes the store's state at ``now``, as the follower does after a change.
    @discardableResult
    func publish() throws -> DashboardEvent? {
        cache.publish(try state(), failure: nil)
    }

    func dependencies(token: String? = nil, limits: ServeLimits = ServeLimits()) -> ServeDependencies {
        ServeDependencies(cache: cache, broadcaster: broadcaster, devices: devices, token: token, limits: limits)
    }

    /// The follower of the real server, on a virtual clock from ``now``.
    func following() -> DashboardFollowing {
        DashboardFollowing(
            settings: .init(
                location: location, calendar: LocalCalendar(timeZone: Self.zone), view: TaskView(),
                clock: .virtual(from: Self.now, speed: 1)),
            cache: cache, broadcaster: broadcaster, logger: quietLogger)
    }
}

let quietLogger: Logger = {
    var logger = Logger(label: "serve-test")
    logger.logLevel = .critical
    return logger
}()

/// The event loops of the test servers, apart from NIO's shared ones: the sync tests' HTTP client
/// runs on those, and in a debug build a 10 MB calendar object keeps one of them busy for seconds,
/// which would hold back a test server's reads and timers (its idle timeout) meanwhile.
let serverEventLoops = MultiThreadedEventLoopGroup(numberOfThreads: 2)

/// Runs the whole server (the store's follower included) on a free loopback port for `body`, then
/// shuts it down gracefully and waits for it to stop. As `serve` does, the port is told once the
/// follower has read the store: a client never meets the moment before, and a test that changes
/// the store never races the follower's first read (CI: a store deleted while the follower was
/// still opening it read as an I/O error, not as a missing store). The server and `body`
/// run on the ``DedicatedExecutor``, as the server runs alone in its own process: tests that block
/// Swift's cooperative pool cannot stall it.
func withLiveServer<T: Sendable>(
    _ environment: ServeEnvironment,
    token: String? = nil,
    limits: ServeLimits = ServeLimits(),
    logger: Logger = quietLogger,
    _ body: @Sendable (_ port: Int) async throws -> T
) async throws -> T {
    try await withTaskExecutorPreference(DedicatedExecutor.shared) {
        try await runLiveServer(environment, token: token, limits: limits, logger: logger, body)
    }
}

private func runLiveServer<T: Sendable>(
    _ environment: ServeEnvironment, token: String?, limits: ServeLimits, logger: Logger,
    _ body: @Sendable (_ port: Int) async throws -> T
) async throws -> T {
    let (ports, portContinuation) = AsyncStream.makeStream(of: Int.self)
    let app = try makeServeApplication(
        environment.dependencies(token: token, limits: limits),
        listen: ListenAddress(host: "127.0.0.1", port: 0),
        services: [environment.following()],
        eventLoopGroup: serverEventLoops,
        logger: logger
    ) { port in
        await environment.cache.waitForFirstPublication()
        portContinuation.yield(port)
    }
    let group = ServiceGroup(configuration: .init(services: [app], logger: quietLogger))
    return try await withThrowingTaskGroup(of: Void.self) { tasks in
        tasks.addTask { try await group.run() }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next() else { throw CancellationError() }
        do {
            let result = try await body(port)
            await group.triggerGracefulShutdown()
            try await tasks.waitForAll()
            return result
        } catch {
            await group.triggerGracefulShutdown()
            try? await tasks.waitForAll()
            throw error
        }
    }
}
