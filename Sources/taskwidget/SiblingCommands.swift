import ArgumentParser
import Foundation
import TaskWidgetCLI
import TaskWidgetCore

/// `serve`, `sync` and `notify` run in programs of their own beside taskwidget
/// (`taskwidget-serve`, …), so that their HTTP and D-Bus libraries never slow down the commands a
/// status bar runs every few seconds. taskwidget hands their command lines over whole.
enum SiblingCommands {
    /// The subcommand each program runs.
    static let programs = ["serve": "taskwidget-serve", "sync": "taskwidget-sync", "notify": "taskwidget-notify"]

    /// Replaces this process with the program of `arguments`' subcommand (also for
    /// `taskwidget help serve`); returns when the arguments name none. A program that is not
    /// installed is an error.
    static func execIfSibling(_ arguments: [String]) throws(TaskWidgetError) {
        var rest = Array(arguments.dropFirst())
        // `help serve device add` is `serve help device add`, which checks that the names after
        // `help` are commands (as `serve device add --help`, `help serve nope` showed serve's help).
        if rest.first == "help", rest.count >= 2, programs[rest[1]] != nil { rest = [rest[1], "help"] + rest.dropFirst(2) }
        guard let name = rest.first, let program = programs[name] else { return }
        guard let path = InstalledProgram.path(of: program) else {
            throw TaskWidgetError(
                .ioFailure, "cannot find \(InstalledProgram.folder)/\(program), which runs `taskwidget \(name)`: install it beside taskwidget",
                context: program)
        }
        let argv = ([path] + rest.dropFirst()).map { strdup($0) } + [nil]
        execv(path, argv)
        throw TaskWidgetError.system(errno, "cannot start \(path)", advice: "check its permissions", context: program)
    }
}

/// The entries of the sibling programs in taskwidget's help; their own `--help` tells the rest.
struct Serve: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve", abstract: "Serve widgets, status lines and the timeline over HTTP (see `taskwidget serve --help`).")
}

struct Sync: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync", abstract: "Sync tasks with CalDAV servers (see `taskwidget sync --help`).")
}

struct Notify: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "notify", abstract: "Show reminders as desktop notifications (see `taskwidget notify --help`).")
}
