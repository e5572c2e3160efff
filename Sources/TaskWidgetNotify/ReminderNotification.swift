public import TaskWidgetCore

/// What a reminder looks like on the desktop (SPEC §13): the task's title as the summary; the
/// body says when it is due and in which list, e.g. `17:00 · Home`, `Due now · 14:15 · Work` (in
/// the minute it falls due), `Due today · Work` (`--at-due`, on the morning of a day given without
/// a time), `Overdue · 14:15 · Inbox`, or for one shown late `Missed reminder
/// (09:00) · Tomorrow 10:00 · Work`; critical urgency when the task is overdue (after that
/// minute); the buttons Done and Snooze 10 min, and a click action when a `click_command` is
/// configured. A reminder shown again after a button failed starts with it:
/// `Done failed: the store is locked by another program · 17:00 · Home`. A task that repeats on a
/// sync server has neither Done nor Snooze: completing it here would complete the whole series
/// there, and snoozing it would move the whole series, so its body says to complete or snooze it
/// on the phone.
public struct ReminderNotification: Sendable {
    /// The action keys the notification carries, as ``NotifierEvent/actionInvoked(_:actionKey:)``
    /// brings them back.
    public enum Action: String, Sendable {
        case done
        case snooze
        /// A click on the notification's body (the freedesktop default action).
        case open = "default"

        /// What its button says.
        var label: String {
            switch self {
            case .done: "Done"
            case .snooze: "Snooze 10 min"
            case .open: "Open"
            }
        }

        /// Its button on a notification.
        var button: NotificationAction { NotificationAction(key: rawValue, label: label) }
    }

    /// A button that failed, and why in a few words (``TaskWidgetError/Code/summary``).
    public typealias FailedAction = (action: Action, reason: String)

    /// The end of the body of a task that repeats on a sync server, which has no Done and no
    /// Snooze button.
    public static let repeatsNote = "Repeats: complete or snooze it on the phone"

    public let labeler: DueLabeler
    /// Whether clicking the body does something (a `click_command` is configured).
    public let offersClick: Bool

    public init(calendar: LocalCalendar, offersClick: Bool) {
        self.labeler = DueLabeler(calendar: calendar)
        self.offersClick = offersClick
    }

    /// The notification for `reminder` shown at `now`; `missed` when it comes later than its
    /// date (notify was not running, the machine slept, the clock jumped); `failed` when it is
    /// shown again because a button of its last notification failed. A due date shown late is no
    /// missed reminder: its label (`Overdue · 14:15`) says it all.
    public func notification(for reminder: Reminder, at now: Instant, missed: Bool, failed: FailedAction? = nil) -> DesktopNotification {
        let task = reminder.item.task
        var parts: [String] = []
        if let failed { parts.append("\(failed.action.label) failed: \(failed.reason)") }
        if missed && reminder.kind == .reminder { parts.append("Missed reminder (\(labeler.timeLabel(for: reminder.date, at: now)))") }
        // At its due time (`--at-due`, or a reminder set then), the task falls due now: by the
        // overdue rule (due ≤ now) it is already overdue, but "Overdue", critical, would say late.
        // Not a day given alone, whose 23:59 is no time the user gave ("Due now · 23:59" in the
        // day's last minute, helper-81): it reads as `ls` reads it then.
        let isDueNow =
            task.dueDate.map { $0 <= now && now < $0.adding(seconds: 60) && !DueLabeler.isDayOnly($0, in: labeler.calendar.timeZone) } == true
        if isDueNow, let dueDate = task.dueDate {
            parts.append("Due now · " + labeler.timeLabel(for: dueDate, at: now))
        } else if reminder.kind == .due, let dueDate = task.dueDate, !task.isOverdue(at: now),
            DueLabeler.isDayOnly(dueDate, in: labeler.calendar.timeZone)
        {
            // Notified that morning (``ReminderSnapshot``): "Today" alone would not say why.
            parts.append("Due today")
        } else if let due = labeler.label(for: task, at: now) {
            parts.append(due)
        }
        parts.append(reminder.item.list?.name ?? "Inbox")
        if reminder.repeatsOnServer { parts.append(Self.repeatsNote) }
        var actions = reminder.repeatsOnServer ? [] : [Action.done.button, Action.snooze.button]
        if offersClick { actions.append(Action.open.button) }
        return DesktopNotification(
            summary: task.title, body: parts.joined(separator: " · "), urgency: task.isOverdue(at: now) && !isDueNow ? .critical : .normal,
            actions: actions)
    }
}
