import Foundation
import Testing

@testable import TaskWidgetTestSupport

/// The Done-when scenario of the foundation issue, run through the binary as a user would.
@Suite struct TaskLifecycleTests {
    struct TaskJSON: Decodable {
        var id: String
        var shortId: String
        var title: String
        var list: String?
        var dueDate: String?
        var isCompleted: Bool
        var completedAt: String?
    }

    func tasks(_ sandbox: borrowing Sandbox, _ arguments: [String] = []) throws -> [TaskJSON] {
        let output = try sandbox.succeed(["ls", "--format", "json"] + arguments)
        return try JSONDecoder().decode([TaskJSON].self, from: Data(output.utf8))
    }

    /// `add -` reads the title from standard input, one line (`rofi -dmenu | taskwidget add -`):
    /// it made a task named "-".
    @Test func addDashReadsTheTitleFromStandardInput() throws {
        let sandbox = try Sandbox()
        let added = try sandbox.run(["add", "-", "--due", "today"], input: Data("Buy milk\r\n".utf8))
        #expect(added.status == 0, "\(added.stderr)")
        let id = added.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(try sandbox.succeed(["ls"]).contains("\(id)  ○ Buy milk "))
        for (input, message) in [
            ("two\nlines\n", "taskwidget: standard input holds more than one line: add takes one title (one add per line: while read -r title; do taskwidget add \"$title\"; done < FILE)\n"),
            // Said of the input, not of a title (helper-120).
            ("", "taskwidget: standard input holds no title: pipe one line of text into `taskwidget add -`\n"),
            ("  \n", "taskwidget: standard input holds no title: pipe one line of text into `taskwidget add -`\n"),
        ] {
            let refused = try sandbox.run(["add", "-"], input: Data(input.utf8))
            #expect(refused.status == 64 && refused.stderr == message, "\(refused.stderr)")
        }
        // Blank lines after the title are no second line (helper-74).
        let trailing = try sandbox.run(["add", "-"], input: Data("Call Bob\n\n".utf8))
        #expect(trailing.status == 0, "\(trailing.stderr)")
        // On a terminal, Enter ends the title: it waited for Ctrl-D (helper-74).
        let typed = try sandbox.runOnTerminal(["add", "-"], typing: "Water the plants\n")
        #expect(typed.status == 0 && typed.shown.contains("Title: "), "\(typed)")
        #expect(try sandbox.succeed(["ls"]).contains("○ Water the plants "))
        let notText = try sandbox.run(["add", "-"], input: Data([0xFF, 0x0A]))
        #expect(notText.status == 64 && notText.stderr.contains("not UTF-8"), "\(notText.stderr)")
        #expect(try sandbox.succeed(["ls", "--format", "json"]).components(separatedBy: "\"title\"").count == 4, "three tasks")
    }

    @Test(arguments: [
        ("Europe/Berlin", "2026-11-23T08:00:00Z"),
        ("America/New_York", "2026-11-23T14:00:00Z"),
        ("Asia/Kathmandu", "2026-11-23T03:15:00Z"),
    ])
    func addThenListShowsTheUTCDueDate(zone: String, expectedDue: String) throws {
        var sandbox = try Sandbox()
        sandbox.timeZone = zone
        sandbox.now = "2026-11-22T12:00:00"  // local time in the zone
        let added = try sandbox.run(["add", "Pay rent", "--due", "tomorrow 9am", "--new-list", "--list", "Home"])
        #expect(added.status == 0)
        #expect(added.stdoutLines.count == 1 && added.stdoutLines[0].count == 8)
        #expect(added.stderr == "taskwidget: created the list “Home”\n")
        let listed = try tasks(sandbox)
        #expect(listed.count == 1)
        #expect(listed.first?.title == "Pay rent")
        #expect(listed.first?.list == "Home")
        #expect(listed.first?.dueDate == expectedDue)
        #expect(listed.first?.shortId == added.stdoutLines.first)
    }

    @Test func doneUndoAndRemoveByFourCharacterPrefix() throws {
        let sandbox = try Sandbox()
        let id = try sandbox.succeed(["add", "Pay rent", "--due", "tomorrow 9am", "--new-list", "--list", "Home"])
            .trimmingCharacters(in: .newlines)
        let prefix = String(id.prefix(4))

        #expect(try sandbox.succeed(["done", prefix]) == "Completed \(id) Pay rent\n")
        #expect(try tasks(sandbox).isEmpty)
        let completed = try tasks(sandbox, ["--all"])
        #expect(completed.first?.isCompleted == true)
        #expect(completed.first?.completedAt == "2026-11-22T15:27:00Z")
        // Completing twice is not an error, and says the task already was.
        #expect(try sandbox.succeed(["done", prefix]) == "Already completed \(id) Pay rent\n")

        #expect(try sandbox.succeed(["undo", prefix]) == "Reopened \(id) Pay rent\n")
        #expect(try tasks(sandbox).map(\.shortId) == [id])
        #expect(try tasks(sandbox).first?.completedAt == nil)

        #expect(try sandbox.succeed(["rm", prefix]) == "Deleted \(id) Pay rent\n")
        #expect(try tasks(sandbox, ["--all"]).isEmpty)
        // A deleted task is said to be deleted, not unknown (helper-135).
        for command in ["undo", "done", "edit"] {
            try sandbox.expectRefused(
                [command, prefix] + (command == "edit" ? ["--title", "x"] : []), status: 64,
                message: "taskwidget: the task \(prefix) was deleted: only a backup made before brings it back (taskwidget restore FILE, which also undoes every change since)\n")
        }
        try sandbox.expectRefused(["undo", "abcd"], status: 64, message: "no task has the id abcd")
    }

    /// A state change that finds the task already as asked says so: each of these printed its
    /// verb ("Snoozed", "Stopped", "Reopened") while the task stayed as it was.
    @Test func aChangeThatFindsTheTaskAsAskedSaysSo() throws {
        let sandbox = try Sandbox()
        let id = try sandbox.succeed(["add", "Call Bob", "--due", "tomorrow 9am"]).trimmingCharacters(in: .newlines)
        let before = try sandbox.succeed(["ls", "--format", "json"])
        #expect(try sandbox.succeed(["undo", id]) == "Already open \(id) Call Bob\n")
        #expect(try sandbox.succeed(["stop", id]) == "Not active \(id) Call Bob\n")
        #expect(try sandbox.succeed(["ls", "--format", "json"]) == before)
        #expect(try sandbox.succeed(["start", id]) == "Started \(id) Call Bob\n")
        #expect(try sandbox.succeed(["start", id]) == "Already started \(id) Call Bob\n")
        try sandbox.succeed(["done", id])
        let completed = try sandbox.succeed(["ls", "--all", "--format", "json"])
        #expect(try sandbox.succeed(["snooze", id]) == "Not snoozed (completed) \(id) Call Bob\n")
        #expect(try sandbox.succeed(["stop", id]) == "Not active \(id) Call Bob\n")
        #expect(try sandbox.succeed(["ls", "--all", "--format", "json"]) == completed)
        // start reopens a completed task, and says so.
        #expect(try sandbox.succeed(["start", id]) == "Reopened and started \(id) Call Bob\n")
        #expect(try tasks(sandbox).map(\.isCompleted) == [false], "open again")
    }

    /// An id pasted with spaces around it is the id; an empty list name or import path says it
    /// is empty (they were "not a task id", "no list is named “”" and a missing file, exit 74:
    /// helper-119).
    @Test func spacesAroundAnIdAndEmptyNamesAndPaths() throws {
        let sandbox = try Sandbox()
        let id = try sandbox.succeed(["add", "Call Bob"]).trimmingCharacters(in: .newlines)
        #expect(try sandbox.succeed(["start", " \(id) "]) == "Started \(id) Call Bob\n")
        try sandbox.expectRefused(
            ["edit", id, "--list", ""], status: 64, message: "taskwidget: the list name is empty: give one, or inbox for the Inbox (`taskwidget list ls` shows them)\n")
        try sandbox.expectRefused(["import", ""], status: 64, message: "taskwidget: import needs the path of a file, or - for standard input")
    }

    /// A task due on a day without a time stays so when snoozed: it moves to the day that holds
    /// the later time (it read `Mon 23 Nov 00:29`, a timed task, after `--by 30m` on the 22nd).
    @Test func snoozingATaskDueOnADayMovesItADay() throws {
        let sandbox = try Sandbox()
        let id = try sandbox.succeed(["add", "Bins out", "--due", "today"]).trimmingCharacters(in: .newlines)
        // It says where the task went (it said nothing of it, helper-119).
        #expect(try sandbox.succeed(["snooze", id, "--by", "30m"]) == "Snoozed \(id) Bins out (due Tomorrow)\n")
        #expect(try tasks(sandbox).first?.dueDate == "2026-11-23T22:59:00Z")
        #expect(try sandbox.succeed(["ls"]).hasSuffix("  Tomorrow\n"), "a day, shown without a time")
    }

    /// A reminder or a due date set in the past is kept, with a note (that the reminder may never
    /// show, that the task is overdue); a later one, or an edit of something else, has no note.
    @Test func aReminderOrADueDateInThePastIsKeptWithANote() throws {
        let sandbox = try Sandbox()
        let past = try sandbox.run(["add", "Call Bob", "--remind", "2020-01-01T10:00"])
        #expect(past.status == 0)
        #expect(past.stderr == "taskwidget: note: that reminder time has passed; notify shows a missed reminder only within missed_within (24h by default) of its time\n")
        let id = past.stdout.trimmingCharacters(in: .newlines)
        #expect(try sandbox.run(["edit", id, "--title", "Call Bob back"]).stderr.isEmpty)
        #expect(try sandbox.run(["edit", id, "--remind", "in 1h"]).stderr.isEmpty)
        #expect(try sandbox.run(["edit", id, "--remind", "2020-01-02T10:00"]).stderr.hasPrefix("taskwidget: note: that reminder time has passed"))
        // A completed task's reminder is kept, and said to be shown by no one (helper-172).
        try sandbox.succeed(["done", id])
        #expect(
            try sandbox.run(["edit", id, "--remind", "in 2h"]).stderr
                == "taskwidget: note: the task is completed, so notify shows no reminder for it (`taskwidget undo \(id) --store \(sandbox.storePath)` reopens it)\n")
        // A due date too (a typo in the year made an overdue task without a word).
        let overdue = try sandbox.run(["add", "Pay rent", "--due", "2025-11-30"])
        #expect(overdue.status == 0 && overdue.stderr == "taskwidget: note: that due time has passed; the task is overdue\n")
        // Due this very second is overdue at once too (SPEC §2: due at or before now).
        #expect(try sandbox.run(["add", "Now", "--due", "in 0m"]).stderr == "taskwidget: note: that due time has passed; the task is overdue\n")
        let rentID = overdue.stdout.trimmingCharacters(in: .newlines)
        #expect(try sandbox.run(["edit", rentID, "--title", "Pay the rent"]).stderr.isEmpty)
        #expect(try sandbox.run(["edit", rentID, "--due", "2026-11-30"]).stderr.isEmpty)
        #expect(try sandbox.run(["edit", rentID, "--due", "2026-11-01"]).stderr == overdue.stderr)
        // A time alone that has passed today is tomorrow's: said, where only ls showed it (helper-134).
        let early = try sandbox.run(["add", "Stretch", "--remind", "09:00", "--due", "17:00"])
        #expect(early.status == 0)
        #expect(
            early.stderr == "taskwidget: note: 09:00 has passed today, so the reminder is tomorrow at that time\n"
                + "taskwidget: note: the reminder comes after the due time; the task will be overdue by then\n", "\(early.stderr)")
        let stretch = early.stdout.trimmingCharacters(in: .newlines)
        #expect(try sandbox.run(["edit", stretch, "--due", "4pm"]).stderr.hasPrefix("taskwidget: note: 4pm has passed today, so the due time is tomorrow at that time\n"))
        #expect(try sandbox.run(["edit", stretch, "--due", "5pm", "--remind", "16:30"]).stderr.isEmpty)
        // Today's weekday is a week later: said too (helper-158).
        let weekday = try sandbox.run(["edit", stretch, "--due", "fri", "--remind", "fri 9am", "--now", "2026-11-27T10:00:00+01:00"])
        #expect(
            weekday.stderr == "taskwidget: note: today is Friday, so the due time is a week from today; for today, give `today`\n"
                + "taskwidget: note: today is Friday, so the reminder is a week from today; for today, give `today 9am`\n", "\(weekday.stderr)")
        #expect(try sandbox.run(["edit", stretch, "--due", "next fri", "--now", "2026-11-27T10:00:00+01:00"]).stderr.isEmpty)
        // A time the clocks skip moves by the gap: said too (helper-138).
        let skipped = try sandbox.run(["edit", stretch, "--due", "2027-03-28T02:30", "--remind", "2027-03-28 2:15am"])
        #expect(
            skipped.stderr == "taskwidget: note: the clocks skip 02:30 on 2027-03-28 (they go forward), so the due time is 03:30\n"
                + "taskwidget: note: the clocks skip 02:15 on 2027-03-28 (they go forward), so the reminder is 03:15\n", "\(skipped.stderr)")
        // A reminder after the due time reminds of an overdue task: said, and kept (helper-74).
        let late = "taskwidget: note: the reminder comes after the due time; the task will be overdue by then\n"
        let reminded = try sandbox.run(["add", "Water the plants", "--due", "today", "--remind", "tomorrow"])
        #expect(reminded.status == 0 && reminded.stderr == late, "\(reminded.stderr)")
        #expect(try sandbox.run(["add", "Call mum", "--due", "tomorrow 17:00", "--remind", "tomorrow 17:00"]).stderr.isEmpty)
        let plants = reminded.stdout.trimmingCharacters(in: .newlines)
        #expect(try sandbox.run(["edit", plants, "--remind", "today 18:00"]).stderr.isEmpty)
        #expect(try sandbox.run(["edit", plants, "--due", "today 17:00"]).stderr == late)
    }

    /// Lines that name a task show as many digits as tell it from another task whose id starts
    /// with the same 8.
    @Test func aConfirmationShowsAnIdThatTellsTheTaskApart() throws {
        let sandbox = try Sandbox()
        let file = sandbox.folder.appendingPathComponent("twins.json")
        try Data(#"""
            {"schema":"taskwidget.export/1","lists":[],"habits":[],"tasks":[
            {"id":"11111111-2222-4000-8000-000000000001","title":"First twin","state":"notStarted","isCompleted":false,"sortOrder":0,"createdAt":"2026-11-22T10:00:00Z","modifiedAt":"2026-11-22T10:00:00Z"},
            {"id":"11111111-9999-4000-8000-000000000002","title":"Second twin","state":"notStarted","isCompleted":false,"sortOrder":1,"createdAt":"2026-11-22T10:00:00Z","modifiedAt":"2026-11-22T10:00:00Z"}]}
            """#.utf8).write(to: file)
        try sandbox.succeed(["import", file.path])
        #expect(try sandbox.succeed(["done", "11111111-9"]) == "Completed 11111111-9 Second twin\n")
        #expect(try sandbox.succeed(["edit", "11111111-2", "--title", "First"]) == "Edited 11111111-2 First\n")
        // What it already has: it said "Edited" (helper-67).
        #expect(try sandbox.succeed(["edit", "11111111-2", "--title", "First", "--list", "inbox"]) == "Unchanged 11111111-2 First\n")
    }

    /// Lists and habits have no edit times: an older export's copies replace them. The summary
    /// says what that took back, where it said only "Imported 1 list, 0 tasks and 1 habit"
    /// (helper-129); an import that changes nothing says nothing more.
    @Test func anImportSaysWhichListsAndHabitsItTookBack() throws {
        let sandbox = try Sandbox()
        try sandbox.succeed(["habit", "add", "Walk"])
        try sandbox.succeed(["list", "add", "Home"])
        let old = sandbox.folder.appendingPathComponent("old.json")
        try Data(try sandbox.succeed(["export"]).utf8).write(to: old)
        try sandbox.succeed(["habit", "check", "Walk", "--date", "yesterday"])
        let older = sandbox.folder.appendingPathComponent("older.json")
        try Data(try sandbox.succeed(["export"]).utf8).write(to: older)
        try sandbox.succeed(["habit", "check", "Walk"])
        try sandbox.succeed(["habit", "check", "Walk", "--date", "yesterday", "--status", "skipped"])
        try sandbox.succeed(["habit", "edit", "Walk", "--name", "Long walk"])
        try sandbox.succeed(["list", "color", "Home", "FF0000"])
        // Yesterday's day set back to done (helper-133: it was said as removed), today's gone.
        #expect(try sandbox.succeed(["import", older.path])
            == "Imported 1 list, 0 tasks and 1 habit; the file's copy changed 1 list and 1 habit, set 1 habit day to what it records, and removed 1 habit day it does not have\n")
        #expect(try sandbox.succeed(["import", older.path]) == "Imported 1 list, 0 tasks and 1 habit\n")
        // A day unchecked since comes back, and is said.
        try sandbox.succeed(["habit", "uncheck", "Walk", "--date", "yesterday"])
        #expect(try sandbox.succeed(["import", older.path]) == "Imported 1 list, 0 tasks and 1 habit; the file's copy set 1 habit day to what it records\n")
        #expect(try sandbox.succeed(["import", old.path]) == "Imported 1 list, 0 tasks and 1 habit; the file's copy removed 1 habit day it does not have\n")
    }

    /// `import -` at a terminal says how to end what is typed or pasted: it waited without a word
    /// (helper-135).
    @Test func importFromATerminalSaysHowToEndIt() throws {
        let sandbox = try Sandbox()
        let document = #"{"schema":"taskwidget.export/1","lists":[],"habits":[],"tasks":[]}"#
        let (status, shown) = try sandbox.runOnTerminal(["import", "-"], typing: document + "\n\u{4}")
        #expect(status == 0, "\(shown)")
        #expect(shown.contains("Paste or type the export, then press Ctrl-D on a line of its own (Ctrl-C stops):\n"), "\(shown)")
        #expect(shown.hasSuffix("Imported 0 lists, 0 tasks and 0 habits\n"), "\(shown)")
    }

    /// A long import on a terminal says how far it is, on standard error, and clears that line
    /// before the summary or an error; into a pipe, or for a small file, it says nothing more.
    @Test func aLongImportOnATerminalSaysHowFarItIs() throws {
        let sandbox = try Sandbox()
        let tasks = (0..<4000).map { index in
            #"{"id":"\#(UUID().uuidString)","title":"Task \#(index) \#(String(repeating: "and more ", count: 25))","state":"notStarted","isCompleted":false,"sortOrder":\#(index),"createdAt":"2026-11-22T10:00:00Z","modifiedAt":"2026-11-22T10:00:00Z"}"#
        }
        let document = #"{"schema":"taskwidget.export/1","lists":[],"habits":[],"tasks":["# + tasks.joined(separator: ",\n") + "]}"
        let file = sandbox.folder.appendingPathComponent("many.json")
        try Data(document.utf8).write(to: file)
        #expect(document.utf8.count >= 1 << 20)
        func onATerminal(_ arguments: [String]) throws -> (status: Int32, shown: String) {
            let command = ([Sandbox.binary.path] + sandbox.arguments(arguments)).map { "'\($0)'" }.joined(separator: " ")
            let result = try ProcessRunner.run("/usr/bin/script", ["-qec", command, "/dev/null"], environment: sandbox.environment)
            return (result.status, result.stdout)
        }
        let (status, shown) = try onATerminal(["import", file.path])
        #expect(status == 0)
        let clear = "\r\u{1B}[K"
        #expect(shown.hasPrefix("Checking \(file.path)…\(clear)Importing: 0 of 4000 tasks…"), "\(shown.debugDescription)")
        #expect(shown.contains("\(clear)Importing: 3000 of 4000 tasks…\(clear)Importing: 4000 of 4000 tasks…\(clear)Imported 0 lists, 4000 tasks and 0 habits\r\n"), "\(shown.debugDescription)")
        // Again: every task is already there; through a pipe, standard error stays empty.
        let piped = try sandbox.run(["import", file.path])
        #expect(piped.status == 0 && piped.stderr.isEmpty && piped.stdout == "Imported 0 lists, 4000 tasks and 0 habits (tasks: 4000 unchanged)\n")
        // A file refused after the check began: the line is cleared before the error.
        try Data(document.replacingOccurrences(of: #""sortOrder":3999,"#, with: #""sortOrder":3999,"colour":"red","#).utf8).write(to: file)
        let (refused, said) = try onATerminal(["import", file.path])
        #expect(refused == 65)
        #expect(said.hasPrefix("Checking \(file.path)…\(clear)taskwidget: \(file.path) is not a taskwidget export: tasks[3999] has a field “colour”"), "\(said.debugDescription)")
    }

    /// SPEC §12: `import` merges as sync does, and a deletion loses only to an edit made after
    /// it. With no sync account, an older backup must not bring back a task removed since; an
    /// export edited after the removal brings it back.
    @Test func anOlderBackupDoesNotBringBackATaskRemovedSince() throws {
        let sandbox = try Sandbox()
        let chore = try sandbox.succeed(["add", "Old chore"]).trimmingCharacters(in: .newlines)
        try sandbox.succeed(["add", "Keep me"])
        let exported = try sandbox.succeed(["export"])
        let backup = sandbox.folder.appendingPathComponent("backup.json")
        try Data(exported.utf8).write(to: backup)
        try sandbox.succeed(["rm", chore, "--now", "2026-11-22T17:00:00+01:00"])
        #expect(try sandbox.succeed(["import", backup.path]) == "Imported 0 lists, 2 tasks and 0 habits (tasks: 1 unchanged, 1 kept deleted)\n")
        func titles() throws -> [String] {
            let tasks = try JSONSerialization.jsonObject(with: Data(sandbox.succeed(["ls", "--format", "json"]).utf8)) as? [[String: Any]]
            return (tasks ?? []).compactMap { $0["title"] as? String }.sorted()
        }
        #expect(try titles() == ["Keep me"])

        // The same task edited elsewhere after the removal (17:00 here is 16:00 UTC).
        var document = try #require(try JSONSerialization.jsonObject(with: Data(exported.utf8)) as? [String: Any])
        document["tasks"] = (document["tasks"] as? [[String: Any]] ?? []).map { task in
            guard task["title"] as? String == "Old chore" else { return task }
            return task.merging(["title": "Old chore, edited later", "modifiedAt": "2026-11-22T16:30:00Z"]) { $1 }
        }
        let edited = sandbox.folder.appendingPathComponent("edited.json")
        try JSONSerialization.data(withJSONObject: document).write(to: edited)
        #expect(try sandbox.succeed(["import", edited.path]) == "Imported 0 lists, 2 tasks and 0 habits (tasks: 1 new, 1 unchanged)\n")
        #expect(try titles() == ["Keep me", "Old chore, edited later"])
    }

    @Test func inboxHoldsTheTasksWithoutAList() throws {
        let sandbox = try Sandbox()
        try sandbox.succeed(["add", "Pay rent", "--new-list", "--list", "Home"])
        try sandbox.succeed(["add", "Call mom"])
        try sandbox.succeed(["add", "Buy milk"])
        #expect(try tasks(sandbox, ["--inbox"]).map(\.title) == ["Call mom", "Buy milk"])
        #expect(try tasks(sandbox, ["--list", "home"]).map(\.title) == ["Pay rent"])
        #expect(try tasks(sandbox).map(\.title) == ["Call mom", "Buy milk", "Pay rent"])
    }

    @Test func removingAListDeletesItsTasks() throws {
        let sandbox = try Sandbox()
        try sandbox.succeed(["add", "Pay rent", "--new-list", "--list", "Home"])
        try sandbox.succeed(["add", "Water plants", "--new-list", "--list", "Home"])
        try sandbox.succeed(["add", "Call mom"])

        let refused = try sandbox.run(["list", "rm", "Home"])
        #expect(refused.status == 64)
        #expect(try tasks(sandbox).count == 3)

        #expect(try sandbox.succeed(["list", "rm", "Home", "--yes"]) == "Deleted list Home and its 2 tasks\n")
        #expect(try tasks(sandbox, ["--all"]).map(\.title) == ["Call mom"])
        #expect(try sandbox.succeed(["list", "ls"]).contains("No lists"))
        // An empty list needs no confirmation (it asked to confirm deleting its 0 tasks), and a
        // rename names the old name too (helper-74).
        try sandbox.succeed(["list", "add", "Errands"])
        #expect(try sandbox.succeed(["list", "rename", "errands", "Shopping"]) == "Renamed list Errands to Shopping\n")
        // The stored name, not the one typed; and a rename to the same name changes nothing
        // (both said "Renamed list shopping to Shopping", helper-158).
        #expect(try sandbox.succeed(["list", "rename", "shopping", "Shopping"]) == "List Shopping is already named so: nothing changed\n")
        #expect(try sandbox.succeed(["list", "rename", "shopping", "SHOPPING"]) == "Renamed list Shopping to SHOPPING\n")
        #expect(try sandbox.succeed(["list", "rename", "shopping", "Shopping"]) == "Renamed list SHOPPING to Shopping\n")
        #expect(try sandbox.succeed(["list", "rm", "Shopping"]) == "Deleted list Shopping\n")
    }

    @Test func editMoveStartAndHabitsWork() throws {
        let sandbox = try Sandbox()
        let first = try sandbox.succeed(["add", "First"]).trimmingCharacters(in: .newlines)
        try sandbox.succeed(["add", "Second"])
        let third = try sandbox.succeed(["add", "Third"]).trimmingCharacters(in: .newlines)
        #expect(try sandbox.succeed(["move", third, "--to", "1"]) == "Moved \(third) Third to position 1\n")
        #expect(try tasks(sandbox).map(\.title) == ["Third", "First", "Second"])
        #expect(try sandbox.succeed(["move", first, "--to", "99"]) == "Moved \(first) First to position 3\n", "past the end: the last")
        #expect(try tasks(sandbox).map(\.title) == ["Third", "Second", "First"])

        // `edit` moves only to an existing list: an unknown name is a typo, not a new list.
        #expect(try sandbox.run(["edit", first, "--list", "Work"]).status == 64)
        try sandbox.succeed(["list", "add", "Work"])
        try sandbox.succeed(["edit", first, "--title", "First, renamed", "--due", "2026-11-24", "--list", "Work"])
        let edited = try tasks(sandbox, ["--list", "Work"])
        #expect(edited.map(\.title) == ["First, renamed"])
        #expect(edited.first?.dueDate == "2026-11-24T22:59:00Z")
        try sandbox.succeed(["edit", first, "--due", "none", "--list", "inbox"])
        #expect(try tasks(sandbox, ["--inbox"]).last?.dueDate == nil)

        #expect(try sandbox.succeed(["start", first]).hasPrefix("Started"))
        #expect(try sandbox.succeed(["ls"]).contains("▶ First, renamed"))

        try sandbox.succeed(["habit", "add", "Drink water", "--icon", "💧"])
        try sandbox.succeed(["habit", "check", "drink water"])
        try sandbox.succeed(["habit", "check", "Drink water"])
        #expect(try sandbox.succeed(["habit", "ls"]).contains("1 of 1 done"))
        try sandbox.succeed(["habit", "uncheck", "Drink water"])
        #expect(try sandbox.succeed(["habit", "ls"]).contains("0 of 1 done"))
    }

    @Test func demoFillsAStoreOnce() throws {
        let sandbox = try Sandbox()
        #expect(try sandbox.succeed(["demo"]).contains("Filled"))
        #expect(try tasks(sandbox).count >= 10)
        let again = try sandbox.run(["demo"])
        #expect(again.status == 64)
        #expect(again.stderrLines.count == 1)
    }

    @Test func helpShowsExamples() throws {
        let sandbox = try Sandbox()
        let help = try sandbox.run(["--help"], global: false)
        #expect(help.status == 0)
        #expect(help.stdout.contains("taskwidget add \"Pay rent\""))
        let addHelp = try sandbox.run(["add", "--help"], global: false)
        #expect(addHelp.stdout.contains("--due"))
        // `help` with a command of another program and its subcommands shows that subcommand's
        // page (it showed the program's overview).
        for (arguments, page) in [
            (["help", "serve", "device", "add"], "OVERVIEW: Register a device"), (["help", "sync", "account", "rm"], "OVERVIEW: Remove an account"),
            (["help", "sync"], "OVERVIEW: Sync"), (["help", "list", "add"], "OVERVIEW: Create a list"),
        ] {
            let shown = try sandbox.run(arguments, global: false)
            #expect(shown.status == 0 && shown.stdout.hasPrefix(page), "\(arguments): \(shown.stdout.prefix(80))")
        }
        let version = try sandbox.run(["--version"], global: false)
        #expect(version.status == 0 && version.stdout.split(separator: ".").count == 3)
    }
}
