import AsyncHTTPClient
import Foundation
import Glibc
public import Logging
public import NIOCore
import NIOHTTP1
import NIOHTTPCompression
import NIOPosix
import NIOSSL
import TaskWidgetCore

/// The real ``DAVTransport``: AsyncHTTPClient (SwiftNIO), one `HTTPClient` for a whole sync run
/// on NIO's shared event loops, which sleep in `epoll` while a server takes its time.
///
/// ```swift
/// try await HTTPClientTransport.withTransport(logger: logger) { transport in
///     let client = CalDAVClient(accountURL: url, credentials: credentials, transport: transport)
///     _ = try await client.discover()
/// }
/// ```
///
/// - Every request has a connect timeout, an idle timeout (the longest wait for the response's
///   next bytes) and an overall deadline that covers the body too; the body is read whole, up to
///   a size limit; cancelling the calling task cancels the request.
/// - A connection that cannot be made fails the request at once, without the client's retries:
///   the next sync is the retry.
/// - Redirects are not followed here: ``CalDAVClient`` follows them itself (keeping the method
///   and body, at most 5, credentials to the account's origin only, never from HTTPS to HTTP).
/// - Only `http` and `https`. HTTPS verifies the certificate and host name against the system's
///   CA store (NIOSSL's default trust roots: `/etc/ssl/certs/ca-certificates.crt` and
///   `/etc/ssl/certs` on Debian).
/// - gzip and deflate bodies are asked for and decompressed, within the same size limit.
/// - Every status, 207, 401 and 412 included, comes back as a response: nothing is retried here.
public final class HTTPClientTransport: DAVTransport {
    /// Limits and identity of the transport.
    public struct Configuration: Sendable {
        /// Longest wait for the TCP and TLS connection.
        public var connectTimeout: Duration = .seconds(10)
        /// Longest wait for the next bytes of a response.
        public var idleTimeout: Duration = .seconds(30)
        /// Longest time for a whole request, from connecting to the last byte of the body.
        public var requestTimeout: Duration = .seconds(120)
        /// Largest response body accepted, once decompressed (a calendar-query of 10 000 tasks is
        /// about 5 MB).
        public var maximumResponseBytes = 64 << 20
        /// Sent as `User-Agent`.
        public var userAgent = "taskwidget"

        public init() {}
    }

    private let client: HTTPClient
    private let configuration: Configuration
    private let logger: Logger

    private init(client: HTTPClient, configuration: Configuration, logger: Logger) {
        self.client = client
        self.configuration = configuration
        self.logger = logger
    }

    /// Runs `body` with a transport over a new `HTTPClient`, and shuts the client down when
    /// `body` returns or throws. Its event loops are NIO's process-wide ones unless `eventLoopGroup`
    /// gives others (a test that must not share them).
    public static func withTransport<Result>(
        configuration: Configuration = Configuration(), logger: Logger = Logger(label: "taskwidget.sync"),
        eventLoopGroup: (any EventLoopGroup)? = nil,
        isolation: isolated (any Actor)? = #isolation,
        _ body: (HTTPClientTransport) async throws -> Result
    ) async throws -> Result {
        var clientConfiguration = HTTPClient.Configuration(
            redirectConfiguration: .disallow,
            timeout: HTTPClient.Configuration.Timeout(
                connect: TimeAmount(configuration.connectTimeout), read: TimeAmount(configuration.idleTimeout)),
            decompression: .enabled(limit: .size(configuration.maximumResponseBytes)))
        clientConfiguration.connectionPool.retryConnectionEstablishment = false
        // HTTPClient.withHTTPClient shuts the client down (awaiting it) also when `body` throws or
        // the task is cancelled.
        return try await HTTPClient.withHTTPClient(
            eventLoopGroup: eventLoopGroup ?? HTTPClient.defaultEventLoopGroup, configuration: clientConfiguration, isolation: isolation
        ) { client in
            try await body(HTTPClientTransport(client: client, configuration: configuration, logger: logger))
        }
    }

    public func send(_ request: DAVRequest) async throws(CalDAVError) -> DAVResponse {
        // NIO traps on a port past 65535 (a redirect's Location may name one).
        if let port = request.url.port, !(1...65535).contains(port) {
            throw CalDAVError(.invalidURL, "The address \(CalDAVError.redact(request.url)) has a port no server can listen on.", method: request.method, url: request.url)
        }
        var outgoing = HTTPClientRequest(url: request.url.absoluteString)
        outgoing.method = HTTPMethod(rawValue: request.method)
        outgoing.headers.add(name: "User-Agent", value: configuration.userAgent)
        for (name, value) in request.headers { outgoing.headers.add(name: name, value: value) }
        if let body = request.body { outgoing.body = .bytes(ByteBuffer(bytes: body)) }
        let started = ContinuousClock.now
        do {
            let response = try await exchange(outgoing, deadline: started + configuration.requestTimeout)
            logger.debug(
                "\(request.method) \(CalDAVError.redactForLog(request.url)) → \(response.status)",
                metadata: ["bytes": "\(response.body.count)", "ms": "\((ContinuousClock.now - started).milliseconds)"])
            return response
        } catch {
            throw Self.map(error, request: request, configuration: configuration)
        }
    }

    /// Sends the request and reads its whole body, racing the deadline: AsyncHTTPClient's own
    /// deadline ends with the response head, so the body's time is bounded here.
    private func exchange(_ request: HTTPClientRequest, deadline: ContinuousClock.Instant) async throws -> DAVResponse {
        let client = self.client
        let limit = configuration.maximumResponseBytes
        let timeout = TimeAmount(deadline - .now)
        return try await withThrowingTaskGroup(of: DAVResponse?.self) { group in
            group.addTask {
                let response = try await client.execute(request, timeout: timeout)
                let body = try await response.body.collect(upTo: limit)
                return DAVResponse(
                    status: Int(response.status.code), headers: Array(response.headers), body: Data(body.readableBytesView))
            }
            group.addTask {
                try await Task.sleep(until: deadline, clock: .continuous)
                return nil  // the deadline passed first
            }
            defer { group.cancelAll() }
            guard let response = try await group.next() ?? nil else { throw HTTPClientError.deadlineExceeded }
            return response
        }
    }

    /// Turns what AsyncHTTPClient, NIO or NIOSSL threw into the closed ``CalDAVError`` set. Their
    /// errors name the host, never a header or a body, and are kept as the cause for `--verbose`.
    static func map(_ error: any Error, request: DAVRequest, configuration: Configuration) -> CalDAVError {
        let host = request.url.host ?? "the server"
        func make(_ code: CalDAVError.Code, _ message: String) -> CalDAVError {
            CalDAVError(code, message, method: request.method, url: request.url, cause: error)
        }
        let tooLarge = make(.responseTooLarge, "The response of \(host) was larger than \(configuration.maximumResponseBytes) bytes.")
        let timedOut = make(.timedOut, "\(host) did not answer in time.")
        // With the port the URL names: a server listening on another one is a common slip.
        let address = request.url.port.map { urlAuthority(host: host, port: $0) } ?? host
        let cannotConnect = make(.connectionFailed, "Cannot connect to \(address).")
        let truncated = make(.truncatedResponse, "\(host) closed the connection before the response was complete.")
        let tlsFailed = make(.tlsFailed, "The secure connection to \(host) failed (certificate or TLS error).")
        let cancelled = make(.cancelled, "The request to \(host) was cancelled.")

        switch error {
        case let error as HTTPClientError:
            switch error {
            case .connectTimeout, .tlsHandshakeTimeout, .readTimeout, .writeTimeout, .deadlineExceeded,
                .getConnectionFromPoolTimeout:
                return timedOut
            case .remoteConnectionClosed:
                return truncated
            case .cancelled, .alreadyShutdown:
                return cancelled
            case .invalidURL, .emptyHost, .emptyScheme:
                return make(.invalidURL, "The address \(CalDAVError.redact(request.url)) cannot be used.")
            default:
                return make(.connectionFailed, "The request to \(host) failed.")
            }
        case is CancellationError:
            return cancelled
        case is NIOTooManyBytesError:
            return tooLarge
        case let error as NIOHTTPDecompression.DecompressionError:
            return error == .limit ? tooLarge : truncated
        case is NIOHTTPDecompression.ExtraDecompressionError:
            return truncated
        case let error as HTTPParserError:
            // The connection ended mid-response; anything else is not HTTP at all.
            return error == .invalidEOFState
                ? truncated : make(.malformedResponse, "\(host) did not answer in HTTP.")
        case let error as NIOConnectionError where error.connectionErrors.isEmpty && error.namesNoHost:
            return make(.unknownHost, "No server is named \(host).")
        case is NIOConnectionError:
            return cannotConnect
        case let error as IOError where error.errnoCode == ECONNREFUSED:
            return cannotConnect
        case let error as IOError where error.errnoCode == ECONNRESET || error.errnoCode == EPIPE:
            return truncated
        case let error as NIOSSLError:
            // A TLS connection that ends without close_notify may have cut the response.
            if case .uncleanShutdown = error { return truncated }
            // What a plain HTTP answer reads as to TLS: Radicale on its default port, say, with
            // https in the URL. The certificate advice sent users to install one (helper-84).
            if String(describing: error).contains("WRONG_VERSION_NUMBER") {
                return make(.notTLS, "\(address) does not speak TLS (https).")
            }
            return tlsFailed
        case is NIOSSLExtraError, is BoringSSLError:
            return tlsFailed
        default:
            return make(.connectionFailed, "The request to \(host) failed.")
        }
    }
}

extension NIOConnectionError {
    /// Whether the resolver answered that the name does not exist (`EAI_NONAME`), for IPv4 and
    /// IPv6 alike; a failure to ask (`EAI_AGAIN`, offline) is no such answer.
    var namesNoHost: Bool {
        [dnsAError, dnsAAAAError].allSatisfy { ($0 as? SocketAddressError.UnknownHost)?.errorCode == Int(EAI_NONAME) }
    }
}

extension Duration {
    /// Whole milliseconds, for logs and measurements.
    var milliseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1000 + attoseconds / 1_000_000_000_000_000
    }
}
