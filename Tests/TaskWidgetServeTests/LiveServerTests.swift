import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import TaskWidgetConfig
import TaskWidgetCore
import TaskWidgetStore
import Testing

@testable import TaskWidgetServe
@testable import TaskWidgetTestSupport

/// The whole server on a real loopback socket, following a real store: SSE, HEAD and 304 on the
/// wire, the store going away and coming back, shutdown.
@Suite(.timeLimit(.minutes(2))) struct LiveServerTests {
    @Test func hummingbirdsLiveClientGetsJSONErrors() async throws {
        // HummingbirdTesting's `.live`: a real server on a free port and a one-connection client.
        let environment = try ServeEnvironment()
        try environment.publish()
        let app = try makeServeApplication(environment.dependencies(), listen: ListenAddress(host: "127.0.0.1", port: 0), logger: quietLogger)
        try await withTaskExecutorPreference(DedicatedExecutor.shared) {
            try await app.test(.live) { client in
                #expect(try await client.execute(uri: "/healthz", method: .get).status == .ok)
                try await client.execute(uri: "/nope", method: .get) { response in
                    #expect(response.status == .notFound)
                    #expect(String(buffer: response.body) == "{\"error\":\"not found\"}\n")
                }
            }
        }
    }

    /// Every thread of Swift's cooperative pool blocked (as end-to-end tests block them while they
    /// wait for their programs): the server still answers, and a stream still hears a change and
    /// its heartbeats. (Without ``DedicatedExecutor`` all came back empty; with a heartbeat from
    /// an unstructured task, which does not inherit the executor, CI saw one in 5 s instead of 25.)
    @Test func theServerAnswersWhileSwiftsPoolIsBlocked() async throws {
        let environment = try ServeEnvironment()
        var limits = ServeLimits()
        limits.eventHeartbeat = .milliseconds(100)
        try await withLiveServer(environment, limits: limits) { port in
            let width = ProcessInfo.processInfo.activeProcessorCount
            let started = DispatchSemaphore(value: 0)
            let release = DispatchSemaphore(value: 0)
            let blockers = (0..<width).map { _ in
                Task.detached {
                    started.signal()
                    release.wait()
                }
            }
            let (health, change, heartbeats) = try await onThread {
                // In the full suite other tests may hold the pool's threads already, and a blocker
                // would wait for them (they may wait for this test): the pool is busy either way.
                for _ in 0..<width where started.wait(timeout: .now() + 2) == .timedOut { break }
                // Released from this thread: a task awaiting the pool could not release them.
                defer { for _ in blockers { release.signal() } }
                let stream = try RawConnection(port: port)
                stream.send("GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                _ = stream.receive(timeout: 10) { $0.contains("event: change") && $0.contains("}\n\n") }
                _ = try environment.store.store.addTask(NewTask(title: "While blocked"), now: ServeEnvironment.now)
                let change = stream.receive(timeout: 10) { $0.contains("event: change") && $0.hasSuffix("}\n\n\r\n") }
                let heartbeats = stream.receive(timeout: 10) { $0.components(separatedBy: ": keep-alive\n\n").count > 3 }
                return (try rawGET(port: port, "/healthz"), change.text, heartbeats.text)
            }
            #expect(health.hasPrefix("HTTP/1.1 200 OK\r\n"))
            #expect(change.contains("event: change"))
            #expect(heartbeats.components(separatedBy: ": keep-alive\n\n").count > 3)
        }
    }

    /// Another connection adds a task: the follower sees the store change (inotify) and every
    /// open stream gets the new state; a stream that goes away unsubscribes.
    @Test func eventsFollowAStoreChangeAndCleanUp() async throws {
        let environment = try ServeEnvironment()
        try await withLiveServer(environment) { port in
            try await onThread {
                let stream = try RawConnection(port: port)
                stream.send("GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n")
                // (each write is a chunk: "SIZE\r\nDATA\r\n", so an event ends in "}\n\n" before the chunk's CRLF)
                let opening = stream.receive(timeout: 10) { $0.contains("event: change") && $0.contains("}\n\n") }
                #expect(opening.text.hasPrefix("HTTP/1.1 200 OK\r\n"))
                #expect(opening.text.lowercased().contains("content-type: text/event-stream\r\n"))
                #expect(opening.text.contains("retry: 2000"))
                #expect(opening.text.contains("\"status\":\"1 overdue"))

                _ = try environment.store.store.addTask(NewTask(title: "Water the plants"), now: ServeEnvironment.now)
                let change = stream.receive(timeout: 10) { $0.contains("event: change") && $0.hasSuffix("}\n\n\r\n") }
                #expect(change.text.components(separatedBy: "event: change").count == 2, "one event for the change")
                #expect(change.text.contains("\"hash\":"))
                #expect(!change.text.contains(opening.text.firstMatch(of: /"hash":"[0-9a-f]+"/).map { String($0.output) } ?? "?"))
            }
            // The connection closed with the thread's end: the stream's subscriber goes with it.
            await environment.broadcaster.waitForSubscribers(count: 0)
        }
    }

    @Test func eventsSkipTheOpeningStateTheClientHas() async throws {
        let environment = try ServeEnvironment()
        try environment.publish()
        let version = environment.cache.current.version
        try await withLiveServer(environment) { port in
            try await onThread {
                let stream = try RawConnection(port: port)
                stream.send("GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\nLast-Event-ID: \(version)\r\n\r\n")
                // The opening is written as one buffer: had it an event, it would come with the retry.
                let opening = stream.receive(timeout: 10) { $0.contains("retry:") }
                #expect(opening.text.contains("retry: 2000"))
                #expect(!opening.text.contains("event: change"))
            }
        }
    }

    @Test func eventsSendHeartbeats() async throws {
        let environment = try ServeEnvironment()
        var limits = ServeLimits()
        limits.eventHeartbeat = .milliseconds(200)
        try await withLiveServer(environment, limits: limits) { port in
            try await onThread {
                let stream = try RawConnection(port: port)
                stream.send("GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                let text = stream.receive(timeout: 5) { $0.components(separatedBy: ": keep-alive\n\n").count > 2 }
                #expect(text.text.components(separatedBy: ": keep-alive\n\n").count > 2)
            }
        }
    }

    /// The store deleted: every stream hears why, images become the error image with 503; the store
    /// made again: everything is back, without a restart.
    @Test func aDeletedStoreIs503UntilItIsBack() async throws {
        let environment = try ServeEnvironment()
        let path = environment.store.path
        try await withLiveServer(environment) { port in
            try await onThread {
                let stream = try RawConnection(port: port)
                stream.send("GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                _ = stream.receive(timeout: 10) { $0.contains("event: change") && $0.contains("}\n\n") }
                try environment.store.close()
                for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
                let failure = stream.receive(timeout: 10) { $0.contains("\"error\":") && $0.hasSuffix("}\n\n\r\n") }
                #expect(failure.text.contains("\"error\":\"the store \(path) is gone: restore it"))
                // The error image is drawn, and in this process drawing waits its turn behind every
                // other test's render (one FontSystem; CI once waited over 5 s): a minute at most.
                let image = try rawGET(port: port, "/widget/medium.png", timeout: 60)
                #expect(image.hasPrefix("HTTP/1.1 503 Service Unavailable\r\n"))
                #expect(image.lowercased().contains("content-type: image/png\r\n"))
                #expect(try rawGET(port: port, "/status").hasPrefix("HTTP/1.1 503"))
                #expect(try rawGET(port: port, "/healthz").hasPrefix("HTTP/1.1 503"))

                let again = try TemporaryStore.open(path, mode: .readWrite)
                _ = try again.addTask(NewTask(title: "Start over"), now: ServeEnvironment.now)
                // Making the store and adding the task are two commits: the follower may publish
                // the empty store in between ("No open tasks"), and then the task.
                let back = stream.receive(timeout: 10) { $0.contains("next: Start over") && $0.hasSuffix("}\n\n\r\n") }
                #expect(back.text.contains("next: Start over"))
                #expect(try rawGET(port: port, "/widget/medium.png", timeout: 60).hasPrefix("HTTP/1.1 200 OK\r\n"))
            }
        }
    }

    @Test func gracefulShutdownEndsOpenStreams() async throws {
        let environment = try ServeEnvironment()
        let stream = try await withLiveServer(environment) { port in
            try await onThread {
                let stream = try RawConnection(port: port)
                stream.send("GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                _ = stream.receive(timeout: 10) { $0.contains("event: change") }
                return UncheckedBox(stream)
            }
        }
        // withLiveServer returned: the server drained although a stream was open. The client sees
        // the chunked body end and the connection close.
        let end = try await onThread { stream.value.receive(timeout: 30) }
        #expect(end.closed)
    }

    /// Without a token, a request that names another host than this machine gets 421: a web page
    /// whose own name an attacker rebinds to 127.0.0.1 (DNS rebinding) sends that name, and read
    /// the titles from /status and /events. An IP address or localhost, with or without a port,
    /// is this machine.
    @Test func aRequestNamingAnotherHostIsRefusedWithoutAToken() async throws {
        let environment = try ServeEnvironment()
        try await withLiveServer(environment) { port in
            try await onThread {
                for (host, status) in [
                    ("attacker.example", "421 Misdirected Request"), ("attacker.example:\(port)", "421 Misdirected Request"),
                    ("127.0.0.1:\(port)", "200 OK"), ("localhost", "200 OK"), ("LOCALHOST:\(port)", "200 OK"), ("[::1]:\(port)", "200 OK"),
                    ("localhost.:\(port)", "200 OK"), ("localhost.attacker.example", "421 Misdirected Request"),
                ] {
                    let connection = try RawConnection(port: port)
                    connection.send("GET /status HTTP/1.1\r\nHost: \(host)\r\nConnection: close\r\n\r\n")
                    let response = connection.receive(timeout: 10) { $0.contains("\r\n\r\n") }.text
                    #expect(response.hasPrefix("HTTP/1.1 \(status)\r\n"), "\(host): \(response)")
                }
            }
        }
    }

    @Test func headAndNotModifiedOnTheWire() async throws {
        let environment = try ServeEnvironment()
        try await withLiveServer(environment) { port in
            try await onThread {
                let connection = try RawConnection(port: port)
                // HEAD then GET on one keep-alive connection: had HEAD sent a body, the second
                // response would be misread.
                connection.send("HEAD /widget/medium.png HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                let head = connection.receive(timeout: 60) { $0.hasSuffix("\r\n\r\n") }.text  // drawn: may wait behind other tests' renders
                let length = try #require(Self.header("content-length", in: head))
                #expect(Int(length)! > 1000)
                let eTag = try #require(Self.header("etag", in: head))

                connection.send("GET /widget/medium.png HTTP/1.1\r\nHost: 127.0.0.1\r\nIf-None-Match: \(eTag)\r\n\r\n")
                let notModified = connection.receive(timeout: 5) { $0.hasSuffix("\r\n\r\n") }.text
                #expect(notModified.hasPrefix("HTTP/1.1 304 Not Modified\r\n"))
                #expect(Self.header("content-length", in: notModified) == nil)
                #expect(Self.header("transfer-encoding", in: notModified) == nil)
                #expect(Self.header("etag", in: notModified) == eTag)

                connection.send("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                let health = connection.receive(timeout: 5) { $0.hasSuffix("ok\n") }.text
                #expect(health.hasPrefix("HTTP/1.1 200 OK\r\n"))
            }
        }
    }

    static func header(_ name: String, in response: String) -> String? {
        for line in response.components(separatedBy: "\r\n") {
            let parts = line.split(separator: ":", maxSplits: 1)
            if parts.count == 2, parts[0].lowercased() == name { return parts[1].trimmingCharacters(in: .whitespaces) }
        }
        return nil
    }
}

/// Moves a non-Sendable value across an `await` in tests.
struct UncheckedBox<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}
