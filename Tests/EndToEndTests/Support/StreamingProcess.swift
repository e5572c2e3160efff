import Foundation
import Glibc
import TaskWidgetCore
import Testing

@testable import TaskWidgetTestSupport

/// A long-running `taskwidget` (watch) started without a shell, its standard output and error on
/// pipes read with deadlines: tests wait for lines, never sleep to synchronize.
final class StreamingProcess {
    let pid: pid_t
    /// `nil` once the test closed its end (the reader going away).
    private var stdout: Int32?
    private var stderr: Int32?
    /// The test's end of standard input, with `writableInput`.
    private var stdin: Int32?
    private var stdoutBuffer: [UInt8] = []
    private(set) var stderrText = ""
    private var exitStatus: Int32?
    /// Whether standard error goes to a log file rather than to us.
    private let stderrIsFile: Bool

    /// Starts `EXECUTABLE ARGUMENTS` (by default the built `taskwidget`). With `errorLog`, its
    /// standard error goes to that file instead of a pipe (a daemon a test starts and never reads).
    /// Its standard input is /dev/null, or with `writableInput` a pipe the test writes to, or with
    /// `closesInput` none at all (a bar started with `<&-`).
    init(
        _ arguments: [String], environment: [String: String], executable: String = Sandbox.binary.path, errorLog: String? = nil,
        writableInput: Bool = false, closesInput: Bool = false, stdoutCapacity: Int32? = nil
    ) throws {
        var output: [Int32] = [0, 0]
        var errors: [Int32] = [0, 0]
        var input: [Int32] = [-1, -1]
        guard pipe(&output) == 0, pipe(&errors) == 0, !writableInput || pipe(&input) == 0 else { throw POSIXError(.EMFILE) }
        // F_SETPIPE_SZ: a pipe that a line fills.
        if let stdoutCapacity, fcntl(output[1], 1031, stdoutCapacity) < 0 { throw POSIXError(.EINVAL) }
        // Close-on-exec, so that other children of the test runner do not keep the pipes open.
        setCloseOnExec(output + errors + input)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if writableInput {
            posix_spawn_file_actions_adddup2(&actions, input[0], 0)
        } else if closesInput {
            posix_spawn_file_actions_addclose(&actions, 0)
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        posix_spawn_file_actions_adddup2(&actions, output[1], 1)
        if let errorLog {
            posix_spawn_file_actions_addopen(&actions, 2, errorLog, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        } else {
            posix_spawn_file_actions_adddup2(&actions, errors[1], 2)
        }
        // A clean slate for signals, as from a shell: the test runner blocks some (SIGTERM among
        // them), and a daemon that inherited that would not stop on SIGTERM.
        let pid: pid_t
        do {
            defer {
                close(output[1])
                close(errors[1])
                if writableInput { close(input[0]) }
            }
            pid = try CleanSpawn.spawn(executable, arguments, environment: environment, actions: &actions, defaultSignals: everySignal)
        } catch {
            close(output[0])
            close(errors[0])
            if writableInput { close(input[1]) }
            throw POSIXError(POSIXErrorCode(rawValue: error.code) ?? .EIO)
        }
        self.pid = pid
        if writableInput { stdin = input[1] }
        stderrIsFile = errorLog != nil
        stdout = output[0]
        if errorLog == nil {
            stderr = errors[0]
        } else {
            close(errors[0])
        }
    }

    deinit {
        if exitStatus == nil {
            kill(pid, SIGKILL)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
        }
        for descriptor in [stdout, stderr, stdin].compactMap({ $0 }) { close(descriptor) }
    }

    /// Writes `text` to its standard input (started with `writableInput`).
    func writeInput(_ text: String) {
        guard let stdin else { return }
        _ = Array(text.utf8).withUnsafeBytes { write(stdin, $0.baseAddress, $0.count) }
    }

    /// The next line of standard output, or `nil` if none comes before `timeout` (or it ended).
    func nextLine(within timeout: Duration = .seconds(10)) -> String? {
        let deadline = ContinuousClock.now + timeout
        while true {
            if let newline = stdoutBuffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: stdoutBuffer[..<newline], as: UTF8.self)
                stdoutBuffer.removeSubrange(...newline)
                return line
            }
            guard stdout != nil, pump(until: deadline) else { return nil }
        }
    }

    /// The lines of standard output still to read, each ended by a newline, until none comes
    /// within `timeout` (at once once it ended): what a process that was waited for printed.
    func remainingLines(within timeout: Duration = .seconds(1)) -> String {
        var output = ""
        while let line = nextLine(within: timeout) { output += line + "\n" }
        return output
    }

    /// Waits until standard error contains `text` (`count` times); false if it does not before
    /// `timeout` (or it ended).
    func waitForStderr(containing text: String, count: Int = 1, within timeout: Duration = .seconds(10)) -> Bool {
        let deadline = ContinuousClock.now + timeout
        while occurrences(of: text) < count {
            guard stderr != nil, pump(until: deadline) else { return occurrences(of: text) >= count }
        }
        return true
    }

    /// How many times standard error so far contains `text`.
    func occurrences(of text: String) -> Int {
        stderrText.components(separatedBy: text).count - 1
    }

    /// Waits for output (either pipe) until `deadline`; false at the deadline or when both ended.
    private func pump(until deadline: ContinuousClock.Instant) -> Bool {
        let open = [readsStdout ? stdout : nil, stderr].compactMap { $0 }
        guard !open.isEmpty else { return false }
        var descriptors = open.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        let remaining = deadline - ContinuousClock.now
        guard remaining > .zero else { return false }
        let milliseconds = Int32(remaining.components.seconds * 1000 + remaining.components.attoseconds / 1_000_000_000_000_000 + 1)
        guard poll(&descriptors, nfds_t(descriptors.count), milliseconds) > 0 else { return false }
        var chunk = [UInt8](repeating: 0, count: 65_536)
        for descriptor in descriptors where descriptor.revents != 0 {
            let count = read(descriptor.fd, &chunk, chunk.count)
            if count <= 0 {
                close(descriptor.fd)
                if descriptor.fd == stdout { stdout = nil } else { stderr = nil }
            } else if descriptor.fd == stdout {
                stdoutBuffer += chunk[..<count]
            } else {
                stderrText += String(decoding: chunk[..<count], as: UTF8.self)
            }
        }
        return true
    }

    /// Closes the test's end of standard input (started with `writableInput`): the program reads
    /// its end.
    func closeInput() {
        if let stdin { close(stdin) }
        stdin = nil
    }

    /// Whether waiting reads standard output; off, its pipe fills as a frozen reader's would.
    var readsStdout = true

    /// Closes the test's end of standard output: the reader goes away.
    func closeStdout() {
        if let stdout { close(stdout) }
        stdout = nil
    }

    func send(_ signal: Int32) {
        kill(pid, signal)
    }

    /// Whether the process still runs: it has not ended (it is no zombie yet) nor been waited for.
    var isRunning: Bool {
        guard exitStatus == nil, let stat = ProcStat(pid: pid) else { return false }
        return stat.isAlive
    }

    /// The exit status once the process ended (its standard error closes; with standard error in
    /// a file, its standard output), or `nil` after `timeout`.
    func waitForExit(within timeout: Duration = .seconds(10)) -> Int32? {
        let deadline = ContinuousClock.now + timeout
        let ended = { self.stderr == nil && (!self.stderrIsFile || self.stdout == nil) }
        while !ended() {
            guard pump(until: deadline) || ended() else { return nil }
        }
        var status: Int32 = 0
        guard waitpid(pid, &status, 0) == pid else { return nil }
        // Exited normally: the status; killed by a signal: 128 + the signal, like a shell.
        exitStatus = status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        return exitStatus
    }

    /// The system calls that wait for events: poll and ppoll (aarch64 has ppoll only).
    #if arch(x86_64)
    static let pollSyscalls: Set<Int> = [7, 271]
    #elseif arch(arm64)
    static let pollSyscalls: Set<Int> = [73]
    #else
    static let pollSyscalls: Set<Int> = []
    #endif

    /// Whether its main thread is blocked in poll or ppoll now: the first field of
    /// /proc/PID/syscall is the number of the call it is in (`running` while it runs), or, where
    /// that file cannot be read, /proc/PID/wchan names the kernel function it sleeps in.
    func isBlockedInPoll() -> Bool {
        if let syscall = try? String(contentsOfFile: "/proc/\(pid)/syscall", encoding: .utf8) {
            // `NUMBER ARGUMENTS… SP PC` in a call, `-1 SP PC` blocked outside one, or `running`.
            return Int(syscall.prefix { $0 != " " && $0 != "\n" }).map(Self.pollSyscalls.contains) ?? false
        }
        return ((try? String(contentsOfFile: "/proc/\(pid)/wchan", encoding: .utf8)) ?? "").contains("poll")
    }

    /// Waits until its main thread is blocked in poll or ppoll (watch waiting for its next
    /// event); false if it is not before `timeout`. The kernel signals no such moment, so /proc is
    /// looked at every millisecond.
    func waitUntilBlockedInPoll(within timeout: Duration = .seconds(10)) -> Bool {
        waitUntil(within: timeout, every: .milliseconds(1)) { isBlockedInPoll() }
    }

    /// The descriptors of its timerfds, in order.
    var timerDescriptors: [Int] {
        let folder = "/proc/\(pid)/fd"
        return ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).compactMap(Int.init).sorted().filter {
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "\(folder)/\($0)")) == "anon_inode:[timerfd]"
        }
    }

    /// Whether the timerfd `descriptor` is set, from /proc/PID/fdinfo (`it_value: (0, 0)` when
    /// unset); nil when it cannot be read.
    func timerIsSet(_ descriptor: Int) -> Bool? {
        guard let info = try? String(contentsOfFile: "/proc/\(pid)/fdinfo/\(descriptor)", encoding: .utf8),
            let value = info.split(separator: "\n").first(where: { $0.hasPrefix("it_value:") })
        else { return nil }
        return !value.hasSuffix("(0, 0)")
    }

    /// The files under `path` it holds open that were deleted (/proc/PID/fd). Only those: a file
    /// another test was writing as this process started may be inherited (fresh-clone CI).
    func deletedFilesHeld(under path: String) -> [String] {
        let folder = "/proc/\(pid)/fd"
        return ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [])
            .compactMap { try? FileManager.default.destinationOfSymbolicLink(atPath: "\(folder)/\($0)") }
            .filter { $0.hasPrefix(path) && $0.hasSuffix(" (deleted)") }
    }

    /// How many threads the process runs (/proc/PID/task).
    var threadCount: Int { (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task").count) ?? 0 }

    /// The timeout of the poll its main thread waits in, in milliseconds (-1: none), read from
    /// /proc/PID/syscall (`NUMBER FDS NFDS TIMEOUT …` for poll); nil when it is not in poll.
    func pollTimeout() -> Int? {
        guard let syscall = try? String(contentsOfFile: "/proc/\(pid)/syscall", encoding: .utf8) else { return nil }
        let fields = syscall.split(separator: " ")
        guard fields.count > 3, let number = Int(fields[0]), Self.pollSyscalls.contains(number),
            let raw = UInt64(fields[3].dropFirst(2), radix: 16)
        else { return nil }
        // ppoll takes a timespec pointer instead: null (0) means no timeout.
        if number != 7 { return raw == 0 ? -1 : Int(raw) }
        return Int(Int32(truncatingIfNeeded: raw))
    }
}

/// A process as /proc/PID/stat shows it: `PID (NAME) STATE PPID …`, the fields counted after the
/// name's last `)` (a name may hold spaces and parentheses).
struct ProcStat {
    var state: Character
    var parent: pid_t
    /// The start time, in clock ticks since boot: with the id, it names one process for good.
    var start: String

    /// `nil` when no process has that id (or /proc cannot be read).
    init?(pid: pid_t) {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8), let name = text.lastIndex(of: ")") else { return nil }
        let fields = text[text.index(after: name)...].split(separator: " ")
        guard fields.count > 19, let state = fields[0].first, let parent = pid_t(fields[1]) else { return nil }
        (self.state, self.parent, start) = (state, parent, String(fields[19]))
    }

    /// Neither ended (a zombie) nor dead.
    var isAlive: Bool { state != "Z" && state != "X" }
}
