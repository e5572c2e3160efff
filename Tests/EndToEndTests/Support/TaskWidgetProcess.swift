import Foundation
import GRDB
import Testing

@testable import TaskWidgetTestSupport

/// Runs the built `taskwidget` binary against a private store in a fresh temporary folder, with a
/// fixed clock and time zone. Each test makes its own sandbox: no state is shared between tests.
struct Sandbox: ~Copyable {
    static let binary: URL = {
        if let path = ProcessInfo.processInfo.environment["TASKWIDGET_BIN"] {
            return URL(fileURLWithPath: path)
        }
        // The test bundle sits next to the products of the same build.
        return URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("taskwidget")
    }()

    let folder: URL
    var storePath: String { folder.appendingPathComponent("tasks.sqlite").path }
    /// Fixed clock and zone: Sunday 22 November 2026, 16:27 in Berlin.
    var now = "2026-11-22T16:27:00+01:00"
    var timeZone = "Europe/Berlin"

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("taskwidget-e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: folder)
    }

    /// Runs `taskwidget ARGUMENTS --store STORE` with `TZ` and `--now` set, unless the arguments
    /// already name them (or `global` is false, for arguments that must stay exactly as given).
    func run(_ arguments: [String], global: Bool = true, input: Data? = nil, environment: [String: String] = [:]) throws -> RunResult {
        try ProcessRunner.run(
            Self.binary.path, global ? self.arguments(arguments) : arguments, input: input,
            environment: environment.merging(self.environment, uniquingKeysWith: { given, _ in given }))
    }

    /// `taskwidget ARGUMENTS` (as ``run(_:global:input:environment:)``) with at most `limit` files
    /// open (`ulimit -n`, soft and hard).
    func run(_ arguments: [String], openFileLimit limit: Int) throws -> RunResult {
        try ProcessRunner.run("/bin/sh", ["-c", "ulimit -n \(limit); exec " + shellCommand(arguments)], environment: environment)
    }

    /// `taskwidget ARGUMENTS` on this sandbox's store and clock, as one line for `/bin/sh -c`: what
    /// a bar's click or a page's trigger runs.
    func shellCommand(_ arguments: [String]) -> String {
        ([Self.binary.path] + self.arguments(arguments)).map(\.shellQuoted).joined(separator: " ")
    }

    /// `ARGUMENTS` plus `--store STORE` and `--now NOW`, unless they name them already.
    func arguments(_ arguments: [String]) -> [String] {
        var arguments = arguments
        if !arguments.contains("--store") { arguments += ["--store", storePath] }
        if !arguments.contains("--now") { arguments += ["--now", now] }
        return arguments
    }

    /// What every run sees: the sandbox's zone, home and data folder, and the C locale.
    var environment: [String: String] {
        ["TZ": timeZone, "HOME": folder.path, "XDG_DATA_HOME": folder.appendingPathComponent("data").path, "LC_ALL": "C"]
    }

    /// A copy of the demo store (`taskwidget demo`) in a new sandbox.
    static func demo() throws -> Sandbox {
        let sandbox = try Sandbox()
        try sandbox.succeed(["demo"])
        return sandbox
    }

    /// Runs `taskwidget ARGUMENTS` (as ``run(_:global:input:environment:)``) on a terminal of its
    /// own (Support/on_terminal.py), typing `input`: its exit status (nil when it still ran after
    /// 10 s) and what the terminal showed, stdout and stderr together.
    func runOnTerminal(_ arguments: [String], typing input: String = "") throws -> (status: Int?, shown: String) {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("on_terminal.py")
        let result = try ProcessRunner.run("/usr/bin/python3", [script.path, input, Self.binary.path] + self.arguments(arguments), environment: environment)
        let report = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        return (report?["status"] as? Int, report?["shown"] as? String ?? "")
    }

    /// `run` that expects success and returns standard output.
    @discardableResult
    func succeed(_ arguments: [String], global: Bool = true, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        let result = try run(arguments, global: global)
        #expect(result.status == 0, "taskwidget \(arguments.joined(separator: " ")) failed: \(result.stderr)", sourceLocation: sourceLocation)
        return result.stdout
    }
}

extension Sandbox {
    /// Imports open Inbox tasks with the given ids (uppercase, as another tool might write them)
    /// and titles, in this order: ids of a chosen shape, which `add` cannot make.
    func importTasks(_ tasks: [(id: String, title: String)]) throws {
        let rows = tasks.enumerated().map { index, task in
            """
            {"id": "\(task.id)", "title": "\(task.title)", "isCompleted": false, "state": "notStarted", \
            "createdAt": "2026-11-20T10:00:00Z", "modifiedAt": "2026-11-20T10:00:00Z", "sortOrder": \(index + 5)}
            """
        }
        let document = #"{"schema": "taskwidget.export/1", "lists": [], "habits": [], "tasks": ["# + rows.joined(separator: ", ") + "]}"
        let file = folder.appendingPathComponent("imported-\(UUID().uuidString).json")
        try Data(document.utf8).write(to: file)
        try succeed(["import", file.path])
    }
}

extension Sandbox {
    /// Runs a command that must fail: `status`, one short `taskwidget: ` line on stderr (that
    /// contains `message`, if given), nothing on stdout (`allowingStdout` for a bar's error line),
    /// no crash, and the store exactly as it was (same export, integrity ok).
    @discardableResult
    func expectRefused(
        _ arguments: [String], status: Int32, message: String? = nil, input: Data? = nil, allowingStdout: Bool = false,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> RunResult {
        let before = try succeed(["export"], sourceLocation: sourceLocation)
        let result = try run(arguments, input: input)
        let shown = arguments.map { $0.count > 60 ? "\($0.prefix(20))…(\($0.utf8.count) bytes)" : $0 }
        #expect(result.status == status, "\(shown): \(result.stderr.prefix(300))", sourceLocation: sourceLocation)
        #expect(result.stderrLines.count == 1 && result.stderr.hasPrefix("taskwidget: "), "\(shown): \(result.stderr.prefix(300))", sourceLocation: sourceLocation)
        if let message {
            #expect(result.stderr.contains(message), "\(shown): \(result.stderr.prefix(300))", sourceLocation: sourceLocation)
        }
        #expect(result.stderr.utf8.count < 600, "\(shown): a \(result.stderr.utf8.count)-byte error", sourceLocation: sourceLocation)
        #expect(!result.stderr.contains("Fatal error") && !result.stderr.contains("crashed"), "\(shown): \(result.stderr.prefix(300))", sourceLocation: sourceLocation)
        if !allowingStdout { #expect(result.stdout.isEmpty, "\(shown): \(result.stdout.prefix(200))", sourceLocation: sourceLocation) }
        #expect(try succeed(["export"], sourceLocation: sourceLocation) == before, "\(shown) changed the store", sourceLocation: sourceLocation)
        #expect(try integrity() == "ok", "\(shown)", sourceLocation: sourceLocation)
        return result
    }
}

// MARK: - The store's files

extension Sandbox {
    /// `PRAGMA integrity_check` of the store at `path`, through a read-only connection.
    static func integrity(ofStoreAt path: String) throws -> String? {
        var configuration = Configuration()
        configuration.readonly = true
        let queue = try DatabaseQueue(path: path, configuration: configuration)
        defer { try? queue.close() }
        return try queue.read { try String.fetchOne($0, sql: "PRAGMA integrity_check") }
    }

    /// `PRAGMA integrity_check` of the sandbox's store ("ok" when it is intact).
    func integrity() throws -> String? {
        try Self.integrity(ofStoreAt: storePath)
    }

    /// Checkpoints the store at `path` and removes its `-wal` and `-shm`: the main file alone holds it all.
    static func removeWALFiles(_ path: String) throws {
        let queue = try DatabaseQueue(path: path)
        try queue.writeWithoutTransaction { try $0.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
        try queue.close()
        for suffix in ["-wal", "-shm"] where FileManager.default.fileExists(atPath: path + suffix) {
            try FileManager.default.removeItem(atPath: path + suffix)
        }
    }
}

/// Runs the binary with fixed trailing arguments (store, clock) and environment, from any thread.
struct Launcher: Sendable {
    let suffix: [String]
    let environment: [String: String]

    func run(_ arguments: [String]) throws -> RunResult {
        try ProcessRunner.run(Sandbox.binary.path, arguments + suffix, environment: environment)
    }
}

extension Sandbox {
    /// Lets `nobody`, who stands in for the store's own user where permissions must bind (they do
    /// not bind root), read the store's `-wal` and `-shm`, which taskwidget makes for that user
    /// alone (0600).
    static func letNobodyReadTheSideFiles(of store: String) throws {
        for file in [store + "-wal", store + "-shm"] {
            try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: file)
        }
    }

    /// Runs the binary as `nobody` when the tests run as root (file permissions do not bind root);
    /// as the current user otherwise.
    static func asUnprivilegedUser(_ arguments: [String]) throws -> RunResult {
        let command = unprivileged(arguments)
        return try ProcessRunner.run(command.executable, command.arguments, environment: unprivilegedEnvironment)
    }

    /// A long-running binary (watch) as `nobody` when the tests run as root, else as the current user.
    static func streamingAsUnprivilegedUser(_ arguments: [String]) throws -> StreamingProcess {
        let command = unprivileged(arguments)
        return try StreamingProcess(command.arguments, environment: unprivilegedEnvironment, executable: command.executable)
    }

    static let unprivilegedEnvironment = ["TZ": "UTC", "HOME": "/nonexistent", "LC_ALL": "C"]

    /// `setpriv` execs the binary, so the process it starts is taskwidget itself (signals reach it).
    private static func unprivileged(_ arguments: [String]) -> (executable: String, arguments: [String]) {
        guard getuid() == 0 else { return (binary.path, arguments) }
        return ("/usr/bin/setpriv", ["--reuid=nobody", "--regid=nogroup", "--clear-groups", binary.path] + arguments)
    }
}

extension String {
    /// This text as one word for a POSIX shell: in single quotes, its own single quotes escaped.
    var shellQuoted: String {
        "'" + replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }
}
