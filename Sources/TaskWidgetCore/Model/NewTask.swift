/// A task to create: the title and optional fields as the user gave them.
public struct NewTask: Sendable {
    public var title: String
    public var dueDate: Instant?
    public var reminderDate: Instant?
    /// The list's name; `nil` puts the task in the Inbox.
    public var listName: String?
    /// Whether a list called `listName` is created when there is none; else an unknown name is an
    /// error that suggests the closest list (a typo must not make a list).
    public var createsList: Bool

    public init(
        title: String, dueDate: Instant? = nil, reminderDate: Instant? = nil, listName: String? = nil, createsList: Bool = false
    ) {
        self.title = title
        self.dueDate = dueDate
        self.reminderDate = reminderDate
        self.listName = listName
        self.createsList = createsList
    }
}
