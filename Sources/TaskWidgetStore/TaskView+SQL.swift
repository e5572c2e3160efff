import GRDB
import TaskWidgetCore

extension TaskView {
    /// ``TaskView/includes(_:at:)`` in SQL: what to AND onto a query of the scope's tasks at `now`,
    /// and its arguments.
    func sqlCondition(at now: Instant) -> (sql: String, arguments: StatementArguments) {
        guard let limit = dueLimit(at: now) else { return (activeCondition, []) }
        return (activeCondition + " AND dueDate <= ?", [limit])
    }

    /// ``TaskView/comesIntoView(_:at:)`` in SQL; `nil` for a view without a due horizon.
    func sqlConditionBeyondHorizon(at now: Instant) -> (sql: String, arguments: StatementArguments)? {
        dueLimit(at: now).map { (activeCondition + " AND dueDate > ?", [$0]) }
    }

    private var activeCondition: String { activeOnly ? " AND state = '\(TaskState.active.rawValue)'" : "" }
}
