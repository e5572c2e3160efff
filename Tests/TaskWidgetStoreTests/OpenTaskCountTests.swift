import Foundation
import GRDB
import Testing

@testable import TaskWidgetCore
@testable import TaskWidgetStore
@testable import TaskWidgetTestSupport

/// `openTaskCount` (migration v3), which the triggers keep, always equals what a scan of the open
/// tasks says, whatever the writes; and a status read from it equals one read by scanning.
@Suite struct OpenTaskCountTests {
    static let zone = Fixed.zone("Europe/Berlin")
    static let now = Fixed.instant("2026-11-22T16:27:00+01:00")

    /// The table, and the same numbers computed from the tasks, as comparable text. The scan's
    /// bucket is written out here (2^26 ms, undated last), not taken from the migration, so that a
    /// wrong bucket in the triggers' SQL cannot agree with itself.
    static func tableAndScan(_ fixture: TemporaryStore) throws -> (table: [String], scan: [String]) {
        try fixture.store.database.read { db in
            let table = try Row.fetchAll(db, sql: "SELECT listKey, dueBucket, count FROM openTaskCount ORDER BY 1, 2")
            let scan = try Row.fetchAll(
                db,
                sql: """
                    SELECT coalesce(listID, ''), coalesce(dueDate >> 26, 9223372036854775807), count(*) FROM task
                    WHERE isCompleted = 0 GROUP BY 1, 2 ORDER BY 1, 2
                    """)
            let text = { (row: Row) in "\(row[0] as String) \(row[1] as Int64) \(row[2] as Int)" }
            return (table.map(text), scan.map(text))
        }
    }

    /// Random writes of every kind through the store's API, checked against a scan after each.
    @Test(arguments: UInt64(1)...12)
    func theTriggersKeepTheCountsThroughEveryKindOfWrite(seed: UInt64) throws {
        let fixture = try TemporaryStore()
        let store = fixture.store
        var random = SplitMix64(seed: seed)
        let start = Self.now.secondsSince1970
        try store.importing(RandomStore.make(seed: seed, now: start, zone: Self.zone, taskCount: 40...80), source: "seed.json")
        func anyDate() -> Instant { Self.now.adding(seconds: Int64(Int.random(in: -400_000...400_000, using: &random))) }
        func newList() -> String? { ["Home", "Work", "Errands", nil].randomElement(using: &random)! }
        func anyList() throws -> String? { try (store.listSummaries().map(\.list.name) + [nil]).randomElement(using: &random)! }
        for step in 0..<60 {
            let ids = try store.tasks(in: .all, includeCompleted: true).map { $0.task.id.uuidString }
            let id = ids.randomElement(using: &random)
            switch Int.random(in: 0..<9, using: &random) {
            case 0: _ = try store.addTask(NewTask(title: "t\(step)", dueDate: Bool.random(using: &random) ? anyDate() : nil, listName: newList(), createsList: true), now: Self.now)
            case 1: if let id { _ = try store.completeTasks([id], now: Self.now) }
            case 2: if let id { _ = try store.uncompleteTasks([id], now: Self.now) }
            case 3: if let id { _ = try store.editTask(id, TaskChanges(dueDate: Bool.random(using: &random) ? .set(anyDate()) : .clear), now: Self.now) }
            case 4: if let id { _ = try store.editTask(id, TaskChanges(list: try anyList().map { .set($0) } ?? .clear), now: Self.now) }
            case 5: if let id { _ = try store.deleteTasks([id], now: Fixed.instant("2026-11-22T12:00:00Z")) }
            case 6: if let id { _ = try store.startTasks([id], now: Self.now) }
            case 7:
                // Deleting a list deletes its tasks through the foreign key's cascade.
                if let name = try store.listSummaries().map(\.list.name).randomElement(using: &random) { _ = try store.deleteList(name, now: Fixed.instant("2026-11-22T12:00:00Z")) }
            default:
                // Import replaces tasks with the same id: an upsert, counted as an update.
                var export = try store.export()
                export.tasks = export.tasks.shuffled(using: &random).prefix(5).map { task in
                    var task = task
                    task.isCompleted.toggle()
                    task.state = task.isCompleted ? .completed : .notStarted
                    task.completedAt = task.isCompleted ? Self.now : nil
                    task.dueDate = Bool.random(using: &random) ? anyDate() : nil
                    return task
                }
                try store.importing(export, source: "again.json")
            }
            let (table, scan) = try Self.tableAndScan(fixture)
            #expect(table == scan, "seed \(seed), step \(step)")
            if table != scan { return }
        }
    }

    /// The same status, read from the table and by scanning a copy without it (as a reader sees a
    /// store that no writer has upgraded), for every scope at instants around bucket edges.
    @Test func theCountsFromTheTableEqualTheCountsFromAScan() throws {
        let fixture = try TemporaryStore()
        let start = Self.now.secondsSince1970
        try fixture.store.importing(RandomStore.make(seed: 99, now: start, zone: Self.zone, taskCount: 300...300), source: "seed.json")
        let lists = try fixture.store.listSummaries().map(\.list.name)
        let old = fixture.folder.path("old.sqlite")
        try fixture.store.database.writeWithoutTransaction { try $0.execute(sql: "VACUUM INTO ?", arguments: [old]) }
        let queue = try DatabaseQueue(path: old)
        try queue.write { db in
            try TemporaryStore.dropOpenTaskCounts(db)
            try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier = ?", arguments: [Migrations.openTaskCounts])
        }
        try queue.close()
        let counted = try fixture.reopen(mode: .readOnly)
        let scanned = try TemporaryStore.open(old, mode: .readOnly)
        #expect(counted.keepsOpenTaskCounts && !scanned.keepsOpenTaskCounts)
        let edge = (start * 1000 >> 26) << 26  // the start of now's bucket, in ms
        let instants = [start * 1000, edge, edge - 1, edge + 1, edge + (1 << 26), start * 1000 - 86_400_000].map { Instant(millisecondsSince1970: $0) }
        let scopes: [TaskScope] = [.all, .inbox] + lists.map { .list($0) }
        for instant in instants {
            for scope in scopes {
                let request = TL.request(now: instant, zone: Self.zone, scope: scope)
                let (a, b) = (try counted.timelineSnapshot(for: request), try scanned.timelineSnapshot(for: request))
                #expect(a.openCount == b.openCount && a.inboxCount == b.inboxCount && a.overdueAtStart == b.overdueAtStart, "\(scope) at \(instant)")
                #expect(a.openCount > 0)
            }
        }
    }
}
