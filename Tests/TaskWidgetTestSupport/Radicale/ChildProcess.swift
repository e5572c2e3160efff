import Foundation
import TaskWidgetCore

#if canImport(Glibc)
    import Glibc
#endif

/// Every standard signal, for a test's child to get back at its default action: the test runner
/// may ignore some, and a child would inherit that.
let everySignal = (1...31).map { Int32($0) }

/// A child process started with ``CleanSpawn``: an empty signal mask and ``everySignal`` at its
/// default, so that SIGTERM stops it.
///
/// Why not Foundation's `Process`: on Linux it spawns from whichever thread calls `run()`, and a
/// child inherits that thread's signal mask. Swift concurrency runs on Dispatch worker threads,
/// which block most signals, SIGTERM and SIGINT included; a Radicale started from an async test
/// through `Process` ignores `terminate()` for ever (seen here: `SigBlk: fffffffe3bfbea27`).
/// Also, `Process.waitUntilExit()` blocks one of the few cooperative threads (two on two cores)
/// while it waits; ``waitForExit(timeout:)`` polls `waitpid` with `WNOHANG` between short sleeps.
struct ChildProcess: Sendable {
    let pid: pid_t

    /// Starts `executable` with `arguments`; standard input from /dev/null, standard output
    /// appended to `outputFile`, standard error to `errorFile` (default: the same file).
    static func spawn(_ executable: String, _ arguments: [String], outputFile: String, errorFile: String? = nil) throws
        -> ChildProcess
    {
        var fileActions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&fileActions)
        defer { posix_spawn_file_actions_destroy(&fileActions) }
        posix_spawn_file_actions_addopen(&fileActions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&fileActions, 1, outputFile, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        if let errorFile {
            posix_spawn_file_actions_addopen(&fileActions, 2, errorFile, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        } else {
            posix_spawn_file_actions_adddup2(&fileActions, 1, 2)
        }

        do {
            return ChildProcess(pid: try CleanSpawn.spawn(executable, arguments, actions: &fileActions, defaultSignals: everySignal))
        } catch {
            throw RadicaleServer.HarnessError(description: "cannot start \(executable): \(error)")
        }
    }

    /// How a child ended.
    enum Termination: Equatable {
        case exited(Int32)
        case signalled(Int32)
        /// Reaped elsewhere, or not our child.
        case unknown
    }

    /// How the child ended if it has (it is reaped then, so ask only once), else `nil`.
    func termination() -> Termination? {
        var status: Int32 = 0
        let result = waitpid(pid, &status, WNOHANG)
        guard result == pid else { return result < 0 ? .unknown : nil }
        let signal = status & 0x7f
        return signal == 0 ? .exited((status >> 8) & 0xff) : .signalled(signal)
    }

    /// Waits until the child has ended, up to `timeout`; how it ended, or `nil` if it goes on.
    func waitForExit(timeout: Duration) async -> Termination? {
        let deadline = ContinuousClock.now + timeout
        while true {
            if let termination = termination() { return termination }
            if ContinuousClock.now >= deadline { return nil }
            try? await Task.sleep(for: .milliseconds(5))
        }
    }

    /// SIGTERM, then SIGKILL if it has not ended within `grace`.
    func stop(grace: Duration = .seconds(5)) async {
        guard termination() == nil else { return }
        kill(pid, SIGTERM)
        if await waitForExit(timeout: grace) != nil { return }
        kill(pid, SIGKILL)
        _ = await waitForExit(timeout: .seconds(5))
    }

    /// Runs a program to its end and returns its standard output; throws with its standard error
    /// when it fails.
    static func run(_ executable: String, _ arguments: [String], timeout: Duration = .seconds(60)) async throws
        -> String
    {
        let directory = FileManager.default.temporaryDirectory
        let outputFile = directory.appendingPathComponent("harness-\(UUID().uuidString).out")
        let errorFile = directory.appendingPathComponent("harness-\(UUID().uuidString).err")
        defer {
            try? FileManager.default.removeItem(at: outputFile)
            try? FileManager.default.removeItem(at: errorFile)
        }
        let child = try spawn(executable, arguments, outputFile: outputFile.path, errorFile: errorFile.path)
        guard let termination = await child.waitForExit(timeout: timeout) else {
            await child.stop(grace: .milliseconds(100))
            throw RadicaleServer.HarnessError(description: "\(executable) did not finish within \(timeout)")
        }
        guard termination == .exited(0) else {
            let errors = (try? String(contentsOf: errorFile, encoding: .utf8)) ?? ""
            throw RadicaleServer.HarnessError(description: "\(executable) ended with \(termination): \(errors.suffix(3000))")
        }
        return (try? String(contentsOf: outputFile, encoding: .utf8)) ?? ""
    }
}
