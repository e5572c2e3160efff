import GRDB
import TaskWidgetCore

extension TaskView {
    /// ``TaskView/includes(_:at:)`` in SQL: what to AND onto a query of the scope's tasks at `now`,
    /// and its arguments.
    func sqlCondition(at now: Instant) -> (sql: String, arguments: StatementArguments) {
        var sql = activeOnly ? " AND state = '\(TaskState.active.rawValue)'" : ""
        var arguments: StatementArguments = []
        if let limit = dueLimit(at: now) {
            sql += " AND dueDate <= ?"
            arguments += [limit]
        }
        return (sql, arguments)
    }
}
