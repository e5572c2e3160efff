public import Foundation

/// A task, as the seeds' SchemaV1 defines it; the list is referenced by id (`nil` = Inbox).
public struct TaskItem: Codable, Sendable, Equatable, Identifiable {
    public var id: UUID
    public var title: String
    public var isCompleted: Bool
    public var state: TaskState
    public var dueDate: Instant?
    public var reminderDate: Instant?
    public var createdAt: Instant
    public var modifiedAt: Instant
    public var completedAt: Instant?
    /// The list the task belongs to; `nil` means the Inbox.
    public var listID: UUID?
    public var sortOrder: Int

    public init(
        id: UUID = .random(), title: String, dueDate: Instant? = nil, reminderDate: Instant? = nil,
        listID: UUID? = nil, sortOrder: Int = 0, createdAt: Instant
    ) {
        self.id = id
        self.title = title
        self.isCompleted = false
        self.state = .notStarted
        self.dueDate = dueDate
        self.reminderDate = reminderDate
        self.createdAt = createdAt
        self.modifiedAt = createdAt
        self.completedAt = nil
        self.listID = listID
        self.sortOrder = sortOrder
    }

    /// Marks the task completed at `now`. Completing twice is not an error: the first completion
    /// time is kept.
    public mutating func complete(at now: Instant) {
        guard !isCompleted else { return }
        isCompleted = true
        state = .completed
        completedAt = now
        modifiedAt = now
    }

    /// Reopens a completed task (the inverse of ``complete(at:)``); an open task is left as is.
    public mutating func uncomplete(at now: Instant) {
        guard isCompleted else { return }
        isCompleted = false
        state = .notStarted
        completedAt = nil
        modifiedAt = now
    }

    /// Marks the task as being worked on; a completed task is reopened.
    public mutating func start(at now: Instant) {
        uncomplete(at: now)
        guard state != .active else { return }
        state = .active
        modifiedAt = now
    }

    /// Puts an active task back to `notStarted`.
    public mutating func stop(at now: Instant) {
        guard state == .active else { return }
        state = .notStarted
        modifiedAt = now
    }

    /// Moves the due date and the reminder later by `amount` (days and weeks as calendar days,
    /// which keep the wall-clock time across a change of clocks, as `in 1d` does), counted from
    /// `now` when they have passed, so that the task is neither overdue nor reminded of for that
    /// long; a task with neither gets a reminder `amount` from now. A due date given as a day
    /// alone (``DueLabeler/isDayOnly(_:in:)``) stays one: it ends on the first day that ends at or
    /// after the moved instant (snoozed for an hour at 23:30, on the next day: it was overdue
    /// again at 23:59, helper-132). A completed task is left as it is.
    public mutating func snooze(by amount: TimeAmount, at now: Instant, in calendar: LocalCalendar) {
        guard !isCompleted else { return }
        if dueDate == nil && reminderDate == nil {
            reminderDate = amount.moving(now, in: calendar)
        } else {
            dueDate = dueDate.map { dueDate in
                let moved = amount.moving(max(dueDate, now), in: calendar)
                guard DueLabeler.isDayOnly(dueDate, in: calendar.timeZone) else { return moved }
                let day = calendar.localDay(containing: moved)
                guard let end = calendar.dayAlone(day) else { return moved }
                return end >= moved ? end : calendar.dayAlone(day.adding(days: 1)) ?? moved
            }
            reminderDate = reminderDate.map { amount.moving(max($0, now), in: calendar) }
        }
        modifiedAt = now
    }

    /// Whether the task is overdue at `instant` (``OverdueRule``).
    public func isOverdue(at instant: Instant) -> Bool {
        guard !isCompleted, let dueDate else { return false }
        return OverdueRule.isOverdue(dueDate: dueDate, at: instant)
    }

    /// The stored fields that order tasks everywhere, compared in turn: sortOrder, then createdAt,
    /// then id for a total order (SPEC §2). The store builds its `ORDER BY` from them.
    public static let orderFields = ["sortOrder", "createdAt", "id"]

    /// The order of ``orderFields``.
    public static func precedes(_ lhs: TaskItem, _ rhs: TaskItem) -> Bool {
        (lhs.sortOrder, lhs.createdAt.millisecondsSince1970, lhs.id)
            < (rhs.sortOrder, rhs.createdAt.millisecondsSince1970, rhs.id)
    }
}
