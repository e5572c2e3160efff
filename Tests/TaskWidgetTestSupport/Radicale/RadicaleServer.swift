public import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A private Radicale (Debian's `radicale` package) for tests and measurements: its own folder,
/// config, htpasswd file and storage, on a free loopback port; started, polled until it answers
/// (no fixed sleeps), stopped and removed.
///
/// ```swift
/// try await RadicaleServer.withServer(slots: RadicaleServer.slots) { server in
///     // server.baseURL == http://127.0.0.1:PORT/, user server.username / server.password
/// }
/// ```
///
/// Needs `apt-get install radicale apache2-utils` (and `python3-caldav` for ``runPython(_:arguments:)``
/// scripts that use the caldav library). Radicale runs under `/usr/bin/python3`, whose
/// dist-packages hold Debian's Python modules; a pyenv python earlier on `PATH` lacks them.
public final class RadicaleServer: Sendable {
    /// Errors of the harness itself.
    public struct HarnessError: Error, CustomStringConvertible {
        public var description: String
    }

    /// Options of a server.
    public struct Options: Sendable {
        /// The users and their passwords (written with `htpasswd -m`, MD5-APR1).
        public var users: [(name: String, password: String)] = [("alice", "secret")]
        /// Radicale's fsync on every write; off makes bulk tests faster (not measurements). Its
        /// own switch, `[storage] _filesystem_fsync`, is refused in config files (internal option),
        /// so "off" starts Radicale through a one-line wrapper that makes `os.fsync` a no-op.
        public var fsync = true
        /// Radicale's log level (`warning` keeps a request per line out of the log).
        public var logLevel = "warning"
        /// Longest wait for the first answer.
        public var startTimeout: Duration = .seconds(30)
        /// Serve HTTPS with a new self-signed certificate for 127.0.0.1 (``certificateFile``),
        /// made with the `openssl` command.
        public var tls = false

        public init() {}
    }

    /// `/usr/bin/python3`: Debian's modules (radicale, caldav) are in its dist-packages.
    public static let python = "/usr/bin/python3"
    /// `htpasswd` from apache2-utils.
    public static let htpasswd = "/usr/bin/htpasswd"

    /// `http://127.0.0.1:PORT/`.
    public let baseURL: URL
    public let port: Int
    /// The folder with `config`, `users`, `collections/` and `radicale.log`.
    public let directory: URL
    /// The server's self-signed certificate (PEM) when it serves HTTPS, for a client's trust roots.
    public var certificateFile: URL { directory.appendingPathComponent("cert.pem") }
    /// The first user and their password.
    public let username: String
    public let password: String
    private let process: Mutex<ChildProcess?>

    private init(baseURL: URL, port: Int, directory: URL, username: String, password: String, process: ChildProcess) {
        self.baseURL = baseURL
        self.port = port
        self.directory = directory
        self.username = username
        self.password = password
        self.process = Mutex(process)
    }

    /// Whether Radicale and htpasswd are installed where the harness looks.
    public static var isInstalled: Bool {
        FileManager.default.isExecutableFile(atPath: htpasswd)
            && FileManager.default.fileExists(atPath: "/usr/lib/python3/dist-packages/radicale/__init__.py")
    }

    /// The storage folder Radicale writes: `collections/collection-root/USER/COLLECTION/*.ics`.
    public var storageRoot: URL { directory.appendingPathComponent("collections/collection-root") }

    /// The slots shared by the tests that run in parallel: at most three of their servers run at
    /// once, in the whole test process.
    public static let slots = ServerSlots(count: 3)

    /// Runs `body` with a fresh server and stops it afterwards, also when `body` throws, once one
    /// of `slots` is free. Parallel tests pass the shared ``slots``; a serialized suite passes a
    /// slot of its own, so that its chain of tests does not wait, at each test, behind every other
    /// suite's servers (a notify test that took the shared slots waited over 120 s in CI). There
    /// is no default, so that each suite chooses.
    public static func withServer<Result>(
        _ options: Options = Options(), slots: ServerSlots, _ body: (RadicaleServer) async throws -> Result
    ) async throws -> Result {
        try await slots.withSlot {
            let server = try await start(options)
            do {
                let result = try await body(server)
                await server.stop()
                return result
            } catch {
                await server.stop()
                throw error
            }
        }
    }

    /// Starts a server in a new temporary folder and returns once it answers HTTP.
    public static func start(_ options: Options = Options()) async throws -> RadicaleServer {
        guard isInstalled else {
            throw HarnessError(description: "Radicale is not installed: apt-get install radicale apache2-utils python3-caldav")
        }
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("radicale-\(UUID().uuidString.prefix(8))", isDirectory: true)
        try FileManager.default.createDirectory(
            at: directory.appendingPathComponent("collections"), withIntermediateDirectories: true)
        for (index, user) in options.users.enumerated() {
            // -c creates the file for the first user; -b takes the password from the command line
            // (a test password; never do this with a real one, it shows in `ps`); -m is MD5-APR1.
            let flags = index == 0 ? "-bcm" : "-bm"
            _ = try await ChildProcess.run(htpasswd, [flags, directory.appendingPathComponent("users").path, user.name, user.password])
        }
        if options.tls {
            _ = try await ChildProcess.run(
                "/usr/bin/openssl",
                [
                    "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=127.0.0.1",
                    "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", directory.appendingPathComponent("key.pem").path,
                    "-out", directory.appendingPathComponent("cert.pem").path,
                ])
        }
        var lastFailure = "no attempt"
        for _ in 0..<3 {  // a port taken between choosing and binding makes Radicale exit: choose again
            let port = try freeLoopbackPort()
            try config(directory: directory, port: port, options: options)
                .write(to: directory.appendingPathComponent("config"), atomically: true, encoding: .utf8)
            let log = directory.appendingPathComponent("radicale.log")
            let configPath = directory.appendingPathComponent("config").path
            let arguments =
                options.fsync
                ? ["-m", "radicale", "--config", configPath]
                : [
                    "-c",
                    "import os, runpy, sys; os.fsync = lambda fd: None; sys.argv[0] = 'radicale'; "
                        + "runpy.run_module('radicale', run_name='__main__', alter_sys=True)",
                    "--config", configPath,
                ]
            let process = try ChildProcess.spawn(python, arguments, outputFile: log.path)
            let deadline = ContinuousClock.now + options.startTimeout
            var exited = false
            while ContinuousClock.now < deadline {
                if process.termination() != nil {
                    exited = true
                    break
                }
                // Over TLS a plain probe gets no status line: an accepted connection must do.
                if options.tls ? acceptsConnections(port: port) : answersHTTP(port: port) {
                    let first = options.users.first ?? ("alice", "secret")
                    return RadicaleServer(
                        baseURL: URL(string: "\(options.tls ? "https" : "http")://127.0.0.1:\(port)/")!, port: port,
                        directory: directory,
                        username: first.name, password: first.password, process: process)
                }
                try await Task.sleep(for: .milliseconds(20))
            }
            lastFailure = exited ? "it exited" : "no answer within \(options.startTimeout)"
            await process.stop()
        }
        let log = (try? String(contentsOf: directory.appendingPathComponent("radicale.log"), encoding: .utf8)) ?? ""
        throw HarnessError(description: "Radicale did not start (\(lastFailure)); its log:\n\(log.suffix(2000))")
    }

    /// Stops the server (SIGTERM, SIGKILL after 5 s) and removes its folder, unless the
    /// environment has `KEEP_RADICALE=1` (to look at its storage and log after a failure).
    public func stop() async {
        let process = self.process.withLock { current -> ChildProcess? in
            defer { current = nil }
            return current
        }
        guard let process else { return }
        await process.stop()
        if ProcessInfo.processInfo.environment["KEEP_RADICALE"] != "1" {
            try? FileManager.default.removeItem(at: directory)
        }
    }

    /// The config file: loopback only, htpasswd logins, and what each test run needs (below).
    static func config(directory: URL, port: Int, options: Options) -> String {
        """
        # Written by RadicaleServer for one test run.
        [server]
        hosts = 127.0.0.1:\(port)
        max_connections = 32
        timeout = 30
        ssl = \(options.tls ? "True" : "False")
        certificate = \(directory.appendingPathComponent("cert.pem").path)
        key = \(directory.appendingPathComponent("key.pem").path)

        [auth]
        type = htpasswd
        htpasswd_filename = \(directory.appendingPathComponent("users").path)
        htpasswd_encryption = md5
        # no sleep after a failed login, so that a test of a wrong password stays fast
        delay = 0

        [rights]
        # each user reads and writes only below /USER/
        type = owner_only

        [storage]
        filesystem_folder = \(directory.appendingPathComponent("collections").path)

        [web]
        type = none

        [logging]
        level = \(options.logLevel)
        mask_passwords = True

        """
    }

    /// Runs a Python script under `/usr/bin/python3` (where the caldav library is) and returns its
    /// standard output; throws with its standard error when it fails.
    public static func runPython(_ script: String, arguments: [String] = []) async throws -> String {
        try await ChildProcess.run(python, ["-c", script] + arguments)
    }

    /// A loopback port free right now: bind port 0, read the port the kernel chose, close.
    public static func freeLoopbackPort() throws -> Int {
        try RefusingPort().port
    }

    /// Whether something on the loopback port accepts a TCP connection.
    static func acceptsConnections(port: Int) -> Bool {
        withConnection(port: port) { _ in true }
    }

    /// Whether something on the loopback port answers an HTTP request with a status line.
    static func answersHTTP(port: Int) -> Bool {
        withConnection(port: port) { fd in
            let request = Array("OPTIONS / HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n".utf8)
            guard send(fd, request, request.count, Int32(MSG_NOSIGNAL)) == request.count else { return false }
            var buffer = [UInt8](repeating: 0, count: 16)
            let count = recv(fd, &buffer, buffer.count, 0)
            return count >= 7 && String(decoding: buffer[0..<7], as: UTF8.self) == "HTTP/1."
        }
    }

    /// Connects to the loopback port (1 s timeouts) and runs `body` on the socket; `false` when
    /// the connection fails.
    private static func withConnection(port: Int, _ body: (Int32) -> Bool) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var timeout = timeval(tv_sec: 1, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = loopback(port: port)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
        return connected && body(fd)
    }

    private static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }
}
