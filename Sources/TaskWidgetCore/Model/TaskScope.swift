/// Which tasks a command or a widget looks at (SPEC §4 `scope`).
public enum TaskScope: Sendable, Equatable {
    /// Every task, in the Inbox and in every list.
    case all
    /// The tasks without a list.
    case inbox
    /// The tasks of the list with this name (case-insensitive).
    case list(String)

    /// The scope `--list name` means: the list's, or the Inbox's when `name` is `Inbox` (in any
    /// case), as `add --list Inbox` files a task there.
    public init(listNamed name: String) {
        self = TaskList.isInbox(name) ? .inbox : .list(name)
    }

    /// What a widget of this scope is titled: `nil` for all tasks, `Inbox`, or the list's name as
    /// stored (`list`, found by the caller).
    public func title(list: TaskList?) -> String? {
        switch self {
        case .all: nil
        case .inbox: "Inbox"
        case .list: list?.name
        }
    }
}
