import Foundation
import Glibc
import Testing

@testable import TaskWidgetTestSupport

/// `taskwidget notify` as a user runs it, against a real notification daemon: dunst on a private
/// X display and session bus (``DesktopSession``). Tests wait for what notify logs with
/// `--verbose` (ids only) and for what dunst shows, with deadlines, never for a fixed time.
///
/// Serialized: each test runs an X server, a bus, dunst and notify on a 2-core machine.
@Suite(.serialized, .runsPrograms(onThreadNamed: "notify end-to-end")) struct NotifyCommandTests {
    /// The log line of a reminder shown by the server.
    static let shown = "reminder shown"
    static let serverAvailable = "a notification server is available"
    /// The suite's own server slot, for its tests with a sync server: in the shared slots, a test
    /// waited behind the in-process CalDAV tests' servers past its time limit (120 s) in CI.
    static let serverSlot = ServerSlots(count: 1)

    /// What notify sees: the sandbox's zone, home and folders, the desktop's bus, a runtime folder
    /// of its own (the lock).
    static func environment(_ sandbox: borrowing Sandbox, _ desktop: DesktopSession) -> [String: String] {
        var environment = desktop.environment.merging(sandbox.environment) { _, sandbox in sandbox }
        environment["XDG_RUNTIME_DIR"] = sandbox.folder.appendingPathComponent("run").path
        environment["XDG_STATE_HOME"] = sandbox.folder.appendingPathComponent("state").path
        return environment
    }

    /// Starts `taskwidget notify --verbose ARGUMENTS` on the sandbox's store, from its `--now`
    /// unless the arguments name another.
    static func notify(_ sandbox: borrowing Sandbox, _ desktop: DesktopSession, _ arguments: [String] = []) throws -> StreamingProcess {
        try StreamingProcess(sandbox.arguments(["notify", "--verbose"] + arguments), environment: environment(sandbox, desktop))
    }

    /// Adds a task and returns its short id.
    @discardableResult
    static func add(_ sandbox: borrowing Sandbox, _ arguments: String...) throws -> String {
        try sandbox.succeed(["add"] + arguments).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The task's fields from `ls --all --format json`.
    static func task(_ sandbox: borrowing Sandbox, _ shortID: String) throws -> [String: Any]? {
        let tasks = try JSONSerialization.jsonObject(with: Data(try sandbox.succeed(["ls", "--all", "--format", "json"]).utf8)) as? [[String: Any]]
        return tasks?.first { $0["shortId"] as? String == shortID }
    }

    /// Starts dunst and notify, freezes dunst, and adds a reminder due at once: notify and the
    /// task's id, once notify is posting it to the frozen server.
    static func postToAFrozenServer(_ desktop: DesktopSession, _ sandbox: borrowing Sandbox) throws -> (StreamingProcess, String) {
        try desktop.startDunst()
        let notify = try Self.notify(sandbox, desktop)
        #expect(notify.waitForStderr(containing: Self.serverAvailable, within: .seconds(20)), "\(notify.stderrText)")
        desktop.freezeDunst()
        let id = try Self.add(sandbox, "Pay rent", "--remind", "2026-11-22T16:27:02+01:00")
        #expect(notify.waitForStderr(containing: "posting a reminder", within: .seconds(20)), "\(notify.stderrText)")
        return (notify, id)
    }

    /// Stops notify as systemd would, and checks that it ends normally.
    static func stop(_ notify: StreamingProcess, sourceLocation: SourceLocation = #_sourceLocation) {
        notify.send(SIGTERM)
        #expect(notify.waitForExit() == 0, "\(notify.stderrText)", sourceLocation: sourceLocation)
    }

    @Test(.timeLimit(.minutes(1)))
    func aReminderAtNowPlusTwoSecondsShowsOnceWithItsTitleDueLabelAndListAndACompletedTaskNone() throws {
        let desktop = try DesktopSession()
        try desktop.startDunst()
        let sandbox = try Sandbox()
        try Self.add(sandbox, "Pay rent", "--new-list", "--list", "Home", "--due", "2026-11-22T17:00:00+01:00", "--remind", "2026-11-22T16:27:02+01:00")
        let done = try Self.add(sandbox, "Water the plants", "--remind", "2026-11-22T16:27:01+01:00")
        try sandbox.succeed(["done", done])
        try Self.add(sandbox, "Call the dentist", "--due", "2026-11-22T16:00:00+01:00", "--remind", "2026-11-22T16:27:03+01:00")
        // The last one: once it shows, any second notification of the others would have shown too.
        try Self.add(sandbox, "Later", "--remind", "2026-11-22T16:27:04+01:00")

        let notify = try Self.notify(sandbox, desktop)
        #expect(notify.waitForStderr(containing: Self.shown, count: 3, within: .seconds(20)), "\(notify.stderrText)")
        #expect(try desktop.displayedCount() == 3)
        let history = try desktop.closeAllAndReadHistory()
        #expect(history.filter { $0.summary == "Pay rent" }.map(\.body) == ["17:00 · Home"])
        #expect(history.first { $0.summary == "Pay rent" }?.message == "normal: Pay rent / 17:00 · Home")
        #expect(history.first { $0.summary == "Call the dentist" }?.message == "critical: Call the dentist / Overdue · 16:00 · Inbox")
        #expect(history.allSatisfy { $0.appname == "taskwidget" })
        #expect(!history.contains { $0.summary == "Water the plants" })
        #expect(history.count == 3, "\(history)")
        Self.stop(notify)
    }

    /// A mistake in a table notify does not read is a warning, and the reminders go on: notify
    /// exited 64, which its unit does not restart on, and the reminders stayed off (helper-151).
    /// One in `[notify]` still stops it, as one in the store's `store`.
    @Test(.timeLimit(.minutes(1)))
    func aMistakeInATableNotifyDoesNotReadIsLoggedAndTheRemindersGoOn() throws {
        let desktop = try DesktopSession()
        try desktop.startDunst()
        let sandbox = try Sandbox()
        try Self.add(sandbox, "Pay rent", "--remind", "2026-11-22T16:27:01+01:00")
        try sandbox.writeConfig("[views.home]\nlsit = \"Home\"\n\n[notify]\nmissed_within = \"2h\"\n")
        #expect(try sandbox.run(["ls", "--view", "home"]).status == 64)

        let notify = try Self.notify(sandbox, desktop)
        #expect(notify.waitForStderr(containing: Self.shown, within: .seconds(20)), "\(notify.stderrText)")
        #expect(notify.stderrText.contains("config.toml:2: views.home.lsit: unknown key: did you mean “list”?"), "\(notify.stderrText)")
        #expect(notify.stderrText.contains("notify goes on, as it does not use that setting"), "\(notify.stderrText)")
        Self.stop(notify)

        try sandbox.writeConfig("[notify]\nmissed_witin = \"2h\"\n")
        let stopped = try sandbox.run(["notify"], environment: Self.environment(sandbox, desktop))
        #expect(stopped.status == 64 && stopped.stderr.contains("notify.missed_witin: unknown key"), "\(stopped.stderr)")
    }

    /// The summary is plain text and the body is markup for dunst (it says `body-markup`): a title
    /// and a list name with markup's characters show as typed, never as markup.
    @Test(.timeLimit(.minutes(1)))
    func titlesAndListNamesWithMarkupCharactersShowAsTyped() throws {
        let desktop = try DesktopSession()
        try desktop.startDunst()
        let sandbox = try Sandbox()
        try Self.add(sandbox, "Pay <b>rent</b> & co", "--new-list", "--list", "R&D <lab>", "--remind", "2026-11-22T16:27:01+01:00")
        let notify = try Self.notify(sandbox, desktop)
        #expect(notify.waitForStderr(containing: Self.shown, within: .seconds(20)), "\(notify.stderrText)")
        let entry = try #require(try desktop.closeAllAndReadHistory().first)
        #expect(entry.summary == "Pay <b>rent</b> & co")
        #expect(entry.body == "R&amp;D &lt;lab&gt;")
        // dunst escapes the summary itself; the whole is valid markup that reads as typed.
        #expect(entry.message == "normal: Pay &lt;b&gt;rent&lt;/b&gt; &amp; co / R&amp;D &lt;lab&gt;")
        Self.stop(notify)
    }

    @Test(.timeLimit(.minutes(1)))
    func doneFromTheNotificationCompletesTheTaskAndSnoozeMovesItsReminderTenMinutes() throws {
        let desktop = try DesktopSession()
        try desktop.startDunst()
        let sandbox = try Sandbox()
        let rent = try Self.add(sandbox, "Pay rent", "--remind", "2026-11-22T16:28:00+01:00")
        let call = try Self.add(sandbox, "Call mom", "--remind", "2026-11-22T16:30:00+01:00")
        // 60 times real time: the minutes to the reminders and the 10 of the snooze pass in seconds.
        let notify = try Self.notify(sandbox, desktop, ["--clock-speed", "60"])

        #expect(notify.waitForStderr(containing: "task=\(rent) [TaskWidgetNotify] \(Self.shown)", within: .seconds(20)), "\(notify.stderrText)")
        try desktop.invoke("done")
        #expect(notify.waitForStderr(containing: "completed the task of a reminder"), "\(notify.stderrText)")
        #expect(notify.waitForStderr(containing: "closedByCall"), "\(notify.stderrText)")
        #expect(try Self.task(sandbox, rent)?["isCompleted"] as? Bool == true)
        // Gone; the next reminder comes two real seconds after this one, and under load it may be
        // on screen already (fresh158).
        let callShown = "task=\(call) [TaskWidgetNotify] \(Self.shown)"
        let displayed = try desktop.displayedCount()
        #expect(displayed == 0 || (displayed == 1 && notify.waitForStderr(containing: callShown, within: .seconds(20))), "\(displayed) displayed")

        #expect(notify.waitForStderr(containing: callShown, within: .seconds(20)), "\(notify.stderrText)")
        try desktop.invoke("snooze")
        #expect(notify.waitForStderr(containing: "snoozed a reminder"), "\(notify.stderrText)")
        // Ten minutes after the click, which came after 16:30 and within a few virtual minutes of it.
        let moved = try #require(try Self.task(sandbox, call)?["reminderDate"] as? String)
        #expect(moved >= "2026-11-22T15:40:00Z" && moved < "2026-11-22T15:45:00Z", "\(moved)")
        #expect(try Self.task(sandbox, call)?["isCompleted"] as? Bool == false)
        // And it fires again then (10 virtual minutes are 10 s).
        #expect(notify.waitForStderr(containing: callShown, count: 2, within: .seconds(30)), "\(notify.stderrText)")
        let history = try desktop.closeAllAndReadHistory()
        #expect(history.filter { $0.summary == "Call mom" }.count == 2)
        #expect(history.filter { $0.summary == "Pay rent" }.count == 1)
        Self.stop(notify)
    }

    /// A click command that fails after a while is logged when it ends, by itself: it was reaped,
    /// and its failure logged, at notify's next wake-up only (hours later, or never), a zombie
    /// meanwhile (helper-111).
    @Test(.timeLimit(.minutes(1)))
    func aClickCommandThatFailsLaterIsLoggedWhenItEnds() throws {
        let desktop = try DesktopSession()
        try desktop.startDunst()
        let sandbox = try Sandbox()
        try sandbox.writeConfig("[notify]\nclick_command = \"sleep 1; exit 5\"\n")
        let rent = try Self.add(sandbox, "Pay rent", "--remind", "2026-11-22T16:28:00+01:00")
        let notify = try Self.notify(sandbox, desktop, ["--clock-speed", "60"])
        #expect(notify.waitForStderr(containing: "task=\(rent) [TaskWidgetNotify] \(Self.shown)", within: .seconds(20)), "\(notify.stderrText)")
        try desktop.invoke("default")
        #expect(
            notify.waitForStderr(containing: "the click command failed (exit 5): check click_command in a shell", within: .seconds(15)),
            "\(notify.stderrText)")
        Self.stop(notify)
    }

    /// Done while another program holds the store's write lock longer than notify waits for it
    /// (2 s): the reminder is shown again, saying that Done failed, and its Done works once the
    /// store is free. The notification closed as if done, the task stayed open, and nothing said so.
    /// notify waited 15 s, as a command does, and meanwhile took no signal: a stop waited too.
    @Test(.timeLimit(.minutes(1)))
    func doneThatCannotWriteTheStoreShowsTheReminderAgainSayingSo() throws {
        let desktop = try DesktopSession()
        try desktop.startDunst()
        let sandbox = try Sandbox()
        let rent = try Self.add(sandbox, "Pay rent", "--remind", "2026-11-22T16:27:01+01:00")
        let notify = try Self.notify(sandbox, desktop)
        #expect(notify.waitForStderr(containing: Self.shown, within: .seconds(20)), "\(notify.stderrText)")
        let locker = try StreamingProcess(
            [
                "-c", "import signal, sqlite3, sys; c = sqlite3.connect(sys.argv[1], isolation_level=None); c.execute('BEGIN EXCLUSIVE'); "
                    + "print('locked', flush=True); signal.pause()", sandbox.storePath,
            ], environment: sandbox.environment, executable: "/usr/bin/python3")
        #expect(locker.nextLine(within: .seconds(10)) == "locked")
        try desktop.invoke("done")
        #expect(notify.waitForStderr(containing: "the action done failed: the store is locked", within: .seconds(10)), "\(notify.stderrText)")
        // Shown again in place of the first, whose close notify sent right behind the new post: dunst
        // has it before anything this test asks after the new one is shown.
        #expect(notify.waitForStderr(containing: Self.shown, count: 2, within: .seconds(20)), "\(notify.stderrText)")
        locker.send(SIGTERM)
        _ = locker.waitForExit()
        #expect(try Self.task(sandbox, rent)?["isCompleted"] as? Bool == false)
        #expect(try desktop.displayedCount() == 1)

        try desktop.invoke("done")
        #expect(notify.waitForStderr(containing: "completed the task of a reminder"), "\(notify.stderrText)")
        #expect(try Self.task(sandbox, rent)?["isCompleted"] as? Bool == true)
        let history = try desktop.closeAllAndReadHistory()
        #expect(history.map(\.body) == ["Done failed: the store is locked by another program · Inbox", "Inbox"], "\(history)")
        Self.stop(notify)
    }

    /// A task that repeats on the server (the phone's weekly one, synced from a real Radicale) has
    /// no Done and no Snooze: completing it here would complete the whole series there at the next
    /// sync, and snoozing it would move the series. Its body says where to do them; a task that
    /// does not repeat keeps its buttons.
    @Test(.timeLimit(.minutes(2)))
    func aReminderOfATaskThatRepeatsOnTheServerHasNoDoneAndNoSnoozeButton() async throws {
        try await RadicaleServer.withServer(slots: Self.serverSlot) { server in
            let mine = try SyncSandbox(server: server)
            for (uid, title, alarm, rule) in [
                ("weekly-1", "Water the plants", "20261122T152701Z", ["RRULE:FREQ=WEEKLY;BYDAY=SU"]),
                ("once-1", "Call the plumber", "20261122T152702Z", []),
            ] {
                let todo = foreignTodo(
                    ["UID:\(uid)", "DTSTAMP:20261122T120000Z", "SUMMARY:\(title)", "DTSTART:20261122T160000Z", "DUE:20261122T170000Z"] + rule
                        + ["BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTION:Reminder", "TRIGGER;VALUE=DATE-TIME:\(alarm)", "END:VALARM"])
                _ = try await PythonCalDAV.saveTodo(todo, in: "Tasks", server: server)
            }
            try mine.syncSucceeds()
            let plants = try #require(try mine.task(titled: "Water the plants")?["shortId"] as? String)
            let plumber = try #require(try mine.task(titled: "Call the plumber")?["shortId"] as? String)

            let desktop = try DesktopSession()
            try desktop.startDunst()
            let notify = try Self.notify(mine.sandbox, desktop)
            #expect(notify.waitForStderr(containing: Self.shown, count: 2, within: .seconds(20)), "\(notify.stderrText)")
            // The context menu offers the plumber's buttons only: choosing Done completes that one.
            try desktop.invoke("done")
            #expect(notify.waitForStderr(containing: "task=\(plumber) [TaskWidgetNotify] completed the task of a reminder"), "\(notify.stderrText)")
            let menu = try desktop.lastMenu()
            #expect(!menu.contains { $0.contains("(Water the plants)") }, "\(menu)")
            #expect(menu.contains { $0.contains("(Call the plumber)") && $0.hasSuffix(",done]") }, "\(menu)")
            #expect(menu.contains { $0.contains("(Call the plumber)") && $0.hasSuffix(",snooze]") }, "\(menu)")
            #expect(try Self.task(mine.sandbox, plants)?["isCompleted"] as? Bool == false)
            #expect(try Self.task(mine.sandbox, plumber)?["isCompleted"] as? Bool == true)
            let history = try desktop.closeAllAndReadHistory()
            #expect(history.first { $0.summary == "Water the plants" }?.body == "18:00 · Inbox · Repeats: complete or snooze it on the phone")
            #expect(history.first { $0.summary == "Call the plumber" }?.body == "18:00 · Inbox")
            Self.stop(notify)
        }
    }

    /// A notification shown before a sync made its task repeat (the phone turned it into a daily
    /// one meanwhile) still has Done; choosing it leaves the task open and shows the reminder
    /// again as a repeating task's, without Done and Snooze.
    @Test(.timeLimit(.minutes(2)))
    func doneOnANotificationWhoseTaskCameToRepeatShowsItAgainWithoutDoneAndSnooze() async throws {
        try await RadicaleServer.withServer(slots: Self.serverSlot) { server in
            let mine = try SyncSandbox(server: server)
            let todo = foreignTodo([
                "UID:cat-1", "DTSTAMP:20261122T120000Z", "SUMMARY:Feed the cat", "DTSTART:20261122T160000Z", "DUE:20261122T170000Z",
                "BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTION:Reminder", "TRIGGER;VALUE=DATE-TIME:20261122T152701Z", "END:VALARM",
            ])
            _ = try await PythonCalDAV.saveTodo(todo, in: "Tasks", server: server)
            try mine.syncSucceeds()
            let cat = try #require(try mine.task(titled: "Feed the cat")?["shortId"] as? String)

            let desktop = try DesktopSession()
            try desktop.startDunst()
            let notify = try Self.notify(mine.sandbox, desktop)
            #expect(notify.waitForStderr(containing: Self.shown, within: .seconds(20)), "\(notify.stderrText)")
            try await PythonCalDAV.editTodo(uid: "cat-1", replacing: "SUMMARY:Feed the cat", with: "SUMMARY:Feed the cat\r\nRRULE:FREQ=DAILY", server: server)
            // No field of the task changed ("pulled 0"), but its object, which now repeats, is kept.
            try mine.syncSucceeds()
            try desktop.invoke("done")
            #expect(notify.waitForStderr(containing: "task=\(cat) [TaskWidgetNotify] left a task that repeats on the server as it was"), "\(notify.stderrText)")
            #expect(notify.waitForStderr(containing: Self.shown, count: 2, within: .seconds(20)), "\(notify.stderrText)")
            #expect(try Self.task(mine.sandbox, cat)?["isCompleted"] as? Bool == false)
            let history = try desktop.closeAllAndReadHistory()
            #expect(history.map(\.body) == ["18:00 · Inbox · Repeats: complete or snooze it on the phone", "18:00 · Inbox"], "\(history)")
            Self.stop(notify)
        }
    }

    /// A restart does not show again a reminder the user closed; one still on screen when notify
    /// stops closes with it and comes back at the next start, marked missed (closed and recorded,
    /// it was never seen again while its task stayed open, helper-172); and one missed meanwhile
    /// is marked missed.
    @Test(.timeLimit(.minutes(1)))
    func aRestartShowsAgainWhatWasOnScreenAndWhatWasMissedMeanwhileMarkedMissed() throws {
        let desktop = try DesktopSession()
        try desktop.startDunst()
        let sandbox = try Sandbox()
        try Self.add(sandbox, "Pay rent", "--remind", "2026-11-22T16:27:01+01:00")
        try Self.add(sandbox, "Read mail", "--remind", "2026-11-22T16:27:04+01:00")
        try Self.add(sandbox, "While off", "--remind", "2026-11-22T16:35:00+01:00")
        try Self.add(sandbox, "After the restart", "--remind", "2026-11-22T16:40:02+01:00")

        let first = try Self.notify(sandbox, desktop)
        #expect(first.waitForStderr(containing: Self.shown, within: .seconds(20)), "\(first.stderrText)")
        #expect(try desktop.closeAllAndReadHistory().map(\.summary) == ["Pay rent"])
        #expect(first.waitForStderr(containing: "notification closed"), "\(first.stderrText)")
        #expect(first.waitForStderr(containing: Self.shown, count: 2, within: .seconds(20)), "\(first.stderrText)")
        #expect(try desktop.displayedCount() == 1)
        Self.stop(first)
        // Its buttons would have reached no one: it closed it (dunst keeps it in its history).
        #expect(try desktop.displayedCount() == 0)
        // notify was off from 16:27 to 16:40: "While off" is missed, "Read mail" was on screen,
        // "Pay rent" was closed by the user.
        let second = try Self.notify(sandbox, desktop, ["--now", "2026-11-22T16:40:00+01:00"])
        #expect(second.waitForStderr(containing: Self.shown, count: 3, within: .seconds(20)), "\(second.stderrText)")
        let history = try desktop.closeAllAndReadHistory()
        #expect(history.map(\.summary).sorted() == ["After the restart", "Pay rent", "Read mail", "Read mail", "While off"], "\(history)")
        #expect(history.first { $0.summary == "While off" }?.body == "Missed reminder (16:35) · Inbox")
        #expect(history.filter { $0.summary == "Read mail" }.map(\.body).sorted() == ["Inbox", "Missed reminder (16:27) · Inbox"])
        #expect(history.first { $0.summary == "After the restart" }?.body == "Inbox")
        Self.stop(second)
        // What is kept between runs names tasks by id only; runs with --now keep theirs apart
        // from the real runs', which would otherwise never show a reminder a preview showed.
        let state = try String(contentsOf: sandbox.folder.appendingPathComponent("state/taskwidget/delivered-reminders-preview.json"), encoding: .utf8)
        #expect(state.contains("2026-11-22T15:35:00Z") && !state.contains("While off"))
        #expect(!FileManager.default.fileExists(atPath: sandbox.folder.appendingPathComponent("state/taskwidget/delivered-reminders.json").path))
    }

    /// With `--at-due`, a task due on a day given without a time falls due at 09:00 that day: at
    /// 16:27, one due today has fallen due, one due tomorrow has not. (It popped up at 23:59,
    /// "Due now · 23:59", helper-70.)
    @Test(.timeLimit(.minutes(1)))
    func atDueShowsATaskDueOnADayAloneThatMorning() throws {
        let desktop = try DesktopSession()
        try desktop.startDunst()
        let sandbox = try Sandbox()
        try Self.add(sandbox, "Water the plants", "--due", "2026-11-22")
        try Self.add(sandbox, "Call mum", "--due", "2026-11-23")
        try Self.add(sandbox, "Pay rent", "--remind", "2026-11-22T16:27:02+01:00")
        let notify = try Self.notify(sandbox, desktop, ["--at-due"])
        #expect(notify.waitForStderr(containing: Self.shown, count: 2, within: .seconds(20)), "\(notify.stderrText)")
        let history = try desktop.closeAllAndReadHistory()
        #expect(history.map(\.summary).sorted() == ["Pay rent", "Water the plants"], "\(history)")
        #expect(history.first { $0.summary == "Water the plants" }?.body == "Due today · Inbox")
        Self.stop(notify)
    }

    /// Forty missed reminders at the start: three come one by one and one notification counts the
    /// rest (forty came as forty, helper-134), and all forty are recorded once shown, so that a
    /// restart shows none again. (Forty posts overflowed the notifier's queue of 32 while it
    /// connected: the unit tests drop posts from a full queue.)
    @Test(.timeLimit(.minutes(1)))
    func fortyMissedRemindersAtTheStartAreThreeAndACountAndAllRecorded() throws {
        let desktop = try DesktopSession()
        try desktop.startDunst()
        let sandbox = try Sandbox()
        for number in 1...40 { try Self.add(sandbox, "Missed \(number)", "--remind", "2026-11-22T14:27:00+01:00") }
        let notify = try Self.notify(sandbox, desktop)
        #expect(notify.waitForStderr(containing: Self.shown, count: 3, within: .seconds(30)), "\(notify.stderrText)")
        #expect(notify.waitForStderr(containing: "the count of missed reminders shown", within: .seconds(30)), "\(notify.stderrText)")
        // Seen and closed: none comes back (one still on screen at a stop would, helper-172).
        let history = try desktop.closeAllAndReadHistory()
        #expect(notify.waitForStderr(containing: "notification closed", count: 4), "\(notify.stderrText)")  // the count's too
        #expect(notify.waitForStderr(containing: "the count notification closed"), "\(notify.stderrText)")
        Self.stop(notify)
        let state = try Data(contentsOf: sandbox.folder.appendingPathComponent("state/taskwidget/delivered-reminders-preview.json"))
        let delivered = try JSONSerialization.jsonObject(with: state) as? [String: Any]
        #expect((delivered?["delivered"] as? [Any])?.count == 40)
        // Three of the forty, all due at one time: any three.
        let summaries = history.map(\.summary)
        #expect(summaries.count == 4 && summaries.filter { $0.hasPrefix("Missed ") }.count == 3 && summaries.contains("37 more missed reminders"), "\(summaries)")
        // A restart shows the one reminder still to come, and none of the forty.
        try Self.add(sandbox, "After the restart", "--remind", "2026-11-22T16:27:02+01:00")
        let restarted = try Self.notify(sandbox, desktop)
        #expect(restarted.waitForStderr(containing: Self.shown, within: .seconds(20)), "\(restarted.stderrText)")
        Self.stop(restarted)
        let all = try desktop.closeAllAndReadHistory().map(\.summary)
        #expect(all.sorted() == (summaries + ["After the restart"]).sorted(), "\(all)")
    }

    /// The machine sleeps past two reminders: notify is stopped (SIGSTOP) while its virtual clock
    /// runs on, and woken after both dates, as a suspend's timers fire on resume. (A wall clock
    /// that jumps is a unit test: a virtual clock cannot be set.)
    @Test(.timeLimit(.minutes(1)))
    func sleepingPastTwoRemindersShowsEachOnceMarkedMissed() throws {
        let desktop = try DesktopSession()
        try desktop.startDunst()
        let sandbox = try Sandbox()
        try Self.add(sandbox, "First", "--remind", "2026-11-22T16:31:00+01:00")
        try Self.add(sandbox, "Second", "--remind", "2026-11-22T16:32:00+01:00")
        try Self.add(sandbox, "After waking", "--remind", "2026-11-22T16:37:00+01:00")
        let started = ContinuousClock.now
        let notify = try Self.notify(sandbox, desktop, ["--clock-speed", "60"])
        #expect(notify.waitForStderr(containing: Self.serverAvailable, within: .seconds(20)), "\(notify.stderrText)")
        notify.send(SIGSTOP)
        // Asleep until about 16:35:30 on its clock (8.5 s at 60 times real time): both reminders
        // pass meanwhile. Time passing is what is tested here, so the test lets it pass.
        let remaining = (started + .milliseconds(8500)) - .now
        Thread.sleep(forTimeInterval: Double(remaining.components.seconds) + Double(remaining.components.attoseconds) / 1e18)
        notify.send(SIGCONT)
        #expect(notify.waitForStderr(containing: Self.shown, count: 3, within: .seconds(20)), "\(notify.stderrText)")
        let history = try desktop.closeAllAndReadHistory()
        #expect(history.filter { $0.summary == "First" }.map(\.body) == ["Missed reminder (16:31) · Inbox"])
        #expect(history.filter { $0.summary == "Second" }.map(\.body) == ["Missed reminder (16:32) · Inbox"])
        #expect(history.filter { $0.summary == "After waking" }.map(\.body) == ["Inbox"])
        #expect(history.count == 3)
        Self.stop(notify)
    }

    @Test(.timeLimit(.minutes(1)))
    func movingAReminderWhileNotifyRunsMovesItsNotification() throws {
        let desktop = try DesktopSession()
        try desktop.startDunst()
        let sandbox = try Sandbox()
        let shownEarly = try Self.add(sandbox, "Shown early", "--remind", "2026-11-22T16:27:01+01:00")
        let pending = try Self.add(sandbox, "Pending", "--remind", "2026-11-22T18:00:00+01:00")
        let notify = try Self.notify(sandbox, desktop)
        #expect(notify.waitForStderr(containing: Self.shown, within: .seconds(20)), "\(notify.stderrText)")
        #expect(try desktop.displayedCount() == 1)

        // Re-timed elsewhere: the notification on screen closes, and comes back at the new time.
        try sandbox.succeed(["edit", shownEarly, "--remind", "2026-11-22T16:27:06+01:00"])
        #expect(notify.waitForStderr(containing: "closedByCall"), "\(notify.stderrText)")
        #expect(try desktop.displayedCount() == 0)
        // A pending one moved earlier shows at its new time.
        try sandbox.succeed(["edit", pending, "--remind", "2026-11-22T16:27:05+01:00"])
        #expect(notify.waitForStderr(containing: Self.shown, count: 3, within: .seconds(20)), "\(notify.stderrText)")
        let history = try desktop.closeAllAndReadHistory()
        #expect(history.filter { $0.summary == "Shown early" }.count == 2)
        #expect(history.filter { $0.summary == "Pending" }.count == 1)
        Self.stop(notify)
    }

    @Test(.timeLimit(.minutes(1)))
    func aTaskCompletedInAnotherProcessClosesItsNotification() throws {
        let desktop = try DesktopSession()
        try desktop.startDunst()
        let sandbox = try Sandbox()
        let id = try Self.add(sandbox, "Pay rent", "--remind", "2026-11-22T16:27:01+01:00")
        let notify = try Self.notify(sandbox, desktop)
        #expect(notify.waitForStderr(containing: Self.shown, within: .seconds(20)), "\(notify.stderrText)")
        #expect(try desktop.displayedCount() == 1)
        try sandbox.succeed(["done", id])
        #expect(notify.waitForStderr(containing: "closedByCall"), "\(notify.stderrText)")
        #expect(try desktop.displayedCount() == 0)
        #expect(try desktop.closeAllAndReadHistory().map(\.summary) == ["Pay rent"])
        Self.stop(notify)
    }

    @Test(.timeLimit(.minutes(1)))
    func aSecondNotifyExitsZeroSayingTheFirstIsRunning() throws {
        let desktop = try DesktopSession()
        let sandbox = try Sandbox()
        let first = try Self.notify(sandbox, desktop)
        #expect(first.waitForStderr(containing: "notify started"), "\(first.stderrText)")
        let second = try sandbox.run(["notify"], environment: Self.environment(sandbox, desktop))
        #expect(second.status == 0)
        #expect(second.stderr == "taskwidget: notify is already running in this session (pid \(first.pid)): it shows the reminders\n")
        #expect(second.stdout.isEmpty)
        // One for another store says that this store's reminders are not shown (it said the
        // first showed them, helper-151).
        let other = sandbox.folder.appendingPathComponent("other.sqlite").path
        let elsewhere = try sandbox.run(["notify", "--store", other], environment: Self.environment(sandbox, desktop))
        #expect(elsewhere.status == 64)
        #expect(
            elsewhere.stderr == "taskwidget: notify is already running in this session (pid \(first.pid)) for the store \(sandbox.storePath), "
                + "and one runs per session: stop it to show the reminders of \(other)\n")
        // The same store by another name (a link; a relative path) is this one: it was "another
        // store", exit 64 (helper-172).
        try sandbox.succeed(["add", "Pay rent"])
        let link = sandbox.folder.appendingPathComponent("link.sqlite").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: sandbox.storePath)
        let sameStore = try sandbox.run(["notify", "--store", link], environment: Self.environment(sandbox, desktop))
        #expect(sameStore.status == 0 && sameStore.stderr.hasSuffix(": it shows the reminders\n"), "\(sameStore.stderr)")
        #expect(first.isRunning)
        Self.stop(first)
        // Its lock goes with it: the next one starts.
        let third = try Self.notify(sandbox, desktop)
        #expect(third.waitForStderr(containing: "notify started"), "\(third.stderrText)")
        Self.stop(third)
    }

    /// A session whose bus went away leaves its notify trying to reach it (it survives a restart
    /// of the bus), holding its lock; the next session, on a bus of its own in the same runtime
    /// folder, starts its own notify, which shows the reminders. It said "already running".
    @Test(.timeLimit(.minutes(1)))
    func theNextSessionsNotifyStartsWhileTheLastOnesBusIsGone() throws {
        let sandbox = try Sandbox()
        let ended = try DesktopSession()
        try ended.startDunst()
        let first = try Self.notify(sandbox, ended)
        #expect(first.waitForStderr(containing: Self.serverAvailable, within: .seconds(20)), "\(first.stderrText)")
        ended.stopDunst()
        ended.stopBus()
        #expect(first.waitForStderr(containing: "the session bus went away"), "\(first.stderrText)")
        // A reminder that only the next session can show (the first one has no bus to post it on).
        try Self.add(sandbox, "Pay rent", "--remind", "2026-11-22T16:27:03+01:00")

        let next = try DesktopSession()
        try next.startDunst()
        let second = try Self.notify(sandbox, next)
        #expect(second.waitForStderr(containing: Self.shown, within: .seconds(20)), "\(second.stderrText)")
        #expect(try next.closeAllAndReadHistory().map(\.summary) == ["Pay rent"])
        #expect(first.isRunning)
        Self.stop(second)
        Self.stop(first)
        // Each lock goes with its notify: past sessions leave no file behind.
        let locks = try FileManager.default.contentsOfDirectory(atPath: sandbox.folder.appendingPathComponent("run/taskwidget").path)
        #expect(locks.filter { $0.hasSuffix(".lock") } == [])
    }

    /// Idle means asleep: with no server, notify says so once and waits in poll with no timeout
    /// (its timers are descriptors; GLib has none pending), then delivers when dunst starts.
    /// (Wake-ups over a quiet stretch are counted by scripts/compare.sh.)
    @Test(.timeLimit(.minutes(1)))
    func withoutAServerItWaitsIdleSaysSoOnceAndDeliversWhenOneStarts() throws {
        let desktop = try DesktopSession()
        let sandbox = try Sandbox()
        try Self.add(sandbox, "Pay rent", "--remind", "2026-11-22T16:27:01+01:00")
        let notify = try Self.notify(sandbox, desktop)
        #expect(notify.waitForStderr(containing: "no notification server"), "\(notify.stderrText)")
        // The reminder falls due meanwhile and waits for a server.
        #expect(notify.waitForStderr(containing: "posting a reminder", within: .seconds(20)), "\(notify.stderrText)")
        guard notify.waitUntilBlockedInPoll() else {
            Issue.record("notify never blocked in poll (/proc/\(notify.pid)/syscall)")
            return
        }
        #expect(notify.pollTimeout() == -1, "notify waits in poll with a timeout: it would wake up on its own")

        try desktop.startDunst()
        #expect(notify.waitForStderr(containing: Self.shown, within: .seconds(20)), "\(notify.stderrText)")
        #expect(try desktop.closeAllAndReadHistory().map(\.summary) == ["Pay rent"])
        #expect(notify.occurrences(of: "no notification server") == 1, "\(notify.stderrText)")
        Self.stop(notify)
    }

    /// A reminder that waited for a server comes as it is when the server does: posted 58 s late,
    /// shown after more than a minute, it is a missed one (helper-134: two minutes late, it came
    /// as posted, neither missed nor critical). A post waits at most 5 s to be sent as it was made.
    @Test(.timeLimit(.minutes(1)))
    func aReminderThatWaitedForAServerComesAsItIsThen() throws {
        let desktop = try DesktopSession()
        let sandbox = try Sandbox()
        try Self.add(sandbox, "Pay rent", "--remind", "2026-11-22T16:26:02+01:00")
        let notify = try Self.notify(sandbox, desktop)
        #expect(notify.waitForStderr(containing: "posting a reminder", within: .seconds(20)), "\(notify.stderrText)")
        #expect(notify.stderrText.contains("missed=false"), "\(notify.stderrText)")
        // The post must be older than the notifier keeps as made: this is the scenario's time, no synchronization.
        Thread.sleep(forTimeInterval: 6)
        try desktop.startDunst()
        #expect(notify.waitForStderr(containing: Self.shown, within: .seconds(20)), "\(notify.stderrText)")
        let shown = try desktop.closeAllAndReadHistory()
        #expect(shown.map(\.summary) == ["Pay rent"])
        #expect(shown.first?.body.hasPrefix("Missed reminder (16:26)") == true, "\(shown)")
        Self.stop(notify)
    }

    /// On most desktops no server runs until the bus starts one (D-Bus activation): that is no
    /// outage, and the first reminder starts it.
    @Test(.timeLimit(.minutes(1)))
    func aServerTheBusCanStartIsStartedByTheFirstReminder() throws {
        let desktop = try DesktopSession(activatableDunst: true)
        let sandbox = try Sandbox()
        try Self.add(sandbox, "Pay rent", "--remind", "2026-11-22T16:27:02+01:00")
        let notify = try Self.notify(sandbox, desktop)
        #expect(notify.waitForStderr(containing: "the bus can start one"), "\(notify.stderrText)")
        #expect(notify.waitForStderr(containing: Self.shown, within: .seconds(30)), "\(notify.stderrText)")
        #expect(try desktop.closeAllAndReadHistory().map(\.summary) == ["Pay rent"])
        #expect(!notify.stderrText.contains("notifications wait until one starts"), "\(notify.stderrText)")
        Self.stop(notify)
    }

    @Test(.timeLimit(.minutes(1)))
    func withoutASessionBusItExits69InOneLine() throws {
        let sandbox = try Sandbox()
        try Self.add(sandbox, "Pay rent", "--remind", "2026-11-22T16:27:01+01:00")
        var environment = sandbox.environment
        environment["DBUS_SESSION_BUS_ADDRESS"] = "unix:path=\(sandbox.folder.path)/no-bus"
        environment["XDG_RUNTIME_DIR"] = sandbox.folder.path
        let result = try sandbox.run(["notify"], environment: environment)
        #expect(result.status == 69)
        #expect(result.stderrLines.count == 1, "\(result.stderr)")
        // Nor does --verbose say it waits or reconnects just before it stops (helper-81).
        let verbose = try sandbox.run(["notify", "--verbose"], environment: environment)
        #expect(verbose.status == 69)
        #expect(!verbose.stderr.contains("wait") && !verbose.stderr.contains("reconnect"), "\(verbose.stderr)")
        #expect(result.stderr.hasPrefix("taskwidget: cannot reach the D-Bus session bus ("), "\(result.stderr)")
        // It said "where DBUS_SESSION_BUS_ADDRESS is set", which it is here (helper-70).
        #expect(result.stderr.hasSuffix(": run notify in your desktop session, whose DBUS_SESSION_BUS_ADDRESS names a bus that runs\n"))
    }

    /// A damaged file of delivered reminders is called so, with its path, not "a value given is
    /// not valid" (helper-81).
    @Test(.timeLimit(.minutes(1)))
    func aDamagedFileOfDeliveredRemindersIsCalledSo() throws {
        let desktop = try DesktopSession()
        let sandbox = try Sandbox()
        try Self.add(sandbox, "Pay rent", "--remind", "2026-11-22T18:00:00+01:00")
        // A run with --now keeps the preview's file.
        let file = sandbox.folder.appendingPathComponent("state/taskwidget/delivered-reminders-preview.json")
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("{\"schema\": \"taskwid".utf8).write(to: file)
        let notify = try Self.notify(sandbox, desktop)
        let warning = "starting without the delivered reminders: \(file.path) is damaged; recent ones may show again"
        #expect(notify.waitForStderr(containing: warning), "\(notify.stderrText)")
        Self.stop(notify)
    }

    /// Only the notification server may press a notification's buttons: an ActionInvoked sent to
    /// notify by another program is ignored (GDBus matches the server's current owner).
    @Test(.timeLimit(.minutes(1)))
    func anActionFromAnotherProgramThanTheServerIsIgnored() throws {
        let desktop = try DesktopSession()
        try desktop.startDunst()
        let sandbox = try Sandbox()
        let id = try Self.add(sandbox, "Pay rent", "--remind", "2026-11-22T16:27:01+01:00")
        let notify = try Self.notify(sandbox, desktop)
        #expect(notify.waitForStderr(containing: Self.shown, within: .seconds(20)), "\(notify.stderrText)")
        let log = notify.stderrText
        let name = try #require(log.firstMatch(of: /name=(:[0-9.]+)/)?.1)
        let notification = try #require(log.firstMatch(of: /notification=#([0-9]+)/)?.1)
        let spoof = try ProcessRunner.run(
            "/usr/bin/gdbus",
            [
                "emit", "--address", desktop.busAddress, "--dest", String(name), "--object-path", "/org/freedesktop/Notifications",
                "--signal", "org.freedesktop.Notifications.ActionInvoked", "uint32 \(notification)", "'done'",
            ], environment: desktop.environment)
        #expect(spoof.status == 0, "\(spoof.stderr)")
        // Then the server's own: the bus delivers in order, so the spoofed one came first.
        try desktop.invoke("snooze")
        #expect(notify.waitForStderr(containing: "snoozed a reminder"), "\(notify.stderrText)")
        #expect(try Self.task(sandbox, id)?["isCompleted"] as? Bool == false)
        #expect(!notify.stderrText.contains("completed the task"))
        Self.stop(notify)
    }

    /// A server that hangs while a reminder is being posted, and is then killed, never showed it:
    /// the bus answers the call NoReply. The reminder is shown on the next server (helper-70 saw
    /// it recorded as shown, and lost).
    @Test(.timeLimit(.minutes(1)))
    func aReminderPostedToAServerThatHangsAndIsKilledIsShownOnTheNextOne() throws {
        let desktop = try DesktopSession()
        let sandbox = try Sandbox()
        let (notify, _) = try Self.postToAFrozenServer(desktop, sandbox)
        desktop.stopDunst(with: SIGKILL)
        #expect(notify.waitForStderr(containing: "no notification server"), "\(notify.stderrText)")
        try desktop.startDunst()
        #expect(notify.waitForStderr(containing: Self.shown, within: .seconds(20)), "\(notify.stderrText)")
        #expect(try desktop.closeAllAndReadHistory().map(\.summary) == ["Pay rent"])
        #expect(!notify.stderrText.contains("could not be shown"), "\(notify.stderrText)")
        Self.stop(notify)
    }

    /// A server frozen for longer than a call's timeout (10 s) shows the reminder when it wakes:
    /// notify waits for its id, and the buttons work. It gave up at 10 s, saying the reminder
    /// could not be shown, and its buttons did nothing (helper-73). Time passing is what is tested.
    @Test(.timeLimit(.minutes(1)))
    func aReminderPostedToAServerFrozenForLongIsShownWithWorkingButtonsWhenItWakes() throws {
        let desktop = try DesktopSession()
        let sandbox = try Sandbox()
        let (notify, id) = try Self.postToAFrozenServer(desktop, sandbox)
        #expect(!notify.waitForStderr(containing: "could not be shown", within: .seconds(11)), "\(notify.stderrText)")
        desktop.thawDunst()
        #expect(notify.waitForStderr(containing: Self.shown, within: .seconds(20)), "\(notify.stderrText)")
        try desktop.invoke("done")
        #expect(notify.waitForStderr(containing: "completed the task"), "\(notify.stderrText)")
        #expect(try Self.task(sandbox, id)?["isCompleted"] as? Bool == true)
        Self.stop(notify)
    }

    @Test(.timeLimit(.minutes(1)))
    func itSurvivesTheBusGoingAwayAndDeliversWhenItIsBack() throws {
        let desktop = try DesktopSession()
        try desktop.startDunst()
        let sandbox = try Sandbox()
        try Self.add(sandbox, "After the restart", "--remind", "2026-11-22T16:27:03+01:00")
        let notify = try Self.notify(sandbox, desktop)
        #expect(notify.waitForStderr(containing: Self.serverAvailable, within: .seconds(20)), "\(notify.stderrText)")
        desktop.stopDunst()
        desktop.stopBus()
        #expect(notify.waitForStderr(containing: "the session bus went away"), "\(notify.stderrText)")
        try desktop.startBus()
        try desktop.startDunst()
        // It reconnects (1 s, then 5 s later) and shows what fell due meanwhile.
        #expect(notify.waitForStderr(containing: Self.shown, within: .seconds(30)), "\(notify.stderrText)")
        #expect(notify.isRunning)
        #expect(try desktop.closeAllAndReadHistory().map(\.summary) == ["After the restart"])
        Self.stop(notify)
    }

    @Test func helpNamesTheCommandAndGivesExamples() throws {
        let sandbox = try Sandbox()
        let result = try sandbox.run(["help", "notify"], global: false)
        #expect(result.status == 0)
        #expect(result.stdout.contains("USAGE: taskwidget notify"))
        #expect(result.stdout.contains("taskwidget notify --at-due"))
        #expect(!result.stdout.contains("clock-speed"))
    }
}
