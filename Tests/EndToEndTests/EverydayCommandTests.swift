import Foundation
import Testing

@testable import TaskWidgetTestSupport

/// The everyday commands of issue 17 run as a new user runs them: a demo that keeps away from
/// the user's tasks, habits that can be edited and toggled, lists found despite typos, the Inbox
/// named either way, PNGs written to standard output or for a later moment, and help that reads
/// well at 80 columns.
@Suite struct EverydayCommandTests {
    // MARK: - Demo

    @Test func demoWithoutStoreFillsAStoreOfItsOwn() throws {
        let sandbox = try Sandbox()
        let data = sandbox.folder.appendingPathComponent("data/taskwidget")
        let demoStore = data.appendingPathComponent("demo.sqlite").path
        // TASKWIDGET_STORE names the user's own tasks: the demo never goes there.
        let environment = ["TASKWIDGET_STORE": sandbox.storePath]
        let first = try sandbox.run(["demo", "--now", sandbox.now], global: false, environment: environment)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdoutLines == [
            "Filled \(demoStore) with sample lists, tasks and habits.",
            "Look at them with --store or TASKWIDGET_STORE, e.g.:",
            "  taskwidget ls --store \(demoStore)",
            "  TASKWIDGET_STORE=\(demoStore) taskwidget status --format waybar",
        ])
        #expect(!FileManager.default.fileExists(atPath: sandbox.storePath), "the user's store is untouched")
        #expect(!FileManager.default.fileExists(atPath: data.appendingPathComponent("tasks.sqlite").path))
        #expect(try sandbox.succeed(["ls", "--store", demoStore]).split(separator: "\n").count > 10)

        let again = try sandbox.run(["demo", "--now", sandbox.now], global: false)
        #expect(again.status == 64)
        #expect(again.stderrLines == [
            "taskwidget: the demo store \(demoStore) is there from an earlier demo: remove it for a new one (rm -f \(demoStore) \(demoStore)-wal \(demoStore)-shm), or pass --store PATH"
        ])
        #expect(again.stdout.isEmpty)
    }

    @Test func demoNeitherReadsConfigTomlNorSaysItDoes() throws {
        let sandbox = try Sandbox()
        let config = sandbox.folder.appendingPathComponent("config/taskwidget")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        try Data("store = [broken\n".utf8).write(to: config.appendingPathComponent("config.toml"))
        let environment = ["XDG_CONFIG_HOME": sandbox.folder.appendingPathComponent("config").path]
        #expect(try sandbox.run(["ls"], global: false, environment: environment).status == 64, "the file is broken for the other commands")
        let demo = try sandbox.run(["demo", "--now", sandbox.now], global: false, environment: environment)
        #expect(demo.status == 0, "\(demo.stderr)")
        #expect(FileManager.default.fileExists(atPath: sandbox.folder.appendingPathComponent("data/taskwidget/demo.sqlite").path))
        let help = try sandbox.succeed(["demo", "--help"], global: false).split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(help.contains("never $TASKWIDGET_STORE or config.toml's store"), "\(help)")
        #expect(!help.contains("default: $TASKWIDGET_STORE"), "\(help)")
    }

    @Test func demoWithStoreFillsThatStoreOnlyWhenEmpty() throws {
        let sandbox = try Sandbox()
        try sandbox.succeed(["add", "My own task"])
        try sandbox.expectRefused(["demo"], status: 64, message: "already has data")
        let other = sandbox.folder.appendingPathComponent("it's a demo.sqlite").path
        let output = try sandbox.succeed(["demo", "--store", other])
        #expect(output.contains("taskwidget ls --store '\(sandbox.folder.path)/it'\\''s a demo.sqlite'"), "\(output)")
        #expect(try sandbox.succeed(["ls", "--format", "json"]).contains("My own task"))
    }

    // MARK: - Habits

    @Test func habitsAreEditedRenamedToggledAndRemovedWithConfirmation() throws {
        let sandbox = try Sandbox()
        try sandbox.succeed(["habit", "add", "Walk"])
        #expect(try sandbox.succeed(["habit", "edit", "walk", "--icon", "🚶"]) == "Edited habit 🚶 Walk #007AFF\n")
        #expect(try sandbox.succeed(["habit", "toggle", "Walk"]) == "🚶 Walk: done on 2026-11-22\n")
        #expect(try sandbox.succeed(["habit", "ls"]).contains("1 of 1 done"))
        #expect(try sandbox.succeed(["habit", "toggle", "Walk"]) == "🚶 Walk: unchecked on 2026-11-22 (it was done)\n")
        #expect(try sandbox.succeed(["habit", "ls"]).contains("0 of 1 done"))

        try sandbox.succeed(["habit", "check", "Walk", "--date", "yesterday", "--status", "missed"])
        #expect(try sandbox.succeed(["habit", "uncheck", "Walk", "--date", "yesterday"]) == "🚶 Walk: unchecked on 2026-11-21 (it was missed)\n")
        #expect(try sandbox.succeed(["habit", "uncheck", "Walk", "--date", "yesterday"]) == "🚶 Walk: nothing was recorded on 2026-11-21\n")
        // A day it cannot read is quoted as typed; a later one is refused for ls too, in words that fit it.
        try sandbox.expectRefused(["habit", "check", "Walk", "--date", "2026-11-21T10:00"], status: 64, message: "cannot read the day “2026-11-21T10:00”")
        // A day that is not in the calendar says why, as --now and --due do (helper-79).
        try sandbox.expectRefused(
            ["habit", "ls", "--date", "2025-02-29"], status: 64, message: "cannot read the day “2025-02-29”: February 2025 has 28 days")
        try sandbox.expectRefused(["habit", "check", "Walk", "--date", "Tomorrow"], status: 64, message: "2026-11-23 is in the future: give today or an earlier day")
        try sandbox.expectRefused(["habit", "toggle", "Walk", "--date", "2026-11-30"], status: 64, message: "2026-11-30 is in the future: give today or an earlier day")
        // Before the years dates are kept in: it was checked and exported (helper-159).
        try sandbox.expectRefused(["habit", "check", "Walk", "--date", "0000-01-01"], status: 64, message: "0000-01-01 is outside the years 0001 to 9999: give a later day")
        // A day checked in a zone ahead is still to come at home: ls and uncheck reach it (they
        // refused it as in the future, and it could not be undone: helper-105).
        #expect(try sandbox.succeed(["habit", "check", "Walk", "--tz", "Pacific/Kiritimati"]) == "🚶 Walk: done on 2026-11-23\n")
        #expect(try sandbox.succeed(["habit", "ls", "--date", "2026-11-23"]).contains("1 of 1 done"))
        #expect(try sandbox.succeed(["habit", "uncheck", "Walk", "--date", "2026-11-23"]) == "🚶 Walk: unchecked on 2026-11-23 (it was done)\n")

        try sandbox.succeed(["habit", "check", "Walk"])
        #expect(try sandbox.succeed(["habit", "edit", "Walk", "--name", "Evening walk", "--color", "34c759"])
            == "Edited habit 🚶 Evening walk #34C759\n")
        #expect(try sandbox.succeed(["habit", "ls"]).contains("Evening walk"), "the history stays with the habit")
        try sandbox.expectRefused(
            ["habit", "rm", "evening walk"], status: 64, message: "deleting the habit “Evening walk” deletes its 1 day of history too: add --yes to confirm")
        // A name that is none is said to be none first: it was asked to be confirmed.
        try sandbox.expectRefused(["habit", "rm", "Evening wlak"], status: 64, message: "did you mean “Evening walk”?")
        try sandbox.expectRefused(["habit", "toggle", "Evening wlak"], status: 64, message: "did you mean “Evening walk”?")
        #expect(try sandbox.succeed(["habit", "rm", "Evening walk", "--yes"]) == "Deleted habit Evening walk and its 1 day of history\n")
        // One never checked has no history to lose: no --yes, as for an empty list (helper-170).
        try sandbox.succeed(["habit", "add", "Stretch"])
        #expect(try sandbox.succeed(["habit", "rm", "Stretch"]) == "Deleted habit Stretch\n")
    }

    // MARK: - The Inbox and lists

    @Test func theInboxIsNamedTheSameWayByEveryCommand() throws {
        let sandbox = try Sandbox()
        try sandbox.succeed(["list", "add", "Work"])
        try sandbox.succeed(["add", "Write report", "--list", "Work"])
        let id = try sandbox.succeed(["add", "Call mom", "--list", "inbox"]).trimmingCharacters(in: .newlines)
        try sandbox.succeed(["edit", id, "--list", "Work"])
        try sandbox.succeed(["edit", id, "--list", "INBOX"])
        let inbox = try sandbox.succeed(["ls", "--inbox"])
        #expect(inbox.contains("Call mom") && !inbox.contains("Write report"))
        #expect(try sandbox.succeed(["ls", "--list", "Inbox"]) == inbox)
        let status = try sandbox.succeed(["status", "--inbox", "--format", "waybar"])
        #expect(status.contains("Call mom") && !status.contains("Write report"))
        #expect(try sandbox.succeed(["status", "--list", "inbox", "--format", "waybar"]) == status)
        #expect(try sandbox.succeed(["timeline", "--list", "inbox"]) == sandbox.succeed(["timeline", "--inbox"]))
        try sandbox.expectRefused(
            ["list", "rename", "Inbox", "Later"], status: 64,
            message: "taskwidget: no list is named Inbox: the Inbox is `--inbox`, the tasks without a list")
    }

    @Test func anUnknownListIsATypoUntilNewListSaysOtherwise() throws {
        let sandbox = try Sandbox()
        try sandbox.succeed(["list", "add", "Work"])
        try sandbox.succeed(["list", "add", "Home"])
        try sandbox.expectRefused(
            ["add", "Report", "--list", "Wrok"], status: 64,
            message: "taskwidget: no list is named “Wrok”: did you mean “Work”? (add --new-list to create it)")
        let id = try sandbox.succeed(["add", "Report"]).trimmingCharacters(in: .newlines)
        try sandbox.expectRefused(
            ["edit", id, "--list", "Wokr"], status: 64,
            message: "taskwidget: no list is named “Wokr”: did you mean “Work”? (create one with `taskwidget list add NAME`)")
        let created = try sandbox.run(["add", "Plan the trip", "--list", "Travel", "--new-list"])
        #expect(created.status == 0 && created.stderr == "taskwidget: created the list “Travel”\n")
        let reused = try sandbox.run(["add", "Pack", "--list", "travel", "--new-list"])
        #expect(reused.status == 0 && reused.stderr.isEmpty)
        #expect(try sandbox.succeed(["list", "ls"]).contains("Travel"))
        // A typo with --new-list makes the list it asks for, and says which one was near (helper-142).
        let typo = try sandbox.run(["add", "Expenses", "--list", "Wrok", "--new-list"])
        let typoID = typo.stdout.trimmingCharacters(in: .newlines)
        #expect(
            typo.status == 0
                && typo.stderr == "taskwidget: created the list “Wrok” (did you mean “Work”? then: taskwidget edit \(typoID) --list Work && taskwidget list rm Wrok)\n",
            "\(typo.stderr)")
        // Names apart by their numbers alone are no typo.
        try sandbox.succeed(["add", "One", "--list", "Project 1", "--new-list"])
        #expect(try sandbox.run(["add", "Two", "--list", "Project 2", "--new-list"]).stderr == "taskwidget: created the list “Project 2”\n")
        // list rm names the list and what goes with it; a name that is none is said to be none
        // first (it was asked to be confirmed).
        try sandbox.expectRefused(
            ["list", "rm", "travel"], status: 64, message: "taskwidget: deleting the list “Travel” deletes its 2 tasks too: add --yes to confirm")
        try sandbox.expectRefused(["list", "rm", "Travle"], status: 64, message: "did you mean “Travel”?")
    }

    @Test func listsAreReorderedByMove() throws {
        let sandbox = try Sandbox()
        for name in ["Work", "Home", "Errands"] { try sandbox.succeed(["list", "add", name]) }
        #expect(try sandbox.succeed(["list", "move", "errands", "--to", "1"]) == "Moved list Errands to position 1\n")
        #expect(try sandbox.succeed(["list", "move", "Work", "--to", "9"]) == "Moved list Work to position 3\n")
        // Already there: said so, as a task's move says it (helper-170).
        #expect(try sandbox.succeed(["list", "move", "Work", "--to", "7"]) == "List Work is already at position 3: nothing changed\n")
        let names = try sandbox.succeed(["list", "ls"]).split(separator: "\n").dropFirst().map { $0.split(separator: " ").first.map(String.init) }
        #expect(names == ["Errands", "Home", "Work"])
    }

    /// A task moved to the top, or into the middle, is the only one edited: the tasks it pushed
    /// down were edited too, and an import from another store then kept their older copies over a
    /// title edited there ("2 unchanged", helper-158, helper-161). A move to where the task is
    /// changes nothing, and says so.
    @Test func aMoveEditsTheMovedTaskOnlySoAnImportKeepsEditsMadeElsewhere() throws {
        var first = try Sandbox()
        let second = try Sandbox()
        try first.succeed(["list", "add", "Work"])
        let call = try first.succeed(["add", "Call Bob", "--list", "Work"]).trimmingCharacters(in: .newlines)
        let third = try first.succeed(["add", "Third", "--list", "Work"]).trimmingCharacters(in: .newlines)
        let fourth = try first.succeed(["add", "Fourth", "--list", "Work"]).trimmingCharacters(in: .newlines)
        let exported = first.folder.appendingPathComponent("first.json")
        try Data(try first.succeed(["export"]).utf8).write(to: exported)
        try second.succeed(["import", exported.path])
        try second.succeed(["edit", call, "--title", "Call Bob about the contract", "--now", "2026-11-22T17:00:00+01:00"])
        first.now = "2026-11-22T18:00:00+01:00"
        #expect(try first.succeed(["move", third, "--to", "1"]) == "Moved \(third) Third to position 1\n")
        #expect(try first.succeed(["move", third, "--to", "1"]) == "\(third) Third is already at position 1: nothing changed\n")
        // Into the middle, where the orders leave no room: the list is renumbered.
        #expect(try first.succeed(["move", fourth, "--to", "2"]) == "Moved \(fourth) Fourth to position 2\n")

        let edited = second.folder.appendingPathComponent("second.json")
        try Data(try second.succeed(["export"]).utf8).write(to: edited)
        let imported = try first.succeed(["import", edited.path])
        #expect(imported.contains("1 updated"), "\(imported)")
        #expect(try first.succeed(["ls", "--list", "Work"]).contains("Call Bob about the contract"))
        // The moved tasks keep their places; Call Bob, renumbered here and edited there, takes
        // the other store's place with its title (without a common base, a copy's fields go whole).
        let listed = try first.succeed(["ls", "--list", "Work"])
        let order = ["Third", "Fourth"].map { listed.range(of: $0)!.lowerBound }
        #expect(order == order.sorted(), "the moves stay: \(listed)")
    }

    // MARK: - Dates

    @Test func aWeekdayTypedOnThatWeekdayIsAWeekLater() throws {
        var sandbox = try Sandbox()
        sandbox.now = "2026-11-23T10:00:00+01:00"  // a Monday
        try sandbox.succeed(["add", "Weekly review", "--due", "mon"])
        try sandbox.succeed(["add", "Ship it", "--due", "next fri eod"])
        try sandbox.succeed(["add", "Sleep", "--due", "midnight"])
        let tasks = try JSONSerialization.jsonObject(with: Data(try sandbox.succeed(["ls", "--format", "json"]).utf8)) as? [[String: Any]]
        #expect(tasks?.compactMap { $0["dueDate"] as? String } == ["2026-11-30T22:59:00Z", "2026-11-27T17:00:00Z", "2026-11-23T22:59:00Z"])
        // Due `midnight` is due today (at 00:00 of the 24th it counted as tomorrow's).
        #expect(try sandbox.succeed(["status"]) == "1 today · next: Sleep (Today)\n")
    }

    // MARK: - render

    /// `-o -` writes the same PNG to standard output (no file named `-`); `--at` draws the entry
    /// the timeline shows then, as `--timeline` draws it.
    @Test func renderWritesToStandardOutputAndDrawsALaterEntry() throws {
        let sandbox = try Sandbox()
        try sandbox.succeed(["add", "Pay rent", "--due", "2026-11-22T16:45:00+01:00"])
        let file = sandbox.folder.appendingPathComponent("now.png")
        try sandbox.succeed(["render", "-o", file.path])
        let piped = sandbox.folder.appendingPathComponent("piped.png")
        let shell = try ProcessRunner.run(
            "/bin/sh", ["-c", "cd \"$0\" && exec \"$@\" > piped.png", sandbox.folder.path, Sandbox.binary.path] + sandbox.arguments(["render", "-o", "-"]),
            environment: sandbox.environment)
        #expect(shell.status == 0 && shell.stderr.isEmpty, "\(shell.stderr)")
        #expect(try Data(contentsOf: piped) == Data(contentsOf: file))
        #expect(!FileManager.default.fileExists(atPath: sandbox.folder.appendingPathComponent("-").path))
        // A reader that went away (`render -o - | head -c 8`) ends it as it ends `cat`: SIGPIPE,
        // without a word. It said "cannot write to standard output: Broken pipe", exit 74.
        let closedReader = try ProcessRunner.run(
            "/usr/bin/python3",
            [
                "-c", "import os, subprocess, sys; r, w = os.pipe(); os.close(r); run = subprocess.run(sys.argv[1:], stdout=w, stderr=subprocess.PIPE); "
                    + "sys.stderr.buffer.write(run.stderr); print(run.returncode)",
                Sandbox.binary.path,
            ] + sandbox.arguments(["render", "-o", "-"]), environment: sandbox.environment)
        #expect(closedReader.stdout == "-\(SIGPIPE)\n" && closedReader.stderr.isEmpty, "\(closedReader.stdout) \(closedReader.stderr)")
        // The same with SIGPIPE ignored, as systemd starts units (IgnoreSIGPIPE): `ls` and
        // `timeline`, whose writes are buffered, said "a write failed" and exited 74 (helper-90).
        try sandbox.succeed(["add", "Pay rent"])
        for command in [["ls"], ["timeline"]] {
            let ignoring = try ProcessRunner.run(
                "/usr/bin/python3",
                [
                    "-c", "import os, subprocess, sys; r, w = os.pipe(); os.close(r); "
                        + "run = subprocess.run(sys.argv[1:], stdout=w, stderr=subprocess.PIPE, restore_signals=False); "
                        + "sys.stderr.buffer.write(run.stderr); print(run.returncode)",
                    Sandbox.binary.path,
                ] + sandbox.arguments(command), environment: sandbox.environment)
            #expect(ignoring.stdout == "-\(SIGPIPE)\n" && ignoring.stderr.isEmpty, "\(command): \(ignoring.stdout) \(ignoring.stderr)")
        }

        // The folder is made, as in the README's `--out-dir output/timeline`.
        let timeline = sandbox.folder.appendingPathComponent("output/timeline")
        try sandbox.succeed(["render", "--timeline", "--out-dir", timeline.path])
        let index = try JSONSerialization.jsonObject(with: Data(contentsOf: timeline.appendingPathComponent("index.json"))) as? [String: Any]
        let entries = try #require(index?["entries"] as? [[String: Any]])
        // `midnight` is the moment the new day starts (23:59 is what it means for a due date).
        for (at, entryDate) in [
            ("17:00", "2026-11-22T17:00:00+01:00"), ("16:50", "2026-11-22T16:45:00+01:00"), ("in 2h", "2026-11-22T18:15:00+01:00"),
            ("midnight", "2026-11-23T00:00:00+01:00"),
        ] {
            let later = sandbox.folder.appendingPathComponent("at.png")
            try sandbox.succeed(["render", "--at", at, "-o", later.path])
            let entryFile = try #require(entries.first { $0["date"] as? String == entryDate }?["file"] as? String, "\(entryDate)")
            #expect(try Data(contentsOf: later) == Data(contentsOf: timeline.appendingPathComponent(entryFile)), "--at \(at)")
        }
        #expect(try Data(contentsOf: sandbox.folder.appendingPathComponent("at.png")) != Data(contentsOf: file), "overdue by then")
        try sandbox.expectRefused(["render", "--at", "tomorrow 17:00", "-o", file.path], status: 64, message: "--at must be within the timeline")
        // What it was read as, and the timeline's ends: a day alone is its 23:59 (helper-118).
        try sandbox.expectRefused(
            ["render", "--at", "tomorrow", "-o", file.path], status: 64,
            message: "--at must be within the timeline, from now to 24 hours later (2026-11-22T16:27:00+01:00 to 2026-11-23T16:27:00+01:00), "
                + "and reads as 2026-11-23T23:59:00+01:00 (a day alone is its 23:59): give a time within it, or use --now to draw another day")
        try sandbox.expectRefused(["render", "--at", "today 9am", "-o", file.path], status: 64, message: "--at must be within the timeline")
        try sandbox.expectRefused(["render", "--at", "17:00", "--timeline", "--out-dir", timeline.path], status: 64)
    }

    /// `render --at` of a view with a due horizon draws the widget as it will be then: with the
    /// tasks that come within the horizon by then, as `render --now` then draws it (it kept the
    /// horizon of now, helper-146).
    @Test func renderAtOfAViewWithAHorizonKeepsTheTasksComingWithinIt() throws {
        let sandbox = try Sandbox()
        try sandbox.writeConfig("[views.soon]\ndue_within = \"30m\"\n")
        try sandbox.succeed(["add", "Soon", "--due", "2026-11-22T16:50:00+01:00"])
        try sandbox.succeed(["add", "Later", "--due", "2026-11-22T17:40:00+01:00"])
        let at = sandbox.folder.appendingPathComponent("at.png")
        let then = sandbox.folder.appendingPathComponent("then.png")
        let now = sandbox.folder.appendingPathComponent("now.png")
        try sandbox.succeed(["render", "--view", "soon", "--at", "17:15", "-o", at.path])
        try sandbox.succeed(["render", "--view", "soon", "--now", "2026-11-22T17:15:00+01:00", "-o", then.path])
        try sandbox.succeed(["render", "--view", "soon", "-o", now.path])
        #expect(try Data(contentsOf: at) == Data(contentsOf: then))
        #expect(try Data(contentsOf: at) != Data(contentsOf: now))
    }

    // MARK: - Help

    /// Every command's help at 80 columns: paragraphs wrapped by argument-parser (no line cut
    /// short inside a paragraph, as hard line breaks made them), examples on lines of their own
    /// within the width, and no path of the repository.
    @Test func helpFitsEightyColumnsWithoutRaggedLinesOrRepositoryPaths() throws {
        let sandbox = try Sandbox()
        var pending: [[String]] = [[]]
        var checked = 0
        while let path = pending.popLast() {
            let result = try sandbox.run(["help"] + path, global: false, environment: ["COLUMNS": "80"])
            #expect(result.status == 0, "help \(path): \(result.stderr)")
            let text = result.stdout
            for folder in ["docs/", "scripts/", "Sources/", "Tests/", ".swift"] {
                #expect(!text.contains(folder), "help \(path) names \(folder)")
            }
            let description = text.components(separatedBy: "\nUSAGE:").first ?? ""
            for paragraph in description.components(separatedBy: "\n\n") {
                let lines = paragraph.split(separator: "\n").map(String.init)
                for line in lines {
                    #expect(line.count <= 80, "help \(path): \(line)")
                }
                // Examples are lines of their own; a paragraph of prose fills each line but its last.
                guard let first = lines.first, !first.hasPrefix("Example"), !first.hasPrefix(" ") else { continue }
                for line in lines.dropLast() {
                    #expect(line.count > 55, "help \(path): a ragged line: \(line)")
                }
            }
            // Subcommands, except the sibling programs, which have help of their own.
            let subcommands = text.components(separatedBy: "SUBCOMMANDS:\n").dropFirst().first?
                .split(separator: "\n").compactMap { line -> String? in
                    guard line.hasPrefix("  "), !line.hasPrefix("   "), let name = line.split(separator: " ").first else { return nil }
                    return String(name)
                } ?? []
            pending += subcommands.filter { !["serve", "sync", "notify", "See"].contains($0) }.map { path + [$0] }
            checked += 1
        }
        #expect(checked == 35, "help of every command")
    }
}

/// Ids whose first 8 digits are the same (at 100 000 tasks a store likely has such a pair) are
/// shown with as many more as tell them apart, so that what `ls` shows always names one task.
/// Every path option reads a leading `~/` as `$HOME`, as `--store` does: a shell leaves
/// `--file=~/t` as it is, and some options read it as the user database's home, others not at
/// all, so `serve token --file=~/t` wrote a file that `serve --token-file=~/t` did not find
/// (helper-99).
@Suite struct HomeInPathTests {
    @Test func aPathFromHomeMeansTheSameFileToEveryOption() throws {
        let sandbox = try Sandbox()
        let home = sandbox.folder.path
        try sandbox.succeed(["add", "Pay rent", "--due", "2026-11-22T17:00"])
        try sandbox.succeed(["render", "--family", "small", "-o=~/w.png"])
        #expect(FileManager.default.fileExists(atPath: home + "/w.png"))
        try sandbox.succeed(["render", "--family", "small", "--timeline", "--out-dir=~/frames"])
        #expect(FileManager.default.fileExists(atPath: home + "/frames/index.json"))
        try Data("{{next.title}}!".utf8).write(to: URL(fileURLWithPath: home + "/line.mustache"))
        chmod(home + "/line.mustache", 0o600)
        #expect(try sandbox.succeed(["status", "--format", "text", "--template=~/line.mustache"]) == "Pay rent!\n")
        try Data(try sandbox.succeed(["export"]).utf8).write(to: URL(fileURLWithPath: home + "/backup.json"))
        #expect(try sandbox.succeed(["import", "~/backup.json"]).hasPrefix("Imported 0 lists, 1 task"))
        let made = try sandbox.run(["serve", "token", "--file=~/serve.token"], global: false)
        #expect(made.status == 0 && FileManager.default.fileExists(atPath: home + "/serve.token"), "\(made.stderr)")
        let refused = try sandbox.run(["add", "x", "--store=~"], global: false)
        #expect(refused.status == 74 && refused.stderr == "taskwidget: ~ names a folder, not a store file: give --store a file path\n")
        #expect(!FileManager.default.fileExists(atPath: FileManager.default.currentDirectoryPath + "/~"))
    }

    /// A folder given as the store is refused at once by the programs that wait for a missing or
    /// unreadable store to come back: a folder never becomes one, and they waited for good.
    @Test(arguments: [["watch", "--format", "text"], ["serve", "--listen", "127.0.0.1:0"], ["notify"]])
    func aFolderAsTheStoreIsRefusedByTheProgramsThatWait(_ command: [String]) throws {
        let sandbox = try Sandbox()
        let folder = sandbox.folder.path
        let refused = try sandbox.run(command + ["--store", folder])
        #expect(refused.status == 74, "\(refused.stderr)")
        #expect(refused.stderr == "taskwidget: \(folder) is a folder, not a store file: give --store a file path, like \(folder)/tasks.sqlite\n")
        // Nor does a device (helper-141).
        let device = try sandbox.run(command + ["--store", "/dev/null"])
        #expect(device.status == 74 && device.stderr.hasSuffix("/dev/null is not a regular file (a device, a pipe or a socket): give --store the path of a store file\n"), "\(device.stderr)")
    }
}

@Suite struct SharedIDPrefixTests {
    @Test func idsSharingEightDigitsAreShownLongerAndEachNamesOneTask() throws {
        let sandbox = try Sandbox()
        try sandbox.importTasks([("ABCD1234-5678-4000-8000-000000000001", "Twin one"), ("ABCD1234-9ABC-4000-8000-000000000002", "Twin two")])
        let single = try sandbox.succeed(["add", "Single"]).trimmingCharacters(in: .newlines)
        #expect(single.count == 8)
        let table = try sandbox.succeed(["ls"])
        #expect(table.contains("abcd1234-5  ○ Twin one"), "\(table)")
        #expect(table.contains("abcd1234-9  ○ Twin two"), "\(table)")
        #expect(table.contains("\(single)    ○ Single"), "\(table)")
        let json = try sandbox.succeed(["ls", "--format", "json"])
        #expect(json.contains(#""shortId" : "abcd1234-5""#) && json.contains(#""shortId" : "\#(single)""#), "\(json)")
        // The 8 digits alone are ambiguous, and the message shows what tells the two apart.
        let ambiguous = try sandbox.run(["done", "abcd1234"])
        #expect(ambiguous.status == 64)
        #expect(ambiguous.stderr.contains("abcd1234-5 (Twin one), abcd1234-9 (Twin two)"), "\(ambiguous.stderr)")
        #expect(try sandbox.succeed(["done", "abcd1234-9"]).contains("Twin two"))
    }
}
