import Foundation
import Glibc
import TaskWidgetCore
import TaskWidgetNotify
import Testing

@testable import TaskWidgetTestSupport

/// The values around the session: the snapshot's reminders, the notification's text, the
/// delivered-reminder file and the session lock.
@Suite struct ReminderModelTests {
    static let now = Instant(secondsSince1970: 1_795_361_220)  // Sun 22 Nov 2026 16:27 in Berlin
    static let calendar = LocalCalendar(timeZone: TimeZone(identifier: "Europe/Berlin")!)

    func item(remind: Int64?, due: Int64? = nil, list: TaskList? = nil) -> ListedTask {
        ListedTask(
            task: TaskItem(
                title: "Task", dueDate: due.map { Self.now.adding(seconds: $0) }, reminderDate: remind.map { Self.now.adding(seconds: $0) },
                listID: list?.id, createdAt: Self.now.adding(seconds: -3600)),
            list: list)
    }

    @Test func theSnapshotGivesRemindersByDateOnlyInsideItsWindow() {
        let window = ReminderSnapshot.window(at: Self.now, missedWithin: 3600)
        let tasks = [item(remind: 300), item(remind: -300, due: 600), item(remind: -7200), item(remind: 90_000), item(remind: nil, due: 60)]
        let snapshot = ReminderSnapshot(tasks: tasks, readAt: Self.now, window: window, calendar: Self.calendar)
        #expect(snapshot.reminders(atDue: false).map { $0.date.seconds(since: Self.now) } == [-300, 300])
        #expect(snapshot.reminders(atDue: true).map { $0.date.seconds(since: Self.now) } == [-300, 60, 300, 600])
        #expect(snapshot.reminders(atDue: true).map(\.kind) == [.reminder, .due, .reminder, .due])
        #expect(snapshot.isStale(at: window.upperBound) && snapshot.isStale(at: Self.now.adding(seconds: -1)))
        #expect(!snapshot.isStale(at: Self.now.adding(seconds: 3600)))
    }

    @Test func aKeyOlderThanTheWindowOfATaskNotInItCannotBeTold() {
        let window = ReminderSnapshot.window(at: Self.now, missedWithin: 3600)
        let snapshot = ReminderSnapshot(tasks: [item(remind: 60)], readAt: Self.now, window: window, calendar: Self.calendar)
        let present = snapshot.tasks[0].task
        #expect(snapshot.stillAsks(for: ReminderKey(taskID: present.id, date: present.reminderDate!), atDue: false) == true)
        #expect(snapshot.stillAsks(for: ReminderKey(taskID: present.id, date: Self.now), atDue: false) == false)
        #expect(snapshot.stillAsks(for: ReminderKey(taskID: UUID(), date: Self.now), atDue: false) == false)
        #expect(snapshot.stillAsks(for: ReminderKey(taskID: UUID(), date: Self.now.adding(seconds: -7200)), atDue: false) == nil)
    }

    /// Reminders of one moment come in the tasks' order (as `ls` lists them): 20 due together
    /// were posted in the order of their ids, at random (helper-70).
    @Test func remindersOfOneMomentComeInTheTasksOrder() {
        let tasks = (0..<20).map { _ in item(remind: 60) } + [item(remind: 30)]
        let snapshot = ReminderSnapshot(tasks: tasks, readAt: Self.now, window: ReminderSnapshot.window(at: Self.now, missedWithin: 86_400), calendar: Self.calendar)
        #expect(snapshot.reminders(atDue: false).map(\.item.task.id) == [tasks[20].task.id] + tasks.prefix(20).map(\.task.id))
    }

    @Test func theNotificationSaysWhenTheTaskIsDueAndInWhichList() throws {
        let work = TaskList(name: "Work", createdAt: Self.now)
        let presentation = ReminderNotification(calendar: Self.calendar, offersClick: false)
        let snapshot = ReminderSnapshot(
            tasks: [item(remind: 0, due: 86_400 + 3600, list: work), item(remind: -7200)], readAt: Self.now,
            window: ReminderSnapshot.window(at: Self.now, missedWithin: 86_400), calendar: Self.calendar)
        let reminders = snapshot.reminders(atDue: false)
        let missed = presentation.notification(for: reminders[0], at: Self.now, missed: true)
        #expect(missed.summary == "Task")
        #expect(missed.body == "Missed reminder (14:27) · Inbox")
        let onTime = presentation.notification(for: reminders[1], at: Self.now, missed: false)
        #expect(onTime.body == "Tomorrow 17:27 · Work")
        #expect(onTime.urgency == .normal)
        #expect("\(onTime)".contains("<4 characters>") && !"\(onTime)".contains("Work"))
        // With --at-due, a due date shown late is overdue, not a missed reminder (the task may
        // have none).
        let dueLate = ReminderSnapshot(tasks: [item(remind: nil, due: -600)], readAt: Self.now, window: ReminderSnapshot.window(at: Self.now, missedWithin: 86_400), calendar: Self.calendar)
        let due = try #require(dueLate.reminders(atDue: true).first)
        #expect(due.kind == .due)
        #expect(presentation.notification(for: due, at: Self.now, missed: true).body == "Overdue · 16:17 · Inbox")
        // In the minute it falls due, it is due now, and not critical; after it, overdue.
        let dueNow = ReminderSnapshot(tasks: [item(remind: nil, due: 0)], readAt: Self.now, window: ReminderSnapshot.window(at: Self.now, missedWithin: 86_400), calendar: Self.calendar)
        let atDue = try #require(dueNow.reminders(atDue: true).first)
        for (seconds, body, urgency) in [(0, "Due now · 16:27 · Inbox", NotificationUrgency.normal), (59, "Due now · 16:27 · Inbox", .normal), (60, "Overdue · 16:27 · Inbox", .critical)] {
            let shown = presentation.notification(for: atDue, at: Self.now.adding(seconds: Int64(seconds)), missed: false)
            #expect(shown.body == body && shown.urgency == urgency, "\(seconds) s: \(shown.body)")
        }
    }

    /// A day given alone falls due at 23:59, a time the user never gave: in that last minute its
    /// reminder read "Due now · 23:59" (helper-81); it reads as `ls` does then.
    @Test func aDayAloneIsNeverDueNowAt2359() throws {
        let lastMinute = Self.now.adding(seconds: 27_120)  // 23:59 in Berlin
        let dayAlone = item(remind: 27_120, due: 27_120)
        #expect(DueLabeler.isDayOnly(try #require(dayAlone.task.dueDate), in: Self.calendar.timeZone))
        let snapshot = ReminderSnapshot(tasks: [dayAlone], readAt: Self.now, window: ReminderSnapshot.window(at: Self.now, missedWithin: 86_400), calendar: Self.calendar)
        let presentation = ReminderNotification(calendar: Self.calendar, offersClick: false)
        for reminder in snapshot.reminders(atDue: true) {
            let shown = presentation.notification(for: reminder, at: lastMinute.adding(seconds: 30), missed: false)
            #expect(shown.body == "Overdue · Today · Inbox", "\(reminder.kind): \(shown.body)")
        }
    }

    /// Completing or snoozing a task that repeats on a sync server would complete or move the
    /// whole series there: its notification has neither Done nor Snooze, and says where to use them.
    @Test func aTaskThatRepeatsOnTheServerHasNoDoneAndNoSnoozeButton() throws {
        let (repeating, once) = (item(remind: 0, due: 3600), item(remind: 60))
        let snapshot = ReminderSnapshot(
            tasks: [repeating, once], readAt: Self.now, window: ReminderSnapshot.window(at: Self.now, missedWithin: 86_400), calendar: Self.calendar,
            repeatingOnServer: [repeating.task.id])
        let reminders = snapshot.reminders(atDue: true)
        #expect(reminders.map(\.repeatsOnServer) == [true, false, true])
        let presentation = ReminderNotification(calendar: Self.calendar, offersClick: true)
        let repeatingNotification = presentation.notification(for: reminders[0], at: Self.now, missed: false)
        #expect(repeatingNotification.body == "17:27 · Inbox · Repeats: complete or snooze it on the phone")
        #expect(repeatingNotification.actions.map(\.key) == ["default"])
        let onceNotification = presentation.notification(for: reminders[1], at: Self.now, missed: false)
        #expect(onceNotification.body == "Inbox")
        #expect(onceNotification.actions.map(\.key) == ["done", "snooze", "default"])
    }

    @Test func deliveredRemindersRoundTripInAStableFileWithoutTitles() throws {
        let id = try #require(UUID(uuidString: "3F2A9C1B-0000-4000-8000-000000000001"))
        var delivered = DeliveredReminders()
        let first = delivered.insert(ReminderKey(taskID: id, date: Self.now))
        let again = delivered.insert(ReminderKey(taskID: id, date: Self.now))
        #expect(first && !again)
        delivered.insert(ReminderKey(taskID: id, date: Self.now.adding(seconds: -90_000)))
        let text = String(decoding: try delivered.encoded(), as: UTF8.self)
        #expect(text.contains(#"{"date":"2026-11-22T15:27:00Z","task":"3f2a9c1b-0000-4000-8000-000000000001"}"#))
        #expect(try DeliveredReminders(decoding: delivered.encoded()) == delivered)
        delivered.forget(before: Self.now.adding(seconds: -86_400))
        #expect(delivered.keys.count == 1)
        #expect(throws: TaskWidgetError.self) { try DeliveredReminders(decoding: Data("{}".utf8)) }
    }

    @Test func theStateFileIsCreatedWithItsFolderAndReadBack() throws {
        let folder = try TemporaryFolder()
        let file = DeliveredRemindersFile(path: folder.path("state/taskwidget/delivered-reminders.json"))
        #expect(try file.load() == DeliveredReminders())
        let delivered = DeliveredReminders([ReminderKey(taskID: UUID(), date: Self.now)])
        try file.save(delivered)
        #expect(try file.load() == delivered)
        #expect(try folder.entries() == ["state"])
        try Data("not json".utf8).write(to: URL(fileURLWithPath: file.path))
        #expect(throws: TaskWidgetError.self) { try file.load() }
    }

    /// Two notify processes (two session buses) record in one file: each write keeps the other's
    /// reminders, but those it forgot as too old (helper-134: they were shown again at a restart).
    @Test func aWriteKeepsWhatAnotherProcessRecorded() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("delivered-reminders.json")
        let (first, second) = (DeliveredRemindersFile(path: path), DeliveredRemindersFile(path: path))
        let (mine, theirs, old) = (
            ReminderKey(taskID: UUID(), date: Self.now), ReminderKey(taskID: UUID(), date: Self.now), ReminderKey(taskID: UUID(), date: Self.now.adding(seconds: -90_000))
        )
        try second.save(DeliveredReminders([theirs, old]))
        var delivered = DeliveredReminders([mine])
        delivered.forget(before: Self.now.adding(seconds: -86_400))
        try first.save(delivered)
        #expect(try first.load().keys == [mine, theirs])
        try second.save(DeliveredReminders([theirs]))
        #expect(try first.load().keys == [mine, theirs])
    }

    @Test func aSecondLockOfTheSessionIsRefusedWithTheHoldersPid() throws {
        let folder = try TemporaryFolder()
        let path = try #require(SessionLock.defaultPath(XDGPaths(environment: ["XDG_RUNTIME_DIR": folder.url.path]), busAddress: nil))
        #expect(path == folder.path("taskwidget/notify.lock"))
        guard case .acquired(let lock) = try SessionLock.acquire(at: path, store: "/home/u/tasks.sqlite") else {
            Issue.record("the first lock was refused")
            return
        }
        // flock locks belong to an open file: a second open, even in this process, is refused.
        guard case .heldBy(let pid, let store) = try SessionLock.acquire(at: path, store: "/home/u/other.sqlite") else {
            Issue.record("the second lock was granted")
            return
        }
        #expect(pid == getpid() && store == "/home/u/tasks.sqlite")
        withExtendedLifetime(lock) {}
    }

    /// The file goes with the lock, and the next notify makes a new one.
    @Test func aLockLetGoLeavesNoFileAndIsTakenAgain() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("taskwidget/notify-1f2e.lock")
        func holdOnce() throws {
            guard case .acquired(let lock) = try SessionLock.acquire(at: path, store: "/home/u/tasks.sqlite") else {
                Issue.record("the lock was refused")
                return
            }
            #expect(FileManager.default.fileExists(atPath: path))
            withExtendedLifetime(lock) {}
        }
        for _ in 0..<2 {
            try holdOnce()
            #expect(!FileManager.default.fileExists(atPath: path))
        }
    }

    @Test func theLockFallsBackToTheStateFolderWithoutARuntimeDirectory() {
        #expect(SessionLock.defaultPath(XDGPaths(environment: ["HOME": "/home/u"]), busAddress: nil) == "/home/u/.local/state/taskwidget/notify.lock")
        #expect(SessionLock.defaultPath(XDGPaths(environment: [:]), busAddress: nil) == nil)
    }

    /// The session's own bus (`$XDG_RUNTIME_DIR/bus`, named or not) has the one lock; a bus at
    /// another address, as dbus-run-session starts, has one of its own, the same for every notify
    /// on that bus.
    @Test func eachSessionBusHasALockOfItsOwn() {
        let paths = XDGPaths(environment: ["XDG_RUNTIME_DIR": "/run/user/1000"])
        let sessionLock = "/run/user/1000/taskwidget/notify.lock"
        #expect(SessionLock.defaultPath(paths, busAddress: nil) == sessionLock)
        #expect(SessionLock.defaultPath(paths, busAddress: "") == sessionLock)
        #expect(SessionLock.defaultPath(paths, busAddress: "unix:path=/run/user/1000/bus") == sessionLock)
        let first = SessionLock.defaultPath(paths, busAddress: "unix:path=/tmp/dbus-AbC,guid=1f2e")
        let second = SessionLock.defaultPath(paths, busAddress: "unix:path=/tmp/dbus-XyZ,guid=9a8b")
        #expect(first != sessionLock && second != sessionLock && first != second)
        #expect(first?.hasPrefix("/run/user/1000/taskwidget/notify-") == true && first?.hasSuffix(".lock") == true)
        #expect(SessionLock.defaultPath(paths, busAddress: "unix:path=/tmp/dbus-AbC,guid=1f2e") == first)
        // The same bus however its address is written: with a guid (as dbus-daemon prints it) or
        // without, a path with a doubled slash, a runtime folder with a trailing one.
        #expect(SessionLock.defaultPath(paths, busAddress: "unix:path=/run/user/1000/bus,guid=25f2ab") == sessionLock)
        #expect(SessionLock.defaultPath(paths, busAddress: "unix:path=/run/user/1000//bus") == sessionLock)
        #expect(SessionLock.defaultPath(XDGPaths(environment: ["XDG_RUNTIME_DIR": "/run/user/1000/"]), busAddress: "unix:path=/run/user/1000/bus") == sessionLock)
        #expect(SessionLock.defaultPath(paths, busAddress: "unix:path=/tmp/dbus-AbC") == first)
        #expect(SessionLock.defaultPath(paths, busAddress: "unix:path=/tmp/dbus-AbC,guid=77;tcp:host=localhost,port=1") == first)
    }
}

/// The `click_command` runs through `/bin/sh -c` without notify waiting for it; one that fails is
/// logged with its status when it is reaped. A missing program said nothing in notify's log
/// beyond "started the click command" (helper-73).
@Suite struct ShellCommandLauncherTests {
    @Test(.timeLimit(.minutes(1))) func aClickCommandThatFailsIsLoggedWithItsStatus() throws {
        let log = LogRecorder()
        let launcher = ShellCommandLauncher(logger: log.logger)
        try launcher.launch("exit 3")
        try launcher.launch("true")
        #expect(waitUntil(within: .seconds(20)) {
            launcher.reapFinished()
            return log.logged.contains { $0.hasPrefix("the click command failed") }
        })
        #expect(log.logged == ["the click command failed (exit 3): check click_command in a shell"], "\(log.logged)")
    }

    /// A command's end wakes notify's loop, which reaps it then: it was a zombie until the next
    /// wake-up, and its failure logged hours later or never (helper-111).
    @Test(.timeLimit(.minutes(1))) func aCommandThatEndsWakesTheLoopAndIsReaped() throws {
        let log = LogRecorder()
        let launcher = ShellCommandLauncher(logger: log.logger)
        try launcher.launch("exit 5")
        var (descriptors, timeout) = launcher.prepare()
        #expect(descriptors.count == 1 && timeout == -1)
        // What the loop does: sleep on the descriptors, with no timeout of its own, until one fires.
        #expect(poll(&descriptors, nfds_t(descriptors.count), 30_000) == 1)
        launcher.dispatch(descriptors)
        #expect(log.logged == ["the click command failed (exit 5): check click_command in a shell"], "\(log.logged)")
        #expect(launcher.prepare().descriptors.isEmpty, "reaped: no zombie is left")
    }
}
