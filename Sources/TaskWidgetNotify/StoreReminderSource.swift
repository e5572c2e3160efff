public import Logging
public import TaskWidgetCore
public import TaskWidgetStore
public import TaskWidgetWatch

/// Reads the reminders from the store, followed read-only as watch follows it (``FollowedStore``):
/// the open tasks with a reminder or due date from `missed_within` ago to a day ahead (due dates
/// two days, ``ReminderSnapshot/dueWindow(of:)``), and which
/// of them repeat on a sync server.
public struct StoreReminderSource: FollowedSource {
    private var followed: FollowedStore
    /// How old a missed reminder may be and still be shown, in seconds.
    public let missedWithin: Int64

    /// The user's calendar (``ReminderSnapshot/calendar``).
    public let calendar: LocalCalendar

    public init(location: StoreLocation, missedWithin: Int64, calendar: LocalCalendar, logger: Logger) {
        self.followed = FollowedStore(location: location, logger: logger)
        self.missedWithin = missedWithin
        self.calendar = calendar
    }

    public mutating func check() -> StoreCheck {
        followed.check()
    }

    public mutating func reopen() {
        followed.reopen()
    }

    public func read(at now: Instant) throws -> ReminderSnapshot {
        let window = ReminderSnapshot.window(at: now, missedWithin: missedWithin)
        let store = try followed.opened()
        let tasks = try store.openTasks(remindedIn: window, dueIn: ReminderSnapshot.dueWindow(of: window))
        return ReminderSnapshot(
            tasks: tasks, readAt: now, window: window, calendar: calendar,
            repeatingOnServer: try store.tasksRepeatingOnServer(tasks.map(\.task.id)))
    }

    public func isStale(_ snapshot: ReminderSnapshot, at now: Instant) -> Bool {
        snapshot.isStale(at: now)
    }
}
