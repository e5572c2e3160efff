import Foundation
import Glibc
import Testing

@testable import TaskWidgetTestSupport

/// Logs never contain titles or names (seed NFR11–15): every command, run with `--verbose` or
/// `TASKWIDGET_LOG=trace` on a store whose titles, list names and habit names are unique markers,
/// logs to stderr, and no marker is in what it logs (standard output shows them, of course).
@Suite(.serialized, .runsPrograms(onThreadNamed: "privacy")) struct PrivacyTests {
    /// A word found nowhere else: `kind` and random letters (the sandbox path has none of them).
    static func marker(_ kind: String) -> String {
        kind + "Mk" + String((0..<10).map { _ in "bcdfghjklmnpqrstvwxz".randomElement()! })
    }

    /// How logging is turned on.
    enum Logging: String, CaseIterable, Sendable {
        case verboseFlag
        case traceEnvironment
    }

    @Test(.timeLimit(.minutes(2)), arguments: Logging.allCases)
    func logsNeverContainTitlesOrNames(logging: Logging) throws {
        let sandbox = try Sandbox()
        let (home, work, renamed) = (Self.marker("list"), Self.marker("list"), Self.marker("list"))
        let (rent, call, plants, edited) = (Self.marker("title"), Self.marker("title"), Self.marker("title"), Self.marker("title"))
        let (walk, read) = (Self.marker("habit"), Self.marker("habit"))
        let markers = [home, work, renamed, rent, call, plants, edited, walk, read]

        // The store, filled without logging.
        try sandbox.succeed(["list", "add", home])
        try sandbox.succeed(["list", "add", work])
        let rentID = try sandbox.succeed(["add", rent, "--new-list", "--list", home, "--due", "2026-11-22T12:00:00+01:00"]).trimmingCharacters(in: .newlines)
        try sandbox.succeed(["add", call, "--due", "2026-11-22T18:00:00+01:00"])
        try sandbox.succeed(["habit", "add", walk, "--icon", "🚶"])
        try sandbox.succeed(["habit", "check", walk])
        let backup = sandbox.folder.appendingPathComponent("backup.json")
        try Data(try sandbox.succeed(["export"]).utf8).write(to: backup)
        let timeline = sandbox.folder.appendingPathComponent("timeline")
        try FileManager.default.createDirectory(at: timeline, withIntermediateDirectories: false)

        var commands: [[String]] = [
            ["ls"], ["ls", "--all", "--format", "json", "--list", home], ["list", "ls"], ["habit", "ls"],
            ["timeline"], ["timeline", "--format", "text", "--list", home],
        ]
        commands += StatusLineCheck.formats.map { ["status", "--format", $0] } + [["status", "--format", "waybar", "--list", home]]
        commands += [
            ["render", "--family", "large", "-o", sandbox.folder.appendingPathComponent("large.png").path],
            ["render", "--at", "17:00", "-o", sandbox.folder.appendingPathComponent("later.png").path],
            ["render", "--timeline", "--family", "small", "--out-dir", timeline.path],
            ["export"], ["import", backup.path],
            ["add", plants, "--new-list", "--list", work, "--due", "tomorrow 9am", "--remind", "tomorrow 8am"],
            ["done", rentID], ["undo", rentID], ["start", rentID], ["stop", rentID],
            ["edit", rentID, "--title", edited, "--list", work, "--due", "fri"], ["move", rentID, "--to", "1"],
            ["list", "rename", home, renamed], ["list", "color", renamed, "FF9500"], ["list", "move", work, "--to", "1"],
            ["habit", "add", read, "--icon", "📖"], ["habit", "check", read], ["habit", "uncheck", read], ["habit", "toggle", read],
            ["habit", "edit", read, "--icon", "📕"], ["habit", "rm", read, "--yes"],
            ["rm", rentID], ["list", "rm", renamed, "--yes"],
        ]
        let flag = logging == .verboseFlag ? ["--verbose"] : []
        let environment = logging == .traceEnvironment ? ["TASKWIDGET_LOG": "trace"] : [:]
        var logged = 0
        for command in commands {
            let result = try sandbox.run(command + flag, environment: environment)
            #expect(result.status == 0, "\(command): \(result.stderr)")
            if !result.stderr.isEmpty { logged += 1 }
            for marker in markers where result.stderr.contains(marker) {
                Issue.record("\(logging) \(command) logged \(marker): \(result.stderr)")
            }
        }
        // The logs are on: every command opens the store and says so.
        #expect(logged == commands.count, "\(logged) of \(commands.count) commands logged anything")

        // watch, through a change by another process and a SIGUSR1, with a widget beside the line.
        let watch = try StreamingProcess(
            sandbox.arguments(["watch", "--format", "waybar", "--render-dir", timeline.path, "--list", work] + flag),
            environment: environment.merging(sandbox.environment, uniquingKeysWith: { given, _ in given }))
        #expect(watch.nextLine()?.contains(plants) == true)
        try sandbox.succeed(["add", call + " again", "--new-list", "--list", work, "--due", "2026-11-22T17:00:00+01:00"])
        #expect(watch.nextLine(within: .seconds(5))?.contains(call) == true)
        // SIGTERM only once watch took the SIGUSR1: sent together, both are read at once and watch
        // stops without refreshing. Once taken, the refresh runs before watch reads signals again.
        watch.send(SIGUSR1)
        #expect(watch.waitForStderr(containing: "SIGUSR1: refreshing"), "\(watch.stderrText)")
        watch.send(SIGTERM)
        #expect(watch.waitForExit() == 0)
        #expect(watch.stderrText.contains("store changed"), "\(watch.stderrText)")
        for marker in markers where watch.stderrText.contains(marker) {
            Issue.record("\(logging) watch logged \(marker): \(watch.stderrText)")
        }
    }

    /// notify, with a real notification server: two reminders shown, one done from its
    /// notification, the other completed by another process, a third task renamed while it waits.
    /// Its log says what happened by task ids and counts only.
    @Test(.timeLimit(.minutes(1)), arguments: Logging.allCases)
    func notifyLogsNoTitlesOrNames(logging: Logging) throws {
        let desktop = try DesktopSession()
        try desktop.startDunst()
        let sandbox = try Sandbox()
        let (home, first, second, waiting, renamed) = (
            Self.marker("list"), Self.marker("title"), Self.marker("title"), Self.marker("title"), Self.marker("title")
        )
        let markers = [home, first, second, waiting, renamed]
        try sandbox.succeed(["add", first, "--new-list", "--list", home, "--due", "2026-11-22T17:00:00+01:00", "--remind", "2026-11-22T16:27:01+01:00"])
        let secondID = try sandbox.succeed(["add", second, "--new-list", "--list", home, "--remind", "2026-11-22T16:27:04+01:00"])
            .trimmingCharacters(in: .newlines)
        let waitingID = try sandbox.succeed(["add", waiting, "--remind", "2026-11-22T18:00:00+01:00"]).trimmingCharacters(in: .newlines)

        var environment = NotifyCommandTests.environment(sandbox, desktop)
        if logging == .traceEnvironment { environment["TASKWIDGET_LOG"] = "trace" }
        let flag = logging == .verboseFlag ? ["--verbose"] : []
        let notify = try StreamingProcess(sandbox.arguments(["notify"] + flag), environment: environment)
        #expect(notify.waitForStderr(containing: NotifyCommandTests.shown, within: .seconds(20)), "\(notify.stderrText)")
        try desktop.invoke("done")
        #expect(notify.waitForStderr(containing: "completed the task of a reminder"), "\(notify.stderrText)")
        #expect(notify.waitForStderr(containing: NotifyCommandTests.shown, count: 2, within: .seconds(20)), "\(notify.stderrText)")
        try sandbox.succeed(["done", secondID])
        try sandbox.succeed(["edit", waitingID, "--title", renamed])
        #expect(notify.waitForStderr(containing: "closedByCall", count: 2), "\(notify.stderrText)")
        let shown = try desktop.closeAllAndReadHistory().map(\.summary)
        #expect(shown.sorted() == [first, second].sorted(), "the notifications do show the titles")
        NotifyCommandTests.stop(notify)
        for marker in markers where notify.stderrText.contains(marker) {
            Issue.record("\(logging) notify logged \(marker): \(notify.stderrText)")
        }
    }

    /// A bar's list-scoped watch whose list is renamed away logs an error at every level; the
    /// error's message lists every list of the store by name (made for a terminal), its log line none.
    @Test(.timeLimit(.minutes(1))) func aWatchWhoseListIsGoneLogsNoListNames() throws {
        let sandbox = try Sandbox()
        let (scoped, other, renamed) = (Self.marker("list"), Self.marker("list"), Self.marker("list"))
        try sandbox.succeed(["add", "Task", "--new-list", "--list", scoped])
        try sandbox.succeed(["list", "add", other])
        let watch = try StreamingProcess(sandbox.arguments(["watch", "--format", "waybar", "--list", scoped]), environment: sandbox.environment)
        #expect(watch.nextLine() != nil)
        try sandbox.succeed(["list", "rename", scoped, renamed])
        #expect(watch.nextLine(within: .seconds(5))?.contains(#""class":"error""#) == true)
        watch.send(SIGTERM)
        #expect(watch.waitForExit() == 0)
        #expect(watch.stderrText.contains("error"), "\(watch.stderrText)")
        // The log names the failure by its code; the message, which names every list, goes to the bar only.
        #expect(!watch.stderrText.contains(other) && !watch.stderrText.contains(renamed), "\(watch.stderrText)")
    }

    /// serve, scoped to one list, with a page, a status line and an image asked for: its own lines
    /// and those of the libraries it runs on (ServiceLifecycle names each service by its
    /// description, which spelt out the view with its list's name) carry neither names nor titles.
    @Test(.timeLimit(.minutes(1)))
    func serveLogsNoTitlesOrNames() throws {
        let sandbox = try Sandbox()
        let (home, rent) = (Self.marker("list"), Self.marker("title"))
        try sandbox.succeed(["add", rent, "--new-list", "--list", home, "--due", "2026-11-22T18:00:00+01:00"])
        let server = try ServeProcess(sandbox, ["--list", home, "--verbose"])
        // Its start line says what it serves, without the list's name (helper-164).
        #expect(server.banner.hasSuffix(" (one list's tasks)") && !server.banner.contains(home), "\(server.banner)")
        #expect(try server.request("/").status == 200)
        #expect(try server.request("/status?format=waybar").text.contains(rent))
        #expect(try server.request("/widget/small.png").status == 200)
        #expect(server.terminate() == 0)
        let logged = server.process.stderrText
        #expect(logged.contains("Starting service"), "debug logging is on: \(logged)")
        #expect(!logged.contains(home) && !logged.contains(rent), "\(logged)")
    }
}
