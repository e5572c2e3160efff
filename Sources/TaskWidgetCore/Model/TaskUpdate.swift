/// A task as a state change left it, and whether the change did anything: completing a completed
/// task, reopening an open one, stopping one not started or snoozing a completed one does not.
public struct TaskUpdate: Sendable, Equatable {
    /// The task as it is now.
    public var task: TaskItem
    /// Whether the change did anything (and was written).
    public var isChanged: Bool

    public init(task: TaskItem, isChanged: Bool) {
        self.task = task
        self.isChanged = isChanged
    }
}
