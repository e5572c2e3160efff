/// A task before and after a state change: completing a completed task, reopening an open one,
/// stopping one not started or snoozing a completed one leaves it as it was.
public struct TaskUpdate: Sendable, Equatable {
    /// The task as it was.
    public var previous: TaskItem
    /// The task as it is now.
    public var task: TaskItem

    public init(previous: TaskItem, task: TaskItem) {
        self.previous = previous
        self.task = task
    }

    /// Whether the change did anything (and was written).
    public var isChanged: Bool { task != previous }

    /// Whether the change reopened a completed task (`start` does).
    public var isReopening: Bool { previous.isCompleted && !task.isCompleted }
}
