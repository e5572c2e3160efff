import TaskWidgetCore

extension OverdueRule {
    /// ``OverdueRule/isOverdue(dueDate:at:)`` in SQL, for an open task's `dueDate` column and the
    /// instant bound to `?`.
    static let sqlCondition = "dueDate <= ?"
}
