import Foundation
import GRDB
import Testing

@testable import TaskWidgetCore
@testable import TaskWidgetStore
@testable import TaskWidgetTestSupport

/// The store's SQL forms of the rules agree with Core's one definition of each: the overdue
/// condition and the `ORDER BY` built from the orders' fields.
@Suite struct StoreRuleTests {
    /// A random store with ties on every field of the orders, and due dates with milliseconds.
    static func filledStore(seed: UInt64) throws -> (TemporaryStore, StoreExport) {
        let fixture = try TemporaryStore()
        let now = TL.seconds("2026-11-22T16:27:00+01:00")
        let export = RandomStore.make(seed: seed, now: now, zone: Fixed.zone("Europe/Berlin"), taskCount: 80...120)
        try fixture.store.importing(export, source: "random")
        return (fixture, try fixture.store.export())
    }

    @Test(arguments: [UInt64(1), 2, 3])
    func theSQLOverdueConditionCountsWhatTheRuleCounts(seed: UInt64) throws {
        let (fixture, export) = try Self.filledStore(seed: seed)
        let open = export.tasks.filter { !$0.isCompleted }
        for instant in open.compactMap(\.dueDate).prefix(40) + [Fixed.instant("2026-11-22T16:27:00+01:00")] {
            for probe in [instant, Instant(millisecondsSince1970: instant.millisecondsSince1970 - 1)] {
                let sql = try fixture.store.read { db in
                    try Int.fetchOne(db, sql: "SELECT count(*) FROM task WHERE isCompleted = 0 AND \(OverdueRule.sqlCondition)", arguments: [probe])
                }
                #expect(sql == open.filter { $0.isOverdue(at: probe) }.count, "at \(probe)")
            }
        }
    }

    @Test(arguments: [UInt64(4), 5])
    func theSQLOrdersSortAsTheModelsOrders(seed: UInt64) throws {
        let (fixture, export) = try Self.filledStore(seed: seed)
        let (tasks, lists, habits) = try fixture.store.read { db in
            (
                try TaskItem.order(sql: StoreOrdering.tasks).fetchAll(db), try TaskList.order(sql: StoreOrdering.lists).fetchAll(db),
                try Habit.order(sql: StoreOrdering.habits).fetchAll(db)
            )
        }
        #expect(tasks.map(\.id) == export.tasks.sorted(by: TaskItem.precedes).map(\.id))
        #expect(lists.map(\.id) == export.lists.sorted(by: TaskList.precedes).map(\.id))
        #expect(habits.map(\.id) == export.habits.map(\.habit).sorted(by: Habit.precedes).map(\.id))
        // Ties on sortOrder and createdAt are common, so the id decides some of the order.
        #expect(Set(tasks.map { "\($0.sortOrder) \($0.createdAt)" }).count < tasks.count)
    }
}
