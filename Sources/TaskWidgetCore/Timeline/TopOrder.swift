/// The order of the tasks a widget shows (SPEC §5): active tasks first, then the dated ones, then
/// undated; within each group by due date (overdue, due today, later: an order that does not
/// change as time passes, undated last), ties in ``TaskItem/precedes(_:_:)``'s order.
public enum TopOrder {
    /// The three groups, in order.
    public enum Group: Int, Sendable, Comparable, CaseIterable {
        case active, dated, undated

        public static func < (lhs: Group, rhs: Group) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    public static func group(of task: TaskItem) -> Group {
        task.state == .active ? .active : task.dueDate == nil ? .undated : .dated
    }

    public static func precedes(_ lhs: TaskItem, _ rhs: TaskItem) -> Bool {
        let (left, right) = (group(of: lhs), group(of: rhs))
        if left != right { return left < right }
        if lhs.dueDate != rhs.dueDate {
            return (lhs.dueDate?.millisecondsSince1970 ?? .max) < (rhs.dueDate?.millisecondsSince1970 ?? .max)
        }
        return TaskItem.precedes(lhs, rhs)
    }
}
