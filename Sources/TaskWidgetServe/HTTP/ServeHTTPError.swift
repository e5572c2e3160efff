public import HTTPTypes
public import Hummingbird
public import TaskWidgetCore

/// An error a client sees: a status and a one-line JSON body `{"error":"…"}`.
///
/// Messages never carry a token; a 503's may name the store's path or a list (see
/// ``unavailable(_:)``), so only the status is logged. Everything that reaches the client as an error goes through ``ErrorMiddleware``, which
/// turns other errors into this shape too.
public struct ServeHTTPError: HTTPResponseError, Sendable, Equatable {
    /// The HTTP status (4xx for the client's mistakes, 5xx for ours).
    public var status: HTTPResponse.Status
    /// A short lower-case sentence without a final period.
    public var message: String
    /// Extra response headers, e.g. `WWW-Authenticate` on 401.
    public var headers: HTTPFields

    /// Creates an error with `status` and `message`.
    public init(_ status: HTTPResponse.Status, _ message: String, headers: HTTPFields = [:]) {
        self.status = status
        self.message = message
        self.headers = headers
    }

    /// `{"error":"…"}` followed by a newline, with `message` escaped as a JSON string.
    public var jsonLine: String { JSONValue.object([("error", .string(message))]).compactText + "\n" }

    /// The error as a complete response.
    public func response(from request: Request, context: some RequestContext) throws -> Response {
        makeResponse()
    }

    /// The error as a complete response (also used outside the router, e.g. by NIO handlers).
    public func makeResponse() -> Response {
        var headers = headers
        headers[.contentType] = "application/json; charset=utf-8"
        headers[.cacheControl] = "no-store"
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: jsonLine)))
    }
}

extension ServeHTTPError {
    /// 400 for a parameter that has no meaning: `name` says which, never its value.
    public static func badParameter(_ name: String, expected: String) -> Self {
        .init(.badRequest, "bad parameter \(name): expected \(expected)")
    }
    /// Refuses a query key that is none of `known` but reads as one of them misspelt (`?them=dark`)
    /// with a 400 that names it; other unknown keys (a poller's cache buster, `?v=`) pass.
    static func refuseMisspelt(_ key: Substring, known: [String]) throws(ServeHTTPError) {
        guard !known.contains(String(key)) else { return }
        let otherName = otherNames[key.lowercased()].flatMap { known.contains($0) ? $0 : nil }
        guard let meant = otherName ?? NameLookup.closest(to: String(key), among: known) else { return }
        throw .init(.badRequest, "unknown parameter \(String(key).sanitizedForMessage): did you mean \(meant)?")
    }

    /// 400 for a part of a widget's path given as a parameter (`?size=800x480`), with the path
    /// that asks for it.
    static func inThePath(_ key: Substring, example: String) -> Self {
        .init(.badRequest, "\(String(key).sanitizedForMessage) goes in the path: \(example)")
    }

    /// What other servers and e-ink tools call the widget's parameters: `?rotation=90` passed
    /// unread, as a cache buster does, and the image came unrotated (helper-124).
    static let otherNames = ["rotation": "rotate", "orientation": "rotate", "bpp": "depth", "bits": "depth", "bitdepth": "depth"]
    /// Refuses a parameter of `known` given more than once (`?theme=dark&theme=light`): `/widget`
    /// read the last one and `/status` the first.
    static func refuseRepeated(_ query: some Sequence<(key: Substring, value: Substring)>, known: [String]) throws(ServeHTTPError) {
        var seen: Set<Substring> = []
        for (key, _) in query where known.contains(String(key)) && !seen.insert(key).inserted {
            throw .init(.badRequest, "parameter \(key) is given more than once: give it once")
        }
    }
    /// 400 for a widget canvas (`/widget/WxH.png`) with a side out of range.
    public static let badSize = Self(
        .badRequest,
        "bad size: expected WIDTHxHEIGHT in points, each side from \(WidgetSize.allowedPoints.lowerBound) to \(WidgetSize.allowedPoints.upperBound)")
    /// 404 for an unknown path.
    public static let notFound = Self(.notFound, "not found")

    /// 429 for a client that asked to set up too many unregistered devices (``DeviceRegistry/setupWait(for:at:)``).
    public static func tooManySetups(retryAfter seconds: Int) -> Self {
        Self(.tooManyRequests, "too many setups of devices that are not registered: wait a minute", headers: [.retryAfter: String(seconds)])
    }

    /// 404 for a `/widget/` name that is no widget, with the names there are.
    public static let noSuchWidget = Self(
        .notFound, "not found: widgets are /widget/small, medium, large or WIDTHxHEIGHT, with .png or .bmp, e.g. /widget/large.png")
    /// 503 while the store cannot be read; the message says why and what to do (it is for the
    /// dashboard's own user, never logged).
    public static func unavailable(_ failure: TaskWidgetError?) -> Self {
        .init(.serviceUnavailable, failure?.message ?? "the store cannot be read")
    }
    /// 421 for a request to another name than this machine's, on a server without a token.
    public static let foreignHost = Self(
        .misdirectedRequest,
        "without a token, serve answers only requests to this machine (127.0.0.1, [::1] or localhost): open it by that address, or give serve a token")
    /// 401 for a request without a token, with the challenge a client needs and where to put
    /// the token (it said only "missing or wrong token", helper-112).
    public static let tokenMissing = unauthorized(
        "this server needs its token: send Authorization: Bearer TOKEN, or add ?token=TOKEN to the URL (`taskwidget serve token` prints it)")
    /// 401 for a token given under another name (`?TOKEN=`, `?tokn=`), which passed as no token.
    public static func tokenMisnamed(_ name: Substring) -> Self {
        unauthorized("?\(String(name).sanitizedForMessage)= is not read: the parameter is ?token=" + (name.lowercased() == "token" ? ", in lower case" : ""))
    }
    /// 401 for a token that is none of the accepted ones.
    public static let wrongToken = unauthorized(
        "wrong token: `taskwidget serve token` prints the one this server takes (restart a serve that ran before it was made)")
    /// 401 for a device's key on a route it does not open (its image with other parameters).
    public static let deviceKeyElsewhere = unauthorized(
        "a TRMNL device's key opens /api/display, /api/log and the image of its image_url (the same size and parameters): use the server's token for the rest")

    /// 401 from `/api/display` for an `ID` that is no registered device, or a key that is not its.
    public static let deviceNotKnown = unauthorized(
        "the ID header must name a registered device (`taskwidget serve device ls`), and Access-Token be the key /api/setup gave it")

    private static func unauthorized(_ message: String) -> Self {
        Self(.unauthorized, message, headers: [.wwwAuthenticate: "Bearer realm=\"taskwidget\""])
    }
}
