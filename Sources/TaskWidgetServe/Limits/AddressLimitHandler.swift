import Glibc
public import Logging
public import NIOCore
public import NIOHTTPTypes
import Synchronization

/// The open connections of each client address, shared by every connection's
/// ``AddressLimitHandler``.
public final class ConnectionsPerAddress: Sendable {
    /// The most connections one address may have open.
    public let maximum: Int
    private let counts = Mutex<[String: Int]>([:])

    public init(maximum: Int) {
        self.maximum = maximum
    }

    /// Counts a new connection from `address`; `false` (and nothing counted) when it has `maximum` open.
    func open(from address: String) -> Bool {
        counts.withLock { counts in
            guard counts[address, default: 0] < maximum else { return false }
            counts[address, default: 0] += 1
            return true
        }
    }

    /// Counts a connection from `address` as closed.
    func close(from address: String) {
        counts.withLock { counts in
            counts[address] = counts[address].flatMap { $0 > 1 ? $0 - 1 : nil }
        }
    }
}

/// Closes a new connection at once when its client (``clientKey(_:)``) already has
/// ``ServeLimits/maximumConnectionsPerAddress`` open, so that one host (a slowloris, a stuck
/// poller) cannot take every connection the server accepts (``ServeLimits/maximumConnections``)
/// and leave the others waiting. Placed with ``RequestGuardHandler``.
public final class AddressLimitHandler: ChannelInboundHandler, RemovableChannelHandler {
    public typealias InboundIn = HTTPRequestPart

    private let connections: ConnectionsPerAddress
    private let logger: Logger
    /// The address this connection is counted under, once counted.
    private var countedAddress: String?

    public init(connections: ConnectionsPerAddress, logger: Logger) {
        self.connections = connections
        self.logger = logger
    }

    public func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { count(context: context) }
    }

    public func channelActive(context: ChannelHandlerContext) {
        count(context: context)
        if context.channel.isActive { context.fireChannelActive() }
    }

    public func channelInactive(context: ChannelHandlerContext) {
        release()
        context.fireChannelInactive()
    }

    public func handlerRemoved(context: ChannelHandlerContext) {
        release()
    }

    /// What a client is counted under: its IPv4 address, or its IPv6 address's /64 network, which
    /// one host has to itself (and picks addresses from at will); an IPv4 address that a
    /// dual-stack socket shows as IPv6 (`::ffff:192.0.2.1`) is that IPv4 address.
    static func clientKey(_ address: SocketAddress) -> String? {
        guard case .v6 = address, let text = address.ipAddress else { return address.ipAddress }
        var bytes = [UInt8](repeating: 0, count: 16)
        guard inet_pton(AF_INET6, text, &bytes) == 1 else { return text }
        if bytes[..<10].allSatisfy({ $0 == 0 }) && bytes[10] == 0xFF && bytes[11] == 0xFF {
            return bytes[12...].map(String.init).joined(separator: ".")
        }
        return bytes[..<8].map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined() + "/64"
    }

    private func count(context: ChannelHandlerContext) {
        guard countedAddress == nil, let address = context.channel.remoteAddress.flatMap(Self.clientKey) else { return }
        if connections.open(from: address) {
            countedAddress = address
        } else {
            logger.info("closed a connection: its address has \(connections.maximum) open already")
            context.close(promise: nil)
        }
    }

    private func release() {
        if let address = countedAddress { connections.close(from: address) }
        countedAddress = nil
    }
}
