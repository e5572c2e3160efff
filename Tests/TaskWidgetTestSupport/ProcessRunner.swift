import Foundation

/// What one run of a program did.
struct RunResult: Sendable {
    var status: Int32
    var stdout: String
    var stderr: String

    var stdoutLines: [String] { stdout.split(separator: "\n").map(String.init) }
    var stderrLines: [String] { stderr.split(separator: "\n").map(String.init) }
}

/// Runs programs to their end: the built taskwidget, Python with Debian's modules, tmux.
enum ProcessRunner {
    /// The environment for Debian's own Python (/usr/bin/python3), whose modules (gi, jsonschema,
    /// caldav) the tests use: UTF-8 and the system's paths only.
    static let systemPython = ["LC_ALL": "C.UTF-8", "PATH": "/usr/bin:/bin"]

    /// SIGPIPE ignored in this process, once.
    private static let ignoringBrokenPipes: Void = { signal(SIGPIPE, SIG_IGN) }()

    /// How long a run may take before it is killed: a program that should have ended but runs on
    /// (a server that should have refused to start) fails its test instead of hanging the run.
    static let deadline: DispatchTimeInterval = .seconds(300)

    /// Runs `executable` with `arguments` and `environment` (nil: this process's), feeding it
    /// `input`, and returns its exit status and output; after ``deadline`` it is killed (status
    /// 9, by the signal).
    static func run(
        _ executable: String, _ arguments: [String], input: Data? = nil, environment: [String: String]? = nil
    ) throws -> RunResult {
        guard FileManager.default.isExecutableFile(atPath: executable) else {
            return RunResult(status: 127, stdout: "", stderr: "\(executable) is missing")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let environment { process.environment = environment }
        let stdout = Pipe.closedOnExec()
        let stderr = Pipe.closedOnExec()
        let stdin = Pipe.closedOnExec()
        process.standardOutput = stdout
        process.standardError = stderr
        process.standardInput = stdin
        try process.run()
        let exited = DispatchSemaphore(value: 0)
        let pid = process.processIdentifier
        Thread {
            if exited.wait(timeout: .now() + deadline) == .timedOut { kill(pid, SIGKILL) }
        }.start()
        defer { exited.signal() }
        if let input {
            // A program that ends before it has read all of its input (`add -` with endless lines)
            // makes the write fail with EPIPE, which the test checks for: the signal killed the
            // whole test process, when no server test (NIO ignores SIGPIPE) had run before.
            _ = ignoringBrokenPipes
            try? stdin.fileHandleForWriting.write(contentsOf: input)
        }
        try stdin.fileHandleForWriting.close()
        // Read both pipes to their end before waiting, so a large output cannot block the child.
        // Standard error on a thread of its own: a read on Dispatch's global queue held one of its
        // few threads for as long as the program ran, and the test process's timers (`Task.sleep`,
        // a request's deadline) fire through that queue: a 10 ms sleep took 0.85 s beside two such
        // reads, 3 s beside six.
        let errorRead = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var errorData = Data()
        Thread {
            errorData = stderr.fileHandleForReading.readDataToEndOfFile()
            errorRead.signal()
        }.start()
        let outputData = stdout.fileHandleForReading.readDataToEndOfFile()
        errorRead.wait()
        process.waitUntilExit()
        return RunResult(
            status: process.terminationStatus, stdout: String(decoding: outputData, as: UTF8.self),
            stderr: String(decoding: errorData, as: UTF8.self))
    }

    /// Writes `contents` (a script, a binary) to `path` as a program (mode 755), through `/bin/sh`
    /// rather than from this process. A program another test starts while this process has a file open for writing
    /// inherits that descriptor (Foundation opens it without close-on-exec), and while any process
    /// holds a file open for writing, the kernel refuses to run it ("Text file busy", ETXTBSY): a
    /// stand-in helper written here failed to start now and then in CI.
    static func writeProgram(_ contents: Data, to path: String) throws {
        let result = try run("/bin/sh", ["-c", "cat > \"$1\" && chmod 755 \"$1\"", "sh", path], input: contents)
        guard result.status == 0 else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path, NSLocalizedDescriptionKey: result.stderr])
        }
    }
}

extension Pipe {
    /// A pipe whose ends are close-on-exec. Foundation's are not, and the tests start servers and
    /// other long-running programs with posix_spawn (`StreamingProcess`, the Radicale harness),
    /// whose children inherit every descriptor that is not: a server started while a short command
    /// ran kept that command's output open, and the test reading it to its end waited for the
    /// server to end. (Foundation's `Process` gives its child the pipe it is handed through dup2,
    /// which clears the flag, and nothing else.)
    static func closedOnExec() -> Pipe {
        let pipe = Pipe()
        setCloseOnExec([pipe.fileHandleForReading.fileDescriptor, pipe.fileHandleForWriting.fileDescriptor])
        return pipe
    }
}

/// Marks the open ones of `descriptors` close-on-exec, so that no program a test starts meanwhile
/// inherits them (see ``Pipe/closedOnExec()``).
public func setCloseOnExec(_ descriptors: [Int32]) {
    for descriptor in descriptors where descriptor >= 0 { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
}
