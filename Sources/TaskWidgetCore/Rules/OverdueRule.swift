/// Overdue = not completed and due at or before an instant (SPEC §2): the one definition, which
/// ``TaskItem/isOverdue(at:)``, the timeline's counts and crossings, and the store's SQL follow.
public enum OverdueRule {
    /// Whether an open task due at `dueDate` is overdue at `instant`.
    public static func isOverdue(dueDate: Instant, at instant: Instant) -> Bool {
        dueDate <= instant
    }

    /// How many of `dueDates` (ascending) are overdue at `instant`.
    public static func count(in dueDates: [Instant], at instant: Instant) -> Int {
        var (low, high) = (0, dueDates.count)
        while low < high {
            let middle = (low + high) / 2
            if isOverdue(dueDate: dueDates[middle], at: instant) { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// The first whole second at which a task due at `dueDate` is overdue: timeline entries fall on
    /// whole seconds, and a task due at 17:07:00.250 is overdue from 17:07:01 on.
    public static func onset(of dueDate: Instant) -> Instant {
        dueDate.ceiledToSecond
    }
}
