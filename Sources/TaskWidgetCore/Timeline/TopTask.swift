public import Foundation

/// One of the tasks an entry shows, with what is true of it during the entry.
public struct TopTask: Sendable, Equatable, Hashable {
    public var id: UUID
    public var title: String
    public var listName: String?
    public var colorHex: String?
    public var dueDate: Instant?
    public var isOverdue: Bool
    public var state: TaskState
    /// `09:30`, `Tomorrow 09:00`, `Mon 24 Nov`, `Overdue · 17:00`; `nil` without a due date.
    public var dueLabel: String?
    /// When `taskwidget notify` reminds of the task; `nil` without a reminder.
    public var reminderDate: Instant?

    public init(
        id: UUID, title: String, listName: String?, colorHex: String?, dueDate: Instant?, isOverdue: Bool, state: TaskState,
        dueLabel: String?, reminderDate: Instant?
    ) {
        self.id = id
        self.title = title
        self.listName = listName
        self.colorHex = colorHex
        self.dueDate = dueDate
        self.isOverdue = isOverdue
        self.state = state
        self.dueLabel = dueLabel
        self.reminderDate = reminderDate
    }
}
