public import Hummingbird
import Glibc
import HummingbirdCore
public import Logging
public import NIOCore
public import NIOPosix
public import ServiceLifecycle
import TaskWidgetCore

/// `--listen HOST:PORT`, validated.
public struct ListenAddress: Sendable, Equatable, CustomStringConvertible {
    public var host: String
    /// 0 asks the kernel for a free port (tests); the bound one is reported by `onServerRunning`.
    public var port: Int

    /// The documented default: loopback only.
    public static let defaultPort = 8787

    public init(host: String = "127.0.0.1", port: Int = ListenAddress.defaultPort) {
        self.host = host
        self.port = port
    }

    /// Parses `HOST:PORT`, `[V6]:PORT`, `:PORT` (loopback), `HOST` or a bare IPv6 address
    /// (default port) that cannot be read as ADDRESS:PORT.
    public init?(_ text: String) {
        var host: Substring
        var portText: Substring?
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { return nil }
            host = text[text.index(after: text.startIndex)..<close]
            let rest = text[text.index(after: close)...]
            if !rest.isEmpty {
                guard rest.hasPrefix(":") else { return nil }
                portText = rest.dropFirst()
            }
        } else if text.filter({ $0 == ":" }).count == 1, let colon = text.firstIndex(of: ":") {
            host = text[..<colon]
            portText = text[text.index(after: colon)...]
        } else {
            // `::1:8787` is an address, but the user almost surely meant port 8787 on `::1`: an
            // address that reads as ADDRESS:PORT too must be written in brackets.
            if let colon = text.lastIndex(of: ":"), Self.isAddress(String(text[..<colon])),
                UInt16(text[text.index(after: colon)...]) != nil
            {
                return nil
            }
            host = text[...]
        }
        var port = ListenAddress.defaultPort
        if let portText {
            guard let parsed = Int(portText), (0...65_535).contains(parsed) else { return nil }
            port = parsed
        }
        // Brackets hold an IPv6 address only; an empty text is none (`--listen "$HOST"` unset).
        guard !text.isEmpty else { return nil }
        let isAddress = Self.isAddress(String(host)) && (host.contains(":") || !text.hasPrefix("["))
        guard host.isEmpty || isAddress || (Self.isHostName(host) && !text.hasPrefix("[")) else { return nil }
        self.init(host: host.isEmpty ? "127.0.0.1" : String(host), port: port)
    }

    /// Whether only this machine can connect: then serving without a token is allowed. A name is
    /// only `localhost`: `127.example.com` may name any address.
    public var isLoopback: Bool {
        host == "localhost" || host == "::1" || (host.hasPrefix("127.") && Self.isAddress(host))
    }

    /// An IPv4 or IPv6 address written out.
    static func isAddress(_ text: String) -> Bool {
        // 16 bytes, room for either family: `in6_addr()` is declared by both Glibc and NIO's
        // CNIOLinux, and a fresh build took NIO's, which this file does not import.
        var address = [UInt8](repeating: 0, count: 16)
        return inet_pton(text.contains(":") ? AF_INET6 : AF_INET, text, &address) == 1
    }

    /// A host name: letters, digits, hyphens and dots, not all digits (`999.1.1.1` is a mistyped
    /// address, `http://…` a URL).
    static func isHostName(_ text: Substring) -> Bool {
        text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == ".") }
            && text.contains { $0.isLetter }
    }

    public var description: String { urlAuthority(host: host, port: port) }

    /// The error for a host name that names no address.
    func unknownHostError(cause: any Error) -> TaskWidgetError {
        TaskWidgetError(
            .invalidInput, "cannot listen on \(self): no address has the name \(host): give an address such as 127.0.0.1 or 0.0.0.0",
            context: "\(self)", cause: cause)
    }
}

/// Builds the Hummingbird application for `serve`, with every limit of ``ServeLimits`` applied.
///
/// - Parameters:
///   - services: run beside the server in its service group (the watcher, the refresher); they
///     are shut down *after* the server, which first drains its connections.
///   - onServerRunning: called once the socket is bound, with the bound port (the only way to learn
///     it when `port` is 0).
/// - Throws: an ``TaskWidgetError/Code/invalidInput`` error when listening beyond loopback without a
///   token (SPEC §11).
public func makeServeApplication(
    _ dependencies: ServeDependencies,
    listen: ListenAddress,
    services: [any Service] = [],
    eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
    logger: Logger,
    onServerRunning: @escaping @Sendable (_ port: Int) async -> Void = { _ in }
) throws -> Application<RouterResponder<ServeRequestContext>> {
    // A name that no address has is said before a token is asked for it.
    if !listen.isLoopback && !ListenAddress.isAddress(listen.host) {
        do {
            _ = try SocketAddress.makeAddressResolvingHost(listen.host, port: listen.port)
        } catch {
            throw listen.unknownHostError(cause: error)
        }
    }
    guard listen.isLoopback || !(dependencies.token ?? "").isEmpty else {
        throw TaskWidgetError(
            .invalidInput, "listening on \(listen.host) needs a token: make one with `taskwidget serve token`, or listen on 127.0.0.1")
    }
    let limits = dependencies.limits
    var configuration = ApplicationConfiguration(
        address: .hostname(listen.host, port: listen.port),
        serverName: nil,  // no Server header: nothing to fingerprint
        backlog: limits.backlog,
        reuseAddress: true,
        // NOTE: ApplicationConfiguration.with(...) drops this delegate; set it here, not later.
        availableConnectionsDelegate: MaximumAvailableConnections(limits.maximumConnections, logger: logger)
    )
    configuration.backlog = limits.backlog
    let perAddress = ConnectionsPerAddress(maximum: limits.maximumConnectionsPerAddress)
    let http1 = HTTP1Channel.Configuration(
        // An autoclosure: new handlers for each connection.
        additionalChannelHandlers: [
            AddressLimitHandler(connections: perAddress, logger: logger), RequestGuardHandler(limits: limits, logger: logger),
        ],
        idleTimeout: TimeAmount(limits.idleTimeout),
        httpDecoderConfiguration: .init(
            maxHeaderFieldSize: limits.maximumHeaderFieldSize,
            maxHeaderListSize: limits.maximumHeaderListSize,
            maxHeaderFieldCount: limits.maximumHeaderCount))
    return Application(
        router: buildServeRouter(dependencies),
        server: HTTPServerBuilder { responder in ServeHTTP1Channel(base: HTTP1Channel(responder: responder, configuration: http1)) },
        configuration: configuration,
        services: services,
        onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? listen.port) },
        eventLoopGroupProvider: .shared(eventLoopGroup),
        logger: logger)
}
