/// The bounds SPEC §11 asks for ("request size, header count, connection count and idle time are
/// bounded"), with where each one is enforced.
public struct ServeLimits: Sendable {
    /// Open connections, `/events` streams included. Enforced by Hummingbird's
    /// `MaximumAvailableConnections`: past it the server stops *accepting*, so new clients wait in
    /// the kernel's backlog (and are refused once it is full) instead of getting an answer.
    public var maximumConnections = 256
    /// Open connections from one client (an IPv4 address, an IPv6 /64: ``AddressLimitHandler``):
    /// past it, a new one is closed at once. One host cannot hold them all, and a proxy on the same
    /// host with every event stream open (``maximumEventStreams``) still has room for requests.
    public var maximumConnectionsPerAddress = 128
    /// Listen backlog (`ApplicationConfiguration.backlog`).
    public var backlog = 128
    /// Concurrent `/events` streams; more get 503 (``EventBroadcaster``).
    public var maximumEventStreams = 64
    /// Largest request head field (line), by NIO's HTTP decoder: past it, 400 and close.
    public var maximumHeaderFieldSize = 8 * 1024
    /// Largest request head as a whole (request line included), by NIO's HTTP decoder.
    public var maximumHeaderListSize = 16 * 1024
    /// Most header fields, by NIO's HTTP decoder.
    public var maximumHeaderCount = 64
    /// Largest request body, by ``RequestGuardHandler``: past it, 413 and close.
    public var maximumBodySize = 64 * 1024
    /// Hummingbird's `idleTimeout`: a connection with no complete request part for this long is
    /// closed, unless a response is being written. It covers keep-alive idling *and* a head
    /// trickled byte by byte (slowloris), because a part only counts once it is complete.
    public var idleTimeout: Duration = .seconds(30)
    /// The time from a request's head to the end of its body, by ``RequestGuardHandler``: a body
    /// trickled slowly resets Hummingbird's idle timer with every chunk, this one it does not.
    public var bodyTimeout: Duration = .seconds(10)
    /// How long a response may wait on a client that reads nothing (the socket stays unwritable),
    /// by ``RequestGuardHandler``; `/events` streams are bounded by this too.
    public var writeStallTimeout: Duration = .seconds(30)
    /// Comment lines on idle `/events` streams, for proxies that close silent connections.
    public var eventHeartbeat: Duration = .seconds(15)

    public init() {}

    /// The limits for a server that can hold at most `connections` open (a low `ulimit -n`), when
    /// that is fewer than ``maximumConnections``: event streams keep to half of them, so that
    /// requests still get in (with 24 connections and 64 streams, the streams took every one and
    /// the next clients waited unanswered, helper-145).
    public mutating func fit(toConnections connections: Int) {
        guard connections < maximumConnections else { return }
        maximumConnections = connections
        maximumConnectionsPerAddress = min(maximumConnectionsPerAddress, connections)
        maximumEventStreams = min(maximumEventStreams, max(1, connections / 2))
    }
}
