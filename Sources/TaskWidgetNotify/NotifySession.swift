import Foundation
public import Logging
public import TaskWidgetConfig
public import TaskWidgetCore
public import TaskWidgetWatch
import TaskWidgetStore

/// What `taskwidget notify` does on each wake-up, as pure logic over the clock readings it is
/// given and the notifier's events (SPEC §13). It follows the store (``StoreFollowing``) and
/// shows each open task's reminder at its date, once:
///
/// - a reminder shown is recorded (``DeliveredReminderStorage``), so a restart never repeats it;
///   one dropped from the notifier's full queue while no server runs was not shown: it is posted
///   again once a server is there; one on screen when the server went away is shown again on
///   the next server; one the server refused is posted again a minute later, up to
///   ``maxRefusals`` times, and then recorded;
/// - one that comes more than ``ReminderSettings/lateness`` after its date (notify was not running, the
///   machine slept, the clock jumped) is shown once, marked missed, if it is no older than
///   `missed_within`; older ones are dropped;
/// - of more than ``shownAtOnce`` + 1 due at once (missed, or at the same moment), that many are
///   shown (the overdue first, then the latest), and the rest are one notification that counts
///   them, critical when it hides an overdue task (recorded once it is shown);
/// - a task completed, deleted or re-timed elsewhere has its pending reminder dropped or moved,
///   and its notification closed if it is still on screen;
/// - Done and Snooze 10 min write the store (``ReminderActions``) and close the notification
///   (a task that repeats on a sync server has neither); a click runs the `click_command`. A
///   button that fails shows the reminder again, saying so.
///
/// The ``FollowLoop`` arms its timers at ``entryDeadline`` (the next reminder) and
/// ``followUpDeadline`` (a debounced store check) after each call.
///
/// ```swift
/// let launcher = ShellCommandLauncher(logger: logger)
/// var session = NotifySession(source: source, notifier: notifier, actions: actions, storage: storage,
///                             launcher: launcher, calendar: calendar, settings: settings, logger: logger)
/// try FollowLoop.run(&session, clock: clock, storePath: path, options: .init(sources: [glib, launcher]), logger: logger)
/// ```
public struct NotifySession<Source: FollowedSource>: Follower where Source.Value == ReminderSnapshot {
    /// A notification posted for a reminder and not closed yet.
    private struct Posted {
        var post: PostID
        /// What it shows: shown again from this when the store cannot be read.
        var reminder: Reminder
        /// The server's id, once it showed it.
        var id: NotificationID?
        /// Being closed (after an action, or its task changed): gone once the server says so.
        var isClosing = false
        /// Posted as a missed reminder: shown so again on a new server.
        var missed = false
    }

    /// The notification that counts the reminders past ``shownAtOnce``: the reminders it stands
    /// for (recorded as shown once it is), and the server's id once shown, until it closes. It
    /// went untracked once shown: lost when the server restarted, never counted down as its tasks
    /// were done, and closed at a restart with its reminders recorded (helper-172).
    private struct Count {
        var post: PostID
        var id: NotificationID?
        var keys: Set<ReminderKey>
        var missed: Bool
        var hidingOverdue: Bool

        var notification: DesktopNotification { Self.notification(counting: keys.count, missed: missed, hidingOverdue: hidingOverdue) }

        /// `12 more missed reminders` (or `12 more reminders`, when some are due now), critical
        /// when one of their tasks is overdue.
        static func notification(counting number: Int, missed: Bool, hidingOverdue: Bool) -> DesktopNotification {
            DesktopNotification(
                summary: "\(number) more \(missed ? "missed " : "")reminder\(number == 1 ? "" : "s")", body: "taskwidget ls shows your tasks",
                urgency: hidingOverdue ? .critical : .normal)
        }
    }

    private var following: StoreFollowing<Source>
    private let notifier: any NotificationPosting
    private let actions: any ReminderActions
    private let storage: any DeliveredReminderStorage
    private let launcher: any CommandLauncher
    private let presentation: ReminderNotification
    private let settings: ReminderSettings
    private let logger: Logger

    private var delivered: DeliveredReminders
    private var deliveredChanged = false
    private var saveFailure: String?
    private var posted: [ReminderKey: Posted] = [:]
    /// Reminders dropped from the notifier's full queue: posted again when a server is there, not
    /// at every wake-up before (each post would drop another one from the queue).
    private var waitingForServer: Set<ReminderKey> = []
    /// Reminders whose post the server refused (busy, a bus's limit of pending calls): how often.
    /// Recorded as shown at once, they were lost (helper-100); never recorded, one a server always
    /// refuses would be posted at every wake-up.
    private var refused: [ReminderKey: Int] = [:]
    /// When each refused reminder waiting for its next post is posted again.
    private var retries: [ReminderKey: Instant] = [:]
    private var nextReminder: Instant?
    private var reportedFailure: String?
    private var count: Count?

    /// `clockSpeed` is the speed of the clock the instants come from (``WatchClock/speed``).
    /// Loads the delivered reminders from `storage`; a damaged or unreadable file is reported and
    /// started over.
    public init(
        source: Source, notifier: any NotificationPosting, actions: any ReminderActions, storage: any DeliveredReminderStorage,
        launcher: any CommandLauncher, calendar: LocalCalendar, settings: ReminderSettings, clockSpeed: Int64 = 1, logger: Logger
    ) {
        self.following = StoreFollowing(source: source, clockSpeed: clockSpeed, logger: logger)
        self.notifier = notifier
        self.actions = actions
        self.storage = storage
        self.launcher = launcher
        self.presentation = ReminderNotification(calendar: calendar, offersClick: settings.clickCommand != nil)
        self.settings = settings
        self.logger = logger
        do {
            delivered = try storage.load()
        } catch let error as TaskWidgetError where error.code == .invalidInput {
            logger.warning("starting without the delivered reminders: \(error.context ?? "their file") is damaged; recent ones may show again")
            delivered = DeliveredReminders()
        } catch {
            logger.warning("starting without the delivered reminders: \(Self.logDescription(error)); recent ones may show again")
            delivered = DeliveredReminders()
        }
    }

    /// The next reminder's date (or a refused one's next try), or when the snapshot must be read again.
    public var entryDeadline: Instant? {
        ([nextReminder, following.value?.window.upperBound].compactMap { $0 } + retries.values).min()
    }

    /// How often a reminder the server refuses is posted before it is recorded as shown.
    static var maxRefusals: Int { 3 }

    /// How many reminders due at once (missed ones at start or after a sleep, or many at one
    /// moment) are shown one by one; the rest, two or more, are counted in one notification.
    /// Hundreds of missed ones came as hundreds (helper-134), and 30 set for 09:00 as 30
    /// (helper-151).
    static var shownAtOnce: Int { 3 }

    /// The seconds between a refusal and the next post.
    static var refusalRetryDelay: Int64 { 60 }

    /// The monotonic instant (ns) of the next store check.
    public var followUpDeadline: Int64? { following.followUpDeadline }

    public mutating func start(at now: WatchInstant) throws {
        try handle(.refresh, at: now)
    }

    public mutating func handle(_ wake: FollowWake, at now: WatchInstant) throws {
        _ = following.handle(wake, at: now)
        let instant = now.wallInstant
        launcher.reapFinished()
        try takeEvents(at: instant)
        reportStoreFailure()
        if let snapshot = following.value {
            cancelWithdrawn(snapshot)
            deliverDue(snapshot, at: instant)
        } else {
            nextReminder = nil
        }
        // What the notifier reported while it was called (a post refused at once) has no wake-up of its own.
        try takeEvents(at: instant)
        saveDelivered(at: instant)
    }

    /// Notify stops: the notifications still on screen close with it (their buttons would reach
    /// no one), so their reminders are recorded as not shown, and the next start shows them again
    /// as missed ones. Recorded as shown, a reminder on screen at a restart (`systemctl --user
    /// restart`) was never seen again while its task stayed open (helper-172).
    public mutating func stop(at now: WatchInstant) {
        var onScreen = posted.filter { $0.value.id != nil && !$0.value.isClosing }.map(\.key)
        if count?.id != nil { onScreen += count?.keys ?? [] }
        for key in onScreen {
            delivered.remove(key)
            deliveredChanged = true
        }
        saveDelivered(at: now.wallInstant)
    }

    // MARK: - Reminders

    /// Posts every reminder that is due and not shown yet, and finds the next one.
    private mutating func deliverDue(_ snapshot: ReminderSnapshot, at now: Instant) {
        nextReminder = nil
        let oldest = now.adding(seconds: -settings.missedWithin)
        var postedNow: Set<UUID> = []
        var dueNow: [(reminder: Reminder, missed: Bool)] = []
        let reminders = snapshot.reminders(atDue: settings.atDue)
        // A refused reminder whose task no longer asks for it is not tried again.
        if !refused.isEmpty {
            let asked = Set(reminders.map(\.key))
            (refused, retries) = (refused.filter { asked.contains($0.key) }, retries.filter { asked.contains($0.key) })
        }
        // A task whose reminder is due now with its due date is posted once, by its reminder, whose
        // text says both: a day alone, due at 09:00, came first, and the reminder missed since
        // went unsaid ("Due today" only, helper-116).
        let remindedNow = Set(
            reminders.filter { reminder in
                reminder.kind == .reminder && reminder.key.date <= now && reminder.key.date >= oldest && !isHandled(reminder.key)
            }.map(\.key.taskID))
        for reminder in reminders {
            let key = reminder.key
            if isHandled(key) { continue }
            if let retry = retries[key] {
                if retry > now { continue }
                retries[key] = nil
            }
            if key.date > now {
                nextReminder = key.date
                break
            }
            guard key.date >= oldest else { continue }
            if reminder.kind == .due, remindedNow.contains(key.taskID), !postedNow.contains(key.taskID) {
                record(key)
                continue
            }
            // A task's reminder and due date both missed (notify was not running) are one
            // notification, whose body says both: they came as two, critical, at once (helper-73).
            guard postedNow.insert(key.taskID).inserted else {
                record(key)
                continue
            }
            dueNow.append((reminder, Self.isMissed(key, at: now)))
        }
        // The overdue first, then the latest: of many missed, the oldest came one by one, and an
        // overdue task's reminder went into the count (helper-151). One more is shown as itself:
        // a count of one takes its place (helper-141).
        let ranked = dueNow.indices.sorted { first, second in
            let (one, other) = (dueNow[first].reminder, dueNow[second].reminder)
            let (oneOverdue, otherOverdue) = (one.item.task.isOverdue(at: now), other.item.task.isOverdue(at: now))
            if oneOverdue != otherOverdue { return oneOverdue }
            return one.date != other.date ? one.date > other.date : first < second
        }
        let shown = ranked.count == Self.shownAtOnce + 1 ? ranked.count : Self.shownAtOnce
        // Posted in their order, so that the latest is on top.
        for index in ranked.prefix(shown).sorted() { post(dueNow[index].reminder, missed: dueNow[index].missed, at: now) }
        if ranked.count > shown {
            let counted = ranked.dropFirst(shown).map { dueNow[$0] }
            postSummary(
                of: Set(counted.map(\.reminder.key)), missed: counted.allSatisfy(\.missed),
                hidingOverdue: counted.contains { $0.reminder.item.task.isOverdue(at: now) })
        }
    }

    /// Posts the notification of `reminder`. A task's notification still on screen (its reminder,
    /// at its due time) is replaced: both stayed, the older one out of date (helper-81).
    private mutating func post(_ reminder: Reminder, missed: Bool, at now: Instant) {
        let key = reminder.key
        let onScreen = posted.first { $0.key.taskID == key.taskID && $0.value.id != nil && !$0.value.isClosing }
        let post = notifier.post(presentation.notification(for: reminder, at: now, missed: missed), replacing: onScreen?.value.id)
        if let onScreen { posted[onScreen.key] = nil }
        posted[key] = Posted(post: post, reminder: reminder, missed: missed)
        logger.debug(
            "posting a reminder",
            metadata: ["task": "\(key.taskID.shortID)", "kind": "\(reminder.kind.rawValue)", "missed": "\(missed)"])
    }

    /// Posts the notification that counts the reminders `keys` (two or more) (``Count``); while
    /// one waits for the server, it stands for these too, and one on screen counts them too.
    private mutating func postSummary(of keys: Set<ReminderKey>, missed: Bool, hidingOverdue: Bool) {
        guard var updated = count else {
            let post = notifier.post(Count.notification(counting: keys.count, missed: missed, hidingOverdue: hidingOverdue), replacing: nil)
            count = Count(post: post, id: nil, keys: keys, missed: missed, hidingOverdue: hidingOverdue)
            logger.info("posting one notification for \(keys.count) more reminders")
            return
        }
        updated.keys.formUnion(keys)
        (updated.missed, updated.hidingOverdue) = (updated.missed && missed, updated.hidingOverdue || hidingOverdue)
        if let id = updated.id { updated.post = notifier.post(updated.notification, replacing: id) }
        count = updated
    }

    /// Closes (or drops, while it waits for a server) the notification of every reminder its task
    /// no longer asks for: completed, deleted or re-timed by another process.
    private mutating func cancelWithdrawn(_ snapshot: ReminderSnapshot) {
        // The count goes down as its tasks are done, and closes at none.
        if var counted = count {
            let kept = counted.keys.filter { snapshot.stillAsks(for: $0, atDue: settings.atDue) != false }
            if kept.count != counted.keys.count {
                counted.keys = kept
                if kept.isEmpty {
                    if let id = counted.id { notifier.close(id) } else { notifier.withdraw(counted.post) }
                    count = nil
                } else {
                    if let id = counted.id { counted.post = notifier.post(counted.notification, replacing: id) }
                    count = counted
                }
            }
        }
        for (key, notification) in posted where !notification.isClosing && snapshot.stillAsks(for: key, atDue: settings.atDue) == false {
            notifier.withdraw(notification.post)
            // One on screen is gone when the server says so; one still waiting is dropped at once.
            if notification.id == nil { posted[key] = nil } else { posted[key]?.isClosing = true }
            logger.debug(
                "a reminder's task changed: withdrawing its notification",
                metadata: ["task": "\(key.taskID.shortID)", "notification": "\(notification.id.map(String.init(describing:)) ?? "none")"])
        }
    }

    // MARK: - The notifier's events

    private mutating func takeEvents(at now: Instant) throws {
        for event in notifier.takeEvents() {
            switch event {
            case .shown(let post, let id) where post == count?.post:
                count?.keys.forEach { record($0) }
                count?.id = id
                logger.debug("the count of \(count?.missed == true ? "missed " : "")reminders shown", metadata: ["notification": "\(id)"])
            case .postFailed(let post, _) where post == count?.post, .postDropped(let post) where post == count?.post:
                // Counted again at the next wake-up (a dropped one once a server is there).
                if case .postDropped = event { waitingForServer.formUnion(count?.keys ?? []) }
                count = nil
            case .closed(let id, let reason) where id == count?.id:
                count = nil
                logger.debug("the count notification closed (\(reason))", metadata: ["notification": "\(id)"])
            case .shown(let post, let id):
                guard let key = key(of: post) else { continue }
                posted[key]?.id = id
                refused[key] = nil
                record(key)
                logger.debug("reminder shown", metadata: ["task": "\(key.taskID.shortID)", "notification": "\(id)"])
            case .postFailed(let post, let reason):
                guard let key = key(of: post) else { continue }
                posted[key] = nil
                let count = (refused[key] ?? 0) + 1
                if count < Self.maxRefusals {
                    refused[key] = count
                    retries[key] = now.adding(seconds: Self.refusalRetryDelay)
                    logger.warning("a reminder could not be shown (\(reason)): trying again in a minute", metadata: ["task": "\(key.taskID.shortID)"])
                } else {
                    refused[key] = nil
                    record(key)
                    logger.warning(
                        "a reminder could not be shown (\(reason)), \(count) times: giving it up", metadata: ["task": "\(key.taskID.shortID)"])
                }
            case .postDropped(let post):
                guard let key = key(of: post) else { continue }
                posted[key] = nil
                waitingForServer.insert(key)
                logger.debug("a reminder waits for a notification server to be posted again", metadata: ["task": "\(key.taskID.shortID)"])
            case .actionInvoked(let id, let action):
                guard let key = key(of: id), posted[key]?.isClosing == false else { continue }
                posted[key]?.isClosing = true
                perform(action, for: key, at: now)
                // dunst, among others, leaves a notification open after an action.
                notifier.close(id)
            case .closed(let id, let reason):
                guard let key = key(of: id) else { continue }
                posted[key] = nil
                logger.debug("notification closed (\(reason))", metadata: ["task": "\(key.taskID.shortID)", "notification": "\(id)"])
            case .serverAvailable:
                // Ids of a server that went away mean nothing to the new one, and what it showed
                // went with it (dunst restarted): each is shown again on the new one, but those
                // being closed.
                waitingForServer.removeAll()
                for (key, notification) in posted where notification.id != nil {
                    if notification.isClosing {
                        posted[key] = nil
                    } else {
                        logger.debug("showing a reminder again on the new notification server", metadata: ["task": "\(key.taskID.shortID)"])
                        showAgain(key, at: now, missed: notification.missed)
                    }
                }
                if var shown = count, shown.id != nil {
                    (shown.id, shown.post) = (nil, notifier.post(shown.notification, replacing: nil))
                    count = shown
                }
            case .serverUnavailable(.noSessionBus(let reason)) where !notifier.hasConnected:
                throw TaskWidgetError(
                    .unavailable,
                    "cannot reach the D-Bus session bus (\(reason)): run notify in your desktop session, whose DBUS_SESSION_BUS_ADDRESS names a bus that runs",
                    context: "no session bus")
            case .serverUnavailable:
                break  // The notifier says so once; posts wait for a server.
            }
        }
    }

    private func key(of post: PostID) -> ReminderKey? {
        posted.first { $0.value.post == post }?.key
    }

    private func key(of id: NotificationID) -> ReminderKey? {
        posted.first { $0.value.id == id }?.key
    }

    /// Done, Snooze 10 min, or a click. One that fails (the store locked or gone) is logged, and
    /// the reminder is shown again in place of the notification, saying which button failed and
    /// why: closed as if it had worked, the failure went unnoticed. Done or Snooze on a task that
    /// came to repeat on a sync server after its notification was shown leaves it as it is, and
    /// shows the notification again as such a task's: without Done and Snooze.
    private mutating func perform(_ actionKey: String, for key: ReminderKey, at now: Instant) {
        let taskID = key.taskID
        let task: Logger.Metadata = ["task": "\(taskID.shortID)"]
        let action = ReminderNotification.Action(rawValue: actionKey)
        do {
            switch action {
            case .done:
                guard try actions.complete(taskID, at: now) else {
                    showAgainAsRepeating(key, at: now)
                    return
                }
                logger.debug("completed the task of a reminder", metadata: task)
            case .snooze:
                guard try actions.remind(taskID, at: now.adding(seconds: ReminderSettings.snooze), now: now) else {
                    showAgainAsRepeating(key, at: now)
                    return
                }
                logger.debug("snoozed a reminder for \(ReminderSettings.snooze) s", metadata: task)
            case .open:
                guard let command = settings.clickCommand else { return }
                try launcher.launch(command)
                logger.debug("started the click command", metadata: task)
            case nil:
                logger.debug("ignoring an unknown action", metadata: task)
            }
        } catch {
            logger.error("the action \(actionKey) failed: \(Self.logDescription(error))", metadata: task)
            guard let action else { return }
            let why = action == .open ? "the click command could not be started" : (error as? TaskWidgetError)?.code.summary ?? "an unexpected error"
            showAgain(key, at: now, failed: (action, why))
        }
    }

    /// Posts the reminder `key` again, as the notification of a task that repeats on a server.
    private mutating func showAgainAsRepeating(_ key: ReminderKey, at now: Instant) {
        logger.notice(
            "left a task that repeats on the server as it was; showing its reminder without Done and Snooze",
            metadata: ["task": "\(key.taskID.shortID)"])
        showAgain(key, at: now, repeatsOnServer: true)
    }

    /// Posts the reminder `key` again, to stand in for the notification whose button was pressed:
    /// as a task's that repeats on a server, or saying which button `failed` and why.
    private mutating func showAgain(
        _ key: ReminderKey, at now: Instant, missed: Bool = false, repeatsOnServer: Bool = false, failed: ReminderNotification.FailedAction? = nil
    ) {
        // As the store has it now, else as it was shown (a store that is gone has nothing).
        guard var reminder = following.value?.reminders(atDue: settings.atDue).first(where: { $0.key == key }) ?? posted[key]?.reminder
        else { return }
        if repeatsOnServer { reminder.repeatsOnServer = true }
        // After a button, seen already: however late it came, this is no missed reminder. On a
        // new server, as it was (it lost "Missed reminder", helper-172).
        let notification = presentation.notification(for: reminder, at: now, missed: missed, failed: failed)
        posted[key] = Posted(post: notifier.post(notification, replacing: nil), reminder: reminder, missed: missed)
    }

    /// Whether the reminder `key` shown at `now` comes late enough to be marked missed.
    private static func isMissed(_ key: ReminderKey, at now: Instant) -> Bool {
        key.date < now.adding(seconds: -ReminderSettings.lateness)
    }

    // MARK: - State

    /// Whether `key` is shown, on screen, counted in a summary not shown yet, or waiting for
    /// a notification server: nothing to post.
    private func isHandled(_ key: ReminderKey) -> Bool {
        delivered.contains(key) || posted[key] != nil || waitingForServer.contains(key) || count?.keys.contains(key) == true
    }

    private mutating func record(_ key: ReminderKey) {
        if delivered.insert(key) { deliveredChanged = true }
    }

    /// Writes the delivered reminders when they changed; a failure is reported once.
    private mutating func saveDelivered(at now: Instant) {
        guard deliveredChanged else { return }
        delivered.forget(before: now.adding(seconds: -settings.missedWithin))
        do {
            try storage.save(delivered)
            deliveredChanged = false
            saveFailure = nil
        } catch {
            let description = Self.logDescription(error)
            if description != saveFailure {
                logger.warning("cannot record the delivered reminders: \(description); a restart may show them again")
            }
            saveFailure = description
        }
    }

    /// Logs name a store failure by its code, never by its message, which may quote a list's name,
    /// and say what to do: notify goes on, and reads the store again once it can.
    private mutating func reportStoreFailure() {
        let failure = following.failure.map { "\($0.logDescription): notify waits for the store to be readable" + Self.advice(for: $0) }
        if let failure, failure != reportedFailure { logger.error("\(failure)") }
        reportedFailure = failure
    }

    private static func advice(for failure: TaskWidgetError) -> String {
        switch failure.code {
        // Named in the add that would create it, as ls says it (helper-149).
        case .storeMissing: ": " + (failure.context.map(TaskStore.missingStoreAdvice(at:)) ?? TaskStore.storePathAdvice)
        case .damagedStore: ": restore it from a backup, or pass another --store"
        case .storeVersion: ": run the taskwidget that wrote it, or a newer one"
        case .permissionDenied: ": check the permissions of the store and its folder"
        // A folder given as the store: it waited without a word of what to do (helper-134).
        case .notAFile: ": pass --store with the path of the store's file"
        default: ""
        }
    }

    private static func logDescription(_ error: any Error) -> String {
        (error as? TaskWidgetError)?.logDescription ?? "\(type(of: error))"
    }
}

extension ReminderSettings {
    /// The settings of the configuration's `[notify]` section; `atDue` (`--at-due`) adds to its `at_due`.
    public init(_ configured: NotifySettings, atDue: Bool) {
        self.init(missedWithin: configured.missedWithin, atDue: atDue || configured.atDue, clickCommand: configured.clickCommand)
    }
}

/// How reminders are delivered (the `[notify]` section of the configuration and `--at-due`).
public struct ReminderSettings: Sendable, Equatable {
    /// A missed reminder older than this (seconds) is not shown; at least ``lateness``, since a
    /// reminder less late than that is on time.
    public var missedWithin: Int64
    /// Also notify when a task falls due.
    public var atDue: Bool
    /// Run through `/bin/sh -c` when a notification's body is clicked.
    public var clickCommand: String?

    /// How far Snooze moves a reminder: 10 minutes from the click.
    public static var snooze: Int64 { 600 }
    /// A reminder shown more than this many seconds after its date is marked missed. A timer
    /// fires within milliseconds; the minute is the tolerance watch uses for clock jumps.
    public static var lateness: Int64 { 60 }

    public init(missedWithin: Int64 = 86_400, atDue: Bool = false, clickCommand: String? = nil) {
        // One bound for what is shown, what is read and what is remembered as delivered: with
        // "0s", a reminder the wake-up met a millisecond late was dropped, and one shown was
        // forgotten at once and shown again when dismissed.
        self.missedWithin = max(missedWithin, Self.lateness)
        self.atDue = atDue
        self.clickCommand = clickCommand
    }
}
