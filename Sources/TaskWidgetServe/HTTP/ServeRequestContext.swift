public import Hummingbird
import NIOCore
import TaskWidgetCore

/// The per-request context of the dashboard server.
///
/// It lowers Hummingbird's decoding limit (`maxUploadSize`, 2 MiB by default) to what the only
/// route with a body, `POST /api/log`, needs. Note that `maxUploadSize` is consulted only by
/// `Request.decode`, `collectBody(upTo: context.maxUploadSize)` and the form decoders: it does *not*
/// bound what a client may send. ``RequestGuardHandler`` does that at the connection level.
public struct ServeRequestContext: RequestContext {
    /// Hummingbird's storage: logger, parameters, endpoint path.
    public var coreContext: CoreRequestContextStorage

    /// The connection the request came on, read for ``localAuthority``, ``clientAddress`` and
    /// ``clientIsSending``.
    private let channel: any Channel

    /// The largest body a handler reads (the TRMNL log).
    public var maxUploadSize: Int { 64 * 1024 }

    /// Creates the context Hummingbird makes for each request.
    public init(source: Source) {
        coreContext = .init(source: source)
        channel = source.channel
    }

    /// Whether the client still sends, asked off the event loop while a request's image waits to
    /// be drawn: its connection is open and its side not closed (``InputClosedHandler``). A
    /// connection that was not open when the request came is a test's: always sending.
    var clientIsSending: @Sendable () -> Bool {
        let channel = channel
        guard channel.isActive else { return { true } }
        return {
            let closed = try? channel.eventLoop.submit {
                guard channel.isActive else { return true }
                return try channel.pipeline.syncOperations.handler(type: InputClosedHandler.self).isInputClosed
            }.wait()
            return closed != true
        }
    }

    /// The client's IP address, for the log line that asks the user to register a device.
    var clientAddress: String? { channel.remoteAddress?.ipAddress }

    /// This server's address as the client reached it, `HOST:PORT` (`[::1]:8787`), for a URL back
    /// to it when the request names no `Host` (HTTP/1.0); `nil` when the connection has none.
    var localAuthority: String? {
        guard let address = channel.localAddress, let ip = address.ipAddress, let port = address.port else { return nil }
        return urlAuthority(host: ip, port: port)
    }
}
