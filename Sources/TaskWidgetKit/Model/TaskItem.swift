public import Foundation

/// Where a task is in its life (seed 003: `notStarted`, `active`, `completed`).
public enum TaskState: String, Codable, Sendable, CaseIterable {
    case notStarted
    case active
    case completed
}

/// A task, as the seeds' SchemaV1 defines it; the list is referenced by id (`nil` = Inbox).
public struct TaskItem: Codable, Sendable, Equatable, Identifiable {
    public var id: UUID
    public var title: String
    public var isCompleted: Bool
    public var state: TaskState
    public var dueDate: Date?
    public var reminderDate: Date?
    public var createdAt: Date
    public var modifiedAt: Date
    public var completedAt: Date?
    /// The list the task belongs to; `nil` means the Inbox.
    public var listID: UUID?
    public var sortOrder: Int

    public init(
        id: UUID = UUID(), title: String, dueDate: Date? = nil, reminderDate: Date? = nil,
        listID: UUID? = nil, sortOrder: Int = 0, createdAt: Date
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
    public mutating func complete(at now: Date) {
        guard !isCompleted else { return }
        isCompleted = true
        state = .completed
        completedAt = now
        modifiedAt = now
    }

    /// Reopens a completed task (the inverse of ``complete(at:)``); an open task is left as is.
    public mutating func uncomplete(at now: Date) {
        guard isCompleted else { return }
        isCompleted = false
        state = .notStarted
        completedAt = nil
        modifiedAt = now
    }

    /// Marks the task as being worked on; a completed task is reopened.
    public mutating func start(at now: Date) {
        uncomplete(at: now)
        guard state != .active else { return }
        state = .active
        modifiedAt = now
    }

    /// Puts an active task back to `notStarted`.
    public mutating func stop(at now: Date) {
        guard state == .active else { return }
        state = .notStarted
        modifiedAt = now
    }

    /// Overdue = not completed and due at or before `instant` (SPEC §2).
    public func isOverdue(at instant: Date) -> Bool {
        guard !isCompleted, let dueDate else { return false }
        return dueDate <= instant
    }

    /// The order of tasks everywhere: sortOrder, then createdAt, then id for a total order.
    public static func precedes(_ lhs: TaskItem, _ rhs: TaskItem) -> Bool {
        if lhs.sortOrder != rhs.sortOrder { return lhs.sortOrder < rhs.sortOrder }
        if lhs.createdAt != rhs.createdAt { return lhs.createdAt < rhs.createdAt }
        return lhs.id.uuidString < rhs.id.uuidString
    }
}
