import GRDB
import TaskWidgetCore

/// The `ORDER BY` clauses of the model's orders, built from their fields, so that the store sorts
/// as Swift does (``TaskItem/precedes(_:_:)``, ``TaskList/precedes(_:_:)``, ``Habit/precedes(_:_:)``).
enum StoreOrdering {
    static let tasks = TaskItem.orderFields.joined(separator: ", ")
    static let lists = TaskList.orderFields.joined(separator: ", ")
    static let habits = Habit.orderFields.joined(separator: ", ")
}

// The records in their order, by plain SQL: a query-interface request makes GRDB read the schema
// first (for the region it observes), 1.5 M of `status`'s 44 M instructions.

extension TaskList {
    /// Every list, in the user's order.
    static func fetchAllInOrder(_ db: Database) throws -> [TaskList] {
        try fetchAll(db, sql: "SELECT * FROM \(databaseTableName) ORDER BY \(StoreOrdering.lists)")
    }
}

extension Habit {
    /// Every habit, in the user's order.
    static func fetchAllInOrder(_ db: Database) throws -> [Habit] {
        try fetchAll(db, sql: "SELECT * FROM \(databaseTableName) ORDER BY \(StoreOrdering.habits)")
    }
}
