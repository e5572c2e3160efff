import Foundation
import FoundationNetworking
public import Logging
import Synchronization

/// The real ``DAVTransport``: Foundation's `URLSession` (FoundationNetworking, libcurl underneath),
/// which ships with the Swift toolchain, so a fresh clone builds without compiling an HTTP stack.
///
/// Create one per process, share it between accounts and collections, and ``invalidate()`` it
/// when done.
///
/// - Every request has an idle timeout (the longest silence while connecting or waiting for
///   bytes; URLSession's `timeoutInterval`, in whole seconds) and an overall deadline, after which
///   the request is cancelled; the response body is read whole, up to a size limit.
/// - Redirects are *not* followed here: the session delegate's redirect hook refuses them all,
///   because FoundationNetworking would follow them keeping every header, `Authorization`
///   included, to any host and from HTTPS to HTTP. ``CalDAVClient`` follows them itself (keeping
///   the method and body, at most 5, credentials to the account's origin only) and so knows the
///   final URL to resolve hrefs against.
/// - HTTPS verifies the certificate and host name against the system's CA store: libcurl's
///   `/etc/ssl/certs/ca-certificates.crt` on Debian and Ubuntu (the `ca-certificates` package),
///   or the first of FoundationNetworking's known bundle paths on other systems.
/// - Methods are sent as given (`PROPFIND`, `REPORT`, `MKCALENDAR` with bodies), and every
///   status, 207 and 412 included, comes back as a response: URLSession never retries.
public final class URLSessionTransport: DAVTransport {
    /// Limits and identity of the transport.
    public struct Configuration: Sendable {
        /// Longest silence while connecting or waiting for the response's next bytes, in whole
        /// seconds (FoundationNetworking rounds any fraction down).
        public var idleTimeout: Duration = .seconds(30)
        /// Longest time for a whole request, from sending to the last byte of the body.
        public var requestTimeout: Duration = .seconds(120)
        /// Largest response body accepted (a calendar-query of 10 000 tasks is about 5 MB).
        public var maximumResponseBytes = 64 << 20
        /// Sent as `User-Agent`.
        public var userAgent = "taskwidget"

        public init() {}
    }

    private let session: URLSession
    private let delegate: SessionDelegate
    private let configuration: Configuration
    private let logger: Logger

    public init(configuration: Configuration = Configuration(), logger: Logger = Logger(label: "taskwidget.sync")) {
        let sessionConfiguration = URLSessionConfiguration.ephemeral
        sessionConfiguration.timeoutIntervalForRequest = TimeInterval(max(1, configuration.idleTimeout.components.seconds))
        sessionConfiguration.requestCachePolicy = .reloadIgnoringLocalCacheData
        sessionConfiguration.urlCache = nil
        sessionConfiguration.httpCookieStorage = nil
        sessionConfiguration.httpShouldSetCookies = false
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        delegate = SessionDelegate(maximumResponseBytes: configuration.maximumResponseBytes)
        session = URLSession(configuration: sessionConfiguration, delegate: delegate, delegateQueue: queue)
        self.configuration = configuration
        self.logger = logger
    }

    /// Runs `body` with a new transport and invalidates it afterwards, also on error.
    public static func withTransport<Result>(
        configuration: Configuration = Configuration(), logger: Logger = Logger(label: "taskwidget.sync"),
        _ body: (URLSessionTransport) async throws -> Result
    ) async rethrows -> Result {
        let transport = URLSessionTransport(configuration: configuration, logger: logger)
        defer { transport.invalidate() }
        return try await body(transport)
    }

    /// Ends the session; requests sent afterwards fail with ``CalDAVError/Code/cancelled``.
    public func invalidate() {
        session.invalidateAndCancel()
    }

    public func send(_ request: DAVRequest) async throws(CalDAVError) -> DAVResponse {
        var outgoing = URLRequest(url: request.url)
        outgoing.httpMethod = request.method
        outgoing.timeoutInterval = TimeInterval(max(1, configuration.idleTimeout.components.seconds))
        outgoing.setValue(configuration.userAgent, forHTTPHeaderField: "User-Agent")
        for (name, value) in request.headers { outgoing.addValue(value, forHTTPHeaderField: name) }
        outgoing.httpBody = request.body
        let started = ContinuousClock.now
        let task = session.dataTask(with: outgoing)
        let outcome = await delegate.run(task, deadline: configuration.requestTimeout)
        switch outcome {
        case .success(let response):
            logger.debug(
                "\(request.method) \(CalDAVError.redact(request.url)) → \(response.status)",
                metadata: ["bytes": "\(response.body.count)", "ms": "\((ContinuousClock.now - started).milliseconds)"])
            return response
        case .failure(let failure):
            throw Self.map(failure, request: request, maximumResponseBytes: configuration.maximumResponseBytes)
        }
    }

    /// Why a request got no complete response.
    enum Failure: Error {
        case error(any Error & Sendable)
        case tooLarge
        case deadline
        case cancelled
    }

    /// Turns a URLSession failure into the closed ``CalDAVError`` set. FoundationNetworking maps
    /// only some of libcurl's codes to `URLError` codes; the rest arrive as `.unknown` with
    /// libcurl's own one-line message (no request data in it), which tells TLS failures and
    /// truncated bodies apart.
    static func map(_ failure: Failure, request: DAVRequest, maximumResponseBytes: Int) -> CalDAVError {
        let host = request.url.host ?? "the server"
        func make(_ code: CalDAVError.Code, _ message: String, cause: (any Error & Sendable)? = nil) -> CalDAVError {
            CalDAVError(code, message, method: request.method, url: request.url, cause: cause)
        }
        switch failure {
        case .tooLarge:
            return make(.responseTooLarge, "The response of \(host) was larger than \(maximumResponseBytes) bytes.")
        case .deadline:
            return make(.timedOut, "\(host) did not answer in time.")
        case .cancelled:
            return make(.cancelled, "The request to \(host) was cancelled.")
        case .error(let error):
            // Errors arrive as NSError in NSURLErrorDomain (a cast to URLError fails on Linux).
            let nsError = error as NSError
            let code = nsError.domain == NSURLErrorDomain ? URLError.Code(rawValue: nsError.code) : (error as? URLError)?.code
            let detail = nsError.localizedDescription.lowercased()
            switch code {
            case .timedOut?:
                return make(.timedOut, "\(host) did not answer in time.", cause: error)
            case .cannotConnectToHost?, .cannotFindHost?, .notConnectedToInternet?, .dnsLookupFailed?:
                return make(.connectionFailed, "Cannot connect to \(host).", cause: error)
            case .networkConnectionLost?, .badServerResponse?, .zeroByteResource?:
                return make(.truncatedResponse, "\(host) closed the connection before the response was complete.", cause: error)
            case .cancelled?:
                return make(.cancelled, "The request to \(host) was cancelled.", cause: error)
            case .badURL?, .unsupportedURL?:
                return make(.invalidURL, "The address \(CalDAVError.redact(request.url)) cannot be used.", cause: error)
            case .secureConnectionFailed?, .serverCertificateUntrusted?, .serverCertificateHasBadDate?,
                .serverCertificateNotYetValid?, .serverCertificateHasUnknownRoot?, .clientCertificateRejected?:
                return make(.tlsFailed, "The secure connection to \(host) failed (certificate or TLS error).", cause: error)
            default:
                if detail.contains("ssl") || detail.contains("certificate") || detail.contains("tls") {
                    return make(.tlsFailed, "The secure connection to \(host) failed (certificate or TLS error).", cause: error)
                }
                if detail.contains("connect") || detail.contains("refused") || detail.contains("resolve") {
                    return make(.connectionFailed, "Cannot connect to \(host).", cause: error)
                }
                if detail.contains("transfer closed") || detail.contains("remaining") || detail.contains("partial")
                    || detail.contains("empty reply") || detail.contains("reset")
                {
                    return make(.truncatedResponse, "\(host) closed the connection before the response was complete.", cause: error)
                }
                return make(.connectionFailed, "The request to \(host) failed.", cause: error)
            }
        }
    }
}

/// The session's delegate: collects each task's response and body, enforces the size limit and
/// the deadline, refuses redirects, and resumes the waiting caller when the task ends. Its state
/// is behind a mutex; URLSession calls it on its one-at-a-time delegate queue.
private final class SessionDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private struct Exchange {
        var continuation: CheckedContinuation<Result<DAVResponse, URLSessionTransport.Failure>, Never>
        var response: HTTPURLResponse?
        var body = Data()
        var failure: URLSessionTransport.Failure?
        /// A 401 (or 407) that URLSession turned into an authentication challenge.
        var challengedResponse: HTTPURLResponse?
    }

    private let maximumResponseBytes: Int
    private let exchanges = Mutex<[Int: Exchange]>([:])

    init(maximumResponseBytes: Int) {
        self.maximumResponseBytes = maximumResponseBytes
    }

    /// Runs `task` to its end; cancels it at `deadline`, or when the calling task is cancelled.
    func run(_ task: URLSessionDataTask, deadline: Duration) async -> Result<DAVResponse, URLSessionTransport.Failure> {
        let identifier = task.taskIdentifier
        let timer = Task {
            try await Task.sleep(for: deadline)
            self.fail(identifier, .deadline, task)
        }
        defer { timer.cancel() }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                exchanges.withLock { $0[identifier] = Exchange(continuation: continuation) }
                task.resume()
            }
        } onCancel: {
            fail(identifier, .cancelled, task)
        }
    }

    /// Marks the exchange failed (the first reason wins) and cancels its task, which then ends.
    private func fail(_ identifier: Int, _ failure: URLSessionTransport.Failure, _ task: URLSessionTask) {
        let known = exchanges.withLock { exchanges -> Bool in
            guard exchanges[identifier] != nil else { return false }
            if exchanges[identifier]?.failure == nil { exchanges[identifier]?.failure = failure }
            return true
        }
        if known { task.cancel() }
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)  // CalDAVClient follows redirects with its own rules
    }

    /// A 401 with `WWW-Authenticate` becomes a challenge. FoundationNetworking's default handling
    /// waits for ever when it has no credential to propose (the request then ends only at its
    /// timeout); the client sends its credentials itself, so the challenge is cancelled and the
    /// 401 returned as the response it is.
    func urlSession(
        _ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        let response = challenge.failureResponse as? HTTPURLResponse
        exchanges.withLock { $0[task.taskIdentifier]?.challengedResponse = response ?? HTTPURLResponse(
            url: task.currentRequest?.url ?? URL(fileURLWithPath: "/"), statusCode: 401, httpVersion: nil, headerFields: nil) }
        completionHandler(.cancelAuthenticationChallenge, nil)
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        exchanges.withLock { $0[dataTask.taskIdentifier]?.response = response as? HTTPURLResponse }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let overLimit = exchanges.withLock { exchanges -> Bool in
            guard var exchange = exchanges[dataTask.taskIdentifier], exchange.failure == nil else { return false }
            exchange.body.append(data)
            let over = exchange.body.count > maximumResponseBytes
            if over {
                exchange.failure = .tooLarge
                exchange.body = Data()
            }
            exchanges[dataTask.taskIdentifier] = exchange
            return over
        }
        if overLimit { dataTask.cancel() }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard let exchange = exchanges.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else { return }
        // A response can arrive through the task when the data callbacks did not see it.
        let response = exchange.response ?? task.response as? HTTPURLResponse
        let result: Result<DAVResponse, URLSessionTransport.Failure>
        if let failure = exchange.failure {
            result = .failure(failure)
        } else if let challenged = exchange.challengedResponse {
            result = .success(DAVResponse(status: challenged.statusCode, headers: Self.headers(of: challenged), body: exchange.body))
        } else if let error {
            result = .failure(.error(error as NSError))
        } else if let response {
            result = .success(DAVResponse(status: response.statusCode, headers: Self.headers(of: response), body: exchange.body))
        } else {
            result = .failure(.error(URLError(.badServerResponse)))
        }
        exchange.continuation.resume(returning: result)
    }

    private static func headers(of response: HTTPURLResponse) -> [(name: String, value: String)] {
        response.allHeaderFields.compactMap { key, value -> (name: String, value: String)? in
            guard let name = key as? String, let value = value as? String else { return nil }
            return (name, value)
        }
    }
}

extension Duration {
    /// Whole milliseconds, for logs and measurements.
    var milliseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1000 + attoseconds / 1_000_000_000_000_000
    }
}
