/// The order of the tasks a widget shows, and so which task is `next` (``TimelineEntry/next``):
/// the task that falls due first leads. Dated tasks come first, by due date (so the overdue ones,
/// then those due today, then later ones); then the undated ones, active before not started. An
/// active task is shown as active but never goes ahead of a task due before it, so `next` is
/// always among the tasks the counts speak of when they speak of any. The order does not change
/// as time passes; ties in ``TaskItem/precedes(_:_:)``'s order.
public enum TopOrder {
    /// The three groups, in order.
    public enum Group: Int, Sendable, Comparable, CaseIterable {
        case dated, activeUndated, undated

        public static func < (lhs: Group, rhs: Group) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    public static func group(of task: TaskItem) -> Group {
        task.dueDate != nil ? .dated : task.state == .active ? .activeUndated : .undated
    }

    public static func precedes(_ lhs: TaskItem, _ rhs: TaskItem) -> Bool {
        let (left, right) = (group(of: lhs), group(of: rhs))
        if left != right { return left < right }
        if let leftDue = lhs.dueDate, let rightDue = rhs.dueDate, leftDue != rightDue { return leftDue < rightDue }
        return TaskItem.precedes(lhs, rhs)
    }
}
