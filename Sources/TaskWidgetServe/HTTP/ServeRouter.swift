public import Hummingbird
import HTTPTypes
import ServiceLifecycle
import TaskWidgetCore
import TaskWidgetFormats

/// Everything the routes read, shared by the whole server.
public struct ServeDependencies: Sendable {
    public var cache: DashboardCache
    public var broadcaster: EventBroadcaster
    public var devices: DeviceRegistry
    /// The `--token`; nil when serving loopback without one (then nothing asks for a token).
    public var token: String?
    public var limits: ServeLimits

    public init(
        cache: DashboardCache, broadcaster: EventBroadcaster, devices: DeviceRegistry = DeviceRegistry([]),
        token: String? = nil, limits: ServeLimits = ServeLimits()
    ) {
        self.cache = cache
        self.broadcaster = broadcaster
        self.devices = devices
        self.token = token
        self.limits = limits
    }
}

/// Builds the whole HTTP surface of `taskwidget serve` (SPEC §11).
///
/// Middleware order, outermost first: access log (sees the final status), errors → JSON (so that
/// 401 and the router's own 404 are JSON too), auth, 405 for a known path asked with another
/// method, 400 for a scope asked per request. Middleware must be added before the routes: Hummingbird applies it only to routes added
/// after it (the 404 responder gets all of it).
/// `HEAD` is derived from every `GET` by `.autoGenerateHeadEndpoints` (same headers, no body);
/// `/events` has its own `HEAD` so that a `HEAD` does not subscribe.
public func buildServeRouter(_ dependencies: ServeDependencies) -> Router<ServeRequestContext> {
    let router = Router(context: ServeRequestContext.self, options: .autoGenerateHeadEndpoints)
    let cache = dependencies.cache
    let broadcaster = dependencies.broadcaster
    let devices = dependencies.devices
    let limits = dependencies.limits
    let serverToken = dependencies.token.map { Array($0.utf8) }

    router.add(middleware: AccessLogMiddleware())
    router.add(middleware: ErrorMiddleware())
    router.add(
        middleware: AuthMiddleware {
            // Loopback without --token: open. Otherwise the token, and every device's key.
            .init(serverToken: serverToken, deviceKeys: serverToken == nil ? [] : devices.keys)
        })
    let routeMethods = RouteMethods()
    router.add(middleware: MethodNotAllowedMiddleware(routes: routeMethods))
    router.add(middleware: StartOptionParameterMiddleware())

    router.get("/") { request, _ -> Response in
        let published = cache.current
        let page = DashboardPage.html(
            published: published, refreshSeconds: cache.maxAge(until: published.state?.lineValidUntil),
            token: request.uri.decodedQueryParameters["token"].map(String.init))
        return Response(
            status: .ok,
            headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-cache"],
            body: .init(byteBuffer: ByteBuffer(string: page)))
    }

    router.get("/events") { request, _ -> Response in
        try eventStream(request: request, cache: cache, broadcaster: broadcaster, heartbeat: limits.eventHeartbeat)
    }
    router.head("/events") { _, _ -> Response in
        Response(status: .ok, headers: eventStreamHeaders)
    }

    router.get("/widget/{name}") { request, context -> Response in
        let name = context.parameters.get("name") ?? ""
        let spec = try WidgetImageSpec(name: name[...], query: request.uri.decodedQueryParameters)
        let (image, isAvailable) = try await cache.widget(spec, isSending: context.clientIsSending)
        guard isAvailable else {
            // A TRMNL device shows an image only when it comes with 200 (else its own "API error"
            // screen): it gets the image of the failure with 200, every other client with 503.
            let isDevice = devices.isDevice(sending: request.headers, tokens: request.uri.decodedQueryParameters[values: "token"])
            return image.unavailableResponse(status: isDevice ? .ok : .serviceUnavailable)
        }
        return image.response(to: request, maxAge: cache.maxAge(until: cache.current.state?.imageValidUntil))
    }

    router.get("/status") { request, _ -> Response in
        // As for the widget's keys: `?formt=json` gave the text line without a word.
        for (key, _) in request.uri.decodedQueryParameters { try ServeHTTPError.refuseMisspelt(key, known: ["format"]) }
        try ServeHTTPError.refuseRepeated(request.uri.decodedQueryParameters, known: ["format"])
        // In any case, as the widgets' names (`?format=TEXT` was a 400, helper-174).
        let name = request.uri.decodedQueryParameters["format"].map { $0.lowercased() } ?? "text"
        guard let format = StatusFormat(rawValue: name) else {
            throw ServeHTTPError.badParameter("format", expected: StatusFormat.allCases.map(\.rawValue).joined(separator: ", "))
        }
        // The JSON line carries the entry's own times (`date`, `nextChange`): it changes with
        // every entry, where the other lines change with what they show.
        let state = cache.current.state
        let validUntil = format == .json ? state?.entryValidUntil : state?.lineValidUntil
        return try cache.line(format).response(to: request, maxAge: cache.maxAge(until: validUntil))
    }

    router.get("/timeline.json") { request, _ -> Response in
        try cache.timelineDocument().response(to: request, maxAge: cache.maxAge(until: cache.current.state?.timeline.reloadAfter))
    }

    // For a monitor: 503 while the other routes are 503 (the store, or the list serve shows,
    // cannot be read), without the reason, which may name a path or a list and needs the token.
    // A 503 is one line of JSON, as every route's (it was text: helper-83).
    router.get("/healthz") { _, _ -> Response in
        guard cache.current.state != nil else {
            return ServeHTTPError(
                .serviceUnavailable, "the tasks cannot be shown (the store, or the list or view serve shows, cannot be read): /status says why"
            ).makeResponse()
        }
        return Response(
            status: .ok, headers: [.contentType: "text/plain; charset=utf-8", .cacheControl: "no-store"], body: .init(byteBuffer: ByteBuffer(string: "ok\n")))
    }

    addTRMNLRoutes(to: router, cache: cache, devices: devices)
    routeMethods.learn(router.routes.map { ("\($0.path)", $0.method.rawValue) })
    return router
}

/// `text/event-stream`, never cached, never buffered by nginx.
let eventStreamHeaders: HTTPFields = [
    .contentType: "text/event-stream",
    .cacheControl: "no-cache",
    HTTPField.Name("X-Accel-Buffering")!: "no",
]

/// `GET /events`: the current state at once (unless `Last-Event-ID` says the client has it), then
/// one `change` event per change, and a comment line every `heartbeat`.
///
/// The stream ends when the client goes away (`consumeWithCancellationOnInboundClose`: Hummingbird
/// sees the inbound side close and cancels the writer), on graceful shutdown (the server waits for
/// open responses before it exits, so an endless stream must end itself), or when the broadcaster
/// finishes.
func eventStream(
    request: Request, cache: DashboardCache, broadcaster: EventBroadcaster, heartbeat: Duration
) throws -> Response {
    // A stream's request has no body. With one, the connection closed for the body (its
    // timeout, its size) ended under the stream, whose slot then stayed taken for good, and
    // SIGTERM waited for it for ever (helper-145).
    guard !request.headers.declaresBody else {
        throw ServeHTTPError(.badRequest, "an event stream request has no body", headers: [.connection: "close"])
    }
    let subscription: Subscription
    do {
        subscription = try broadcaster.subscribe()
    } catch {
        // When to try again, as /api/setup's 429 says it; the connection ends, as a stream's would
        // have: kept, each refused client held one of few connections (helper-149).
        throw ServeHTTPError(.serviceUnavailable, "too many event streams", headers: [.retryAfter: "30", .connection: "close"])
    }
    // Subscribe before reading the current state: a change in between is sent twice, never lost.
    let current = cache.current.event
    let lastEventID = request.headers[.lastEventID].flatMap { UInt64($0) }
    return Response(
        status: .ok, headers: eventStreamHeaders,
        body: ResponseBody { writer in
            try await request.body.consumeWithCancellationOnInboundClose { _ in
                try await withGracefulShutdownHandler {
                    try await withThrowingTaskGroup(of: Void.self) { heartbeats in
                        heartbeats.addTask { await subscription.sendHeartbeats(every: heartbeat) }
                        defer { heartbeats.cancelAll() }
                        var opening = ServerSentEvents.retry(milliseconds: 2000)
                        if lastEventID != current.version {
                            opening += ServerSentEvents.event(id: current.version, name: "change", data: current.json)
                        }
                        try await writer.write(ByteBuffer(string: opening))
                        for await item in subscription.stream {
                            switch item {
                            case .change(let event) where event.version > current.version:
                                try await writer.write(
                                    ByteBuffer(string: ServerSentEvents.event(id: event.version, name: "change", data: event.json)))
                            case .change:
                                continue  // already sent as the opening state
                            case .heartbeat:
                                subscription.heartbeatTaken()
                                try await writer.write(ByteBuffer(string: ServerSentEvents.heartbeat))
                            }
                        }
                    }
                } onGracefulShutdown: {
                    subscription.finish()
                }
            }
            try await writer.finish(nil)
        })
}
