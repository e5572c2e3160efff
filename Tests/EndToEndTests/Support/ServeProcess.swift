import Foundation
import Glibc
import Testing

@testable import TaskWidgetTestSupport

/// `taskwidget serve` started by the tests on a free loopback port (through `taskwidget`, which
/// hands the command to `taskwidget-serve`), with the sandbox's store, zone and home.
final class ServeProcess {
    let process: StreamingProcess
    let port: Int
    /// `serve`'s one line: `serving http://127.0.0.1:PORT/ from STORE`.
    let banner: String

    /// Starts serve with `arguments`; by default at the sandbox's `--now`, on a clock that stands
    /// still (so that every max-age is exact).
    init(_ sandbox: borrowing Sandbox, _ arguments: [String] = [], frozen: Bool = true, sourceLocation: SourceLocation = #_sourceLocation) throws {
        var all = ["serve", "--listen", "127.0.0.1:0"] + arguments
        if frozen { all += ["--clock-speed", "0"] }
        process = try StreamingProcess(sandbox.arguments(all), environment: sandbox.environment)
        let line = process.nextLine(within: .seconds(30))
        banner = try #require(line, "serve printed no address: \(process.stderrText)", sourceLocation: sourceLocation)
        let address = try #require(banner.firstMatch(of: #/^serving http://127\.0\.0\.1:(\d+)/ from /#), "\(banner)", sourceLocation: sourceLocation)
        port = Int(address.output.1)!
    }

    /// One request on a connection of its own, the whole answer read.
    func request(_ path: String, method: String = "GET", headers: [String: String] = [:], body: String? = nil) throws -> RawResponse {
        try httpRequest(port: port, path, method: method, headers: headers, body: body)
    }

    /// Opens `/events` and reads the opening state.
    func events(query: String = "") throws -> EventStream {
        let stream = EventStream(connection: try RawConnection(port: port))
        stream.connection.send("GET /events\(query) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        #expect(stream.next() != nil, "the opening state")
        return stream
    }

    /// SIGTERM, and the exit status.
    func terminate(_ signal: Int32 = SIGTERM) -> Int32? {
        process.send(signal)
        return process.waitForExit(within: .seconds(20))
    }
}

/// A `/events` stream read event by event.
final class EventStream {
    let connection: RawConnection
    private var pending = ""

    init(connection: RawConnection) {
        self.connection = connection
    }

    /// The `data:` of the next `change` event, or `nil` if none comes within `timeout` seconds.
    func next(timeout: Double = 10) -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if let range = pending.range(of: "event: change\ndata: ") {
                if let end = pending[range.upperBound...].range(of: "\n\n") {
                    let data = String(pending[range.upperBound..<end.lowerBound])
                    pending = String(pending[end.upperBound...])
                    return data
                }
            }
            let remaining = deadline.timeIntervalSinceNow
            guard remaining > 0 else { return nil }
            let (text, closed) = connection.receive(timeout: remaining) { $0.contains("\n\n") }
            pending += text
            if closed && !pending.contains("event: change") { return nil }
        }
    }
}
