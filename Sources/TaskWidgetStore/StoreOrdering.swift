import TaskWidgetCore

/// The `ORDER BY` clauses of the model's orders, built from their fields, so that the store sorts
/// as Swift does (``TaskItem/precedes(_:_:)``, ``TaskList/precedes(_:_:)``, ``Habit/precedes(_:_:)``).
enum StoreOrdering {
    static let tasks = TaskItem.orderFields.joined(separator: ", ")
    static let lists = TaskList.orderFields.joined(separator: ", ")
    static let habits = Habit.orderFields.joined(separator: ", ")
}
