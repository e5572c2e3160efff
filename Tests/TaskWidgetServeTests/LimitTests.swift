import Foundation
import Glibc
import NIOCore
import TaskWidgetConfig
import TaskWidgetCore
import TaskWidgetStore
import Testing


@testable import TaskWidgetServe
@testable import TaskWidgetTestSupport

/// SPEC §11's bounds, attacked over real sockets; after each attack the server still serves.
@Suite(.timeLimit(.minutes(2))) struct LimitTests {
    @Test func oneMegabyteHeaderIsRefused() async throws {
        let environment = try ServeEnvironment()
        try await withLiveServer(environment) { port in
            try await onThread {
                let connection = try RawConnection(port: port)
                let big = String(repeating: "a", count: 1_000_000)
                connection.send("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: \(big)\r\n\r\n")
                // NIO's decoder stops at 8 KiB; the answer comes before the rest is read, and the
                // server reads the rest before it closes (else the client's kernel could discard it).
                let answer = RawResponse(Array(connection.receive(timeout: 10).text.utf8))
                #expect(answer?.status == 431)
                #expect(answer?.headers["content-type"] == "application/json; charset=utf-8")
                #expect(answer?.headers["connection"] == "close")
                #expect(answer?.text == "{\"error\":\"request head too large\"}\n")
                #expect(try rawGET(port: port, "/healthz").hasPrefix("HTTP/1.1 200 OK"))
            }
        }
    }

    @Test func longRequestLineAndTooManyHeadersAreRefused() async throws {
        let environment = try ServeEnvironment()
        try await withLiveServer(environment) { port in
            try await onThread {
                let longURL = try rawGET(port: port, "/healthz?" + String(repeating: "b", count: 100_000))
                #expect(longURL.hasPrefix("HTTP/1.1 431 "))
                #expect(longURL.hasSuffix("\r\n\r\n{\"error\":\"request head too large\"}\n"))
                let many = (0..<100).map { "X-H\($0): v\r\n" }.joined()
                let manyHeaders = try rawGET(port: port, "/healthz", headers: many)
                #expect(manyHeaders.hasPrefix("HTTP/1.1 431 "))
                #expect(manyHeaders.hasSuffix("\r\n\r\n{\"error\":\"request head too large\"}\n"))
                #expect(try rawGET(port: port, "/healthz").hasPrefix("HTTP/1.1 200 OK"))
            }
        }
    }

    /// What NIO's decoder cannot parse, and an HTTP/1.1 request without `Host` or with two (RFC 9112
    /// §3.2), gets one line of JSON, as a bad path or parameter does (SPEC §11), and the connection
    /// is closed.
    @Test(arguments: [
        ("BREW /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", 501, "unknown method"),
        ("GET /healthz HTTP/9.9\r\nHost: 127.0.0.1\r\n\r\n", 400, "malformed request"),
        ("GET /healthz HTTP/1.1\r\nHost x\r\n\r\n", 400, "malformed request"),
        ("GET /healthz HTTP/1.1\r\n\r\n", 400, "request without Host header"),
        ("GET /healthz HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", 400, "request with more than one Host header"),
        ("GET /healthz HTTP/1.0\r\nHost: a\r\nhost: b\r\n\r\n", 400, "request with more than one Host header"),
        ("\u{1}\u{2}\u{3} nonsense\r\n\r\n", 501, "unknown method"),
        ("GET /a b HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", 400, "malformed request"),
        ("POST /api/log HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: many\r\n\r\n", 400, "malformed request"),
        // Codings serve does not decode: answered as bodiless, then a second, empty 400 (helper-136).
        ("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: gzip\r\n\r\n", 501, Self.unknownCoding),
        ("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: xchunked\r\n\r\n", 501, Self.unknownCoding),
        ("POST /api/log HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n", 501, Self.unknownCoding),
    ])
    func malformedRequestGetsJSON(request: String, status: Int, message: String) async throws {
        let environment = try ServeEnvironment()
        try await withLiveServer(environment) { port in
            try await onThread {
                let connection = try RawConnection(port: port)
                connection.send(request)
                let received = connection.receive(timeout: 10)
                let answer = RawResponse(Array(received.text.utf8))
                #expect(answer?.status == status)
                #expect(answer?.headers["content-type"] == "application/json; charset=utf-8")
                #expect(answer?.text == "{\"error\":\"\(message)\"}\n")
                #expect(received.closed)
                #expect(try rawGET(port: port, "/healthz").hasPrefix("HTTP/1.1 200 OK"))
            }
        }
    }

    static let unknownCoding = "transfer coding not implemented: send a body as chunked or with Content-Length"

    /// A refused request pipelined behind others is answered after them: closing at once lost the
    /// answers already made (helper-137).
    @Test(arguments: ["Transfer-Encoding: gzip", "Content-Length: 10000000"])
    func aRefusalPipelinedBehindRequestsComesAfterTheirAnswers(header: String) async throws {
        let environment = try ServeEnvironment()
        try await withLiveServer(environment) { port in
            try await onThread {
                let connection = try RawConnection(port: port)
                let request = "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
                connection.send(request + request + "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\(header)\r\n\r\n")
                let received = connection.receive(timeout: 10)
                #expect(received.text.components(separatedBy: "HTTP/1.1 200 OK").count == 3, "\(received.text)")
                #expect(received.text.hasSuffix("\"}\n"), "\(received.text)")
                #expect(received.text.contains("HTTP/1.1 501 ") || received.text.contains("HTTP/1.1 413 "), "\(received.text)")
                #expect(received.closed)
            }
        }
    }

    /// A body that turns malformed after its request was answered (405 before the body was read)
    /// ends the connection without a second answer, which the client would take for the answer to
    /// its next request.
    @Test func aMalformedBodyAfterTheAnswerClosesWithoutASecondAnswer() async throws {
        let environment = try ServeEnvironment()
        try await withLiveServer(environment) { port in
            try await onThread {
                let connection = try RawConnection(port: port)
                connection.send("POST /status HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\n")
                let first = connection.receive(timeout: 10) { $0.hasSuffix("\"}\n") }
                #expect(first.text.hasPrefix("HTTP/1.1 405 "))
                connection.send("zz\r\nnot a chunk\r\n")
                let rest = connection.receive(timeout: 10)
                #expect(rest.text.isEmpty, "a second answer: \(rest.text)")
                #expect(rest.closed)
                #expect(try rawGET(port: port, "/healthz").hasPrefix("HTTP/1.1 200 OK"))
            }
        }
    }

    /// A connection that the request does not keep alive (HTTP/1.0 by default, `Connection: Close`
    /// in any case) is closed after its answer, not held for the idle timeout (30 s here), and the
    /// answer says so: without it, clients sent their next request on it and got 400 (helper-165).
    @Test(arguments: [
        "GET /healthz HTTP/1.0\r\n\r\n",
        "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: Close\r\n\r\n",
        "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: TE, close\r\n\r\n",
        // An upgrade serve does not make: NIO's decoder reads nothing after it (helper-103).
        "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\nHTTP2-Settings: AAMAAABkAAQAoAAAAAIAAAAA\r\n\r\n",
        "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: upgrade\r\nUpgrade: websocket\r\n\r\n",
    ])
    func connectionNotKeptAliveIsClosed(request: String) async throws {
        let environment = try ServeEnvironment()
        try await withLiveServer(environment) { port in
            try await onThread {
                let connection = try RawConnection(port: port)
                connection.send(request)
                let answer = connection.receive(timeout: 20)
                #expect(answer.text.hasPrefix("HTTP/1.1 200 OK\r\n"))
                #expect(answer.text.hasSuffix("\r\n\r\nok\n"))
                #expect(answer.text.lowercased().contains("\r\nconnection: close\r\n"), "\(answer.text)")
                #expect(answer.closed)
            }
        }
    }

    /// The answer says the connection is kept: an HTTP/1.0 client that is not told waits for the
    /// close, 30 s a request (helper-124).
    @Test func http10KeepAliveIsKept() async throws {
        let environment = try ServeEnvironment()
        try await withLiveServer(environment) { port in
            try await onThread {
                let connection = try RawConnection(port: port)
                for _ in 0..<2 {
                    connection.send("GET /healthz HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
                    let answer = connection.receive(timeout: 5) { $0.hasSuffix("ok\n") }
                    #expect(answer.text.hasPrefix("HTTP/1.1 200 OK\r\n"))
                    #expect(answer.text.lowercased().contains("\r\nconnection: keep-alive\r\n"), "\(answer.text)")
                    #expect(!answer.closed)
                }
            }
        }
    }

    /// The event stream goes to an HTTP/1.0 client as HTTP/1.0, its end the connection's:
    /// HTTP/1.1's chunk sizes came mixed into the events (helper-124).
    @Test func anEventStreamForHTTP10IsNotChunked() async throws {
        let environment = try ServeEnvironment()
        try await withLiveServer(environment) { port in
            try await onThread {
                let connection = try RawConnection(port: port)
                connection.send("GET /events HTTP/1.0\r\n\r\n")
                let answer = connection.receive(timeout: 10) { $0.contains("\r\n\r\nretry:") }
                #expect(answer.text.hasPrefix("HTTP/1.0 200 OK\r\n"), "\(answer.text)")
                #expect(!answer.text.lowercased().contains("transfer-encoding"), "\(answer.text)")
                #expect(answer.text.contains("\r\n\r\nretry:"), "\(answer.text)")
            }
        }
    }

    /// A head that trickles in for ever is cut, and others are served meanwhile. The test trickles
    /// until the cut, for at most a minute, and prints when it came (and, when late, what the
    /// process's threads did meanwhile): in the full suite on two busy
    /// cores the cut has come later than the 1 s limit, and a fixed window (the time a 142-byte
    /// head took) failed CI although the server cut the connection. (A timing window in an
    /// end-to-end test is what issue 13 took out elsewhere.)
    @Test func slowlorisIsCutAndOthersAreServed() async throws {
        let environment = try ServeEnvironment()
        var limits = ServeLimits()
        limits.idleTimeout = .seconds(1)
        try await withLiveServer(environment, limits: limits) { port in
            try await onThread {
                let slow = try RawConnection(port: port)
                let started = Date()
                let lateness = LatenessReport("the slowloris cut", dueBy: started.addingTimeInterval(3))
                var closed = !slow.send("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
                // One byte every 50 ms at least: the head never ends (a minute is 1 200 bytes, far
                // below the 8 KiB header limit, so only the idle timeout can cut it).
                var sent = 0
                while !closed, Date().timeIntervalSince(started) < 60 {
                    closed = !slow.send("z")
                    sent += 1
                    // meanwhile, others are answered
                    if sent % 10 == 1 {
                        #expect(try rawGET(port: port, "/healthz", timeout: 30).hasPrefix("HTTP/1.1 200 OK"))
                    }
                    closed = closed || slow.receive(timeout: 0.05).closed
                    lateness.check()
                }
                #expect(closed, "the trickling connection was not cut within a minute")
                print("slowloris: cut after \(String(format: "%.1f", Date().timeIntervalSince(started))) s and \(sent) bytes (limit 1 s)")
            }
        }
    }

    @Test func declaredOversizeBodyGets413() async throws {
        let environment = try ServeEnvironment()
        try await withLiveServer(environment) { port in
            try await onThread {
                let connection = try RawConnection(port: port)
                connection.send("POST /api/log HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 10000000\r\n\r\n")
                connection.send(String(repeating: "x", count: 100_000))
                let answer = connection.receive(timeout: 5)
                // (NIO's encoder writes its own reason phrase: "Payload Too Large")
                #expect(answer.text.hasPrefix("HTTP/1.1 413 "))
                #expect(answer.text.hasSuffix("{\"error\":\"request body too large\"}\n"))
                #expect(try rawGET(port: port, "/healthz").hasPrefix("HTTP/1.1 200 OK"))
            }
        }
    }

    @Test func chunkedOversizeBodyIsCut() async throws {
        let environment = try ServeEnvironment()
        try await withLiveServer(environment) { port in
            try await onThread {
                let connection = try RawConnection(port: port)
                connection.send("POST /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\n")
                let chunk = "4000\r\n" + String(repeating: "y", count: 0x4000) + "\r\n"
                var cut = false
                for _ in 0..<64 where !cut {  // 1 MiB in all, the limit is 64 KiB
                    cut = !connection.send(chunk) || connection.receive(timeout: 0.02).closed
                }
                // (a minute at most: on two busy cores the server may read the rest late)
                if !cut { cut = connection.receive(timeout: 60).closed }
                #expect(cut)
                #expect(try rawGET(port: port, "/healthz").hasPrefix("HTTP/1.1 200 OK"))
            }
        }
    }

    /// A body that trickles in is cut after the body timeout however steadily it comes. As for
    /// the slowloris head, the test trickles until the cut (at most a minute) and prints when, and
    /// what the process's threads did if the cut is late.
    @Test func tricklingBodyIsCut() async throws {
        let environment = try ServeEnvironment()
        var limits = ServeLimits()
        limits.bodyTimeout = .seconds(1)
        try await withLiveServer(environment, limits: limits) { port in
            try await onThread {
                let connection = try RawConnection(port: port)
                let started = Date()
                let lateness = LatenessReport("the trickling body's cut", dueBy: started.addingTimeInterval(3))
                // A body of 1 000 bytes (under the 64 KiB limit), one byte every 200 ms at least:
                // it would take 200 s, the limit is 1 s.
                var closed = !connection.send("POST /api/log HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1000\r\n\r\n")
                var sent = 0
                while !closed, sent < 1000, Date().timeIntervalSince(started) < 60 {
                    closed = !connection.send("x")
                    sent += 1
                    closed = closed || connection.receive(timeout: 0.2).closed
                    lateness.check()
                }
                #expect(closed, "the trickling body was not cut within a minute")
                #expect(sent < 1000)
                print("trickling body: cut after \(String(format: "%.1f", Date().timeIntervalSince(started))) s and \(sent) bytes (limit 1 s)")
            }
        }
    }

    @Test func connectionLimitQueuesTheNextClient() async throws {
        let environment = try ServeEnvironment()
        var limits = ServeLimits()
        limits.maximumConnections = 2
        try await withLiveServer(environment, limits: limits) { port in
            try await onThread {
                let first = try RawConnection(port: port)
                let second = try RawConnection(port: port)
                // both are accepted and usable
                first.send("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                #expect(first.receive(timeout: 5) { $0.hasSuffix("ok\n") }.text.hasPrefix("HTTP/1.1 200"))
                second.send("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                #expect(second.receive(timeout: 5) { $0.hasSuffix("ok\n") }.text.hasPrefix("HTTP/1.1 200"))
                // the third connects (kernel backlog) but is not accepted: no answer
                let third = try RawConnection(port: port)
                third.send("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                #expect(third.receive(timeout: 1).text.isEmpty)
                // until a slot frees
                shutdown(first.fd, Int32(SHUT_RDWR))
                #expect(third.receive(timeout: 5) { $0.hasSuffix("ok\n") }.text.hasPrefix("HTTP/1.1 200"))
            }
        }
    }

    /// One host that holds every connection it may (a slowloris, a stuck poller) leaves room for
    /// the others: past its share a new connection of its own is closed at once, and another host
    /// is answered at once. Without the share, the host took all of `maximumConnections` and the
    /// other waited in the backlog for the idle timeout.
    @Test func oneHostCannotHoldEveryConnection() async throws {
        let environment = try ServeEnvironment()
        var limits = ServeLimits()
        (limits.maximumConnections, limits.maximumConnectionsPerAddress) = (8, 4)
        let log = LogRecorder()
        try await withLiveServer(environment, limits: limits, logger: log.logger) { port in
            try await onThread {
                // 20 connections from one host, each with half a request head.
                let held = try (0..<20).map { _ in try RawConnection(port: port) }
                for connection in held { connection.send("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n") }
                var open = held
                #expect(waitUntil(within: .seconds(30), every: .milliseconds(20)) {
                    open = open.filter { !$0.receive(timeout: 0.05).closed }
                    return open.count == 4
                }, "\(open.count) of the host's 20 connections stay open, where it may have 4")
                #expect(log.wait(for: "its address has 4 open already", timeout: 10))
                // Another host is served now, not after the idle timeout (30 s).
                let started = ContinuousClock.now
                #expect(try rawGET(port: port, "/healthz", timeout: 10, from: "127.0.0.2").hasPrefix("HTTP/1.1 200 OK"))
                #expect(ContinuousClock.now - started < .seconds(10))
                // The host's open ones still work, and a closed one frees a place for it.
                open[0].send("\r\n")
                #expect(open[0].receive(timeout: 10) { $0.hasSuffix("ok\n") }.text.hasPrefix("HTTP/1.1 200"))
                shutdown(open[1].fd, Int32(SHUT_RDWR))
                #expect(waitUntil(within: .seconds(10), every: .milliseconds(50)) {
                    (try? rawGET(port: port, "/healthz", timeout: 1))?.hasPrefix("HTTP/1.1 200 OK") == true
                })
            }
        }
    }

    /// A client is counted by its IPv4 address, or by its IPv6 address's /64 network (one host's
    /// to pick addresses from); a dual-stack socket's `::ffff:` form is the IPv4 address.
    @Test(arguments: [
        ("192.0.2.1", "192.0.2.1"), ("2001:db8::1", "20010db800000000/64"), ("2001:db8::ffff:2", "20010db800000000/64"),
        ("2001:db8:0:1::1", "20010db800000001/64"), ("::ffff:192.0.2.1", "192.0.2.1"), ("::1", "0000000000000000/64"),
    ])
    func clientsAreCountedByAddressOrNetwork(address: String, key: String) throws {
        #expect(AddressLimitHandler.clientKey(try SocketAddress(ipAddress: address, port: 443)) == key)
    }

    @Test func clientThatReadsNothingIsCut() async throws {
        // 16 MB that do not compress, more than the kernel's socket buffers take (tcp_wmem's
        // maximum is 4 MiB): the server's channel turns unwritable and stays so.
        var random = SplitMix64(seed: 0x5EB7E)
        let big = Data((0..<16_000_000).map { _ in UInt8(truncatingIfNeeded: random.next()) })
        let environment = try ServeEnvironment(draw: { _, _ in big })
        var limits = ServeLimits()
        limits.writeStallTimeout = .seconds(1)
        let log = LogRecorder()
        try await withLiveServer(environment, limits: limits, logger: log.logger) { port in
            try await onThread {
                // A client with a 4 KiB receive buffer that reads nothing: the server's channel turns
                // unwritable and stays so. (Its hang-up cannot be seen from here without reading: the
                // FIN waits behind the data. The server's log tells when it happened.)
                let connection = try RawConnection(port: port, receiveBuffer: 4096)
                connection.send("GET /widget/4096x4096.png HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                #expect(log.wait(for: "client read nothing", timeout: 60))
                // The close comes once the kernel's buffers are read: within a minute at most (CI
                // once saw no close for 30 s, in the stall that delays the other cuts).
                let drainStarted = Date()
                let lateness = LatenessReport("the close of the connection that reads nothing", dueBy: drainStarted.addingTimeInterval(3))
                var total = (bytes: 0, closed: false)
                while !total.closed, Date().timeIntervalSince(drainStarted) < 60 {
                    let part = connection.drain(timeout: 1)
                    total = (total.bytes + part.bytes, part.closed)
                    lateness.check()
                }
                let waited = String(format: "%.1f", Date().timeIntervalSince(drainStarted))
                print("reads nothing: \(total.closed ? "closed" : "still open") \(waited) s after the server's log line")
                #expect(total.closed)
                #expect(total.bytes < 16_000_000, "the whole image arrived: the connection was not cut")
                #expect(try rawGET(port: port, "/healthz").hasPrefix("HTTP/1.1 200 OK"))
            }
        }
    }

    @Test func idleTimeoutDoesNotCutAnEventStream() async throws {
        let environment = try ServeEnvironment()
        var limits = ServeLimits()
        limits.idleTimeout = .milliseconds(300)
        limits.eventHeartbeat = .seconds(60)
        try await withLiveServer(environment, limits: limits) { port in
            try await onThread {
                let stream = try RawConnection(port: port)
                stream.send("GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                _ = stream.receive(timeout: 10) { $0.contains("}\n\n") }
                // silent for 5 idle timeouts: Hummingbird does not time out a response in progress
                #expect(!stream.receive(timeout: 1.5).closed)
                _ = try environment.store.store.addTask(NewTask(title: "Still here"), now: ServeEnvironment.now)
                #expect(stream.receive(timeout: 10) { $0.contains("event: change") }.text.contains("\"hash\":"))
            }
        }
    }
}
