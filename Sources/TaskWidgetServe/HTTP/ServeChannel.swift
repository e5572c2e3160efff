import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import NIOHTTPTypesHTTP1

/// Hummingbird's HTTP/1 channel with ``ConnectionCloseHandler`` and ``HostRequirementHandler`` in
/// front of its conversion to HTTP types, which drops the request's HTTP version, and
/// ``InputClosedHandler`` first.
struct ServeHTTP1Channel: ServerChildChannel {
    let base: HTTP1Channel

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<HTTP1Channel.Value> {
        base.setup(channel: channel, logger: logger).flatMapThrowing { value in
            let pipeline = channel.pipeline.syncOperations
            let conversion = try pipeline.handler(type: HTTP1ToHTTPServerCodec.self)
            try pipeline.addHandlers([HostRequirementHandler(), ConnectionCloseHandler()], position: .before(conversion))
            try pipeline.addHandler(InputClosedHandler(), position: .first)
            return value
        }
    }

    func handle(value: HTTP1Channel.Value, logger: Logger) async {
        await base.handle(value: value, logger: logger)
    }
}

/// Writes `Connection: close` into every request head that does not keep its connection alive:
/// HTTP/1.0 without `keep-alive`, and HTTP/1.1 with a `close` token in any spelling. Hummingbird
/// closes a connection after its response only for the exact header `Connection: close`, so an
/// HTTP/1.0 client that waits for the close (its way to find a body's end) waited for the idle
/// timeout, and held a connection slot meanwhile.
///
/// So does a request that asks for another protocol (`Connection: Upgrade` with `Upgrade: h2c`,
/// as Java's HttpClient and `curl --http2` send, or `CONNECT`): NIO's decoder stops reading the
/// connection after it, for an upgrader serve does not have, so the client's next request on it
/// waited for the idle timeout (helper-103). It is answered in HTTP/1.1, and the connection closed.
///
/// An HTTP/1.0 client learns from the answer's `Connection: keep-alive` that its connection is
/// kept: without it, one that asked waited for the close, 30 s a request (`ab -k`). An answer
/// without a length (the event stream) goes to it as HTTP/1.0, whose body ends with the
/// connection: HTTP/1.1's chunks, which a 1.0 client does not read, came mixed into the events
/// (helper-124).
final class ConnectionCloseHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    /// For each request read and not answered yet, in order: its HTTP version and whether its
    /// connection closes after the answer.
    private var answers: [(isHTTP10: Bool, closes: Bool)] = []

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .head(var head) = unwrapInboundIn(data) else {
            context.fireChannelRead(data)
            return
        }
        let closes = !head.isKeepAlive || Self.asksForAnotherProtocol(head)
        answers.append((head.version == .http1_0, closes))
        guard closes else {
            context.fireChannelRead(data)
            return
        }
        head.headers.replaceOrAdd(name: "Connection", value: "close")
        context.fireChannelRead(wrapInboundOut(.head(head)))
    }

    /// The answer to a request whose connection closes says `Connection: close`: without it, a
    /// client sent its next request on the connection being closed and got 400 "malformed
    /// request" for it (helper-165: 46 in 300 tries).
    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard case .head(var head) = unwrapOutboundIn(data), head.status != .continue, !answers.isEmpty else {
            context.write(data, promise: promise)
            return
        }
        let (isHTTP10, closes) = answers.removeFirst()
        if isHTTP10 && !head.headers.contains(name: "content-length") {
            head.version = .http1_0
            head.headers.replaceOrAdd(name: "Connection", value: "close")
        } else if closes {
            head.headers.replaceOrAdd(name: "Connection", value: "close")
        } else if isHTTP10 {
            head.headers.replaceOrAdd(name: "Connection", value: "keep-alive")
        }
        context.write(wrapOutboundOut(.head(head)), promise: promise)
    }
}

extension ConnectionCloseHandler {
    /// Whether NIO's decoder takes `head` for an upgrade: `CONNECT`, or an `Upgrade` header with
    /// an `upgrade` token in `Connection`.
    static func asksForAnotherProtocol(_ head: HTTPRequestHead) -> Bool {
        head.method == .CONNECT
            || (!head.headers["upgrade"].isEmpty && head.headers[canonicalForm: "connection"].contains { $0.lowercased() == "upgrade" })
    }
}

@available(*, unavailable)
extension ConnectionCloseHandler: Sendable {}

/// Notes that the client closed its side of the connection. Hummingbird keeps a connection open
/// after that (half-closure), so that it is still seen as open: the client may still read (a
/// half-close), or have gone; its image is drawn after those of clients that still send
/// (``ServeRequestContext/clientIsSending``).
final class InputClosedHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer

    /// Read and written on the connection's event loop only.
    private(set) var isInputClosed = false

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case .some(ChannelEvent.inputClosed) = event as? ChannelEvent { isInputClosed = true }
        context.fireUserInboundEventTriggered(event)
    }
}

@available(*, unavailable)
extension InputClosedHandler: Sendable {}

/// Refuses an HTTP/1.1 request without a `Host` header, and any request with more than one, as
/// RFC 9112 §3.2 requires of a server (400): its error reaches ``RequestGuardHandler``, which
/// answers it with one line of JSON and closes the connection. HTTP/1.0 may leave it out.
final class HostRequirementHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart

    /// The error of a request without `Host` or with several; `problem` is what the answer says.
    struct BadHost: Error {
        let problem: String
    }

    private var isRefusing = false

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .head(let head) = unwrapInboundIn(data) {
            let count = head.headers[canonicalForm: "Host"].count
            let needsOne = (head.version.major, head.version.minor) >= (1, 1)
            let problem = count > 1 ? "request with more than one Host header" : count == 0 && needsOne ? "request without Host header" : nil
            isRefusing = problem != nil
            if let problem { context.fireErrorCaught(BadHost(problem: problem)) }
        }
        // The rest of a refused request goes nowhere: the connection closes after the answer.
        guard !isRefusing else { return }
        context.fireChannelRead(data)
    }
}

@available(*, unavailable)
extension HostRequirementHandler: Sendable {}
