public import Hummingbird

/// The per-request context of the dashboard server.
///
/// It lowers Hummingbird's decoding limit (`maxUploadSize`, 2 MiB by default) to what the only
/// route with a body, `POST /api/log`, needs. Note that `maxUploadSize` is consulted only by
/// `Request.decode`, `collectBody(upTo: context.maxUploadSize)` and the form decoders: it does *not*
/// bound what a client may send. ``RequestGuardHandler`` does that at the connection level.
public struct ServeRequestContext: RequestContext {
    /// Hummingbird's storage: logger, parameters, endpoint path.
    public var coreContext: CoreRequestContextStorage

    /// The largest body a handler reads (the TRMNL log).
    public var maxUploadSize: Int { 64 * 1024 }

    /// Creates the context Hummingbird makes for each request.
    public init(source: Source) {
        coreContext = .init(source: source)
    }
}
