public import TaskWidgetCore

/// A named scope from the configuration (`[views.NAME]`), which every display command takes as
/// `--view NAME`: a list or the Inbox, optionally only the tasks due within a horizon of when the
/// timeline is made, or only the active ones.
///
/// ```toml
/// [views.work]
/// list = "Work"
/// active = true
/// ```
public struct View: Sendable, Equatable {
    public var name: String
    /// `list = "NAME"` or `inbox = true`; all tasks otherwise.
    public var scope: TaskScope
    /// `due_within = "2d"`: only tasks due within this many seconds.
    public var dueWithin: Int64?
    /// `active = true`: only the tasks being worked on.
    public var activeOnly: Bool

    public init(name: String, scope: TaskScope = .all, dueWithin: Int64? = nil, activeOnly: Bool = false) {
        self.name = name
        self.scope = scope
        self.dueWithin = dueWithin
        self.activeOnly = activeOnly
    }

    init(reader: ConfigReader) throws {
        try reader.allowKeys(["list", "inbox", "due_within", "active"])
        let list = try reader.string("list")
        let inbox = try reader.bool("inbox") ?? false
        if list != nil && inbox { throw reader.error("inbox", "a view shows a list or the Inbox, not both") }
        self.init(
            name: reader.keyPath.last ?? "", scope: list.map(TaskScope.list) ?? (inbox ? .inbox : .all),
            dueWithin: try reader.duration("due_within"), activeOnly: try reader.bool("active") ?? false)
    }
}
