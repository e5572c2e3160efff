import Foundation
import GRDB
public import TaskWidgetCore

extension TaskStore {
    /// Reads what a timeline needs in one read transaction, with queries whose cost does not grow
    /// with the number of completed tasks (they use the partial indexes on open tasks and on
    /// completion dates).
    public func timelineSnapshot(for request: TimelineRequest) throws -> TimelineSnapshot {
        let (scope, topLimit, now, window, firstDay) = (request.scope, request.topLimit, request.now, request.dueWindow, request.firstDay)
        return try read { db in
            // Every list is read once: the scope's list is found among them, and tasks show their list.
            let allLists = try TaskList.fetchAllInOrder(db)
            var list: TaskList?
            if case .list(let name) = scope {
                list = try TaskList.named(
                    name, in: allLists, creation: request.view.missingListAdvice, namingOthers: request.view.namesOtherLists)
            }
            var listFilter: String
            let listKey: String?  // the scope's openTaskCount.listKey
            var arguments: StatementArguments = []
            switch scope {
            case .all:
                (listFilter, listKey) = ("", nil)
            case .inbox:
                (listFilter, listKey) = (" AND listID IS NULL", "")
            case .list:
                (listFilter, listKey) = (" AND listID = ?", list!.id.lowercasedString)
                arguments = [listKey]
            }
            // The first task beyond a due horizon, which comes into the view later (helper-143).
            let nextTaskIntoView = try request.view.sqlConditionBeyondHorizon(at: now).flatMap { beyond in
                try Instant.fetchOne(
                    db, sql: "SELECT min(dueDate) FROM task WHERE isCompleted = 0\(listFilter)\(beyond.sql)", arguments: arguments + beyond.arguments)
            }.flatMap { due in request.view.dueWithin.map { due.adding(seconds: -$0) } }
            let view = request.view.sqlCondition(at: now)
            (listFilter, arguments) = (listFilter + view.sql, arguments + view.arguments)
            let open = "isCompleted = 0" + listFilter
            let counts = try openTaskCounts(
                db, open: open, arguments: arguments, listKey: listKey, byTable: !request.view.isFiltered, now: now)
            let dueDates = try Instant.fetchAll(
                db, sql: "SELECT dueDate FROM task WHERE \(open) AND dueDate BETWEEN ? AND ? ORDER BY dueDate",
                arguments: arguments + [window.lowerBound, window.upperBound])
            let completions = try Instant.fetchAll(
                db, sql: "SELECT completedAt FROM task WHERE completedAt >= ?\(listFilter) ORDER BY completedAt",
                arguments: [firstDay.start] + arguments)
            // The widget's order (TopOrder) puts dated tasks first by due date, then undated ones,
            // active before the others: every active task (they are few) and the first `topLimit`
            // dated and undated others are enough to find the first `topLimit` overall, which the
            // outer ORDER BY picks in TopOrder's order. The inner queries find rowids only, so that
            // one `*` is expanded (and each column it reads authorized by GRDB, about 10 k
            // instructions a column) instead of three, and only the tasks shown are read whole.
            let order = StoreOrdering.tasks
            let candidates = try TaskItem.fetchAll(
                db,
                sql: """
                    SELECT * FROM task WHERE rowid IN (
                        SELECT rowid FROM task WHERE \(open) AND state = 'active'
                        UNION ALL SELECT * FROM (SELECT rowid FROM task WHERE \(open) AND state != 'active' AND dueDate IS NOT NULL
                            ORDER BY dueDate, \(order) LIMIT \(topLimit))
                        UNION ALL SELECT * FROM (SELECT rowid FROM task WHERE \(open) AND state != 'active' AND dueDate IS NULL
                            ORDER BY \(order) LIMIT \(topLimit)))
                    ORDER BY dueDate IS NULL, dueDate, dueDate IS NULL AND state != 'active', \(order) LIMIT \(topLimit)
                    """,
                arguments: arguments + arguments + arguments)
            let lists = Dictionary(uniqueKeysWithValues: allLists.map { ($0.id, $0) })
            let habits = try Habit.fetchAllInOrder(db)
            let records = try HabitCompletion.fetchAll(
                db, sql: "SELECT * FROM \(HabitCompletion.databaseTableName) WHERE day >= ?", arguments: [firstDay.localDay.description])
            var habitRecords: [UUID: [LocalDay: HabitStatus]] = [:]
            for record in records { habitRecords[record.habitID, default: [:]][record.day] = record.status }
            return TimelineSnapshot(
                scopeTitle: request.view.title(list: list),
                openCount: counts.open, inboxCount: counts.inbox, overdueAtStart: counts.overdue,
                upcomingDueDates: dueDates, completionDates: completions,
                leadingTasks: candidates.sorted(by: TopOrder.precedes).prefix(topLimit).map {
                    ListedTask(task: $0, list: $0.listID.flatMap { lists[$0] })
                },
                habits: habits, habitRecords: habitRecords, nextTaskIntoView: nextTaskIntoView)
        }
    }

    /// Open tasks in scope (`open` filters them, with `arguments`; `listKey` names them in
    /// `openTaskCount`), those in no list, and those overdue at `now` (``OverdueRule/sqlCondition``).
    /// From `openTaskCount` when `byTable` (the view keeps all of its scope's tasks): the buckets
    /// wholly before now, plus the tasks of now's own bucket that are overdue. Otherwise, or in a
    /// store without that table, they are counted over the open-task index.
    private func openTaskCounts(
        _ db: Database, open: String, arguments: StatementArguments, listKey: String?, byTable: Bool, now: Instant
    ) throws -> (open: Int, inbox: Int, overdue: Int) {
        let overdue = OverdueRule.sqlCondition
        guard keepsOpenTaskCounts, byTable else {
            let row = try Row.fetchOne(
                db,
                sql: """
                    SELECT count(*), coalesce(sum(listID IS NULL), 0), coalesce(sum(\(overdue)), 0) FROM task WHERE \(open)
                    """,
                arguments: [now] + arguments)!
            return (row[0], row[1], row[2])
        }
        let bucket = now.millisecondsSince1970 >> Migrations.dueBucketShift
        let row = try Row.fetchOne(
            db,
            sql: """
                SELECT coalesce(sum(count), 0), coalesce(sum(CASE WHEN listKey = \(Migrations.inboxKey) THEN count END), 0),
                    coalesce(sum(CASE WHEN dueBucket < ? THEN count END), 0)
                    + (SELECT count(*) FROM task WHERE \(open) AND dueDate >= ? AND \(overdue))
                FROM openTaskCount\(listKey == nil ? "" : " WHERE listKey = ?")
                """,
            arguments: [bucket] + arguments + [bucket << Migrations.dueBucketShift, now] + (listKey.map { [$0] } ?? []))!
        return (row[0], row[1], row[2])
    }
}
