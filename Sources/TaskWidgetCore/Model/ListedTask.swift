/// A task with the list it belongs to (`nil` = Inbox), as `ls` and a widget show it.
public struct ListedTask: Sendable, Equatable {
    public var task: TaskItem
    public var list: TaskList?

    public init(task: TaskItem, list: TaskList?) {
        self.task = task
        self.list = list
    }
}
