public import Foundation
import Synchronization

/// One HTTP request of a CalDAV exchange, as ``CalDAVClient`` hands it to a ``DAVTransport``.
public struct DAVRequest: Sendable {
    /// `PROPFIND`, `REPORT`, `PUT`, …
    public var method: String
    public var url: URL
    /// Header fields in order; the client adds `Authorization` here, so never log them whole.
    public var headers: [(name: String, value: String)]
    public var body: Data?

    public init(method: String, url: URL, headers: [(name: String, value: String)] = [], body: Data? = nil) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }

    /// The first value of a header field (names compare case-insensitively).
    public func header(_ name: String) -> String? {
        headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }
}

/// The complete answer to one ``DAVRequest`` (redirects are not followed at this level).
public struct DAVResponse: Sendable {
    public var status: Int
    public var headers: [(name: String, value: String)]
    /// The whole body, read to its end.
    public var body: Data

    public init(status: Int, headers: [(name: String, value: String)] = [], body: Data = Data()) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The first value of a header field (names compare case-insensitively).
    public func header(_ name: String) -> String? {
        headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }
}

/// Sends one HTTP request and reads its whole response: the seam between the CalDAV logic and the
/// network. ``HTTPClientTransport`` is the real one; tests wrap it (``CountingTransport``) or fake it.
///
/// A transport throws only for failures below HTTP (connection, TLS, timeout, truncation, size):
/// every status code, 4xx and 5xx included, comes back as a ``DAVResponse``.
public protocol DAVTransport: Sendable {
    func send(_ request: DAVRequest) async throws(CalDAVError) -> DAVResponse
}

/// A transport that counts the requests it passes on, by method: to show that a sync with
/// nothing changed costs one request per collection, and for `sync --verbose`.
public final class CountingTransport: DAVTransport {
    private let base: any DAVTransport
    private let counts = Mutex<[String: Int]>([:])

    public init(_ base: any DAVTransport) { self.base = base }

    public func send(_ request: DAVRequest) async throws(CalDAVError) -> DAVResponse {
        counts.withLock { $0[request.method, default: 0] += 1 }
        return try await base.send(request)
    }

    /// The number of requests sent so far, by method.
    public var requestsByMethod: [String: Int] { counts.withLock { $0 } }

    /// The number of requests sent so far.
    public var requestCount: Int { counts.withLock { $0.values.reduce(0, +) } }

    /// Forgets the counts.
    public func reset() { counts.withLock { $0 = [:] } }
}
