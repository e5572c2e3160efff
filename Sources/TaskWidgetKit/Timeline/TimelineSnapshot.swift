public import Foundation

/// Everything a timeline needs from the store, read in one transaction: the timeline itself never
/// touches the store. Instants are Unix milliseconds, as stored.
public struct TimelineSnapshot: Sendable, Equatable {
    /// `nil` for all tasks; the list's name, or `Inbox`, for a scoped widget.
    public var scopeTitle: String?
    /// How many open tasks are in scope, and how many of them have no list.
    public var openCount: Int
    public var inboxCount: Int
    /// How many open tasks in scope were due at or before now: overdue all through the timeline.
    public var overdueAtStart: Int
    /// The due instants of the open tasks in scope within the request's due window (after now,
    /// within three days), ascending.
    public var upcomingDueDates: [Int64]
    /// When the tasks in scope completed since the start of the timeline's first day, ascending.
    public var completionDates: [Int64]
    /// The open tasks that lead the widget's order (``TopOrder``), at most the request's top limit.
    public var leadingTasks: [ListedTask]
    /// The habits in creation order, and their records by day from the timeline's first day on.
    public var habits: [Habit]
    public var habitRecords: [UUID: [LocalDay: HabitStatus]]

    public init(
        scopeTitle: String?, openCount: Int, inboxCount: Int, overdueAtStart: Int, upcomingDueDates: [Int64],
        completionDates: [Int64],
        leadingTasks: [ListedTask], habits: [Habit], habitRecords: [UUID: [LocalDay: HabitStatus]]
    ) {
        self.scopeTitle = scopeTitle
        self.openCount = openCount
        self.inboxCount = inboxCount
        self.overdueAtStart = overdueAtStart
        self.upcomingDueDates = upcomingDueDates
        self.completionDates = completionDates
        self.leadingTasks = leadingTasks
        self.habits = habits
        self.habitRecords = habitRecords
    }

    /// The snapshot of a whole store held in memory (an export): for the placeholder and for tests
    /// that check the store's own queries against it.
    public init(_ export: StoreExport, request: TimelineRequest) throws {
        let scope = request.scope
        let listsByID = Dictionary(uniqueKeysWithValues: export.lists.map { ($0.id, $0) })
        var scopeList: TaskList?
        switch scope {
        case .all, .inbox: break
        case .list(let name):
            scopeList = try NameLookup.find(name, in: export.lists.sorted { $0.sortOrder < $1.sortOrder }, named: \.name, kind: "list")
        }
        let inScope = export.tasks.filter { task in
            switch scope {
            case .all: true
            case .inbox: task.listID == nil
            case .list: task.listID == scopeList?.id
            }
        }
        let open = inScope.filter { !$0.isCompleted }
        let dueDates = open.compactMap { $0.dueDate.map(StoredInstant.encode) }
        let window = request.dueWindow
        self.init(
            scopeTitle: Self.title(of: scope, list: scopeList),
            openCount: open.count,
            inboxCount: open.filter { $0.listID == nil }.count,
            overdueAtStart: dueDates.filter { $0 < window.lowerBound }.count,
            upcomingDueDates: dueDates.filter(window.contains).sorted(),
            completionDates: inScope.compactMap { $0.completedAt.map(StoredInstant.encode) }
                .filter { $0 >= request.firstDayStart }.sorted(),
            leadingTasks: open.sorted(by: TopOrder.precedes).prefix(request.topLimit).map {
                ListedTask(task: $0, list: $0.listID.flatMap { listsByID[$0] })
            },
            habits: export.habits.map(\.habit).sorted { ($0.createdAt, $0.id.uuidString) < ($1.createdAt, $1.id.uuidString) },
            habitRecords: Dictionary(uniqueKeysWithValues: export.habits.map { record in
                let recent = record.completions.filter { $0.day >= request.firstDay }
                return (record.habit.id, Dictionary(recent.map { ($0.day, $0.status) }, uniquingKeysWith: { first, _ in first }))
            }.filter { !$0.1.isEmpty }))
    }

    static func title(of scope: TaskScope, list: TaskList?) -> String? {
        switch scope {
        case .all: nil
        case .inbox: "Inbox"
        case .list: list?.name
        }
    }
}

/// The order of tasks in a widget (SPEC §5): active tasks first, then overdue, due today, later
/// (all three by due date, so the order does not change as time passes), then undated; ties by
/// sortOrder, createdAt, id.
public enum TopOrder {
    public static func precedes(_ lhs: TaskItem, _ rhs: TaskItem) -> Bool {
        let left = (lhs.state == .active ? 0 : lhs.dueDate == nil ? 2 : 1, lhs.dueDate ?? .distantFuture)
        let right = (rhs.state == .active ? 0 : rhs.dueDate == nil ? 2 : 1, rhs.dueDate ?? .distantFuture)
        if left != right { return left < right }
        return TaskItem.precedes(lhs, rhs)
    }
}
