import GRDB
public import TaskWidgetCore

extension TaskStore {
    /// The open tasks whose reminder falls in `reminders` or whose due date falls in `dues`, with
    /// their lists, in no particular order: what `taskwidget notify` schedules from. It reads the
    /// open tasks only (the partial indexes on open tasks), so completed tasks cost nothing.
    public func openTasks(remindedIn reminders: ClosedRange<Instant>, dueIn dues: ClosedRange<Instant>) throws -> [ListedTask] {
        try read { db in
            let tasks = try TaskItem.fetchAll(
                db,
                sql: """
                    SELECT * FROM task WHERE isCompleted = 0
                        AND (reminderDate BETWEEN ? AND ? OR dueDate BETWEEN ? AND ?)
                    """,
                arguments: [reminders.lowerBound, reminders.upperBound, dues.lowerBound, dues.upperBound])
            guard !tasks.isEmpty else { return [] }
            let lists = Dictionary(uniqueKeysWithValues: try TaskList.fetchAll(db).map { ($0.id, $0) })
            return tasks.map { ListedTask(task: $0, list: $0.listID.flatMap { lists[$0] }) }
        }
    }
}
