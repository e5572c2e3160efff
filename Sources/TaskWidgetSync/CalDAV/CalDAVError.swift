public import Foundation
import TaskWidgetCore

/// A failure of a CalDAV exchange, with a closed code, a message for the user and a log-safe
/// description.
///
/// Messages and descriptions name the method, the server's origin and path and the HTTP status;
/// they never carry a password, an `Authorization` header, a query string or a calendar object's
/// text (titles are private). The underlying cause is kept for `--verbose` diagnostics.
///
/// The command line maps every such error to one line and an exit status: 75 (`EX_TEMPFAIL`, try
/// again later) when ``Code/isTransient``, else 69 (`EX_UNAVAILABLE`).
///
/// ```swift
/// do { try await client.update(object) }
/// catch let error as CalDAVError where error.code == .preconditionFailed {
///     // someone else changed it: re-read, merge, retry
/// }
/// ```
public struct CalDAVError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, as a closed set the caller can switch over.
    public enum Code: String, Sendable, Hashable, CaseIterable {
        /// The TCP connection could not be made (refused, unreachable, or the name could not be
        /// looked up for now).
        case connectionFailed
        /// The server's name does not exist (the resolver answered that it knows no such host):
        /// a typo in the address, unlike a lookup that failed for now.
        case unknownHost
        /// Connecting, or waiting for the next bytes of a response, took longer than allowed.
        case timedOut
        /// The TLS handshake failed or the server's certificate was not trusted.
        case tlsFailed
        /// An `https` URL names a port where the server speaks plain HTTP.
        case notTLS
        /// The server closed the connection before the response was complete.
        case truncatedResponse
        /// The server answered 401: wrong user name or password.
        case authenticationFailed
        /// The server answered 403 (other than for a sync-token).
        case forbidden
        /// The resource does not exist (404 or 410).
        case notFound
        /// `If-Match` / `If-None-Match` did not hold (412): the object changed, was deleted, or
        /// already exists. Re-read, merge and retry.
        case preconditionFailed
        /// The server refused the request as conflicting (409), e.g. MKCALENDAR on an existing
        /// collection or a missing parent.
        case conflict
        /// The stored sync-token is no longer valid (RFC 6578 `DAV:valid-sync-token`): list fully.
        case invalidSyncToken
        /// The server does not implement the method or REPORT (405, 501, `DAV:supported-report`).
        case notSupported
        /// The server answered 5xx, or 429.
        case serverError
        /// Any other unexpected status.
        case unexpectedStatus
        /// The response body was not the XML (or the structure) that the protocol requires.
        case malformedResponse
        /// The response body was larger than the client accepts.
        case responseTooLarge
        /// More redirects than allowed, a redirect loop, or a redirect from HTTPS to HTTP.
        case badRedirect
        /// Discovery found no CalDAV principal or calendar home at the given address.
        case notCalDAV
        /// The URL given cannot be used (no host, unsupported scheme).
        case invalidURL
        /// The request was cancelled by the caller (task cancellation or client shut down).
        case cancelled

        /// Whether trying again later may succeed (exit 75) rather than needing the user (exit 69).
        public var isTransient: Bool {
            switch self {
            // A 412 reaches the user only when the retries could not outrun another client's
            // edits: the next sync will.
            case .connectionFailed, .timedOut, .truncatedResponse, .serverError, .cancelled, .preconditionFailed:
                return true
            case .unknownHost, .tlsFailed, .notTLS, .authenticationFailed, .forbidden, .notFound, .conflict,
                .invalidSyncToken, .notSupported, .unexpectedStatus, .malformedResponse, .responseTooLarge,
                .badRedirect, .notCalDAV, .invalidURL:
                return false
            }
        }
    }

    /// The closed code.
    public var code: Code
    /// A full sentence for the user; never contains credentials or object contents.
    public var message: String
    /// The HTTP method of the failed request, if a request was made.
    public var method: String?
    /// The failed request's URL as the log shows it: without user info and query, and with the
    /// segments that may name a list hashed (``CalDAVError/redactForLog(_:)``). `--verbose` logged
    /// the path of a failed request whole (helper-75).
    public var url: String?
    /// The HTTP status, when the server answered.
    public var status: Int?
    /// The underlying error (a NIO, AHC or XML error), for `--verbose` diagnostics.
    public var cause: (any Error & Sendable)?

    /// Creates an error; `url` is redacted here (for the log), so callers may pass any URL.
    public init(
        _ code: Code, _ message: String, method: String? = nil, url: URL? = nil, status: Int? = nil,
        cause: (any Error & Sendable)? = nil
    ) {
        self.code = code
        self.message = message
        self.method = method
        self.url = url.map(Self.redactForLog)
        self.status = status
        self.cause = cause
    }

    /// Whether the server refused one object's write for good: 403 (a read-only calendar), 409,
    /// 400, 413, 415 or 422 (iCalendar it does not take). The other writes can go on; any other
    /// status stops the push.
    public var refusesOneObject: Bool {
        code == .forbidden || code == .conflict || (code == .unexpectedStatus && [400, 413, 415, 422].contains(status ?? 0))
    }

    /// One log-safe line: the message, then the request and status in brackets.
    public var description: String {
        var parts: [String] = []
        if let method { parts.append(method) }
        if let url { parts.append(url) }
        if let status { parts.append("HTTP \(status)") }
        return parts.isEmpty ? message : "\(message) [\(parts.joined(separator: " "))]"
    }

    /// ``description`` plus the underlying cause, for `--verbose`. The cause comes from NIO, AHC or
    /// the XML parser, which never see the password (it travels only in a header we build).
    public var detailedDescription: String {
        guard let cause else { return description }
        return "\(description); cause: \(String(describing: cause))"
    }

    /// ``redact(_:)`` for the `--verbose` log, which never holds a name: the first segment of the
    /// path (the account's user, on the servers taskwidget knows) stays, and each later one (a
    /// collection a phone named after its list, `/alice/Errands/`) is an 8-digit hash of itself,
    /// the same in every line, so that the log still tells requests apart. `/.well-known/caldav`,
    /// which names nothing of the user's, stays as it is (it was hashed too, helper-117).
    public static func redactForLog(_ url: URL) -> String {
        let redacted = redact(url)
        guard var components = URLComponents(string: redacted) else { return redacted }
        components.percentEncodedPath = redactPathForLog(components.percentEncodedPath)
        return components.string ?? redacted
    }

    /// The path of ``redactForLog(_:)``: an object's or collection's href, hashed as in its URL.
    public static func redactPathForLog(_ path: String) -> String {
        guard path != "/.well-known/caldav" else { return path }
        let segments = path.split(separator: "/", omittingEmptySubsequences: false)
        return segments.enumerated().map { index, segment in
            index < 2 || segment.isEmpty ? String(segment) : String(FNV1a.hex(of: segment.utf8).prefix(8))
        }.joined(separator: "/")
    }

    /// `scheme://host[:port]/path` of a URL: no user info, no query, no fragment.
    public static func redact(_ url: URL) -> String {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: true) else {
            return "<unparsable URL>"
        }
        components.user = nil
        components.password = nil
        components.query = nil
        components.fragment = nil
        return components.string ?? "<unparsable URL>"
    }
}
