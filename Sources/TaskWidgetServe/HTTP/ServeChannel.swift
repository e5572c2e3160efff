import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import NIOHTTPTypesHTTP1

/// Hummingbird's HTTP/1 channel with ``ConnectionCloseHandler`` in front of its conversion to HTTP
/// types, which drops the request's HTTP version.
struct ServeHTTP1Channel: ServerChildChannel {
    let base: HTTP1Channel

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<HTTP1Channel.Value> {
        base.setup(channel: channel, logger: logger).flatMapThrowing { value in
            let pipeline = channel.pipeline.syncOperations
            let conversion = try pipeline.handler(type: HTTP1ToHTTPServerCodec.self)
            try pipeline.addHandler(ConnectionCloseHandler(), position: .before(conversion))
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
final class ConnectionCloseHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .head(var head) = unwrapInboundIn(data), !head.isKeepAlive else {
            context.fireChannelRead(data)
            return
        }
        head.headers.replaceOrAdd(name: "Connection", value: "close")
        context.fireChannelRead(wrapInboundOut(.head(head)))
    }
}

@available(*, unavailable)
extension ConnectionCloseHandler: Sendable {}
