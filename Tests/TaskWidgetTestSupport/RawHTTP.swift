import Foundation
import Glibc

/// A blocking TCP client for what HTTP clients will not do: trickle bytes, send a 1 MB header,
/// hold a stream open. Run it with ``onThread(_:)``, never on Swift's cooperative pool (two
/// threads on this machine): blocking there would stall the server's own handlers.
final class RawConnection {
    let fd: Int32

    /// - Parameters:
    ///   - receiveBuffer: SO_RCVBUF, set before connecting (a client that reads slowly).
    ///   - source: the client's own address, another host on loopback (`127.0.0.2`: Linux routes
    ///     all of 127/8 to it).
    init(port: Int, receiveBuffer: Int32? = nil, from source: String? = nil) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw RawError(call: "socket") }
        if var size = receiveBuffer {
            setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        if let source {
            var local = sockaddr_in()
            local.sin_family = sa_family_t(AF_INET)
            local.sin_addr.s_addr = inet_addr(source)
            let bound = withUnsafePointer(to: &local) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard bound == 0 else {
                close(fd)
                throw RawError(call: "bind")
            }
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else {
            close(fd)
            throw RawError(call: "connect")
        }
    }

    deinit { close(fd) }

    /// Sends everything; false when the peer has closed (EPIPE/ECONNRESET).
    @discardableResult
    func send(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if sent <= 0 { return false }
            offset += sent
        }
        return true
    }

    @discardableResult
    func send(_ text: String) -> Bool { send(Array(text.utf8)) }

    /// Reads until `done` holds for what arrived, the peer closes, or `timeout` passes.
    /// - Returns: the bytes and whether the peer closed.
    func receive(timeout: Double, until done: (String) -> Bool = { _ in false }) -> (text: String, closed: Bool) {
        var received: [UInt8] = []
        let deadline = ContinuousClock.now + .milliseconds(Int(timeout * 1000))
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let remaining = Self.milliseconds(until: deadline)
            if remaining <= 0 { return (String(decoding: received, as: UTF8.self), false) }
            var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, remaining + 1)
            if ready <= 0 { continue }
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count <= 0 { return (String(decoding: received, as: UTF8.self), true) }
            received += buffer[..<count]
            let text = String(decoding: received, as: UTF8.self)
            if done(text) { return (text, false) }
        }
    }
}

extension RawConnection {
    /// Reads and counts everything until the peer closes or nothing comes for `timeout`.
    func drain(timeout: Double) -> (bytes: Int, closed: Bool) {
        var total = 0
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, Int32(timeout * 1000)) > 0 else { return (total, false) }
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count <= 0 { return (total, true) }
            total += count
        }
    }
}

struct RawError: Error, CustomStringConvertible {
    var description: String
    /// A failed system call, with errno's reason.
    init(call: String) { description = "\(call): \(String(cString: strerror(errno)))" }
    init(_ description: String) { self.description = description }
}

/// Runs blocking `work` on a thread of its own and awaits its result. It stays in the calling
/// task, so an `#expect` in `work` is the test's (a bare `Thread` would record it for no test).
func onThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withTaskExecutorPreference(ThreadPerJob()) { try work() }
}

/// A task executor that runs each job on a new thread, for jobs that block.
private final class ThreadPerJob: TaskExecutor {
    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        Thread { job.runSynchronously(on: executor) }.start()
    }
}

/// A complete `GET` on a new connection, answered within `timeout`.
func rawGET(port: Int, _ path: String, headers: String = "", timeout: Double = 5, from source: String? = nil) throws -> String {
    let connection = try RawConnection(port: port, from: source)
    connection.send("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\(headers)\r\n")
    return connection.receive(timeout: timeout).text
}

/// A response as it came off the wire: status, headers (names lower-cased) and body bytes.
struct RawResponse: Sendable {
    var status: Int
    var headers: [String: String]
    var body: [UInt8]

    var text: String { String(decoding: body, as: UTF8.self) }

    /// Parses a whole `Connection: close` answer; `nil` when it is no HTTP/1.1 response.
    init?(_ bytes: [UInt8]) {
        let separator = Array("\r\n\r\n".utf8)
        guard let end = bytes.indices.first(where: { bytes[$0...].starts(with: separator) }) else { return nil }
        let lines = String(decoding: bytes[..<end], as: UTF8.self).components(separatedBy: "\r\n")
        let statusLine = lines[0].split(separator: " ")
        guard statusLine.count >= 2, statusLine[0] == "HTTP/1.1", let status = Int(statusLine[1]) else { return nil }
        self.status = status
        headers = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        body = Array(bytes[(end + separator.count)...])
    }
}

/// One request on a new connection (`Connection: close`), the whole answer read within `timeout`;
/// a `body` gets its `Content-Length`.
func httpRequest(
    port: Int, _ path: String, method: String = "GET", headers: [String: String] = [:], body: String? = nil, timeout: Double = 10
) throws -> RawResponse {
    let connection = try RawConnection(port: port)
    var fields = headers.map { "\($0.key): \($0.value)\r\n" }.joined()
    if let body { fields += "Content-Length: \(body.utf8.count)\r\n" }
    connection.send("\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n\(fields)\r\n\(body ?? "")")
    let bytes = connection.receiveAll(timeout: timeout)
    guard let response = RawResponse(bytes) else { throw RawError("no HTTP response to \(method) \(path)") }
    return response
}

extension RawConnection {
    /// The whole milliseconds left until `deadline` (on the monotonic clock, which no change of
    /// the wall clock moves), 0 once it has passed.
    static func milliseconds(until deadline: ContinuousClock.Instant) -> Int32 {
        let left = deadline - ContinuousClock.now
        guard left > .zero else { return 0 }
        return Int32(clamping: left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000)
    }

    /// Every byte until the peer closes or `timeout` passes.
    func receiveAll(timeout: Double) -> [UInt8] {
        var received: [UInt8] = []
        let deadline = ContinuousClock.now + .milliseconds(Int(timeout * 1000))
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while Self.milliseconds(until: deadline) > 0 {
            var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, Self.milliseconds(until: deadline) + 1) > 0 else { continue }
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count <= 0 { break }
            received += buffer[..<count]
        }
        return received
    }
}
