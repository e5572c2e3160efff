// GRDB is imported publicly here only: the model types conform to its record protocols, which
// the store uses; no other module imports GRDB.
import Foundation
public import GRDB
public import TaskWidgetCore

// How the model types are stored, written out column by column rather than through Codable (which
// costs a protocol lookup per column and property on every run of a status bar). Instants are
// INTEGER milliseconds since 1970 (UTC), so a date read back and written again, or exported and
// imported, is exactly the same value. UUIDs are lowercase text, so that short ids can be matched
// with an index range scan.

extension Instant: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { millisecondsSince1970.databaseValue }

    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Instant? {
        Int64.fromDatabaseValue(dbValue).map(Instant.init(millisecondsSince1970:))
    }
}

extension UUID {
    /// The stored form of an id: lowercase text.
    var storedText: String { uuidString.lowercased() }
}

extension Row {
    /// The record's id; a row without a valid one is damaged.
    fileprivate func id() throws -> UUID {
        guard let id = uuid("id") else {
            throw TaskWidgetError(.damagedStore, "a record of the store has no valid id: restore the store from a backup")
        }
        return id
    }

    /// The UUID in `column`, stored as text.
    fileprivate func uuid(_ column: String) -> UUID? {
        ((try? decode(String?.self, forColumn: column)) ?? nil).flatMap(UUID.init(uuidString:))
    }
}

extension TaskItem: FetchableRecord, PersistableRecord {
    public static let databaseTableName = "task"

    public init(row: Row) throws {
        self.init(id: try row.id(), title: try row.decode(forColumn: "title"), createdAt: try row.decode(forColumn: "createdAt"))
        isCompleted = try row.decode(forColumn: "isCompleted")
        // A state this version does not know reads as not started (seed 003).
        state = TaskState(rawValue: try row.decode(forColumn: "state")) ?? .notStarted
        dueDate = try row.decode(forColumn: "dueDate")
        reminderDate = try row.decode(forColumn: "reminderDate")
        modifiedAt = try row.decode(forColumn: "modifiedAt")
        completedAt = try row.decode(forColumn: "completedAt")
        listID = row.uuid("listID")
        sortOrder = try row.decode(forColumn: "sortOrder")
    }

    public func encode(to container: inout PersistenceContainer) {
        container["id"] = id.storedText
        container["title"] = title
        container["isCompleted"] = isCompleted
        container["state"] = state.rawValue
        container["dueDate"] = dueDate
        container["reminderDate"] = reminderDate
        container["createdAt"] = createdAt
        container["modifiedAt"] = modifiedAt
        container["completedAt"] = completedAt
        container["listID"] = listID?.storedText
        container["sortOrder"] = sortOrder
    }
}

extension TaskList: FetchableRecord, PersistableRecord {
    public static let databaseTableName = "taskList"

    public init(row: Row) throws {
        self.init(
            id: try row.id(), name: try row.decode(forColumn: "name"), colorHex: try row.decode(forColumn: "colorHex"), createdAt: try row.decode(forColumn: "createdAt"),
            sortOrder: try row.decode(forColumn: "sortOrder"))
    }

    public func encode(to container: inout PersistenceContainer) {
        container["id"] = id.storedText
        container["name"] = name
        container["colorHex"] = colorHex
        container["createdAt"] = createdAt
        container["sortOrder"] = sortOrder
    }
}

extension Habit: FetchableRecord, PersistableRecord {
    public static let databaseTableName = "habit"

    public init(row: Row) throws {
        self.init(id: try row.id(), name: try row.decode(forColumn: "name"), icon: try row.decode(forColumn: "icon"), colorHex: try row.decode(forColumn: "colorHex"), createdAt: try row.decode(forColumn: "createdAt"))
    }

    public func encode(to container: inout PersistenceContainer) {
        container["id"] = id.storedText
        container["name"] = name
        container["icon"] = icon
        container["colorHex"] = colorHex
        container["createdAt"] = createdAt
    }
}

extension HabitCompletion: FetchableRecord, PersistableRecord {
    public static let databaseTableName = "habitCompletion"

    public init(row: Row) throws {
        guard let habitID = row.uuid("habitID"), let day = LocalDay(try row.decode(String.self, forColumn: "day")) else {
            throw TaskWidgetError(.damagedStore, "a habit record of the store is damaged: restore the store from a backup")
        }
        self.init(habitID: habitID, day: day, status: HabitStatus(rawValue: try row.decode(String.self, forColumn: "status")) ?? .done)
    }

    public func encode(to container: inout PersistenceContainer) {
        container["habitID"] = habitID.storedText
        container["day"] = day.description
        container["status"] = status.rawValue
    }
}
