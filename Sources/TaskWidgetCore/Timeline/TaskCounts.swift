/// The counts of an entry (SPEC §5), each true for every instant of the entry's interval.
public struct TaskCounts: Sendable, Equatable, Hashable {
    /// Open tasks in scope.
    public var open: Int
    /// Open and due at or before the entry's date.
    public var overdue: Int
    /// Open and due later on the entry's local day.
    public var dueToday: Int
    /// Open and due within the hour, at some instant of the entry's interval.
    public var dueSoon: Int
    /// Completed during the entry's local day.
    public var completedToday: Int
    /// Open and in no list.
    public var inbox: Int

    public init(open: Int, overdue: Int, dueToday: Int, dueSoon: Int, completedToday: Int, inbox: Int) {
        self.open = open
        self.overdue = overdue
        self.dueToday = dueToday
        self.dueSoon = dueSoon
        self.completedToday = completedToday
        self.inbox = inbox
    }
}
