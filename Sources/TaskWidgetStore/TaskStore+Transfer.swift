import Foundation
import GRDB
public import TaskWidgetCore

extension TaskStore {
    /// Everything in the store, in a stable order.
    public func export() throws -> StoreExport {
        try read { db in
            let completions = try HabitCompletion.order(Column("day")).fetchAll(db)
            let byHabit = Dictionary(grouping: completions, by: \.habitID)
            let lists = try TaskList.fetchAllInOrder(db)
            return StoreExport(
                lists: lists,
                tasks: try Self.orderedTasks(TaskItem.fetchAll(db), lists: lists),
                habits: try Habit.fetchAllInOrder(db).map { habit in
                    StoreExport.HabitRecord(
                        habit: habit,
                        completions: (byHabit[habit.id] ?? []).map { StoreExport.Completion(day: $0.day, status: $0.status) })
                })
        }
    }

    /// Adds everything in `export` to the store in one transaction. A task whose id is already in
    /// the store is merged with it by sync's rules (``TaskMerge``, SPEC §12): each field goes to
    /// the later edit and a completed task stays completed, so an old copy neither reopens a task
    /// nor replaces newer edits; a task deleted here after the file's copy was last edited stays
    /// deleted. Lists and habits whose id is already in the store are replaced. The whole
    /// document is checked first: one bad record changes nothing. Returns how many lists, tasks
    /// and habits the file holds.
    @discardableResult
    public func importing(_ export: StoreExport, source: String) throws -> (lists: Int, tasks: Int, habits: Int) {
        let export = try export.normalized(source: source)
        let counts = try write { db in
            // Names in the document are unique (checked above): a name clashes only with a store
            // record the document does not replace, so the store's names are read once.
            let importedListIDs = Set(export.lists.map(\.id))
            let importedHabitIDs = Set(export.habits.map(\.habit.id))
            let storeLists = try TaskList.fetchAll(db).filter { !importedListIDs.contains($0.id) }
            let storeHabits = try Habit.fetchAll(db).filter { !importedHabitIDs.contains($0.id) }
            for list in export.lists {
                let clash = storeLists.first { NameLookup.isSame($0.name, list.name) }
                if let clash {
                    throw TaskWidgetError(
                        .badImport, "\(source): the list “\(clash.name)” already exists in the store with another id: rename one of them first")
                }
                try list.upsert(db)
            }
            for task in export.tasks {
                if let listID = task.listID, try !TaskList.exists(db, key: listID.storedText) {
                    throw TaskWidgetError(.badImport, "\(source): task \(task.id.shortID) refers to a list that is not in the file or the store")
                }
                if let stored = try TaskItem.fetchOne(db, key: task.id.storedText) {
                    try TaskMerge.merge(stored: stored, incoming: task)?.update(db)
                } else if let deletedAt = try Instant.fetchOne(
                    db, sql: "SELECT deletedAt FROM taskTombstone WHERE taskID = ?", arguments: [task.id.storedText])
                {
                    let result = TaskMerge.merge(base: nil, local: .deleted(at: deletedAt), remote: .present(TaskFields(task)))
                    if case .write = result.local {
                        try task.insert(db)
                        try db.execute(sql: "DELETE FROM taskTombstone WHERE taskID = ?", arguments: [task.id.storedText])
                    }
                } else {
                    try task.insert(db)
                }
            }
            for record in export.habits {
                let clash = storeHabits.first { NameLookup.isSame($0.name, record.habit.name) }
                if let clash {
                    throw TaskWidgetError(
                        .badImport, "\(source): the habit “\(clash.name)” already exists in the store with another id: rename one of them first")
                }
                try record.habit.upsert(db)
                for completion in record.completions {
                    try HabitCompletion(habitID: record.habit.id, day: completion.day, status: completion.status).upsert(db)
                }
            }
            return (export.lists.count, export.tasks.count, export.habits.count)
        }
        Self.emptyTheWAL(of: database)
        return counts
    }
}

