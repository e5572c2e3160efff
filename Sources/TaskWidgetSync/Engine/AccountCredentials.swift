import Foundation
import Glibc
public import TaskWidgetConfig
import TaskWidgetCore

extension SyncAccount {
    /// The account's user name and password: the password from `password_command`'s standard
    /// output or `password_file` (first line, without its line break); `nil` without a user.
    ///
    /// A password file that others may read (any group or other permission bit) or that is empty is refused, and so
    /// is a command that fails, prints nothing or outlives `timeout`. Messages name the file or
    /// the account, never the password or the command's output.
    public func credentials(timeout: Duration = .seconds(30)) throws -> CalDAVCredentials? {
        guard let user else { return nil }
        let password: String
        if let passwordCommand {
            password = try PasswordCommand.run(passwordCommand, account: name, timeout: timeout)
        } else if let passwordFile {
            password = try Self.readPasswordFile(passwordFile, account: name)
        } else {
            password = ""
        }
        return CalDAVCredentials(username: user, password: password)
    }

    /// Reads the password file now, refusing one that others may read (for `account add`).
    public func credentialsCheckingFile() throws -> String? {
        try passwordFile.map { try Self.readPasswordFile($0, account: name) }
    }

    static func readPasswordFile(_ path: String, account: String) throws -> String {
        try SecretFile.read(path, what: "the password file of the account “\(account)”")
    }
}

/// Runs a `password_command` through `/bin/sh -c`, with no signal blocked and default
/// dispositions (Foundation's `Process` passes on the signal mask of the thread that starts it,
/// so a command started from a Swift concurrency thread could not be stopped), standard input
/// from `/dev/null`, its standard error passed through (a password manager's prompt or message),
/// and a deadline after which it is killed.
enum PasswordCommand {
    static func run(_ command: String, account: String, timeout: Duration) throws -> String {
        var output: [Int32] = [-1, -1]
        guard pipe(&output) == 0 else {
            throw TaskWidgetError.system(errno, "cannot run the password command of the account “\(account)”", advice: "raise the open file limit (ulimit -n)")
        }
        // Close-on-exec, both ends (the command gets its own copy as its standard output): a program
        // another thread starts meanwhile must not keep the write end open, or the end of the
        // output never comes.
        for descriptor in output { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, output[1], STDOUT_FILENO)
        posix_spawn_file_actions_addclose(&actions, output[1])
        let pid: pid_t
        do {
            defer { close(output[1]) }
            // Its own process group, so that the deadline ends the command's children too.
            pid = try CleanSpawn.spawn("/bin/sh", ["-c", command], actions: &actions, ownProcessGroup: true)
        } catch {
            close(output[0])
            throw TaskWidgetError.system(error.code, "cannot run the password command of the account “\(account)”", advice: "check /bin/sh")
        }
        defer { close(output[0]) }
        let deadline = ContinuousClock.now + timeout
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 4096)
        var timedOut = false
        var isTooLong = false
        var reachedEnd = false
        var status: Int32 = 0
        var exited = false
        reading: while true {
            let remaining = deadline - ContinuousClock.now
            guard remaining > .zero else {
                timedOut = true
                break
            }
            let milliseconds = Int32(clamping: remaining.components.seconds * 1000 + remaining.components.attoseconds / 1_000_000_000_000_000 + 1)
            // A tenth of a second at most: a command that ended with a line, leaving a child that
            // holds its output (`(sleep 45 &); echo pw`), has answered, end of output or not.
            let ready = pollReadable(output[0], milliseconds: min(milliseconds, 100))
            if ready < 0 {
                if errno == EINTR { continue }
                break
            }
            if ready == 0 {
                if data.contains(UInt8(ascii: "\n")), waitpid(pid, &status, WNOHANG) == pid {
                    (exited, reachedEnd) = (true, true)
                    break reading
                }
                continue
            }
            let count = read(output[0], &buffer, buffer.count)
            if count < 0 {
                if errno == EINTR { continue }
                break
            }
            if count == 0 {
                reachedEnd = true
                break reading
            }
            data.append(contentsOf: buffer[0..<count])
            if data.count > 1 << 20 {  // no password is a megabyte long
                isTooLong = true
                break
            }
        }
        // A command still writing would block on the full pipe, and the wait below with it; one
        // that closed its output may still run (`echo pw; exec >&-; sleep 3600`): the deadline
        // holds for its end too.
        if reachedEnd, !exited, !Self.waitForExit(pid, &status, until: deadline) { timedOut = true }
        if !reachedEnd || timedOut {
            kill(-pid, SIGKILL)
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        }
        if timedOut {
            throw TaskWidgetError(
                .badConfig, "the password command of the account “\(account)” did not finish within \(timeout.components.seconds) s: check it in a shell",
                context: "password command timed out")
        }
        if isTooLong {
            throw TaskWidgetError(
                .badConfig, "the password command of the account “\(account)” printed more than a megabyte: it should print the password alone",
                context: "password command printed too much")
        }
        let exitedNormally = status & 0x7f == 0
        let exitCode = (status >> 8) & 0xff
        guard exitedNormally, exitCode == 0 else {
            throw TaskWidgetError(
                .badConfig,
                "the password command of the account “\(account)” failed (\(exitedNormally ? "exit \(exitCode)" : "killed by a signal")): check it in a shell",
                context: "password command failed")
        }
        let password = SecretFile.firstLine(of: data)
        guard !password.isEmpty else {
            // The password is the first line: one after an empty line is not taken (helper-84).
            let printedMore = data.contains { !" \t\r\n".utf8.contains($0) }
            throw TaskWidgetError(
                .badConfig,
                "the password command of the account “\(account)” printed \(printedMore ? "an empty first line, where the password goes" : "nothing"): check it in a shell",
                context: "password command printed nothing")
        }
        return password
    }

    /// Waits for `pid` to end, until `deadline`: whether it ended (its status in `status`). Polls
    /// every 10 ms: a command that closed its output usually ends at once.
    private static func waitForExit(_ pid: pid_t, _ status: inout Int32, until deadline: ContinuousClock.Instant) -> Bool {
        while true {
            let result = waitpid(pid, &status, WNOHANG)
            if result == pid { return true }
            if result < 0 && errno != EINTR { return true }  // nothing to wait for
            guard ContinuousClock.now < deadline else { return false }
            usleep(10_000)
        }
    }
}
