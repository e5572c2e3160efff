public import Foundation
public import Logging
import NIOCore
import NIOPosix
import ServiceLifecycle
public import TaskWidgetCore
import TaskWidgetFormats
import TaskWidgetRender
import TaskWidgetStore
import TaskWidgetWatch
import UnixSignals

/// `taskwidget serve` as a whole: the cache and its follower, the routes, and a service group that
/// drains on SIGTERM, SIGINT or SIGHUP and returns.
public struct DashboardServer {
    public var listen: ListenAddress
    /// What clients must present; `nil` leaves a loopback server open.
    public var token: String?
    public var following: DashboardFollowing.Settings
    /// The registered TRMNL devices' file (``DeviceFile``).
    public var devicesPath: String?
    public var limits = ServeLimits()
    /// For the status formats' templates (a user's own in the config folder).
    public var environment: [String: String]

    public init(
        listen: ListenAddress, token: String?, following: DashboardFollowing.Settings, devicesPath: String?,
        environment: [String: String]
    ) {
        self.listen = listen
        self.token = token
        self.following = following
        self.devicesPath = devicesPath
        self.environment = environment
    }

    /// Serves until SIGTERM, SIGINT or SIGHUP, then drains open requests and returns. `onListening` gets
    /// the bound address (with the real port when ``listen`` asked for port 0).
    public func run(logger: Logger, onListening: @escaping @Sendable (ListenAddress) -> Void) async throws {
        var renderers: [StatusFormat: StatusRenderer] = [:]
        for format in StatusFormat.allCases {
            renderers[format] = try StatusRenderer(format: format, template: .resolve(format: format, path: nil, environment: environment))
        }
        let clock = following.clock
        let cache = DashboardCache(draw: Self.draw, renderers: renderers, now: { clock.now().wallInstant })
        let broadcaster = EventBroadcaster(maximumSubscribers: limits.maximumEventStreams)
        let dependencies = ServeDependencies(
            cache: cache, broadcaster: broadcaster, devices: try DeviceRegistry(path: devicesPath, logger: logger), token: token, limits: limits)
        let follower = DashboardFollowing(settings: following, cache: cache, broadcaster: broadcaster, logger: logger)
        let listen = listen
        let application = try makeServeApplication(
            dependencies, listen: listen, services: [follower], logger: logger,
            onServerRunning: { port in
                // Said once the store was read and the common images drawn: a client that learns
                // the address from it never meets the moment before, nor the first drawing's set-up.
                await cache.waitForFirstPublication()
                await cache.warmUp()
                onListening(ListenAddress(host: listen.host, port: port))
            })
        var configuration = ServiceGroupConfiguration(services: [application], gracefulShutdownSignals: [.sigterm, .sigint, .sighup], logger: logger)
        // A drain that hangs (a client that never reads) is cut after this.
        configuration.maximumGracefulShutdownDuration = .seconds(10)
        do {
            try await ServiceGroup(configuration: configuration).run()
        } catch let error as TaskWidgetError {
            throw error
        } catch let error as SocketAddressError.UnknownHost {
            throw listen.unknownHostError(cause: error)
        } catch let error as IOError where error.errnoCode == EADDRINUSE {
            throw TaskWidgetError(
                .unavailable, "cannot listen on \(listen): the address is in use: stop the other server or pick another --listen",
                context: "\(listen)", cause: error)
        } catch let error as IOError where error.errnoCode == EADDRNOTAVAIL {
            throw TaskWidgetError(
                .unavailable, "cannot listen on \(listen): this machine has no such address: give one of its own (ip -brief address lists them), or 0.0.0.0 for all",
                context: "\(listen)", cause: error)
        } catch let error as IOError where error.errnoCode == EACCES && listen.port < 1024 {
            throw TaskWidgetError(
                .unavailable, "cannot listen on \(listen): ports below 1024 are the system's: pick one from 1024 up, such as 8787",
                context: "\(listen)", cause: error)
        } catch {
            throw TaskWidgetError(.unavailable, "cannot serve on \(listen): \(Self.reason(error))", context: "\(listen)", cause: error)
        }
    }

    /// The images: the widget of the entry, or of the failure.
    @Sendable public static func draw(_ spec: WidgetImageSpec, _ picture: DashboardCache.Picture) throws -> Data {
        let renderer = WidgetRenderer(spec: spec)
        switch picture {
        case .entry(let entry): return try renderer.image(for: entry)
        case .unavailable(let message): return try renderer.unavailableImage(message: message)
        }
    }

    /// A system error's reason, without the library's decoration.
    private static func reason(_ error: any Error) -> String {
        if let error = error as? IOError { return String(cString: strerror(error.errnoCode)) }
        return "\(error)".removingControlCharacters
    }
}
