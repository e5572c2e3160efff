public import Foundation

/// Everything a timeline needs from the store, read in one transaction: the timeline itself never
/// touches the store.
public struct TimelineSnapshot: Sendable, Equatable {
    /// `nil` for all tasks; the view's name, the list's name or `Inbox` for a scoped widget.
    public var scopeTitle: String?
    /// How many open tasks are in scope, and how many of them have no list.
    public var openCount: Int
    public var inboxCount: Int
    /// How many open tasks in scope are overdue at the request's now: overdue all through the timeline.
    public var overdueAtStart: Int
    /// The due dates of the open tasks in scope within the request's ``TimelineRequest/dueWindow``,
    /// ascending.
    public var upcomingDueDates: [Instant]
    /// When the tasks in scope completed since the start of the timeline's first day, ascending.
    public var completionDates: [Instant]
    /// The open tasks that lead the widget's order (``TopOrder``), at most the request's top limit.
    public var leadingTasks: [ListedTask]
    /// The habits in their order, and their records by day from the timeline's first day on.
    public var habits: [Habit]
    public var habitRecords: [UUID: [LocalDay: HabitStatus]]
    /// For a view with a `due_within` horizon: when the first open task in scope beyond it comes
    /// within it (its due date minus the horizon), which the snapshot cannot show; `nil` without
    /// a horizon or such a task.
    public var nextTaskIntoView: Instant?

    public init(
        scopeTitle: String?, openCount: Int, inboxCount: Int, overdueAtStart: Int, upcomingDueDates: [Instant],
        completionDates: [Instant], leadingTasks: [ListedTask], habits: [Habit], habitRecords: [UUID: [LocalDay: HabitStatus]],
        nextTaskIntoView: Instant? = nil
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
        self.nextTaskIntoView = nextTaskIntoView
    }

    /// The snapshot of tasks, lists and habits held in memory, as the store's queries read it:
    /// for a preview with sample data, and for tests that check those queries against it.
    /// A list scope that names no list is a ``TaskWidgetError/Code/notFound`` error.
    public init(
        tasks: [TaskItem], lists: [TaskList], habits: [(habit: Habit, completions: [HabitCompletion])], request: TimelineRequest
    ) throws {
        let scope = request.scope
        let listsByID = Dictionary(uniqueKeysWithValues: lists.map { ($0.id, $0) })
        var scopeList: TaskList?
        if case .list(let name) = scope {
            scopeList = try TaskList.named(
                name, in: lists.sorted(by: TaskList.precedes), creation: request.view.missingListAdvice,
                namingOthers: request.view.namesOtherLists)
        }
        let scopeTasks = tasks.filter { task in
            switch scope {
            case .all: true
            case .inbox: task.listID == nil
            case .list: task.listID == scopeList?.id
            }
        }
        let inScope = scopeTasks.filter { request.view.includes($0, at: request.now) }
        let beyond = scopeTasks.filter { !$0.isCompleted && request.view.comesIntoView($0, at: request.now) }.compactMap(\.dueDate).min()
        let open = inScope.filter { !$0.isCompleted }
        let window = request.dueWindow
        let firstDay = request.firstDay
        self.init(
            scopeTitle: request.view.title(list: scopeList),
            openCount: open.count,
            inboxCount: open.filter { $0.listID == nil }.count,
            overdueAtStart: open.filter { $0.isOverdue(at: request.now) }.count,
            upcomingDueDates: open.compactMap(\.dueDate).filter(window.contains).sorted(),
            completionDates: inScope.compactMap(\.completedAt).filter { $0 >= firstDay.start }.sorted(),
            leadingTasks: open.sorted(by: TopOrder.precedes).prefix(request.topLimit).map {
                ListedTask(task: $0, list: $0.listID.flatMap { listsByID[$0] })
            },
            habits: habits.map(\.habit).sorted(by: Habit.precedes),
            habitRecords: Dictionary(uniqueKeysWithValues: habits.map { record in
                let recent = record.completions.filter { $0.day >= firstDay.localDay }
                return (record.habit.id, Dictionary(recent.map { ($0.day, $0.status) }, uniquingKeysWith: { first, _ in first }))
            }.filter { !$0.1.isEmpty }),
            nextTaskIntoView: beyond.flatMap { due in request.view.dueWithin.map { due.adding(seconds: -$0) } })
    }
}
