import Foundation
import GRDB
public import TaskWidgetCore

extension TaskStore {
    /// Creates a list at the end of the list order.
    public func addList(named name: String, colorHex: String?, now: Instant) throws -> TaskList {
        let name = try Validation.listName(name)
        let colorHex = try colorHex.map(Validation.colorHex) ?? TaskList.defaultColorHex
        return try write { db in
            try Self.ensureListNameIsFree(name, in: db)
            return try Self.insertList(named: name, colorHex: colorHex, now: now, in: db)
        }
    }

    static func insertList(named name: String, colorHex: String, now: Instant, in db: Database) throws -> TaskList {
        let order = SortOrder.after(try Int.fetchOne(db, sql: "SELECT max(sortOrder) FROM taskList"))
        let list = TaskList(name: name, colorHex: colorHex, createdAt: now, sortOrder: order)
        try list.insert(db)
        return list
    }

    /// Every list in order, with its open and total task counts.
    public func listSummaries() throws -> [ListSummary] {
        try read { db in
            let lists = try TaskList.fetchAllInOrder(db)
            let rows = try Row.fetchAll(
                db, sql: "SELECT listID, count(*) AS total, sum(NOT isCompleted) AS open FROM task WHERE listID IS NOT NULL GROUP BY listID")
            let counts = Dictionary(uniqueKeysWithValues: rows.map { row in
                (row["listID"] as String, (open: row["open"] as Int, total: row["total"] as Int))
            })
            return lists.map { list in
                let count = counts[list.id.lowercasedString] ?? (0, 0)
                return ListSummary(list: list, openCount: count.open, totalCount: count.total)
            }
        }
    }

    /// Renames a list; changing only the case of its name is allowed. Returns the list as it is
    /// now and the name it had (the stored one, not the one `name` typed); a list already so
    /// named is not written.
    public func renameList(_ name: String, to newName: String) throws -> (list: TaskList, previousName: String) {
        let newName = try Validation.listName(newName)
        return try write { db in
            var list = try Self.list(named: name, in: db)
            let previousName = list.name
            guard newName != previousName else { return (list, previousName) }
            if !NameLookup.isSame(newName, previousName) {
                try Self.ensureListNameIsFree(newName, in: db)
            }
            list.name = newName
            try list.update(db)
            return (list, previousName)
        }
    }

    /// Sets a list's color.
    public func setListColor(_ name: String, colorHex: String) throws -> TaskList {
        let colorHex = try Validation.colorHex(colorHex)
        return try write { db in
            var list = try Self.list(named: name, in: db)
            list.colorHex = colorHex
            try list.update(db)
            return list
        }
    }

    /// Moves a list to the 1-based `position` in the list order (as `list ls` shows it; past the
    /// end means last) and renumbers the lists' sortOrder. Returns the list as it is now.
    public func moveList(_ name: String, to position: Int) throws -> (list: TaskList, isChanged: Bool) {
        let position = try Validation.position(position)
        return try write { db in
            var moved = try Self.list(named: name, in: db)
            let ordered = try TaskList.fetchAllInOrder(db)
            var lists = ordered.filter { $0.id != moved.id }
            let index = min(position - 1, lists.count)
            lists.insert(moved, at: index)
            for (order, var list) in lists.enumerated() where list.sortOrder != order {
                list.sortOrder = order
                try list.update(db)
            }
            moved.sortOrder = index
            return (moved, ordered.firstIndex { $0.id == moved.id } != index)
        }
    }

    /// Deletes a list and, by cascade, its tasks. Returns the list and how many tasks went with it.
    /// Its tasks that a sync server knows of leave tombstones dated `now` (SPEC §12).
    public func deleteList(_ name: String, now: Instant) throws -> (list: TaskList, deletedTaskCount: Int) {
        try write { db in
            let list = try Self.list(named: name, in: db)
            let taskIDs = try String.fetchAll(db, sql: "SELECT id FROM task WHERE listID = ?", arguments: [list.id.lowercasedString])
            try list.delete(db)
            try Self.recordTombstones(for: taskIDs.compactMap(UUID.init(uuidString:)), at: now, in: db)
            try Self.recordTombstone(forList: list.id, at: now, in: db)
            return (list, taskIDs.count)
        }
    }

    /// The list with this name, compared case-insensitively (Unicode-aware), if there is one.
    static func existingList(named name: String, in db: Database) throws -> TaskList? {
        try TaskList.fetchAll(db).first { NameLookup.isSame($0.name, name) }
    }

    /// The list with this name; an unknown name is an error that suggests the closest one
    /// (``TaskList/named(_:in:creation:)``).
    static func list(named name: String, in db: Database, creation: String? = nil) throws -> TaskList {
        try TaskList.named(name, in: TaskList.fetchAllInOrder(db), creation: creation)
    }

    private static func ensureListNameIsFree(_ name: String, in db: Database) throws {
        if let existing = try existingList(named: name, in: db) {
            throw TaskWidgetError(.nameTaken, "a list named “\(existing.name)” already exists: choose another name")
        }
    }
}
