/// Which tasks a command, a bar or a widget shows (SPEC §4 `scope`, §14 views): a scope, and for a
/// view of config.toml (`[views.NAME]`) its name and what it keeps of the scope: only the tasks due
/// within a horizon of the moment they are read (overdue ones included), only the active ones, or
/// both. ``includes(_:at:)`` is the one statement of that rule; the store's SQL follows it.
///
/// ```swift
/// let soon = TaskView(name: "soon", scope: .list("Work"), dueWithin: 2 * 86_400)
/// soon.includes(task, at: now)  // true when the task (of Work) is due at or before now + 2 days
/// ```
public struct TaskView: Sendable, Equatable {
    /// The view's name in config.toml; `nil` for a scope given on the command line.
    public var name: String?
    public var scope: TaskScope
    /// `due_within`: only tasks with a due date at most this many seconds after now.
    public var dueWithin: Int64?
    /// `active = true`: only the tasks being worked on.
    public var activeOnly: Bool
    /// The command that keeps showing the view (`serve`, `watch`), for its advice when the list
    /// it was started with is gone (``followed(by:)``).
    public private(set) var follower: String?

    public init(name: String? = nil, scope: TaskScope = .all, dueWithin: Int64? = nil, activeOnly: Bool = false) {
        self.name = name
        self.scope = scope
        self.dueWithin = dueWithin
        self.activeOnly = activeOnly
    }

    /// Whether the view keeps only some of its scope's tasks.
    public var isFiltered: Bool { dueWithin != nil || activeOnly }

    /// What the error says to do when the list this view names is not there, for a view of
    /// config.toml, whose list the user may not remember naming, and for a list a follower was
    /// started with (``followed(by:)``); `nil` for a scope given on the command line otherwise
    /// (the error then says how to create a list).
    public var missingListAdvice: String? {
        guard case .list(let list) = scope else { return nil }
        guard let name else {
            // Checked at its start: the list was renamed or deleted since.
            return follower.map {
                "\($0) was started with --list \(list.removingControlCharacters.shellQuoted): if the list was renamed, restart \($0) with its new name"
            }
        }
        // A follower reads config.toml at its start only: a fixed view went unseen (helper-112).
        let fix = follower.map { "fix the view and restart \($0)" } ?? "fix the view"
        return "the view “\(name.sanitizedForMessage)” in config.toml names it: \(fix), or create the list with `taskwidget list add \(list.removingControlCharacters.shellQuoted)`"
    }

    /// Whether an error for its missing list may name the store's other lists: not on a line or
    /// page a follower shows, where a dashboard limited to one list named them all (helper-153).
    public var namesOtherLists: Bool { follower == nil }

    /// The view as `command` (`serve`, `watch`) keeps showing it: a list it was started with that
    /// goes later is advised about as such (the usual advice was to create a list).
    public func followed(by command: String) -> TaskView {
        var view = self
        view.follower = command
        return view
    }

    /// The latest due date the view keeps at `now`; `nil` when it keeps every due date.
    public func dueLimit(at now: Instant) -> Instant? {
        dueWithin.map { now.adding(seconds: $0) }
    }

    /// Whether `task`, one of its scope's, is left out at `now` by the due horizon alone, and so
    /// comes into the view later.
    public func comesIntoView(_ task: TaskItem, at now: Instant) -> Bool {
        guard let limit = dueLimit(at: now), let dueDate = task.dueDate else { return false }
        return dueDate > limit && (!activeOnly || task.state == .active)
    }

    /// Whether the view keeps `task`, one of its scope's, when the tasks are read at `now`.
    public func includes(_ task: TaskItem, at now: Instant) -> Bool {
        if activeOnly && task.state != .active { return false }
        if let limit = dueLimit(at: now) {
            guard let dueDate = task.dueDate, dueDate <= limit else { return false }
        }
        return true
    }

    /// What a widget of this view is titled: the view's name, else the scope's title.
    public func title(list: TaskList?) -> String? {
        name ?? scope.title(list: list)
    }
}
