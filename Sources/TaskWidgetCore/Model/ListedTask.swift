/// A task with the list it belongs to (`nil` = Inbox), as `ls` and a widget show it.
public struct ListedTask: Sendable, Equatable {
    public var task: TaskItem
    public var list: TaskList?
    /// The id as `ls` shows it: ``Foundation/UUID/shortID``, longer when another task's id shares
    /// those 8 digits (``Foundation/UUID/distinguishingPrefix(among:)``).
    public var shownID: String

    public init(task: TaskItem, list: TaskList?, shownID: String? = nil) {
        self.task = task
        self.list = list
        self.shownID = shownID ?? task.id.shortID
    }
}
