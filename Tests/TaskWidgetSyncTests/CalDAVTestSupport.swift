import Foundation
import Logging
import TaskWidgetSync

@testable import TaskWidgetTestSupport

/// A small VTODO with CRLF line ends, as clients send them.
func vtodo(uid: String, summary: String, extra: [String] = []) -> String {
    (["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//taskwidget//tests//EN", "BEGIN:VTODO", "UID:\(uid)",
      "DTSTAMP:20260101T090000Z", "SUMMARY:\(summary)"] + extra + ["END:VTODO", "END:VCALENDAR", ""])
        .joined(separator: "\r\n")
}

/// A fresh Radicale, a real transport counting its requests, and a client for the server's first
/// user; everything is stopped when `body` returns.
func withRadicale<Result>(
    _ options: RadicaleServer.Options = RadicaleServer.Options(),
    transportConfiguration: HTTPClientTransport.Configuration = HTTPClientTransport.Configuration(),
    _ body: (RadicaleServer, CalDAVClient, CountingTransport) async throws -> Result
) async throws -> Result {
    try await RadicaleServer.withServer(options, slots: RadicaleServer.slots) { server in
        try await HTTPClientTransport.withTransport(configuration: transportConfiguration) { transport in
            let counting = CountingTransport(transport)
            let client = CalDAVClient(
                accountURL: server.baseURL,
                credentials: CalDAVCredentials(username: server.username, password: server.password),
                transport: counting)
            return try await body(server, client, counting)
        }
    }
}

extension CalDAVClient {
    /// A new task list under the first user's home, named after the test.
    func makeTaskList(_ server: RadicaleServer, _ name: String) async throws -> CalendarCollection {
        try await makeCalendar(
            at: server.baseURL.appendingPathComponent("\(server.username)/\(name)/"), displayName: name,
            color: "#3366CCFF")
    }
}

/// Runs `operation` over `items` with at most `limit` in flight; the results in input order.
func concurrentMap<Item: Sendable, Value: Sendable>(
    _ items: [Item], limit: Int, _ operation: @escaping @Sendable (Item) async throws -> Value
) async throws -> [Value] {
    try await withThrowingTaskGroup(of: (Int, Value).self) { group in
        var results = [Value?](repeating: nil, count: items.count)
        var next = 0
        while next < min(limit, items.count) {
            let index = next
            group.addTask { (index, try await operation(items[index])) }
            next += 1
        }
        while let (index, value) = try await group.next() {
            results[index] = value
            if next < items.count {
                let index = next
                group.addTask { (index, try await operation(items[index])) }
                next += 1
            }
        }
        return results.map { $0! }
    }
}

/// A transport answering from a script, for the protocol logic without a network.
final class ScriptedTransport: DAVTransport, @unchecked Sendable {
    private let lock = NSLock()
    private var answers: [@Sendable (DAVRequest) -> DAVResponse]
    private(set) var requests: [DAVRequest] = []

    init(_ answers: [@Sendable (DAVRequest) -> DAVResponse]) { self.answers = answers }

    func send(_ request: DAVRequest) async throws(CalDAVError) -> DAVResponse {
        let answer: (@Sendable (DAVRequest) -> DAVResponse)? = lock.withLock {
            requests.append(request)
            return answers.isEmpty ? nil : answers.removeFirst()
        }
        guard let answer else { throw CalDAVError(.unexpectedStatus, "script exhausted") }
        return answer(request)
    }

    var sent: [DAVRequest] { lock.withLock { requests } }
}

func multistatus(_ inner: String) -> DAVResponse {
    DAVResponse(
        status: 207, headers: [("Content-Type", "application/xml")],
        body: Data(#"<?xml version="1.0"?><d:multistatus xmlns:d="DAV:">\#(inner)</d:multistatus>"#.utf8))
}
