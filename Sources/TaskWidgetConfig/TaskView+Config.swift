public import TaskWidgetCore
import TOMLKit

/// `[views.NAME]`: a named view (``TaskView``), which every display command takes as `--view NAME`.
///
/// ```toml
/// [views.work]
/// list = "Work"          # or inbox = true; all tasks otherwise
/// due_within = "2d"      # only tasks due within 2 days of now (overdue ones too)
/// active = true          # only the tasks being worked on
/// ```
extension TaskView {
    init(reader: ConfigReader) throws {
        try reader.allowKeys(["list", "inbox", "due_within", "active"])
        // Its keys commented out, it showed every task under its name without a word (helper-170).
        guard !reader.table.isEmpty else {
            throw reader.error(nil, "the view is empty: give it list, inbox, due_within or active (every task is the view all)")
        }
        let list = try reader.string("list")
        let inbox = try reader.bool("inbox") ?? false
        if list != nil && inbox { throw reader.error("inbox", "a view shows a list or the Inbox, not both") }
        self.init(
            name: reader.keyPath.last ?? "", scope: list.map(TaskScope.init(listNamed:)) ?? (inbox ? .inbox : .all),
            dueWithin: try reader.duration("due_within"), activeOnly: try reader.bool("active") ?? false)
    }
}

extension TaskView {
    /// The name that stands for all tasks in `--view` and `[watch] views`, unless a view takes it.
    public static let allName = "all"
}
