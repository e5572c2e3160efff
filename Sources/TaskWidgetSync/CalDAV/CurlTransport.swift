import CCurl
import Foundation
public import Logging
import Synchronization

/// The real ``DAVTransport``: libcurl's easy interface, the library FoundationNetworking is made
/// of, which the system has (Debian's `libcurl4`), so a fresh clone builds no HTTP stack.
///
/// Why not `URLSession` on top of it: FoundationNetworking (Swift 6.3) keeps a dispatch write
/// source on the socket after the request is sent; the socket stays writable, so the process
/// spins at 100 % of a core for as long as the server takes to answer (measured: 5 s of CPU in 6 s
/// of waiting on a stalled server; 96 s of CPU for 1 000 PUTs to Radicale, against 1.4 s for the
/// same requests without it). Each request here runs `curl_easy_perform` on a thread of its own,
/// which sleeps in `poll` while it waits.
///
/// - Every request has a connect timeout, an idle timeout (the longest time with no byte
///   moving, libcurl's low-speed limit) and an overall deadline; the body is read whole, up to a
///   size limit; cancelling the calling task aborts the transfer.
/// - Redirects are not followed here: ``CalDAVClient`` follows them itself (keeping the method
///   and body, at most 5, credentials to the account's origin only, never from HTTPS to HTTP).
/// - Only `http` and `https`. HTTPS verifies the certificate and host name against the
///   system's CA store (libcurl's default: `/etc/ssl/certs/ca-certificates.crt` on Debian).
/// - Every status, 207 and 412 included, comes back as a response: nothing is retried here.
public final class CurlTransport: DAVTransport {
    /// Limits and identity of the transport.
    public struct Configuration: Sendable {
        /// Longest wait for the TCP and TLS connection.
        public var connectTimeout: Duration = .seconds(10)
        /// Longest time without a byte moving, in whole seconds.
        public var idleTimeout: Duration = .seconds(30)
        /// Longest time for a whole request, from connecting to the last byte of the body.
        public var requestTimeout: Duration = .seconds(120)
        /// Largest response body accepted (a calendar-query of 10 000 tasks is about 5 MB).
        public var maximumResponseBytes = 64 << 20
        /// Sent as `User-Agent`.
        public var userAgent = "taskwidget"

        public init() {}
    }

    private let configuration: Configuration
    private let logger: Logger

    /// libcurl's process-wide setup, done once before the first handle.
    private static let globalSetup: Bool = curl_global_init(Int(CURL_GLOBAL_DEFAULT)) == CURLE_OK

    public init(configuration: Configuration = Configuration(), logger: Logger = Logger(label: "taskwidget.sync")) {
        _ = Self.globalSetup
        self.configuration = configuration
        self.logger = logger
    }

    /// Runs `body` with a new transport.
    public static func withTransport<Result>(
        configuration: Configuration = Configuration(), logger: Logger = Logger(label: "taskwidget.sync"),
        _ body: (CurlTransport) async throws -> Result
    ) async rethrows -> Result {
        try await body(CurlTransport(configuration: configuration, logger: logger))
    }

    public func send(_ request: DAVRequest) async throws(CalDAVError) -> DAVResponse {
        let exchange = Exchange(limit: configuration.maximumResponseBytes)
        let configuration = self.configuration
        let started = ContinuousClock.now
        let outcome: Result<DAVResponse, CalDAVError> = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                // A thread of its own: the transfer blocks in poll(2), never in the cooperative pool.
                Thread.detachNewThread {
                    continuation.resume(returning: Self.perform(request, exchange: exchange, configuration: configuration))
                }
            }
        } onCancel: {
            exchange.cancelled.withLock { $0 = true }
        }
        switch outcome {
        case .success(let response):
            logger.debug(
                "\(request.method) \(CalDAVError.redact(request.url)) → \(response.status)",
                metadata: ["bytes": "\(response.body.count)", "ms": "\((ContinuousClock.now - started).milliseconds)"])
            return response
        case .failure(let error):
            throw error
        }
    }

    /// What one transfer collects, shared with libcurl's callbacks through a pointer.
    final class Exchange: @unchecked Sendable {
        let limit: Int
        /// Set by the calling task's cancellation; the progress callback then aborts.
        let cancelled = Mutex(false)
        // Touched only by the transfer's own thread, in libcurl's callbacks and after them.
        var body = Data()
        var headers: [(name: String, value: String)] = []
        var tooLarge = false

        init(limit: Int) { self.limit = limit }
    }

    /// One blocking transfer.
    static func perform(_ request: DAVRequest, exchange: Exchange, configuration: Configuration) -> Result<DAVResponse, CalDAVError> {
        guard let handle = curl_easy_init() else {
            return .failure(CalDAVError(.connectionFailed, "The HTTP library could not start.", method: request.method, url: request.url))
        }
        defer { curl_easy_cleanup(handle) }
        let box = Unmanaged.passRetained(exchange)
        defer { box.release() }
        let context = box.toOpaque()
        // libcurl writes its message here during the transfer: memory that lives as long as it.
        let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        defer { errorBuffer.deallocate() }

        func milliseconds(_ duration: Duration) -> Int {
            Int(duration.components.seconds) * 1000 + Int(duration.components.attoseconds / 1_000_000_000_000_000)
        }
        _ = twcurl_setopt_string(handle, CURLOPT_URL, request.url.absoluteString)
        _ = twcurl_setopt_string(handle, CURLOPT_PROTOCOLS_STR, "http,https")
        _ = twcurl_setopt_long(handle, CURLOPT_FOLLOWLOCATION, 0)
        _ = twcurl_setopt_long(handle, CURLOPT_NOSIGNAL, 1)
        _ = twcurl_setopt_long(handle, CURLOPT_CONNECTTIMEOUT_MS, milliseconds(configuration.connectTimeout))
        _ = twcurl_setopt_long(handle, CURLOPT_TIMEOUT_MS, milliseconds(configuration.requestTimeout))
        _ = twcurl_setopt_long(handle, CURLOPT_LOW_SPEED_LIMIT, 1)
        _ = twcurl_setopt_long(handle, CURLOPT_LOW_SPEED_TIME, max(1, Int(configuration.idleTimeout.components.seconds)))
        _ = twcurl_setopt_string(handle, CURLOPT_USERAGENT, configuration.userAgent)
        _ = twcurl_setopt_string(handle, CURLOPT_ACCEPT_ENCODING, "")  // what libcurl can decompress
        _ = twcurl_setopt_pointer(handle, CURLOPT_ERRORBUFFER, errorBuffer)
        if request.method == "GET" {
            _ = twcurl_setopt_long(handle, CURLOPT_HTTPGET, 1)
        } else {
            _ = twcurl_setopt_string(handle, CURLOPT_CUSTOMREQUEST, request.method)
        }
        if let body = request.body {
            _ = twcurl_setopt_offset(handle, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body.count))
            _ = body.withUnsafeBytes { twcurl_setopt_pointer(handle, CURLOPT_COPYPOSTFIELDS, UnsafeMutableRawPointer(mutating: $0.baseAddress)) }
        }
        // No "Expect: 100-continue" round trip before a large PUT.
        var headerList: UnsafeMutablePointer<curl_slist>? = curl_slist_append(nil, "Expect:")
        for (name, value) in request.headers {
            headerList = curl_slist_append(headerList, "\(name): \(value)")
        }
        defer { curl_slist_free_all(headerList) }
        _ = twcurl_setopt_pointer(handle, CURLOPT_HTTPHEADER, headerList)

        _ = twcurl_setopt_write_function(handle, CURLOPT_WRITEFUNCTION) { data, size, count, context in
            let exchange = Unmanaged<Exchange>.fromOpaque(context!).takeUnretainedValue()
            let length = size * count
            guard exchange.body.count + length <= exchange.limit else {
                exchange.tooLarge = true
                return 0  // aborts the transfer
            }
            if let data { exchange.body.append(UnsafeRawPointer(data).assumingMemoryBound(to: UInt8.self), count: length) }
            return length
        }
        _ = twcurl_setopt_pointer(handle, CURLOPT_WRITEDATA, context)
        _ = twcurl_setopt_write_function(handle, CURLOPT_HEADERFUNCTION) { data, size, count, context in
            let exchange = Unmanaged<Exchange>.fromOpaque(context!).takeUnretainedValue()
            let length = size * count
            guard let data else { return length }
            let line = String(decoding: UnsafeRawBufferPointer(start: data, count: length), as: UTF8.self)
                .trimmingCharacters(in: .whitespacesAndNewlines)
            if line.hasPrefix("HTTP/") {
                exchange.headers = []  // a new response (after a 1xx): its own headers
            } else if let colon = line.firstIndex(of: ":") {
                exchange.headers.append(
                    (String(line[..<colon]), String(line[line.index(after: colon)...]).trimmingCharacters(in: .whitespaces)))
            }
            return length
        }
        _ = twcurl_setopt_pointer(handle, CURLOPT_HEADERDATA, context)
        _ = twcurl_setopt_long(handle, CURLOPT_NOPROGRESS, 0)
        _ = twcurl_setopt_progress_function(handle) { context, _, _, _, _ in
            let exchange = Unmanaged<Exchange>.fromOpaque(context!).takeUnretainedValue()
            return exchange.cancelled.withLock { $0 } ? 1 : 0
        }
        _ = twcurl_setopt_pointer(handle, CURLOPT_XFERINFODATA, context)

        let code = curl_easy_perform(handle)
        guard code == CURLE_OK else {
            let detail = String(cString: errorBuffer)
            return .failure(map(code, detail: detail.isEmpty ? String(cString: curl_easy_strerror(code)) : detail, exchange: exchange, request: request, configuration: configuration))
        }
        var status = 0
        _ = twcurl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &status)
        return .success(DAVResponse(status: status, headers: exchange.headers, body: exchange.body))
    }

    /// libcurl's one-line message for a failed transfer (it names the host, never the request's
    /// headers or body), kept as the cause for `--verbose`.
    struct CurlFailure: Error, CustomStringConvertible {
        var code: UInt32
        var detail: String
        var description: String { "libcurl error \(code): \(detail)" }
    }

    /// Turns libcurl's result into the closed ``CalDAVError`` set.
    static func map(_ code: CURLcode, detail: String, exchange: Exchange, request: DAVRequest, configuration: Configuration) -> CalDAVError {
        let host = request.url.host ?? "the server"
        let cause = CurlFailure(code: code.rawValue, detail: detail)
        func make(_ errorCode: CalDAVError.Code, _ message: String) -> CalDAVError {
            CalDAVError(errorCode, message, method: request.method, url: request.url, cause: cause)
        }
        if exchange.tooLarge {
            return make(.responseTooLarge, "The response of \(host) was larger than \(configuration.maximumResponseBytes) bytes.")
        }
        switch code {
        case CURLE_ABORTED_BY_CALLBACK:
            return make(.cancelled, "The request to \(host) was cancelled.")
        case CURLE_OPERATION_TIMEDOUT:
            return make(.timedOut, "\(host) did not answer in time.")
        case CURLE_COULDNT_CONNECT, CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY:
            return make(.connectionFailed, "Cannot connect to \(host).")
        case CURLE_PARTIAL_FILE, CURLE_RECV_ERROR, CURLE_SEND_ERROR, CURLE_GOT_NOTHING, CURLE_HTTP2, CURLE_HTTP2_STREAM,
            CURLE_BAD_CONTENT_ENCODING:
            return make(.truncatedResponse, "\(host) closed the connection before the response was complete.")
        case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER,
            CURLE_SSL_CACERT_BADFILE, CURLE_SSL_ISSUER_ERROR, CURLE_SSL_PINNEDPUBKEYNOTMATCH, CURLE_SSL_INVALIDCERTSTATUS,
            CURLE_SSL_ENGINE_INITFAILED, CURLE_USE_SSL_FAILED:
            return make(.tlsFailed, "The secure connection to \(host) failed (certificate or TLS error).")
        case CURLE_URL_MALFORMAT, CURLE_UNSUPPORTED_PROTOCOL:
            return make(.invalidURL, "The address \(CalDAVError.redact(request.url)) cannot be used.")
        default:
            return make(.connectionFailed, "The request to \(host) failed.")
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
