import Foundation
import GRDB
import Testing

@testable import TaskWidgetTestSupport

/// What a new user sees in a week of use (issue 17), through the built binary: the first run
/// before any store exists, due labels that keep their time, counts without zeros, a `next` that
/// agrees with the counts, rows the store should not hold, user templates, and `ls` in a terminal.
@Suite(.serialized, .runsPrograms(onThreadNamed: "everyday output")) struct EverydayOutputTests {
    /// Runs taskwidget as a new user types it: no `--store`, so the default store in the sandbox's
    /// own XDG data folder (the sandbox's clock and zone).
    func typed(_ sandbox: borrowing Sandbox, _ arguments: [String], environment: [String: String] = [:]) throws -> RunResult {
        try sandbox.run(arguments + ["--now", sandbox.now], global: false, environment: environment)
    }

    func defaultStore(_ sandbox: borrowing Sandbox) -> String {
        sandbox.folder.appendingPathComponent("data/taskwidget/tasks.sqlite").path
    }

    // MARK: First run

    @Test func beforeTheFirstAddEveryFormatShowsAnEmptyStateNotAnError() throws {
        let sandbox = try Sandbox()
        let expected = [
            "text": "No open tasks", "polybar": "No open tasks", "tmux": "No open tasks",
        ]
        for format in ["text", "json", "waybar", "i3bar", "polybar", "tmux"] {
            let result = try typed(sandbox, ["status", "--format", format])
            #expect(result.status == 0 && result.stderr.isEmpty, "\(format): \(result.stderr)")
            #expect(result.stdoutLines.count == 1, "\(format): \(result.stdout)")
            if let line = expected[format] { #expect(result.stdout == line + "\n") }
        }
        let waybar = try StatusCommandTests.jsonObject(try typed(sandbox, ["status", "--format", "waybar"]).stdout)
        #expect(waybar["class"] as? String == "empty" && waybar["text"] as? String == "No open tasks")
        #expect(waybar["tooltip"] as? String == "No open tasks\nAdd one: taskwidget add \"Buy milk\" --due today")
        let i3bar = try StatusCommandTests.jsonObject(try typed(sandbox, ["status", "--format", "i3bar"]).stdout)
        #expect(i3bar["urgent"] as? Bool == false && i3bar["color"] == nil)
        let json = try StatusCommandTests.jsonObject(try typed(sandbox, ["status", "--format", "json"]).stdout)
        #expect((json["counts"] as? [String: Int])?["open"] == 0)
        // ls and the timeline too; and nothing was created by reading.
        // (not "ls --all shows completed ones": there are none)
        #expect(try typed(sandbox, ["ls"]).stdout == "No tasks yet — add one: taskwidget add \"Buy milk\" --due today\n")
        #expect(try typed(sandbox, ["ls", "--format", "json"]).stdout == "[]\n")
        #expect(try typed(sandbox, ["timeline", "--format", "text"]).status == 0)
        #expect(!FileManager.default.fileExists(atPath: sandbox.folder.appendingPathComponent("data").path))
        // The first add creates the store where the reads looked.
        #expect(try typed(sandbox, ["add", "Buy milk", "--due", "today"]).status == 0)
        #expect(try typed(sandbox, ["status"]).stdout == "1 today · next: Buy milk (Today)\n")
        #expect(FileManager.default.fileExists(atPath: defaultStore(sandbox)))
    }

    @Test(.timeLimit(.minutes(1)))
    func watchStartsWithTheEmptyStateAndShowsTheFirstAdd() throws {
        let sandbox = try Sandbox()
        let watch = try StreamingProcess(["watch", "--format", "waybar", "--now", sandbox.now], environment: sandbox.environment)
        let first = try StatusCommandTests.jsonObject(try #require(watch.nextLine()))
        #expect(first["class"] as? String == "empty", "\(first)")
        #expect(try typed(sandbox, ["add", "Pay rent", "--due", "18:00"]).status == 0)
        // The new store may be seen empty before its first task is in.
        var line = watch.nextLine(within: .seconds(5))
        if line?.contains("No open tasks") == true { line = watch.nextLine(within: .seconds(5)) }
        #expect(line?.contains("1 today · Pay rent") == true, "\(line ?? "no line")")
        #expect(!watch.stderrText.contains("no store"), "\(watch.stderrText)")
    }

    /// A store the user named is theirs: missing, it is an error (a bar's error line, exit 0).
    @Test func aMissingStoreTheUserNamedIsStillAnError() throws {
        let sandbox = try Sandbox()
        let named = sandbox.folder.appendingPathComponent("elsewhere/tasks.sqlite").path
        for environment in [["TASKWIDGET_STORE": named], [:]] {
            let arguments = environment.isEmpty ? ["status", "--format", "waybar", "--store", named] : ["status", "--format", "waybar"]
            let result = try typed(sandbox, arguments, environment: environment)
            #expect(result.status == 0 && result.stderr.contains("there is no store at \(named)"), "\(result.stderr)")
            #expect(try StatusCommandTests.jsonObject(result.stdout)["class"] as? String == "error")
            #expect(!result.stderr.contains("taskwidget demo"))
            #expect(try typed(sandbox, ["ls"] + arguments.dropFirst(3), environment: environment).status == 74)
        }
    }

    /// A command that changes what the store holds names a missing store it was given, as `ls`
    /// does, and makes none: it said "no task has the id abcd" (the ids of the empty store it
    /// would have made). A command that adds makes it.
    @Test func aChangeToAMissingStoreTheUserNamedNamesIt() throws {
        let sandbox = try Sandbox()
        let named = sandbox.folder.appendingPathComponent("typo.sqlite").path
        for arguments in [
            ["done", "abcd"], ["done", "--top"], ["edit", "abcd", "--title", "x"], ["rm", "abcd"], ["move", "abcd", "--to", "1"],
            ["snooze", "abcd"], ["list", "rename", "Home", "Haus"], ["habit", "check", "Walk"],
        ] {
            let result = try sandbox.run(arguments + ["--store", named])
            #expect(result.status == 74 && result.stderr.hasPrefix("taskwidget: there is no store at \(named) yet"), "\(arguments): \(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: named))
        }
        try sandbox.succeed(["add", "Pay rent", "--store", named])
        #expect(try sandbox.succeed(["done", "--top", "--store", named]).hasPrefix("Completed"))
    }

    // MARK: Labels, counts and next

    /// Sunday 22 November 2026: `fri` is the 27th.
    @Test func aDueTimeIsShownWheneverOneWasGiven() throws {
        let sandbox = try Sandbox()
        try sandbox.succeed(["add", "Dentist", "--due", "fri 14:30"])
        try sandbox.succeed(["add", "Bins", "--due", "fri"])
        let ls = try sandbox.succeed(["ls"])
        #expect(ls.contains("○ Dentist  Inbox  Fri 27 Nov 14:30\n") && ls.contains("○ Bins     Inbox  Fri 27 Nov\n"), "\(ls)")
        let waybar = try StatusCommandTests.jsonObject(try sandbox.succeed(["status", "--format", "waybar"]))
        #expect(waybar["tooltip"] as? String == "2 open\nDentist · Fri 27 Nov 14:30\nBins · Fri 27 Nov", "\(waybar)")
        #expect(try sandbox.succeed(["status"]) == "next: Dentist (Fri 27 Nov 14:30)\n")
    }

    /// `next` is the task the counts speak of; an active task is marked and keeps its place.
    @Test func nextIsTheTaskDueFirstAndAnActiveTaskIsMarked() throws {
        let sandbox = try Sandbox()
        let report = try sandbox.succeed(["add", "Quarterly report", "--due", "2026-12-03"]).trimmingCharacters(in: .whitespacesAndNewlines)
        try sandbox.succeed(["start", report])
        let call = try sandbox.succeed(["add", "Call Bob", "--due", "17:00"]).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(try sandbox.succeed(["status"]) == "1 today · next: Call Bob (in 33 min)\n")
        let waybar = try StatusCommandTests.jsonObject(try sandbox.succeed(["status", "--format", "waybar"]))
        #expect(waybar["text"] as? String == "1 today · Call Bob")
        #expect(waybar["tooltip"] as? String == "1 today · 1 soon\nCall Bob · 17:00\n▶ Quarterly report · Thu 3 Dec", "\(waybar)")
        #expect(try sandbox.succeed(["ls"]).contains("▶ Quarterly report"))
        try sandbox.succeed(["done", report, call])
        #expect(try sandbox.succeed(["status"]) == "All done\n")
    }

    // MARK: Rows the store should not hold

    /// Edits the sandbox's store behind taskwidget's back, as another program (or a newer
    /// taskwidget) could.
    func edit(_ sandbox: borrowing Sandbox, _ sql: String) throws {
        let queue = try DatabaseQueue(path: sandbox.storePath)
        try queue.write { try $0.execute(sql: sql) }
        try queue.close()
    }

    /// Seed 003: a state this version does not know reads as not started.
    @Test func anUnknownStateReadsAsNotStarted() throws {
        let sandbox = try Sandbox()
        try sandbox.succeed(["add", "Paused elsewhere", "--due", "18:00"])
        try edit(sandbox, "UPDATE task SET state = 'paused'")
        #expect(try sandbox.succeed(["ls"]).contains("○ Paused elsewhere"))
        #expect(try sandbox.succeed(["status"]) == "1 today · next: Paused elsewhere (in 2 h)\n")
        let waybar = try sandbox.run(["status", "--format", "waybar"])
        #expect(waybar.status == 0 && waybar.stderr.isEmpty && !waybar.stdout.contains("Decoding"), "\(waybar.stdout)")
        #expect(try sandbox.succeed(["export"]).contains("\"state\" : \"notStarted\""))
    }

    /// A habit record's status this version does not know counts as skipped: not done.
    @Test func anUnknownHabitStatusReadsAsSkipped() throws {
        let sandbox = try Sandbox()
        try sandbox.succeed(["habit", "add", "Walk"])
        try sandbox.succeed(["habit", "check", "Walk"])
        #expect(try sandbox.succeed(["habit", "ls"]).contains("1 of 1 done"))
        try edit(sandbox, "UPDATE habitCompletion SET status = 'partial'")
        let listed = try sandbox.succeed(["habit", "ls"])
        #expect(listed.contains("skipped") && !listed.contains("1 of 1 done"), "\(listed)")
        #expect(try sandbox.succeed(["status", "--format", "json"]).contains("\"status\":\"skipped\""))
    }

    /// Other bad data: exit 65 and a plain sentence that names the column, in the terminal and in
    /// the bar's tooltip; never the row's values (titles), not even with `--verbose` (SPEC §2).
    @Test(arguments: [
        "UPDATE task SET dueDate = 'tomorrow'", "UPDATE task SET title = x'ff'", "UPDATE task SET sortOrder = 'first'",
        "UPDATE task SET id = 'not a uuid'", "UPDATE taskList SET colorHex = 7",
    ])
    func otherBadDataIsExit65InAPlainSentence(sql: String) throws {
        let sandbox = try Sandbox()
        try sandbox.succeed(["add", "Pay rent", "--due", "18:00", "--list", "Home", "--new-list"])
        try edit(sandbox, sql)
        for arguments in [["ls"], ["status"], ["export"], ["ls", "--verbose"]] {
            let result = try sandbox.run(arguments)
            if result.status == 0 { continue }  // what this command reads is fine
            #expect(result.status == 65, "\(arguments) after \(sql): \(result.stderr)")
            #expect(result.stderr.contains("taskwidget: the store \(sandbox.storePath) holds a "), "\(result.stderr)")
            #expect(result.stderr.contains("taskwidget cannot read: restore it from a backup"), "\(result.stderr)")
            #expect(!result.stderr.contains("Pay rent") && !result.stderr.contains("Home"), "\(arguments) after \(sql): \(result.stderr)")
            if arguments.count == 1 { #expect(result.stderrLines.count == 1, "\(result.stderr)") }
            for internals in ["Decoding", "RowDecoding", "Error(", "Swift.", "GRDB", "SQLite error"] {
                #expect(!result.stderr.contains(internals), "\(arguments) after \(sql): \(result.stderr)")
            }
        }
        let waybar = try sandbox.run(["status", "--format", "waybar"])
        #expect(waybar.status == 0 && !waybar.stdout.contains("Decoding"), "\(waybar.stdout)")
    }

    // MARK: Templates

    @Test func aUserTemplateSeesTheEntryAndATypoIsRefusedWithItsPlace() throws {
        let sandbox = try Sandbox()
        try sandbox.succeed(["add", "Pay rent", "--due", "2026-11-22T09:00:00+01:00"])
        let folder = sandbox.folder.appendingPathComponent(".config/taskwidget/templates")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let template = folder.appendingPathComponent("text.mustache")
        try Data("{{counts.overdue}} overdue{{#next}}: {{title}}{{/next}}\n".utf8).write(to: template)
        #expect(try sandbox.succeed(["status"]) == "1 overdue: Pay rent\n")
        try Data("{{#hasTasks}}{{cuonts.today}}{{/hasTasks}}\n".utf8).write(to: template)
        try sandbox.expectRefused(
            ["status"], status: 64,
            message: "taskwidget: template \(template.path):1:16: unknown name “cuonts.today”: did you mean “counts.dueToday”?",
            allowingStdout: true)
    }

    // MARK: ls in a terminal

    /// `ls` through a pseudo-terminal (util-linux `script`), as a user sees it.
    func lsOnATerminal(_ sandbox: borrowing Sandbox, _ arguments: [String], environment: [String: String] = [:]) throws -> String {
        let command = ([Sandbox.binary.path] + sandbox.arguments(["ls"] + arguments)).map { "'\($0)'" }.joined(separator: " ")
        let result = try ProcessRunner.run(
            "/usr/bin/script", ["-qec", command, "/dev/null"],
            environment: sandbox.environment.merging(["TERM": "xterm-256color"].merging(environment) { $1 }) { $1 })
        #expect(result.status == 0, "\(result.stdout) \(result.stderr)")
        return result.stdout
    }

    @Test func lsIsColouredOnATerminalOnly() throws {
        let sandbox = try Sandbox()
        try sandbox.succeed(["list", "add", "Home", "--color", "34C759"])
        try sandbox.succeed(["add", "Pay rent", "--due", "2026-11-22T09:00:00+01:00", "--list", "Home", "--new-list"])
        let (red, green) = ("\u{1B}[31m", "\u{1B}[38;2;52;199;89m")
        let terminal = try lsOnATerminal(sandbox, [])
        #expect(terminal.contains(red + "Overdue · 09:00") && terminal.contains(green + "●"), "\(terminal.debugDescription)")
        for (arguments, environment) in [([], ["NO_COLOR": "1"]), (["--color", "never"], [:])] {
            let plain = try lsOnATerminal(sandbox, arguments, environment: environment)
            #expect(!plain.contains("\u{1B}[") && plain.contains("! Pay rent  Home  Overdue · 09:00"), "\(plain.debugDescription)")
        }
        // Into a pipe: no colour, unless asked for.
        #expect(!(try sandbox.succeed(["ls"])).contains("\u{1B}["))
        #expect(try sandbox.succeed(["ls", "--color", "always"]).contains(red))
    }

    @Test func anEmptyListingSaysHowToSeeMore() throws {
        let sandbox = try Sandbox()
        try sandbox.succeed(["list", "add", "Work"])
        let id = try sandbox.succeed(["add", "Pay rent", "--list", "Work", "--new-list"]).trimmingCharacters(in: .whitespacesAndNewlines)
        try sandbox.succeed(["done", id])
        #expect(try sandbox.succeed(["ls"]) == "No open tasks — `taskwidget ls --all` shows completed ones\n")
        #expect(try sandbox.succeed(["ls", "--list", "Work"]).hasPrefix("No open tasks in Work — add --all for completed ones"))
        #expect(try sandbox.succeed(["ls", "--inbox", "--all"]) == "No tasks in the Inbox — leave out --inbox for every list\n")
        // The Inbox has no completed task either: no advice to add --all.
        #expect(try sandbox.succeed(["ls", "--inbox"]) == "No tasks in the Inbox — leave out --inbox for every list\n")
        #expect(try sandbox.succeed(["ls", "--format", "json"]) == "[]\n")
        #expect(try sandbox.succeed(["ls", "--all"]).contains("✓ Pay rent"))
    }
}

@Suite struct PipedListingTests {
    /// In a pipe, titles are cut at 44 columns, unless `COLUMNS` says more: `COLUMNS=200
    /// taskwidget ls | grep` found no word past the 44th column (helper-142).
    @Test func columnsSetsTheWidthInAPipeToo() throws {
        let sandbox = try Sandbox()
        let title = "Call the insurance company about the broken window and ask for the claim number"
        try sandbox.succeed(["add", title])
        #expect(!(try sandbox.succeed(["ls"])).contains("claim number"))
        let wide = try sandbox.run(["ls"], environment: ["COLUMNS": "200"])
        #expect(wide.status == 0 && wide.stdout.contains(title), "\(wide.stdout)")
    }
}
