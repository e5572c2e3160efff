import Foundation
import Synchronization
import Testing

@testable import TaskWidgetTestSupport

@testable import TaskWidgetSync

/// Failures between the client and a real Radicale, made by the fault proxy
/// (`scripts/faultproxy.py`): each must become a typed error with the right exit status, and a
/// failed pull must return nothing, so that the caller changes nothing locally.
@Suite struct FaultTests {
    /// A Radicale with a synced list, and a client that talks to it through the proxy.
    func withProxy(
        readTimeout: Duration = .seconds(30),
        _ body: (FaultProxy, CalDAVClient, CalendarCollection, CollectionSyncState, any DAVTransport) async throws -> Void
    ) async throws {
        var configuration = HTTPClientTransport.Configuration()
        configuration.idleTimeout = readTimeout
        try await withRadicale(transportConfiguration: configuration) { server, direct, counting in
            let list = try await direct.makeTaskList(server, "faults")
            _ = try await direct.create(
                vtodo(uid: "f1", summary: "f1"), at: CalDAVClient.objectHref(forUID: "f1", in: list.url), in: list.url)
            let state = try await direct.pullChanges(in: list.url, since: nil).state
            _ = try await direct.create(
                vtodo(uid: "f2", summary: "f2"), at: CalDAVClient.objectHref(forUID: "f2", in: list.url), in: list.url)

            let proxy = try await FaultProxy.start(upstream: server)
            let viaProxy = CalDAVClient(
                accountURL: proxy.baseURL, credentials: CalDAVCredentials(username: server.username, password: server.password),
                transport: counting)
            var proxied = list
            proxied.url = URL(string: list.url.path, relativeTo: proxy.baseURL)!.absoluteURL
            do {
                try await body(proxy, viaProxy, proxied, state, counting)
            } catch {
                await proxy.stop()
                throw error
            }
            await proxy.stop()
        }
    }

    /// A port past 65535 (in config.toml, or a redirect's Location) is refused before the HTTP
    /// client, which trapped on it (exit 132: helper-109).
    @Test(arguments: ["http://127.0.0.1:99999/", "http://[::1]:70000/", "http://localhost:4294967296/"])
    func aPortNoServerCanListenOnIsRefused(url: String) async throws {
        try await HTTPClientTransport.withTransport { transport in
            let error = await #expect(throws: CalDAVError.self) { try await transport.send(DAVRequest(method: "PROPFIND", url: URL(string: url)!)) }
            #expect(error?.code == .invalidURL)
        }
    }

    @Test func passingThroughWorks() async throws {
        try await withProxy { proxy, client, list, state, _ in
            let changes = try await client.pullChanges(in: list.url, since: state)
            #expect(changes.changed.count == 1)
            #expect(proxy.requestLog.count == 2)
        }
    }

    @Test(arguments: [
        (FaultProxy.Mode.status500, CalDAVError.Code.serverError, true),
        (.status503, .serverError, true),
        (.truncate, .truncatedResponse, true),
        (.garble, .malformedResponse, false),
        (.reset, .truncatedResponse, true),
    ])
    func faultsBecomeTypedErrors(mode: FaultProxy.Mode, code: CalDAVError.Code, isTransient: Bool) async throws {
        try await withProxy { proxy, client, list, state, _ in
            proxy.mode = mode
            let error = await #expect(throws: CalDAVError.self) { try await client.pullChanges(in: list.url, since: state) }
            #expect(error?.code == code, "\(error?.detailedDescription ?? "")")
            #expect(error?.code.isTransient == isTransient)
            #expect(error?.detailedDescription.contains("secret") == false)
        }
    }

    @Test func aStalledServerTimesOut() async throws {
        try await withProxy(readTimeout: .seconds(1)) { proxy, client, list, state, _ in
            proxy.mode = .stall
            let error = await #expect(throws: CalDAVError.self) { try await client.pullChanges(in: list.url, since: state) }
            #expect(error?.code == .timedOut, "\(error?.detailedDescription ?? "")")
            #expect(error?.code.isTransient == true)
        }
    }

    @Test func aServerTooSlowForTheDeadlineTimesOut() async throws {
        // A byte every 0.2 s never trips the idle timeout; the deadline ends the request, body
        // included.
        try await withProxy { proxy, client, list, state, _ in
            var configuration = HTTPClientTransport.Configuration()
            configuration.requestTimeout = .seconds(2)
            try await HTTPClientTransport.withTransport(configuration: configuration) { transport in
                let slow = CalDAVClient(
                    accountURL: client.accountURL, credentials: CalDAVCredentials(username: "alice", password: "secret"),
                    transport: transport)
                proxy.mode = .trickle
                let started = ContinuousClock.now
                let error = await #expect(throws: CalDAVError.self) { try await slow.pullChanges(in: list.url, since: state) }
                #expect(error?.code == .timedOut, "\(error?.detailedDescription ?? "")")
                #expect(error?.code.isTransient == true)
                #expect(ContinuousClock.now - started < .seconds(10))
            }
        }
    }

    @Test func aFailedMultigetAfterTheReportFailsTheWholePull() async throws {
        // The sync-collection REPORT passes, the calendar-multiget after it is cut: the pull fails as
        // a whole and the stored state stays as it was, so the next sync asks again.
        try await withProxy { proxy, client, list, state, transport in
            let partial = PartialFault(transport, proxy: proxy, passing: 1, then: .truncate)
            let faulty = CalDAVClient(
                accountURL: client.accountURL, credentials: CalDAVCredentials(username: "alice", password: "secret"),
                transport: partial)
            let error = await #expect(throws: CalDAVError.self) { try await faulty.pullChanges(in: list.url, since: state) }
            #expect(error?.code == .truncatedResponse)
            #expect(proxy.requestLog.map { $0.split(separator: " ").first } == ["pass", "truncate"])
            proxy.mode = .pass
            let retry = try await client.pullChanges(in: list.url, since: state)
            #expect(retry.changed.count == 1)
        }
    }
}

/// Passes `passing` requests, then switches the proxy to `mode` for the rest.
final class PartialFault: DAVTransport {
    private let base: any DAVTransport
    private let proxy: FaultProxy
    private let passing: Int
    private let mode: FaultProxy.Mode
    private let sent = Mutex(0)

    init(_ base: any DAVTransport, proxy: FaultProxy, passing: Int, then mode: FaultProxy.Mode) {
        self.base = base
        self.proxy = proxy
        self.passing = passing
        self.mode = mode
    }

    func send(_ request: DAVRequest) async throws(CalDAVError) -> DAVResponse {
        let count = sent.withLock { value -> Int in
            value += 1
            return value
        }
        proxy.mode = count > passing ? mode : .pass
        return try await base.send(request)
    }
}
