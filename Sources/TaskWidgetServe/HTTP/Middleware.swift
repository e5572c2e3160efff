import HTTPTypes
import Synchronization
import NIOHTTP1
import TaskWidgetCore
public import Hummingbird
public import Logging

/// Turns every error a handler (or the router's 404) throws into a one-line JSON response.
///
/// Hummingbird's own `HTTPError` renders as `{"error":{"message":"…"}}` (and with an empty body when
/// it has no message, which is what its router's 404 has), so this middleware sits outside every
/// route to give all errors the one shape of ``ServeHTTPError``. Errors that are not HTTP errors
/// become 500 and are logged by type only: their descriptions might carry content.
public struct ErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    /// Creates the middleware.
    public init() {}

    public func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as ServeHTTPError {
            return error.makeResponse()
        } catch let error as HTTPError {
            // e.g. the router's 404, `collect(upTo:)`'s 413, decoding's 400
            let message = error.body ?? error.status.reasonPhrase.lowercased()
            return ServeHTTPError(error.status, message, headers: error.headers).makeResponse()
        } catch let error as any HTTPResponseError {
            return ServeHTTPError(error.status, error.status.reasonPhrase.lowercased()).makeResponse()
        } catch let error as TaskWidgetError {
            // Drawing or formatting failed: the log names the failure by its code and cause.
            context.logger.error("\(error.logDescription)")
            return ServeHTTPError(.internalServerError, error.message).makeResponse()
        } catch let error as HTTPParserError {
            // The request itself is broken (e.g. the connection ended inside its body): Hummingbird
            // answers 400 and closes when it gets this error back, as its own handler does.
            throw error
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            context.logger.error("request failed", metadata: ["error.type": "\(type(of: error))"])
            return ServeHTTPError(.internalServerError, "internal error").makeResponse()
        }
    }
}

/// The methods each of the router's paths answers, learnt from the router once its routes are
/// added (``MethodNotAllowedMiddleware`` must be added before them).
public final class RouteMethods: Sendable {
    private let routes = Mutex<[(pattern: String, segments: [Substring], allow: String)]>([])

    public init() {}

    /// Learns the routes: each one's path pattern (`/widget/{name}`) and method. A path with `GET`
    /// answers `HEAD` too (the router derives it: `.autoGenerateHeadEndpoints`).
    public func learn(_ routes: [(path: String, method: String)]) {
        let byPath = Dictionary(grouping: routes, by: \.path).mapValues { routes in
            let methods = Set(routes.map(\.method))
            return (methods.contains("GET") ? methods.union(["HEAD"]) : methods).sorted().joined(separator: ", ")
        }
        self.routes.withLock { table in table = byPath.map { path, allow in (path, path.split(separator: "/"), allow) } }
    }

    /// The pattern (`/widget/{name}`) and `Allow` value of the route that matches `path`, if any
    /// (`{…}` matches one segment).
    func route(for path: String) -> (pattern: String, allow: String)? {
        let segments = path.split(separator: "/")
        return routes.withLock { table in
            table.first { route in
                route.segments.count == segments.count
                    && zip(route.segments, segments).allSatisfy { pattern, segment in pattern.hasPrefix("{") || pattern == segment }
            }.map { ($0.pattern, $0.allow) }
        }
    }
}

/// Answers 405 with `Allow` for a path the router serves, asked with a method it does not answer
/// there (`POST /status`, `GET /api/log`): the router itself says 404, as for a path it does not
/// serve at all (RFC 9110 §15.5.6).
public struct MethodNotAllowedMiddleware<Context: RequestContext>: RouterMiddleware {
    let routes: RouteMethods

    /// - Parameter routes: filled once the router's routes are added.
    public init(routes: RouteMethods) {
        self.routes = routes
    }

    public func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as HTTPError where error.status == .notFound {
            // Only the router throws HTTPError's 404; the routes' own are ServeHTTPError.
            guard let (pattern, allow) = routes.route(for: request.uri.path) else {
                // `/widget/` alone: the 404 that names the widgets there are.
                if request.uri.path == "/widget" || request.uri.path == "/widget/" { throw ServeHTTPError.noSuchWidget }
                throw error
            }
            // The access log names the route asked, not the router's "NotFound".
            context.coreContext.endpointPath.value = pattern
            throw ServeHTTPError(.methodNotAllowed, "method not allowed: use \(allow)", headers: [.allow: allow])
        }
    }
}

/// The parameters ``StartOptionParameterMiddleware`` refuses, and the option of `serve` that
/// chooses the same.
private let startOptionParameters: [(name: String, option: String)] = [
    ("list", "--list NAME"), ("inbox", "--inbox"), ("view", "--view NAME"), ("tz", "--tz ZONE"), ("now", "--now TIME"),
]

/// Answers 400 to `?list=`, `?inbox`, `?view=`, `?tz=` and `?now=`: serve answers for the one
/// scope, zone and clock it was started with, so such a parameter would be ignored and the answer
/// taken for that list's, zone's or moment's (`?tz=UTC` was, helper-145).
public struct StartOptionParameterMiddleware<Context: RequestContext>: RouterMiddleware {
    public init() {}

    public func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        // The query is parsed only when it may name one of them: the routes parse it again.
        if let query = request.uri.query, query.contains("%") || startOptionParameters.contains(where: { query.contains($0.name) }),
            let (name, option) = startOptionParameters.first(where: { request.uri.decodedQueryParameters[$0.name[...]] != nil })
        {
            throw ServeHTTPError(
                .badRequest, "serve answers as it was started: \(name) is chosen at its start (taskwidget serve \(option)), not per request")
        }
        return try await next(request, context)
    }
}

/// One log line per request: method, route, status, duration. Never the query string (it may
/// carry `?token=`), never headers (`Authorization`, `Access-Token`), never a body.
///
/// Hummingbird's `LogRequestsMiddleware` logs `request.uri` whole, query included, so it must not
/// be used here.
public struct AccessLogMiddleware<Context: RequestContext>: RouterMiddleware {
    let level: Logger.Level

    /// Logs at `level` (`.debug` by default: per-request lines cost throughput under load).
    public init(level: Logger.Level = .debug) {
        self.level = level
    }

    public func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        guard context.logger.logLevel <= level else { return try await next(request, context) }
        let start = ContinuousClock.now
        let response = try await next(request, context)
        let elapsed = ContinuousClock.now - start
        // The matched route pattern ("/widget/{name}"), or "NotFound": bounded, and never what a
        // client typed outside our own routes.
        let route = context.endpointPath ?? "-"
        context.logger.log(
            level: level, "request",
            metadata: [
                "method": .string(request.method.rawValue),
                "route": .string(route),
                "status": .stringConvertible(response.status.code),
                "µs": .stringConvertible(Int(elapsed / .microseconds(1))),
            ])
        return response
    }
}

/// Requires a token on every route except the ones listed as open.
///
/// Accepted, in this order: `Authorization: Bearer TOKEN`, a TRMNL device's `Access-Token: KEY`,
/// and `?token=TOKEN` for clients that cannot set headers (an `<img>`, a Kindle, `EventSource`).
/// The server's token opens every route; a device's key only what the device asks for (its own
/// image, `/api/display`, `/api/log`), since `/api/setup` hands the key to whoever sends the
/// device's MAC address. Every presented value is compared with every secret in constant time
/// (``ConstantTime``). Without a server token (loopback without `--token`), everything is open to
/// requests that name this machine (an IP address or `localhost`): a web page whose own name an
/// attacker rebinds to 127.0.0.1 (DNS rebinding) sends that name, and gets 421 instead of the
/// tasks.
public struct AuthMiddleware<Context: RequestContext>: RouterMiddleware {
    /// What opens a route.
    public struct Secrets: Sendable {
        /// The server's token; `nil` leaves every route open.
        public var serverToken: [UInt8]?
        /// The registered devices' keys.
        public var deviceKeys: [DeviceKey]

        public init(serverToken: [UInt8]?, deviceKeys: [DeviceKey] = []) {
            self.serverToken = serverToken
            self.deviceKeys = deviceKeys
        }
    }

    /// A device's key, and the images it opens (the device's own, and the one of its setup).
    public struct DeviceKey: Sendable {
        public var key: [UInt8]
        /// The images' paths and queries, e.g. `/widget/800x480.png?theme=mono&depth=1`.
        public var imagePaths: [String]

        public init(key: [UInt8], imagePaths: [String]) {
            self.key = key
            self.imagePaths = imagePaths
        }
    }

    /// Read per request, so that `serve device add` takes effect without a restart.
    let secrets: @Sendable () -> Secrets
    let openPaths: Set<String>

    /// - Parameters:
    ///   - openPaths: paths answered without a token (`/healthz`; `/api/setup`, which a device calls
    ///     before it has a key; `/favicon.ico`, which every browser asks for with no token, and
    ///     which is not found: a 401 for each view of the page filled the log).
    ///   - secrets: the accepted tokens, as bytes.
    public init(openPaths: Set<String> = ["/healthz", "/api/setup", "/favicon.ico"], secrets: @escaping @Sendable () -> Secrets) {
        self.secrets = secrets
        self.openPaths = openPaths
    }

    public func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let secrets = secrets()
        guard let serverToken = secrets.serverToken else {
            guard request.head.authority.map(Self.namesThisMachine) ?? true else { throw ServeHTTPError.foreignHost }
            return try await next(request, context)
        }
        guard !openPaths.contains(request.uri.path) else { return try await next(request, context) }
        let accepted = [serverToken] + Self.deviceKeys(opening: request.uri.path, query: request.uri.query, among: secrets.deviceKeys)
        let presented = Self.presentedTokens(in: request)
        var matched: UInt8 = 0
        for candidate in presented {
            matched |= ConstantTime.equalsAny(accepted, candidate.utf8) ? 1 : 0
        }
        guard matched != 0 else {
            // A device's own routes want its key, which /api/setup gave it, not the server's token
            // (the advice sent a TRMNL device to `serve token`, helper-120). /api/display checks
            // the device's ID and key itself, and logs a registered device whose key was replaced.
            if request.uri.path == "/api/display", request.headers[.deviceID] != nil { return try await next(request, context) }
            if request.uri.path == "/api/log", request.headers[.deviceID] != nil { throw ServeHTTPError.deviceNotKnown }
            guard !presented.isEmpty else {
                // `?TOKEN=`, `?tokn=`, `?access_token=`: no token to the server (helpers 164, 174).
                let misnamed = request.uri.decodedQueryParameters.first { parameter in
                    let key = String(parameter.key)
                    return key != "token" && (NameLookup.closest(to: key, among: ["token"]) != nil || key.lowercased() == "access_token")
                }
                throw misnamed.map { ServeHTTPError.tokenMisnamed($0.key) } ?? ServeHTTPError.tokenMissing
            }
            // Which refusal: a device's key used elsewhere, found in constant time as well.
            let keys = secrets.deviceKeys.map(\.key)
            var isDeviceKey: UInt8 = 0
            for candidate in presented { isDeviceKey |= ConstantTime.equalsAny(keys, candidate.utf8) ? 1 : 0 }
            throw isDeviceKey != 0 ? ServeHTTPError.deviceKeyElsewhere : ServeHTTPError.wrongToken
        }
        return try await next(request, context)
    }

    /// Whether the `Host` of a request, `authority`, is an IP address (`127.0.0.1:8080`,
    /// `[::1]:8080`) or `localhost`, rather than a name that DNS could point at this machine.
    static func namesThisMachine(_ authority: String) -> Bool {
        if authority.hasPrefix("[") { return authority.contains("]") }
        let host = authority.split(separator: ":", maxSplits: 1).first.map(String.init) ?? ""
        // `localhost.` is the same name, fully qualified (it got 421, helper-117).
        if ["localhost", "localhost."].contains(host.lowercased()) { return true }
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts.allSatisfy { part in UInt8(part) != nil }
    }

    /// The keys of the devices that may ask for `path` with `query`: any device for
    /// `/api/display` and `/api/log`, and for an image the device whose image it is (its query
    /// as `image_url` has it, but for the `token` it carries).
    static func deviceKeys(opening path: String, query: String?, among keys: [DeviceKey]) -> [[UInt8]] {
        switch path {
        case "/api/display", "/api/log": return keys.map(\.key)
        case let path where path.hasPrefix("/widget/"):
            // The same image: its path and the widget's parameters, in any order; others (a
            // cache buster, `?v=2`) change nothing in it. Only the exact URL was let in (helper-124).
            let asked = Self.image(path: path, query: query ?? "")
            return keys.filter { $0.imagePaths.contains { Self.image(path: $0) == asked } }.map(\.key)
        default: return []
        }
    }

    /// What an image URL asks for: its path and its widget parameters, in order.
    static func image(path: String, query: String) -> [Substring] {
        let parameters = query.split(separator: "&").filter { parameter in
            WidgetImageSpec.parameters.contains(String(parameter.prefix { $0 != "=" }))
        }
        return [path[...]] + parameters.sorted()
    }

    /// ``image(path:query:)`` of `url`, a path and its query.
    static func image(path url: String) -> [Substring] {
        let parts = url.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        return image(path: String(parts[0]), query: parts.count > 1 ? String(parts[1]) : "")
    }

    /// Every token the request presents, in any of the three places.
    static func presentedTokens(in request: Request) -> [Substring] {
        var tokens: [Substring] = []
        if let authorization = request.headers[.authorization] {
            let parts = authorization.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
            // `Bearer  TOKEN`: RFC 7235 allows more than one space (helper-164).
            if parts.count == 2, parts[0].lowercased() == "bearer" {
                tokens.append(parts[1].drop { $0 == " " })
            }
        }
        if let deviceKey = request.headers[HTTPField.Name.accessToken] {
            tokens.append(deviceKey[...])
        }
        tokens.append(contentsOf: request.uri.decodedQueryParameters[values: "token"])
        return tokens
    }
}

extension HTTPField.Name {
    /// The TRMNL firmware's API key header.
    static let accessToken = HTTPField.Name("Access-Token")!
    /// The TRMNL firmware's device ID header (its MAC address).
    static let deviceID = HTTPField.Name("ID")!
    /// The TRMNL firmware's panel size headers.
    static let width = HTTPField.Name("Width")!
    static let height = HTTPField.Name("Height")!
    /// Sent by `EventSource` when it reconnects.
    static let lastEventID = HTTPField.Name("Last-Event-ID")!
}
