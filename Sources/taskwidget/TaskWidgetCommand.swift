import ArgumentParser
import Foundation
import Logging
// glibc's own module, for `stdout`: through Glibc, Swift 6 refuses C globals it cannot prove safe.
@preconcurrency import SwiftGlibc
import TaskWidgetCore

@main
struct TaskWidgetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "taskwidget",
        abstract: "Your tasks at a glance: a task store, widget timelines, status bar text and PNG widgets.",
        discussion: """
            Examples:
              taskwidget add "Pay rent" --due "tomorrow 9am" --list Home
              taskwidget ls
              taskwidget done 3f2a
              taskwidget list add Work --color 1E90FF
              taskwidget habit check "Drink water"
              taskwidget demo --store /tmp/demo.sqlite

            WHEN (for --due and --remind): 2026-11-23, 2026-11-23T17:00, today, tomorrow, tonight,
            fri, 17:00, 5pm, in 2h, in 30m, in 3d, +2h, tomorrow 5pm. A day without a time is due at
            23:59 and reminds at 09:00. A time alone is its next occurrence.

            Exit status: 0 ok, 64 bad usage or input, 65 bad data (damaged store, bad import), 74 I/O.
            """,
        version: "0.1.0",
        subcommands: [
            Add.self, Ls.self, Done.self, Undo.self, Start.self, Stop.self, Edit.self, Rm.self, Move.self,
            ListCommand.self, HabitCommand.self, TimelineCommand.self, StatusCommand.self, WatchCommand.self, RenderCommand.self,
            Export.self, Import.self, Demo.self, Serve.self, Sync.self, Notify.self,
        ]
    )

    /// Runs the command; every failure is one `taskwidget: …` line on stderr and its exit status
    /// (with `--verbose`, a second line gives the cause underneath).
    static func main() {
        LoggingSystem.bootstrap(StreamLogHandler.standardError)
        do {
            try SiblingCommands.execIfSibling(CommandLine.arguments)
            var command = try parseAsRoot()
            try command.run()
            try flushStandardOutput()
        } catch let error as TaskWidgetError {
            report(error)
            Foundation.exit(error.code.exitStatus)
        } catch {
            let status = exitCode(for: error)
            guard status != .success else { exit(withError: error) }
            var firstLine = message(for: error).split(separator: "\n").first.map(String.init) ?? "bad usage"
            if firstLine.hasSuffix(".") { firstLine.removeLast() }
            writeToStandardError("taskwidget: \(firstLine.lowercasedFirst) (see `\(commandPath()) --help`)\n")
            Foundation.exit(status.rawValue)
        }
    }

    /// `taskwidget: MESSAGE` on stderr, and with `--verbose` the cause underneath.
    static func report(_ error: TaskWidgetError) {
        writeToStandardError("taskwidget: \(error.message)\n")
        if let cause = error.cause, CommandLine.arguments.contains("--verbose") {
            writeToStandardError("taskwidget: cause: \("\(cause)".removingControlCharacters)\n")
        }
    }

    /// `taskwidget list rm`: the command the user was running, for the help hint of an error.
    private static func commandPath() -> String {
        var path = ["taskwidget"]
        var command: any ParsableCommand.Type = TaskWidgetCommand.self
        for argument in CommandLine.arguments.dropFirst() {
            guard let next = command.configuration.subcommands.first(where: { ($0.configuration.commandName ?? String(describing: $0).lowercased()) == argument }) else { break }
            path.append(argument)
            command = next
        }
        return path.joined(separator: " ")
    }

    /// `print` buffers and reports nothing: output that did not reach its file (a full disk, a
    /// closed descriptor) must not end in success, or `export > backup.json` looks like a backup.
    private static func flushStandardOutput() throws {
        if fflush(stdout) != 0 {
            throw TaskWidgetError.standardOutput(errno)
        }
        if ferror(stdout) != 0 { throw TaskWidgetError(.ioFailure, "cannot write to standard output: a write failed") }
    }
}

/// Writes `data` to standard output's buffer, as `print` does, without making a String of it (the
/// exit flushes the rest and checks it too).
func writeToStandardOutput(_ data: Data) throws {
    let written = data.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, stdout) }
    if written < data.count {
        throw TaskWidgetError.standardOutput(errno)
    }
}

/// Writes to standard error; a closed or full standard error is ignored (the exit status still
/// tells), where `FileHandle.write(_:)` would crash the process.
func writeToStandardError(_ text: String) {
    try? FileHandle.standardError.write(contentsOf: Data(text.utf8))
}

extension String {
    fileprivate var lowercasedFirst: String {
        guard let first, first.isUppercase, dropFirst().first?.isUppercase != true else { return self }
        return first.lowercased() + dropFirst()
    }
}
