public import Foundation
public import TaskWidgetCore

/// Which notification of which task: a task's reminder, or (with `at_due`) its falling due, at
/// one instant. A task whose reminder and due date coincide gets one notification, so the key is
/// the task and the instant, not the kind. Delivered reminders are remembered by their keys.
///
/// The instant is kept to the second: a sync writes a reminder set with milliseconds (a snooze, an
/// `--remind in 10m`) back in whole seconds, as CalDAV servers keep it, and the reminder shown
/// must stay the same one.
public struct ReminderKey: Sendable, Hashable, Comparable, Codable {
    public var taskID: UUID
    public var date: Instant

    public init(taskID: UUID, date: Instant) {
        self.taskID = taskID
        self.date = date.flooredToSecond
    }

    /// By date, then by task id: a stable order of keys (reminders of one moment are shown in the
    /// tasks' order, ``ReminderSnapshot/reminders(atDue:)``).
    public static func < (lhs: ReminderKey, rhs: ReminderKey) -> Bool {
        (lhs.date, lhs.taskID) < (rhs.date, rhs.taskID)
    }

    private enum CodingKeys: String, CodingKey {
        case taskID = "task"
        case date
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        taskID = try container.decode(UUID.self, forKey: .taskID)
        date = try container.decode(Instant.self, forKey: .date).flooredToSecond
    }

    /// Ids in lowercase, as taskwidget writes them everywhere.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(taskID.lowercasedString, forKey: .taskID)
        try container.encode(date, forKey: .date)
    }
}

/// One notification an open task asks for.
public struct Reminder: Sendable, Equatable {
    /// Why it is shown.
    public enum Kind: String, Sendable {
        /// The task's reminderDate.
        case reminder
        /// The task's dueDate (`--at-due`, `at_due = true`).
        case due
    }

    public var key: ReminderKey
    public var kind: Kind
    /// The task, with its list (`nil` = Inbox).
    public var item: ListedTask
    /// Whether its task repeats on a sync server: completing it here would complete the whole
    /// series there at the next sync.
    public var repeatsOnServer: Bool

    public var date: Instant { key.date }
}

/// The open tasks that have a reminder or a due date in a window around the instant they were
/// read: from `missed_within` before it (missed reminders) to a day after it (what is coming).
/// Read again past the window's end, so that an idle notify wakes at most once a day for it.
///
/// A task falls due (`--at-due`) at its due date, but one due on a day given without a time
/// (kept as 23:59) is notified at 09:00 that day, as a reminder given a day alone: at 23:59 the
/// day is over. Its due dates are read from ``dueWindow(of:)``, a day further ahead.
public struct ReminderSnapshot: Sendable {
    /// How far ahead a snapshot reaches, in seconds.
    public static let horizon: Int64 = 86_400

    public var tasks: [ListedTask]
    /// When the snapshot was read (the clock's reading).
    public var readAt: Instant
    /// The reminders and due dates it holds: every one in this window.
    public var window: ClosedRange<Instant>
    /// The tasks whose calendar object on a sync server repeats (the store's `tasksRepeatingOnServer`).
    public var repeatingOnServer: Set<UUID>
    /// The user's calendar: it tells a due date given as a day alone, and that day's morning.
    public var calendar: LocalCalendar

    public init(
        tasks: [ListedTask], readAt: Instant, window: ClosedRange<Instant>, calendar: LocalCalendar, repeatingOnServer: Set<UUID> = []
    ) {
        self.tasks = tasks
        self.readAt = readAt
        self.window = window
        self.calendar = calendar
        self.repeatingOnServer = repeatingOnServer
    }

    /// The window of a snapshot read at `now`.
    public static func window(at now: Instant, missedWithin: Int64) -> ClosedRange<Instant> {
        now.adding(seconds: -missedWithin)...now.adding(seconds: horizon)
    }

    /// The due dates a snapshot with `window` reads: a day further ahead, since a due date given
    /// as a day alone is notified that morning, up to 15 hours before it.
    public static func dueWindow(of window: ClosedRange<Instant>) -> ClosedRange<Instant> {
        window.lowerBound...window.upperBound.adding(seconds: 86_400)
    }

    /// When `--at-due` notifies a task due at `dueDate`: then, or at 09:00 that day for a date
    /// given as a day alone.
    public func fallsDue(_ dueDate: Instant) -> Instant {
        guard DueLabeler.isDayOnly(dueDate, in: calendar.timeZone) else { return dueDate }
        let morning = LocalCalendar.dayAloneReminderTime
        return calendar.instant(on: calendar.wallClock(of: dueDate).day, hour: morning.hour, minute: morning.minute) ?? dueDate
    }

    /// Past its window, or read after `now` (the clock went back): read it again.
    public func isStale(at now: Instant) -> Bool {
        now >= window.upperBound || now < readAt
    }

    /// Each notification the open tasks ask for in the window, by date: a reminder at every
    /// reminderDate, and with `atDue` one at every dueDate (one only when both coincide).
    public func reminders(atDue: Bool) -> [Reminder] {
        var byKey: [ReminderKey: Reminder] = [:]
        // Reminders of one moment in the tasks' order (as `ls` lists them), not by their ids.
        let order = Dictionary(tasks.enumerated().map { ($1.task.id, $0) }, uniquingKeysWith: { first, _ in first })
        for item in tasks where !item.task.isCompleted {
            let repeats = repeatingOnServer.contains(item.task.id)
            if let date = item.task.reminderDate, window.contains(date) {
                let key = ReminderKey(taskID: item.task.id, date: date)
                byKey[key] = Reminder(key: key, kind: .reminder, item: item, repeatsOnServer: repeats)
            }
            if atDue, let date = item.task.dueDate.map(fallsDue), window.contains(date) {
                let key = ReminderKey(taskID: item.task.id, date: date)
                if byKey[key] == nil { byKey[key] = Reminder(key: key, kind: .due, item: item, repeatsOnServer: repeats) }
            }
        }
        return byKey.values.sorted { ($0.key.date, order[$0.key.taskID] ?? 0) < ($1.key.date, order[$1.key.taskID] ?? 0) }
    }

    /// Whether the notification `key` still stands: its task is open and still has that reminder
    /// (or, with `atDue`, falls due then). `nil` when the snapshot cannot tell: the task is not in
    /// it and the key is older than the window (it may be open and unchanged).
    public func stillAsks(for key: ReminderKey, atDue: Bool) -> Bool? {
        guard let task = tasks.first(where: { $0.task.id == key.taskID })?.task else {
            return key.date < window.lowerBound ? nil : false
        }
        return !task.isCompleted
            && (task.reminderDate?.flooredToSecond == key.date || (atDue && task.dueDate.map(fallsDue)?.flooredToSecond == key.date))
    }
}
