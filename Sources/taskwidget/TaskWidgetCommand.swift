import ArgumentParser
import Foundation
import TaskWidgetCLI
import TaskWidgetCore
import TaskWidgetWatch

@main
struct TaskWidgetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "taskwidget",
        abstract: "Your tasks at a glance: a task store, widget timelines, status bar text and PNG widgets.",
        discussion: """
            Examples:
              taskwidget demo
              taskwidget list add Home --color 34C759
              taskwidget add "Pay rent" --due "tomorrow 9am" --list Home
              taskwidget ls
              taskwidget done 3f2a
              taskwidget habit add "Drink water" --icon 💧
              taskwidget habit check "Drink water"

            WHEN (for --due, --remind and render --at): 2026-11-23, 2026-11-23T17:00, today, \
            tomorrow, yesterday, tonight (20:00; from 20:00 on, the end of today), fri or next fri (the next Friday, never today), 17:00, 5pm, \
            noon, eod (18:00), midnight (the end of a day), in 2h, in 30m, in 1h30m, in 3d, in 1w, +2h, \
            tomorrow 5pm (or 5pm tomorrow). A day without a time is due at 23:59 and reminds at 09:00. A time alone \
            is its next occurrence.

            Exit status: 0 ok, 64 bad usage or input, 65 bad data (damaged store, bad import), \
            69 a service that cannot be used (serve's address, a sync server, no D-Bus), 74 I/O, \
            75 a failure a later try may fix (a sync server down).

            `taskwidget help COMMAND` shows a command's options and examples; `man taskwidget` \
            has them all.
            """,
        version: "0.1.0",
        subcommands: [
            Add.self, Ls.self, Done.self, Undo.self, Start.self, Stop.self, Snooze.self, Edit.self, Rm.self, Move.self,
            ListCommand.self, HabitCommand.self, TimelineCommand.self, StatusCommand.self, WatchCommand.self, RenderCommand.self,
            Export.self, Import.self, Backup.self, Restore.self, Demo.self, Serve.self, Sync.self, Notify.self,
        ]
    )

    /// Hands `serve`, `sync` and `notify` to their programs, and runs the rest (``CommandRunner``).
    /// `render` starts its drawing helper first, so that the helper loads while the arguments are
    /// parsed and the store is read.
    static func main() {
        // The helper inherits the environment: the variables fontconfig misreads go first.
        XDGPaths.unsetInvalidVariables()
        if CommandLine.arguments.dropFirst().first == RenderCommand.configuration.commandName { DrawingHelper.startEarly() }
        do {
            try SiblingCommands.execIfSibling(CommandLine.arguments)
        } catch {
            CommandRunner.report(error)
            Foundation.exit(error.code.exitStatus)
        }
        CommandRunner.main(Self.self)
    }
}
