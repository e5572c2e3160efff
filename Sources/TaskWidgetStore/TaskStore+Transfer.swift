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
    /// the later edit and a task completed in either copy stays completed, so an old copy neither
    /// reopens a task nor replaces newer edits, but completes again a task reopened since (without
    /// a base, a reopen cannot be told from a copy that never saw the completion); a task deleted
    /// here after the file's copy was last edited stays deleted. Lists and habits whose id is
    /// already in the store are replaced. The whole document is checked first: one bad record
    /// changes nothing. Returns what the file holds and what became of its tasks. `progress` is
    /// told the tasks merged so far and their total, every ``progressStep`` tasks and at the end.
    @discardableResult
    public func importing(
        _ export: StoreExport, source: String, progress: (@Sendable (_ done: Int, _ total: Int) -> Void)? = nil
    ) throws -> ImportSummary {
        let export = try export.normalized(source: source)
        let summary = try write { db in
            var summary = ImportSummary(lists: export.lists.count, tasks: export.tasks.count, habits: export.habits.count)
            // Names in the document are unique (checked above): a name clashes only with a store
            // record the document does not replace, so the store's names are read once.
            let importedListIDs = Set(export.lists.map(\.id))
            let importedHabitIDs = Set(export.habits.map(\.habit.id))
            let allStoreLists = try TaskList.fetchAll(db)
            let storeLists = allStoreLists.filter { !importedListIDs.contains($0.id) }
            let allStoreHabits = try Habit.fetchAll(db)
            let storeHabits = allStoreHabits.filter { !importedHabitIDs.contains($0.id) }
            // Checked before anything is written: found after every task, a clash failed an import
            // of 50 000 tasks after 10 s, which other writers waited for, and named one (helper-114).
            try Self.refuseClashes(
                lists: export.lists.filter { list in storeLists.contains { NameLookup.isSame($0.name, list.name) } }.map(\.name),
                habits: export.habits.filter { record in storeHabits.contains { NameLookup.isSame($0.name, record.habit.name) } }.map(\.habit.name),
                source: source)
            let knownListIDs = importedListIDs.union(allStoreLists.map(\.id))
            if let (index, task) = export.tasks.enumerated().first(where: { $0.element.listID.map { !knownListIDs.contains($0) } ?? false }) {
                let others = export.tasks.count { $0.listID.map { !knownListIDs.contains($0) } ?? false } - 1
                throw TaskWidgetError(
                    .badImport,
                    "\(source): tasks[\(index)] (task \(task.id.shortID)) is in the list \(task.listID?.lowercasedString ?? ""), which is not in the file or the store"
                        + (others > 0 ? " (nor are the lists of \(counted(others, "other task")))" : ""))
            }
            // The records the file replaces first give up their names, which the file may give to
            // others (a list renamed, then another made with its old name; two names swapped). An
            // upsert meeting a name still taken would update the record that holds it instead.
            try Self.releaseNames(of: importedListIDs, in: TaskList.databaseTableName, db)
            try Self.releaseNames(of: importedHabitIDs, in: Habit.databaseTableName, db)
            // What the file's copies change is said: they have no edit times, and an older backup
            // took back renames, colors and checked days without a word (helper-129).
            let listsByID = Dictionary(allStoreLists.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            summary.listsChanged = export.lists.count { list in listsByID[list.id].map { $0 != list } ?? false }
            for list in export.lists { try list.upsert(db) }
            // Prepared once for every task (each preparation is authorized column by column).
            let storedTask = try db.cachedStatement(sql: "SELECT * FROM task WHERE id = ?")
            let tombstone = try db.cachedStatement(sql: "SELECT deletedAt FROM taskTombstone WHERE taskID = ?")
            for (index, task) in export.tasks.enumerated() {
                if index % Self.progressStep == 0 { progress?(index, export.tasks.count) }
                if let stored = try TaskItem.fetchOne(storedTask, arguments: [task.id.lowercasedString]) {
                    if let merged = TaskMerge.merge(stored: stored, incoming: task), merged != stored {
                        try merged.update(db)
                        summary.updated += 1
                    } else {
                        summary.unchanged += 1
                    }
                } else if let deletedAt = try Instant.fetchOne(tombstone, arguments: [task.id.lowercasedString]) {
                    let result = TaskMerge.merge(base: nil, local: .deleted(at: deletedAt), remote: .present(TaskFields(task)))
                    if case .write = result.local {
                        try task.insert(db)
                        try db.execute(sql: "DELETE FROM taskTombstone WHERE taskID = ?", arguments: [task.id.lowercasedString])
                        summary.added += 1
                    } else {
                        summary.keptDeleted += 1
                    }
                } else {
                    try task.insert(db)
                    summary.added += 1
                }
            }
            progress?(export.tasks.count, export.tasks.count)
            let habitsByID = Dictionary(allStoreHabits.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            for record in export.habits {
                if let stored = habitsByID[record.habit.id], stored != record.habit { summary.habitsChanged += 1 }
                try record.habit.upsert(db)
                // Its days are the file's: an older backup takes back the days checked since.
                let days = HabitCompletion.filter(Column("habitID") == record.habit.id.lowercasedString)
                if habitsByID[record.habit.id] != nil {
                    let stored = Dictionary(try days.fetchAll(db).map { ($0.day, $0.status) }, uniquingKeysWith: { first, _ in first })
                    let file = Dictionary(record.completions.map { ($0.day, $0.status) }, uniquingKeysWith: { _, last in last })
                    summary.habitDaysRemoved += stored.keys.count { file[$0] == nil }
                    summary.habitDaysSet += file.count { stored[$0.key] != $0.value }
                }
                try days.deleteAll(db)
                for completion in record.completions {
                    try HabitCompletion(habitID: record.habit.id, day: completion.day, status: completion.status).upsert(db)
                }
            }
            return summary
        }
        Self.emptyTheWAL(of: database)
        return summary
    }

    /// How many tasks an import merges between two calls of its progress.
    public static let progressStep = 1000

    /// Refuses an import whose lists or habits take the names of others in the store (`lists` and
    /// `habits` are the file's names that clash), naming every one as the file has it.
    private static func refuseClashes(lists: [String], habits: [String], source: String) throws {
        guard !lists.isEmpty || !habits.isEmpty else { return }
        let quoted = { (names: [String]) in names.map { "“\($0)”" }.joined(separator: ", ") }
        let kinds = [(lists, "list"), (habits, "habit")].filter { !$0.0.isEmpty }
        if lists.count + habits.count == 1, let (names, kind) = kinds.first {
            throw TaskWidgetError(.badImport, "\(source): the \(kind) \(quoted(names)) already exists in the store with another id: rename one of them first")
        }
        let named = kinds.map { names, kind in "the \(kind)\(names.count == 1 ? "" : "s") \(quoted(names))" }.joined(separator: " and ")
        throw TaskWidgetError(.badImport, "\(source): \(named) already exist in the store with other ids: rename one of each pair first")
    }

    /// Renames the records of `table` whose ids are in `ids` to names no record can have (a
    /// control character and the id), inside the import's transaction, which names them again.
    private static func releaseNames(of ids: Set<UUID>, in table: String, _ db: Database) throws {
        for id in ids {
            try db.execute(sql: "UPDATE \(table) SET name = char(1) || id WHERE id = ?", arguments: [id.lowercasedString])
        }
    }
}

/// What `import` did: how many lists, tasks and habits the file holds (its lists and habits are
/// added or replace the store's), and what became of its tasks, which are merged.
public struct ImportSummary: Sendable, Equatable {
    public var lists: Int
    public var tasks: Int
    public var habits: Int
    /// Tasks the store did not have (or had deleted before the file's copy was last edited).
    public var added: Int
    /// Tasks the store had, changed by newer edits in the file.
    public var updated: Int
    /// Tasks the store already had as the merge leaves them: an older copy changes nothing.
    public var unchanged: Int
    /// Tasks deleted here after the file's copy was last edited: they stay deleted.
    public var keptDeleted: Int
    /// Lists and habits of the store that the file's copy replaced with another name, color,
    /// icon or place (they have no edit times: the file's copy is taken).
    public var listsChanged = 0
    public var habitsChanged = 0
    /// Days of the store's habits, checked, skipped or missed, that the file's copy does not have:
    /// gone.
    public var habitDaysRemoved = 0
    /// Days of the store's habits that the file's copy has otherwise (another status, or recorded
    /// where the store has nothing): set as the file has them.
    public var habitDaysSet = 0

    public init(lists: Int, tasks: Int, habits: Int, added: Int = 0, updated: Int = 0, unchanged: Int = 0, keptDeleted: Int = 0) {
        (self.lists, self.tasks, self.habits) = (lists, tasks, habits)
        (self.added, self.updated, self.unchanged, self.keptDeleted) = (added, updated, unchanged, keptDeleted)
    }
}

