import Foundation
import Logging
import TaskWidgetCore
import TaskWidgetNotify
import TaskWidgetTestSupport
import TaskWidgetWatch
import Testing

/// The decisions of `taskwidget notify`, driven with clock readings and server answers chosen by
/// the test: when reminders show, with what text, once, and what the buttons do.
@Suite struct NotifySessionTests {
    /// Sunday 22 November 2026, 16:27:00 in Berlin.
    static let start: Int64 = 1_795_361_220
    static let calendar = LocalCalendar(timeZone: TimeZone(identifier: "Europe/Berlin")!)

    let store = FakeTasks()
    let notifier = FakeNotifier()
    let actions = FakeActions()
    let launcher = FakeLauncher()
    let storage = DeliveredRemindersInMemory()
    let home = TaskList(name: "Home", createdAt: Instant(secondsSince1970: start - 86_400))

    func session(_ settings: ReminderSettings = ReminderSettings(), storage: DeliveredRemindersInMemory? = nil) -> NotifySession<FakeReminderSource> {
        NotifySession(
            source: FakeReminderSource(store: store, missedWithin: settings.missedWithin, calendar: Self.calendar), notifier: notifier, actions: actions,
            storage: storage ?? self.storage, launcher: launcher, calendar: Self.calendar, settings: settings,
            logger: Logger(label: "test"))
    }

    /// `seconds` after the start on both clocks, plus `drift` seconds on the wall clock only (a jump).
    func at(_ seconds: Double, drift: Int64 = 0) -> WatchInstant {
        .reading(seconds, after: Self.start, drift: drift)
    }

    static func instant(_ seconds: Int64) -> Instant {
        Instant(secondsSince1970: start + seconds)
    }

    /// Adds an open task reminded (and due) so many seconds after the start.
    @discardableResult
    func addTask(_ title: String, remindIn: Int64?, dueIn: Int64? = nil, inHome: Bool = false) -> UUID {
        let task = TaskItem(
            title: title, dueDate: dueIn.map(Self.instant), reminderDate: remindIn.map(Self.instant), listID: inHome ? home.id : nil,
            createdAt: Self.instant(-3600))
        store.tasks.append(ListedTask(task: task, list: inHome ? home : nil))
        return task.id
    }

    /// Changes a task in the store and tells the session, as a write by another process would.
    func change(_ id: UUID, _ body: (inout TaskItem) -> Void, session: inout NotifySession<FakeReminderSource>, at time: Double) throws {
        let index = try #require(store.tasks.firstIndex { $0.task.id == id })
        body(&store.tasks[index].task)
        store.nextCheck = .changed
        try session.handle(.storeActivity, at: at(time))
        try session.handle([], at: at(time + 0.1))
    }

    @Test func aReminderShowsOnceAtItsDateWithTheTitleDueLabelAndList() throws {
        addTask("Pay rent", remindIn: 2, dueIn: 1980, inHome: true)
        var session = session()
        try session.start(at: at(0))
        #expect(notifier.posts.isEmpty)
        #expect(session.entryDeadline == Self.instant(2))
        try session.handle([], at: at(2.003))
        #expect(notifier.summaries == ["Pay rent"])
        #expect(notifier.bodies == ["17:00 · Home"])
        #expect(notifier.posts[0].notification.urgency == .normal)
        #expect(notifier.posts[0].notification.actions.map(\.key) == ["done", "snooze"])
        #expect(notifier.posts[0].notification.actions.map(\.label) == ["Done", "Snooze 10 min"])
        // Shown: recorded, and not shown again at later wake-ups.
        #expect(storage.saved.contains(ReminderKey(taskID: store.tasks[0].task.id, date: Self.instant(2))))
        try session.handle(.refresh, at: at(60))
        try session.handle([], at: at(3600))
        #expect(notifier.posts.count == 1)
        // Nothing more to wake for until the snapshot's window ends, a day after it was read (the refresh).
        #expect(session.entryDeadline == Self.instant(60 + 86_400))
    }

    @Test func anOverdueTaskIsCriticalAndAnInboxTaskSaysInbox() throws {
        addTask("Call the dentist", remindIn: 5, dueIn: -600)
        var session = session()
        try session.start(at: at(0))
        try session.handle([], at: at(5))
        #expect(notifier.bodies == ["Overdue · 16:17 · Inbox"])
        #expect(notifier.posts[0].notification.urgency == .critical)
    }

    @Test func completedTasksAndTasksWithoutAReminderGetNone() throws {
        let done = addTask("Done already", remindIn: 2)
        store.tasks[0].task.complete(at: Self.instant(-60))
        addTask("No reminder", remindIn: nil, dueIn: 3)
        var session = session()
        try session.start(at: at(0))
        try session.handle([], at: at(5))
        #expect(notifier.posts.isEmpty)
        #expect(!storage.saved.keys.contains { $0.taskID == done })
    }

    @Test func aRestartDoesNotRepeatAShownReminder() throws {
        addTask("Pay rent", remindIn: 2)
        var first = session()
        try first.start(at: at(0))
        try first.handle([], at: at(2))
        #expect(notifier.posts.count == 1)
        // A new process, the same store and state, even started before the reminder's date again.
        var second = session(storage: DeliveredRemindersInMemory(storage.saved))
        try second.start(at: at(0))
        try second.handle([], at: at(2))
        try second.handle([], at: at(100))
        #expect(notifier.posts.count == 1)
    }

    @Test func aReminderMissedWhileNotifyWasNotRunningShowsOnceMarkedMissed() throws {
        addTask("Pay rent", remindIn: -7200, dueIn: 1980, inHome: true)
        var session = session()
        try session.start(at: at(0))
        #expect(notifier.bodies == ["Missed reminder (14:27) · 17:00 · Home"])
        try session.handle(.refresh, at: at(10))
        #expect(notifier.posts.count == 1)
    }

    @Test func aClockJumpPastTwoRemindersShowsEachOnceMarkedMissed() throws {
        addTask("First", remindIn: 600)
        addTask("Second", remindIn: 1200)
        var session = session()
        try session.start(at: at(0))
        // The machine slept: the monotonic clock moved 5 s, the wall clock an hour more.
        try session.handle([], at: at(5, drift: 3600))
        #expect(notifier.summaries == ["First", "Second"])
        #expect(notifier.bodies == ["Missed reminder (16:37) · Inbox", "Missed reminder (16:47) · Inbox"])
        try session.handle(.clockSet, at: at(6, drift: 3600))
        try session.handle([], at: at(60, drift: 3600))
        #expect(notifier.posts.count == 2)
    }

    /// Missed reminders found at once are three notifications and one that counts the rest:
    /// hundreds came as hundreds (helper-134). The three are the latest (the oldest came, and the
    /// latest went into the count, helper-151), posted in their order. The counted ones are
    /// recorded once it is shown, and a restart shows none of them again.
    @Test func manyMissedRemindersAreThreeNotificationsAndOneThatCountsTheRest() throws {
        for index in 0..<10 { addTask("Task \(index)", remindIn: Int64(-3600 + 60 * index)) }
        notifier.showsPosts = false
        var session = session()
        try session.start(at: at(0))
        #expect(notifier.summaries == ["Task 7", "Task 8", "Task 9", "7 more missed reminders"])
        #expect(notifier.bodies.last == "taskwidget ls shows your tasks")
        #expect(notifier.posts.last?.notification.urgency == .normal)
        // Not counted again while it waits for the server.
        try session.handle(.refresh, at: at(1))
        #expect(notifier.posts.count == 4)
        for post in notifier.posts.map(\.post) { notifier.show(post) }
        try session.handle([], at: at(2))
        #expect(storage.saved.keys.count == 10)
        var restarted = self.session(storage: DeliveredRemindersInMemory(storage.saved))
        try restarted.start(at: at(3))
        #expect(notifier.posts.count == 4)
    }

    /// One more than three is shown as itself: a count of one would take its place (helper-141).
    @Test func fourMissedRemindersAreFourNotifications() throws {
        for index in 0..<4 { addTask("Task \(index)", remindIn: Int64(-3600 + 60 * index)) }
        var session = session()
        try session.start(at: at(0))
        #expect(notifier.summaries == ["Task 0", "Task 1", "Task 2", "Task 3"])
        #expect(notifier.bodies.allSatisfy { $0.hasPrefix("Missed reminder") })
    }

    /// A count dropped while no server runs is made again once one is there.
    @Test func aDroppedCountOfMissedRemindersIsPostedAgainWhenAServerIsThere() throws {
        for index in 0..<5 { addTask("Task \(index)", remindIn: Int64(-3600 + 60 * index)) }
        notifier.showsPosts = false
        var session = session()
        try session.start(at: at(0))
        #expect(notifier.summaries == ["Task 2", "Task 3", "Task 4", "2 more missed reminders"])
        for post in notifier.posts.prefix(3).map(\.post) { notifier.show(post) }
        notifier.events.append(.postDropped(notifier.posts[3].post))
        try session.handle([], at: at(1))
        try session.handle(.refresh, at: at(2))
        #expect(notifier.posts.count == 4)
        #expect(storage.saved.keys.count == 3)
        notifier.events = [.serverAvailable]
        notifier.showsPosts = true
        try session.handle([], at: at(3))
        #expect(notifier.summaries.suffix(2) == ["Task 0", "Task 1"])
        #expect(storage.saved.keys.count == 5)
    }

    /// Of many missed reminders, an overdue task's is shown as itself before the latest, and a
    /// count that hides an overdue task is critical: the overdue one went into a normal count
    /// without buttons (helper-151).
    @Test func anOverdueTasksMissedReminderIsShownBeforeTheLatest() throws {
        addTask("Overdue", remindIn: -3000, dueIn: -2900)
        addTask("Overdue too", remindIn: -2990, dueIn: -2800)
        for index in 0..<5 { addTask("Task \(index)", remindIn: Int64(-2400 + 60 * index)) }
        var session = session()
        try session.start(at: at(0))
        #expect(notifier.summaries == ["Overdue", "Overdue too", "Task 4", "4 more missed reminders"])
        #expect(notifier.posts.last?.notification.urgency == .normal)
    }

    /// Reminders due at one moment are grouped as missed ones are: 30 set for 09:00 came as 30
    /// notifications (helper-151). The count says "reminders", as they are not missed.
    @Test func manyRemindersAtOneMomentAreThreeNotificationsAndACount() throws {
        for index in 0..<30 { addTask("Task \(index)", remindIn: 2) }
        var session = session()
        try session.start(at: at(0))
        #expect(notifier.posts.isEmpty)
        try session.handle([], at: at(2.003))
        #expect(notifier.summaries.count == 4 && notifier.summaries.last == "27 more reminders")
        #expect(notifier.bodies.prefix(3).allSatisfy { !$0.hasPrefix("Missed") })
        try session.handle([], at: at(3))
        #expect(storage.saved.keys.count == 30, "each recorded once the count is shown")
    }

    /// A count of missed reminders that hides an overdue task is critical.
    @Test func aCountThatHidesAnOverdueTaskIsCritical() throws {
        for index in 0..<5 { addTask("Late \(index)", remindIn: Int64(-2400 + 60 * index), dueIn: -60) }
        var session = session()
        try session.start(at: at(0))
        #expect(notifier.summaries == ["Late 2", "Late 3", "Late 4", "2 more missed reminders"])
        #expect(notifier.posts.last?.notification.urgency == .critical)
    }

    @Test func aReminderOlderThanMissedWithinIsDropped() throws {
        addTask("Long ago", remindIn: -7200)
        addTask("Recent", remindIn: -1800)
        var session = session(ReminderSettings(missedWithin: 3600))
        try session.start(at: at(0))
        #expect(notifier.summaries == ["Recent"])
    }

    /// `missed_within = "0s"` drops missed reminders, not one whose wake-up came a little late,
    /// and one shown and dismissed stays dismissed (it was forgotten at once, and shown again).
    @Test func aReminderOnTimeIsShownOnceWhateverMissedWithinSays() throws {
        addTask("Pay rent", remindIn: 2)
        addTask("Long ago", remindIn: -7200)
        var session = session(ReminderSettings(missedWithin: 0))
        try session.start(at: at(0))
        try session.handle([], at: at(2.5))
        #expect(notifier.summaries == ["Pay rent"])
        try session.handle([], at: at(3))
        notifier.events = [.closed(NotificationID(rawValue: 1), .dismissed)]
        try session.handle([], at: at(12))
        try session.handle([], at: at(30))
        #expect(notifier.summaries == ["Pay rent"])
    }

    @Test func aReminderMovedElsewhereClosesItsNotificationAndShowsAgainAtItsNewDate() throws {
        let id = addTask("Pay rent", remindIn: 2)
        var session = session()
        try session.start(at: at(0))
        try session.handle([], at: at(2))
        let first = notifier.posts[0].post
        try change(id, { $0.reminderDate = Self.instant(600) }, session: &session, at: 10)
        #expect(notifier.withdrawn == [first])
        #expect(session.entryDeadline == Self.instant(600))
        try session.handle([], at: at(600))
        #expect(notifier.posts.count == 2)
    }

    /// A sync writes a reminder with milliseconds (a snooze's) back in whole seconds: the same
    /// reminder, not a moved one. It was withdrawn and shown again as missed.
    @Test func aReminderRoundedToTheSecondByASyncIsNotShownAgain() throws {
        let id = addTask("Pay rent", remindIn: nil)
        store.tasks[0].task.reminderDate = Instant(millisecondsSince1970: (Self.start + 2) * 1000 + 345)
        var session = session()
        try session.start(at: at(0))
        try session.handle([], at: at(2.5))
        #expect(notifier.posts.count == 1)
        try change(id, { $0.reminderDate = Self.instant(2) }, session: &session, at: 600)
        try session.handle([], at: at(700))
        #expect(notifier.posts.count == 1 && notifier.withdrawn.isEmpty)
    }

    @Test func aPendingReminderMovedEarlierFiresAtItsNewDate() throws {
        let id = addTask("Pay rent", remindIn: 3600)
        var session = session()
        try session.start(at: at(0))
        try change(id, { $0.reminderDate = Self.instant(30) }, session: &session, at: 10)
        #expect(session.entryDeadline == Self.instant(30))
        try session.handle([], at: at(30))
        #expect(notifier.bodies == ["Inbox"])
    }

    @Test(arguments: ["completed", "deleted"])
    func aTaskCompletedOrDeletedElsewhereClosesItsNotification(how: String) throws {
        let id = addTask("Pay rent", remindIn: 2)
        addTask("Other", remindIn: 1)
        var session = session()
        try session.start(at: at(0))
        try session.handle([], at: at(2))
        let post = try #require(notifier.posts.first { $0.notification.summary == "Pay rent" }?.post)
        if how == "completed" {
            try change(id, { $0.complete(at: Self.instant(10)) }, session: &session, at: 10)
        } else {
            store.tasks.removeAll { $0.task.id == id }
            store.nextCheck = .changed
            try session.handle(.storeActivity, at: at(10))
            try session.handle([], at: at(10.1))
        }
        #expect(notifier.withdrawn == [post])
    }

    @Test func aStoreThatFailsClosesNothing() throws {
        addTask("Pay rent", remindIn: 2)
        var session = session()
        try session.start(at: at(0))
        try session.handle([], at: at(2))
        store.nextCheck = .failed(TaskWidgetError(.storeMissing, "there is no store"))
        try session.handle(.storeActivity, at: at(10))
        try session.handle([], at: at(10.1))
        #expect(notifier.withdrawn.isEmpty)
        #expect(session.entryDeadline == nil)
    }

    /// A store that cannot be read is logged once, with what to do: the log said only "there is
    /// no store [storeMissing] (PATH)", where watch's line gives the advice.
    @Test func aStoreFailureIsLoggedOnceWithWhatToDo() throws {
        let log = LogRecorder()
        var session = NotifySession(
            source: FakeReminderSource(store: store, missedWithin: ReminderSettings().missedWithin, calendar: Self.calendar), notifier: notifier, actions: actions,
            storage: storage, launcher: launcher, calendar: Self.calendar, settings: ReminderSettings(), logger: log.logger)
        let missing = "/nonexistent-taskwidget/tasks.sqlite"
        store.nextCheck = .failed(TaskWidgetError(.storeMissing, "there is no store at \(missing)", context: missing))
        try session.start(at: at(0))
        try session.handle(.storeActivity, at: at(1))
        // The add that creates it names it, and its folder is made first (helper-149).
        #expect(
            log.logged.filter { $0.contains("[storeMissing]") } == [
                "there is no store [storeMissing] (\(missing)): notify waits for the store to be readable: check the path "
                    + "(--store, TASKWIDGET_STORE, config.toml's store), or create its folder (mkdir -p /nonexistent-taskwidget) and then the store "
                    + "with a first `taskwidget add --store \(missing) TITLE`"
            ], "\(log.logged)")
        // A folder in its place (helper-134).
        store.nextCheck = .failed(TaskWidgetError(.notAFile, "/home/u is a folder, not a store file", context: "/home/u"))
        try session.handle(.storeActivity, at: at(2))
        #expect(log.logged.last?.hasSuffix("notify waits for the store to be readable: pass --store with the path of the store's file") == true, "\(log.logged)")
    }

    @Test func doneCompletesTheTaskAndClosesTheNotification() throws {
        let id = addTask("Pay rent", remindIn: 2)
        var session = session()
        try session.start(at: at(0))
        try session.handle([], at: at(2))
        notifier.events = [.actionInvoked(NotificationID(rawValue: 1), actionKey: "done")]
        try session.handle([], at: at(5))
        #expect(actions.completed == [id])
        #expect(notifier.closed == [NotificationID(rawValue: 1)])
    }

    /// Done or Snooze on a task that came to repeat on a sync server after its notification was
    /// shown leaves it as it is, and shows the reminder again without Done and Snooze.
    @Test(arguments: ["done", "snooze"])
    func aButtonOnATaskThatCameToRepeatShowsItAgainWithoutDoneAndSnooze(action: String) throws {
        let id = addTask("Water the plants", remindIn: 2)
        actions.repeating = [id]
        var session = session()
        try session.start(at: at(0))
        try session.handle([], at: at(2))
        #expect(notifier.posts.last?.notification.actions.map(\.key) == ["done", "snooze"])
        notifier.events = [.actionInvoked(NotificationID(rawValue: 1), actionKey: action)]
        try session.handle([], at: at(5))
        #expect(actions.completed.isEmpty && actions.reminded.isEmpty)
        #expect(notifier.closed == [NotificationID(rawValue: 1)])
        #expect(notifier.posts.count == 2)
        #expect(notifier.posts.last?.notification.actions.map(\.key) == [])
        #expect(notifier.posts.last?.notification.body.hasSuffix(ReminderNotification.repeatsNote) == true)
    }

    @Test func snoozeMovesTheReminderTenMinutesFromTheClickAndItFiresAgain() throws {
        let id = addTask("Pay rent", remindIn: 2)
        var session = session()
        try session.start(at: at(0))
        try session.handle([], at: at(2))
        notifier.events = [.actionInvoked(NotificationID(rawValue: 1), actionKey: "snooze")]
        try session.handle([], at: at(5))
        #expect(actions.reminded.map(\.task) == [id])
        #expect(actions.reminded.map(\.date) == [Self.instant(605)])
        #expect(notifier.closed == [NotificationID(rawValue: 1)])
        // The write comes back through the store, as the real one does.
        try change(id, { $0.reminderDate = Self.instant(605) }, session: &session, at: 5.2)
        #expect(session.entryDeadline == Self.instant(605))
        try session.handle([], at: at(605))
        #expect(notifier.posts.count == 2)
        #expect(notifier.withdrawn.isEmpty, "the snoozed notification was closed by the action already")
    }

    @Test func aClickRunsTheClickCommandOnlyWhenOneIsConfigured() throws {
        addTask("Pay rent", remindIn: 2)
        addTask("Other", remindIn: 2)
        var session = session(ReminderSettings(clickCommand: "xdg-open https://example.com"))
        try session.start(at: at(0))
        try session.handle([], at: at(2))
        #expect(notifier.posts[0].notification.actions.map(\.key) == ["done", "snooze", "default"])
        notifier.events = [.actionInvoked(NotificationID(rawValue: 1), actionKey: "default")]
        try session.handle([], at: at(3))
        #expect(launcher.launched == ["xdg-open https://example.com"])
        #expect(notifier.closed == [NotificationID(rawValue: 1)])

        var plain = self.session(storage: DeliveredRemindersInMemory())
        try plain.start(at: at(0))
        try plain.handle([], at: at(2))
        #expect(notifier.posts[2].notification.actions.map(\.key) == ["done", "snooze"])
    }

    /// A click command that cannot start says so, not how the store failed.
    @Test func aClickCommandThatCannotStartShowsTheReminderAgainSayingSo() throws {
        addTask("Pay rent", remindIn: 2)
        var session = session(ReminderSettings(clickCommand: "xdg-open https://example.com"))
        try session.start(at: at(0))
        try session.handle([], at: at(2))
        launcher.failure = TaskWidgetError(.ioFailure, "cannot start /bin/sh")
        notifier.events = [.actionInvoked(NotificationID(rawValue: 1), actionKey: "default")]
        try session.handle([], at: at(3))
        #expect(notifier.bodies.last?.hasPrefix("Open failed: the click command could not be started") == true, "\(notifier.bodies)")
    }

    /// A button whose write fails (the store locked) does not close the reminder as if it had
    /// worked: it is shown again, saying so, with its buttons to try again.
    @Test(arguments: [("done", "Done"), ("snooze", "Snooze 10 min")])
    func aFailedWriteShowsTheReminderAgainSayingWhatFailed(action: String, label: String) throws {
        let id = addTask("Pay rent", remindIn: 2, dueIn: 1980, inHome: true)
        var session = session()
        try session.start(at: at(0))
        try session.handle([], at: at(2))
        actions.failure = TaskWidgetError(.storeLocked, "the store /home/u/tasks.sqlite is locked by another program")
        notifier.events = [.actionInvoked(NotificationID(rawValue: 1), actionKey: action)]
        try session.handle([], at: at(5))
        #expect(notifier.closed == [NotificationID(rawValue: 1)])
        #expect(notifier.summaries == ["Pay rent", "Pay rent"])
        #expect(notifier.bodies.last == "\(label) failed: the store is locked by another program · 17:00 · Home")
        #expect(notifier.posts.last?.notification.actions.map(\.key) == ["done", "snooze"])
        // The old notification's close changes nothing; the new one's button works once the store is free.
        notifier.events = [.closed(NotificationID(rawValue: 1), .closedByCall)]
        try session.handle([], at: at(6))
        actions.failure = nil
        notifier.events = [.actionInvoked(NotificationID(rawValue: 2), actionKey: "done")]
        try session.handle([], at: at(8))
        #expect(actions.completed == [id])
        #expect(notifier.closed == [NotificationID(rawValue: 1), NotificationID(rawValue: 2)])
        #expect(notifier.posts.count == 2)
    }

    /// A button pressed minutes after its reminder showed, that fails, shows it again without
    /// "Missed reminder": it was seen, only the button failed.
    @Test func aFailedButtonPressedLateIsNoMissedReminder() throws {
        _ = addTask("Pay rent", remindIn: 2, dueIn: 1980, inHome: true)
        var session = session()
        try session.start(at: at(0))
        try session.handle([], at: at(2))
        actions.failure = TaskWidgetError(.storeLocked, "the store /home/u/tasks.sqlite is locked by another program")
        notifier.events = [.actionInvoked(NotificationID(rawValue: 1), actionKey: "done")]
        try session.handle([], at: at(300))
        #expect(notifier.bodies.last == "Done failed: the store is locked by another program · 17:00 · Home")
    }

    /// With the store gone, the reminder is shown again as it was shown: the store has nothing to
    /// show it from, and it was closed without a word.
    @Test func aFailedWriteOnAStoreThatIsGoneShowsTheReminderAgainAsItWas() throws {
        addTask("Pay rent", remindIn: 2, dueIn: 1980, inHome: true)
        var session = session()
        try session.start(at: at(0))
        try session.handle([], at: at(2))
        store.nextCheck = .failed(TaskWidgetError(.storeMissing, "the store /home/u/tasks.sqlite is gone"))
        try session.handle(.storeActivity, at: at(3))
        actions.failure = TaskWidgetError(.storeMissing, "the store /home/u/tasks.sqlite is gone")
        notifier.events = [.actionInvoked(NotificationID(rawValue: 1), actionKey: "done")]
        try session.handle([], at: at(5))
        #expect(notifier.summaries == ["Pay rent", "Pay rent"])
        #expect(notifier.bodies.last?.hasPrefix("Done failed: ") == true, "\(notifier.bodies)")
        #expect(notifier.bodies.last?.hasSuffix(" · 17:00 · Home") == true, "\(notifier.bodies)")
    }

    @Test func atDueAlsoNotifiesWhenATaskFallsDueButOnceWhenItsReminderIsThen() throws {
        addTask("Due only", remindIn: nil, dueIn: 60)
        addTask("Both at once", remindIn: 120, dueIn: 120)
        addTask("Reminded earlier", remindIn: 30, dueIn: 180)
        var session = session(ReminderSettings(atDue: true))
        try session.start(at: at(0))
        for time in [30.0, 60, 120, 180] { try session.handle([], at: at(time)) }
        #expect(notifier.summaries == ["Reminded earlier", "Due only", "Both at once", "Reminded earlier"])
        // The task's notification still on screen is replaced, not joined by a second one (helper-81).
        #expect(notifier.replaced == [nil, nil, nil, NotificationID(rawValue: 1)])  // the first post's
        // At the due time the task falls due now: it said "Overdue", critical.
        #expect(notifier.bodies[1] == "Due now · 16:28 · Inbox")
        #expect(notifier.posts[1].notification.urgency == .normal)

        notifier.showsPosts = false
        var without = self.session(storage: DeliveredRemindersInMemory())
        try without.start(at: at(0))
        try without.handle([], at: at(200))
        #expect(notifier.posts.count == 6, "without at-due: the two reminders only")
    }

    /// A task's reminder and due date both missed are one notification that says both: they came
    /// as two critical ones at once (helper-73). A restart shows neither again.
    @Test func aMissedReminderAndAMissedDueDateOfOneTaskAreOneNotification() throws {
        addTask("Pay rent", remindIn: -1200, dueIn: -600)
        var session = session(ReminderSettings(atDue: true))
        try session.start(at: at(0))
        #expect(notifier.summaries == ["Pay rent"])
        #expect(notifier.bodies == ["Missed reminder (16:07) · Overdue · 16:17 · Inbox"])
        var restarted = self.session(ReminderSettings(atDue: true))
        try restarted.start(at: at(1))
        #expect(notifier.summaries == ["Pay rent"])
    }

    /// So are a missed reminder and the 09:00 of a day alone before it: the due date came first,
    /// and said "Due today" only, the reminder missed since unsaid (helper-116).
    @Test func aMissedReminderAfterTheNineOClockOfADayAloneIsSaid() throws {
        addTask("Bins out", remindIn: -600, dueIn: 27_120)  // reminded 16:17, due 22 Nov (23:59)
        var session = session(ReminderSettings(atDue: true))
        try session.start(at: at(0))
        #expect(notifier.summaries == ["Bins out"])
        #expect(notifier.bodies == ["Missed reminder (16:17) · Today · Inbox"])
        var restarted = self.session(ReminderSettings(atDue: true))
        try restarted.start(at: at(1))
        #expect(notifier.summaries == ["Bins out"])
    }

    /// A task due on a day given without a time (kept as 23:59) falls due at 09:00 that day: it
    /// popped up at 23:59, when the day was over, as "Due now · 23:59" (helper-70).
    @Test func atDueNotifiesATaskDueOnADayAloneAtNineThatMorning() throws {
        addTask("Today", remindIn: nil, dueIn: 27_120)  // 22 Nov 23:59
        addTask("Tomorrow", remindIn: nil, dueIn: 113_520)  // 23 Nov 23:59
        var session = session(ReminderSettings(atDue: true))
        try session.start(at: at(0))
        #expect(notifier.summaries == ["Today"])
        #expect(session.entryDeadline == Self.instant(59_580))  // 23 Nov 09:00
        try session.handle([], at: at(59_580))
        #expect(notifier.summaries == ["Today", "Tomorrow"])
        #expect(notifier.bodies == ["Due today · Inbox", "Due today · Inbox"])
        #expect(notifier.posts.map(\.notification.urgency) == [.normal, .normal])
    }

    @Test func remindersWaitForAServerAndAreRecordedOnlyOnceShown() throws {
        addTask("Pay rent", remindIn: 2)
        notifier.showsPosts = false
        var session = session()
        try session.start(at: at(0))
        try session.handle([], at: at(2))
        #expect(notifier.posts.count == 1)
        #expect(storage.saves == 0)
        // Not posted twice while the first post waits.
        try session.handle(.refresh, at: at(3))
        #expect(notifier.posts.count == 1)
        notifier.events = [.serverAvailable]
        notifier.show(notifier.posts[0].post)
        try session.handle([], at: at(40))
        #expect(storage.saved.keys.count == 1)
    }

    /// More reminders than the notifier's queue holds while it waits for a server: the ones it
    /// drops were never shown, so they are not recorded, and are posted once a server is there
    /// (not at every wake-up before, which would drop others in turn).
    @Test func aReminderDroppedFromAFullQueueIsPostedWhenAServerIsThereAndOnlyThenRecorded() throws {
        addTask("First", remindIn: -60)
        addTask("Second", remindIn: -30)
        notifier.showsPosts = false
        var session = session()
        try session.start(at: at(0))
        #expect(notifier.summaries == ["First", "Second"])
        notifier.events = [.postDropped(notifier.posts[0].post)]
        try session.handle([], at: at(1))
        try session.handle(.refresh, at: at(2))
        #expect(notifier.posts.count == 2)
        #expect(storage.saved.keys.isEmpty)

        notifier.events = [.serverAvailable]
        notifier.show(notifier.posts[1].post)
        try session.handle([], at: at(3))
        #expect(notifier.summaries == ["First", "Second", "First"])
        notifier.show(notifier.posts[2].post)
        try session.handle([], at: at(4))
        #expect(storage.saved.keys.count == 2)
        // A restart shows neither again.
        var restarted = self.session(storage: DeliveredRemindersInMemory(storage.saved))
        try restarted.start(at: at(5))
        #expect(notifier.posts.count == 3)
    }

    /// A reminder that waited minutes for a server comes as missed, and overdue when its task is
    /// by then: the notifier reports such a post dropped when the server comes (before it says the
    /// server is there), and the reminder is posted again as it is now. It came as posted, due
    /// soon and not critical, two minutes late (helper-134).
    @Test func aReminderThatWaitedLongForAServerIsPostedAgainAsItIsThen() throws {
        addTask("Long wait", remindIn: 15, dueIn: 75)
        notifier.showsPosts = false
        var session = session()
        try session.start(at: at(0))
        try session.handle([], at: at(15))
        #expect(notifier.bodies == ["16:28 · Inbox"])
        notifier.events = [.postDropped(notifier.posts[0].post), .serverAvailable]
        notifier.showsPosts = true
        try session.handle([], at: at(160))
        #expect(notifier.bodies == ["16:28 · Inbox", "Missed reminder (16:27) · Overdue · 16:28 · Inbox"])
        #expect(notifier.posts.last?.notification.urgency == .critical)
        #expect(storage.saved.keys.count == 1)
    }

    /// A session that posted "Pay rent" (reminding at 2 s) to a server that does not show posts by
    /// itself; `refuse` refuses its latest post.
    func sessionPostingToARefusingServer() throws -> (session: NotifySession<FakeReminderSource>, task: UUID) {
        let task = addTask("Pay rent", remindIn: 2)
        notifier.showsPosts = false
        var session = session()
        try session.start(at: at(0))
        try session.handle([], at: at(2))
        return (session, task)
    }

    func refuse(_ session: inout NotifySession<FakeReminderSource>, at seconds: Double) throws {
        notifier.events = [.postFailed(notifier.posts.last!.post, reason: "org.freedesktop.Notifications.Error.Busy")]
        try session.handle([], at: at(seconds))
    }

    /// A post the server refuses (busy, a bus's limit of pending calls) is posted again a minute
    /// later, three times in all, and then recorded: recorded at once, it was lost (helper-100);
    /// never recorded, one the server always refuses would be posted at every wake-up.
    @Test func aPostTheServerRefusesIsTriedThreeTimes() throws {
        var (session, _) = try sessionPostingToARefusingServer()
        for (attempt, refusedAt) in [3.0, 64, 125].enumerated() {
            #expect(notifier.posts.count == attempt + 1)
            try refuse(&session, at: refusedAt)
            try session.handle(.refresh, at: at(refusedAt + 1))
            #expect(notifier.posts.count == attempt + 1, "not again within the minute")
            if attempt < 2 {
                #expect(session.entryDeadline == Self.instant(Int64(refusedAt) + 60))
                try session.handle([], at: at(refusedAt + 60))
            }
        }
        try session.handle(.refresh, at: at(600))
        #expect(notifier.posts.count == 3)
        #expect(storage.saved.keys.count == 1, "given up: recorded")
    }

    /// A refused reminder whose task is completed meanwhile is not posted again, and asks for no
    /// wake-up: a retry left behind set the next wake-up in the past, for good.
    @Test func aRefusedReminderOfATaskGoneIsNotTriedAgain() throws {
        var (session, rent) = try sessionPostingToARefusingServer()
        try refuse(&session, at: 3)
        #expect(session.entryDeadline == Self.instant(63))
        // While the post is in flight, its retry is no deadline either.
        try session.handle([], at: at(63))
        #expect(notifier.posts.count == 2)
        #expect(session.entryDeadline.map { $0 > Self.instant(63) } ?? true, "\(String(describing: session.entryDeadline))")
        try refuse(&session, at: 64)
        store.tasks.removeAll { $0.task.id == rent }
        try session.handle(.refresh, at: at(65))
        #expect(session.entryDeadline.map { $0 > Self.instant(124) } ?? true, "\(String(describing: session.entryDeadline))")
        try session.handle([], at: at(130))
        #expect(notifier.posts.count == 2)
    }

    /// A refused post that the next try shows is recorded then; one still refused when notify
    /// stops is not, so that the next start shows it, marked missed.
    @Test func aRefusedPostShownLaterIsRecordedThen() throws {
        var (session, _) = try sessionPostingToARefusingServer()
        try refuse(&session, at: 3)
        let afterRefusal = storage.saved
        #expect(afterRefusal.keys.isEmpty)
        try session.handle([], at: at(63))
        #expect(notifier.posts.count == 2)
        notifier.show(notifier.posts[1].post)
        try session.handle([], at: at(64))
        #expect(storage.saved.keys.count == 1)
        // Had notify stopped after the refusal, its next start would show the reminder, missed.
        var restarted = self.session(storage: DeliveredRemindersInMemory(afterRefusal))
        try restarted.start(at: at(300))
        #expect(notifier.posts.count == 3 && notifier.summaries.last == "Pay rent")
        #expect(notifier.bodies.last?.hasPrefix("Missed reminder") == true, "\(notifier.bodies)")
    }

    /// A notification server that restarts (dunst) loses what it showed: each reminder still on
    /// screen is shown again on the new one, as it was (no missed reminder), and its buttons work.
    @Test func aNewServerShowsAgainWhatTheOldOneShowedAndForgetsItsIds() throws {
        let rent = addTask("Pay rent", remindIn: 2)
        addTask("Call mom", remindIn: 3)
        var session = session()
        try session.start(at: at(0))
        try session.handle([], at: at(3))
        notifier.events = [.closed(NotificationID(rawValue: 2), .dismissed)]
        try session.handle([], at: at(5))
        notifier.events = [.serverUnavailable(.noServer), .serverAvailable]
        try session.handle([], at: at(600))
        #expect(notifier.summaries == ["Pay rent", "Call mom", "Pay rent"], "the one dismissed stays dismissed")
        #expect(notifier.bodies.last == notifier.bodies.first, "\(notifier.bodies)")
        // The old server's #1 may be another program's notification on the new one: not ours to close.
        notifier.events = [.actionInvoked(NotificationID(rawValue: 1), actionKey: "done")]
        try session.handle([], at: at(601))
        #expect(actions.completed.isEmpty && notifier.closed.isEmpty)
        notifier.events = [.actionInvoked(NotificationID(rawValue: 3), actionKey: "done")]
        try session.handle([], at: at(602))
        #expect(actions.completed == [rent])
    }

    /// notify stops: what is still on screen closes with it, so its reminders are not recorded
    /// as shown, and the next start shows them again as missed ones; one the user closed stays
    /// shown. Recorded, a reminder on screen at a restart was never seen again while its task
    /// stayed open (helper-172).
    @Test func aStopLeavesTheRemindersOnScreenToTheNextStart() throws {
        addTask("Pay rent", remindIn: 2)
        addTask("Call mom", remindIn: 3)
        for index in 0..<5 { addTask("Task \(index)", remindIn: Int64(-3600 + 60 * index)) }
        var first = session()
        try first.start(at: at(0))
        try first.handle([], at: at(1))
        #expect(notifier.summaries == ["Task 2", "Task 3", "Task 4", "2 more missed reminders"])
        try first.handle([], at: at(3))
        notifier.events = [.closed(NotificationID(rawValue: 5), .dismissed)]  // Pay rent, closed by the user
        try first.handle([], at: at(4))
        #expect(storage.saved.keys.count == 7)
        first.stop(at: at(5))
        #expect(storage.saved.keys.count == 1, "only the one closed by the user stays shown")
        var second = session(storage: DeliveredRemindersInMemory(storage.saved))
        try second.start(at: at(600))
        #expect(notifier.summaries.suffix(4) == ["Task 3", "Task 4", "Call mom", "3 more missed reminders"], "\(notifier.summaries)")
        #expect(!notifier.summaries.dropFirst(6).contains("Pay rent"))
    }

    /// The count of the reminders past the first three goes down as their tasks are done, and
    /// closes when none is left: it stayed at "5 more reminders" with all five done (helper-172).
    @Test func theCountGoesDownAsItsTasksAreDoneAndClosesAtNone() throws {
        let counted = (0..<5).map { addTask("Task \($0)", remindIn: Int64(-3600 + 60 * $0)) }
        var session = session()
        try session.start(at: at(0))
        try session.handle([], at: at(1))
        #expect(notifier.summaries == ["Task 2", "Task 3", "Task 4", "2 more missed reminders"])
        let countID = NotificationID(rawValue: 4)
        try change(counted[0], { $0.complete(at: Self.instant(2)) }, session: &session, at: 2)
        #expect(notifier.summaries.last == "1 more missed reminder" && notifier.replaced.last == countID)
        try change(counted[1], { $0.complete(at: Self.instant(3)) }, session: &session, at: 3)
        #expect(notifier.closed == [countID])
        #expect(notifier.posts.count == 5)
    }

    /// A server that restarts gets the count again, and the missed reminders are still said to
    /// be missed: the count was lost, and "Missed reminder (…)" too (helper-172).
    @Test func aNewServerShowsTheCountAgainAndMissedRemindersAsMissed() throws {
        for index in 0..<5 { addTask("Task \(index)", remindIn: Int64(-3600 + 60 * index)) }
        var session = session()
        try session.start(at: at(0))
        try session.handle([], at: at(1))
        notifier.events = [.serverUnavailable(.noServer), .serverAvailable]
        try session.handle([], at: at(2))
        #expect(Set(notifier.summaries.dropFirst(4)) == ["Task 2", "Task 3", "Task 4", "2 more missed reminders"], "\(notifier.summaries)")
        #expect(notifier.bodies.dropFirst(4).filter { $0.hasPrefix("Missed reminder") }.count == 3, "\(notifier.bodies)")
    }

    @Test func noSessionBusAtAllIsAnErrorButABusThatWentAwayIsWaitedFor() throws {
        var session = session()
        try session.start(at: at(0))
        notifier.hasConnected = false
        notifier.events = [.serverUnavailable(.noSessionBus("Could not connect: No such file or directory"))]
        let error = #expect(throws: TaskWidgetError.self) { try session.handle([], at: at(1)) }
        #expect(error?.code == .unavailable)
        #expect(error?.message.hasPrefix("cannot reach the D-Bus session bus (Could not connect") == true)
        notifier.hasConnected = true
        notifier.events = [.serverUnavailable(.busClosed), .serverUnavailable(.noSessionBus("gone"))]
        try session.handle([], at: at(2))
    }

    @Test func deliveredRemindersOlderThanMissedWithinAreForgotten() throws {
        addTask("Old", remindIn: 2)
        var session = session(ReminderSettings(missedWithin: 3600))
        try session.start(at: at(0))
        try session.handle([], at: at(2))
        #expect(storage.saved.keys.count == 1)
        addTask("New", remindIn: 7200)
        store.nextCheck = .changed
        try session.handle(.storeActivity, at: at(7000))
        try session.handle([], at: at(7200))
        #expect(storage.saved.keys.map(\.date) == [Self.instant(7200)])
    }
}
