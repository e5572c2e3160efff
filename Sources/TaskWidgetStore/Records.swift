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

extension Instant: DatabaseValueConvertible, StatementColumnConvertible {
    public var databaseValue: DatabaseValue { millisecondsSince1970.databaseValue }

    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Instant? {
        Int64.fromDatabaseValue(dbValue).map(Instant.init(millisecondsSince1970:))
    }

    /// The same value, read from the statement as GRDB reads its own integers (its fast path for
    /// such types), not through its generic conversion: `status` reads about a hundred due dates.
    public init?(sqliteStatement: SQLiteStatement, index: CInt) {
        guard let instant = Self.fromDatabaseValue(DatabaseValue(sqliteStatement: sqliteStatement, index: index)) else { return nil }
        self = instant
    }
}

extension Row {
    /// The id of a `record` (`task`, `list`, `habit`); a row without a valid one is damaged.
    fileprivate func id(of record: String) throws -> UUID {
        guard let id = uuid("id") else { throw UnreadableValue(record: record, column: "id") }
        return id
    }

    /// The UUID in `column`, stored as text.
    fileprivate func uuid(_ column: String) -> UUID? {
        ((try? decode(String?.self, forColumn: column)) ?? nil).flatMap(UUID.init(storedText:))
    }

    /// The value of `column` of a `record` (`task`, `list`, `habit`). What no taskwidget writes (text
    /// in a date, a number in a name) is an ``UnreadableValue`` that names the column: GRDB's own
    /// error quotes the whole row, titles included, which no message or log may show.
    fileprivate func value<Value: DatabaseValueConvertible>(_ column: String, of record: String) throws -> Value {
        do { return try decode(forColumn: column) } catch { throw UnreadableValue(record: record, column: column) }
    }

    fileprivate func value<Value: DatabaseValueConvertible & StatementColumnConvertible>(_ column: String, of record: String) throws -> Value {
        do { return try decode(forColumn: column) } catch { throw UnreadableValue(record: record, column: column) }
    }
}

/// A stored value of another type than taskwidget writes there, by its record and column only.
struct UnreadableValue: Error {
    var record: String
    var column: String
}

extension TaskItem: FetchableRecord, PersistableRecord {
    public static let databaseTableName = "task"

    public init(row: Row) throws {
        self.init(id: try row.id(of: "task"), title: try row.value("title", of: "task"), createdAt: try row.value("createdAt", of: "task"))
        isCompleted = try row.value("isCompleted", of: "task")
        // A state this version does not know reads as not started (seed 003).
        state = TaskState(rawValue: try row.value("state", of: "task")) ?? .notStarted
        dueDate = try row.value("dueDate", of: "task")
        reminderDate = try row.value("reminderDate", of: "task")
        modifiedAt = try row.value("modifiedAt", of: "task")
        completedAt = try row.value("completedAt", of: "task")
        listID = row.uuid("listID")
        sortOrder = try row.value("sortOrder", of: "task")
    }

    public func encode(to container: inout PersistenceContainer) {
        container["id"] = id.lowercasedString
        container["title"] = title
        container["isCompleted"] = isCompleted
        container["state"] = state.rawValue
        container["dueDate"] = dueDate
        container["reminderDate"] = reminderDate
        container["createdAt"] = createdAt
        container["modifiedAt"] = modifiedAt
        container["completedAt"] = completedAt
        container["listID"] = listID?.lowercasedString
        container["sortOrder"] = sortOrder
    }
}

extension TaskList: FetchableRecord, PersistableRecord {
    public static let databaseTableName = "taskList"

    public init(row: Row) throws {
        self.init(
            id: try row.id(of: "list"), name: try row.value("name", of: "list"), colorHex: try row.value("colorHex", of: "list"),
            createdAt: try row.value("createdAt", of: "list"), sortOrder: try row.value("sortOrder", of: "list"))
    }

    public func encode(to container: inout PersistenceContainer) {
        container["id"] = id.lowercasedString
        container["name"] = name
        container["colorHex"] = colorHex
        container["createdAt"] = createdAt
        container["sortOrder"] = sortOrder
    }
}

extension Habit: FetchableRecord, PersistableRecord {
    public static let databaseTableName = "habit"

    public init(row: Row) throws {
        self.init(
            id: try row.id(of: "habit"), name: try row.value("name", of: "habit"), icon: try row.value("icon", of: "habit"),
            colorHex: try row.value("colorHex", of: "habit"), createdAt: try row.value("createdAt", of: "habit"))
    }

    public func encode(to container: inout PersistenceContainer) {
        container["id"] = id.lowercasedString
        container["name"] = name
        container["icon"] = icon
        container["colorHex"] = colorHex
        container["createdAt"] = createdAt
    }
}

extension HabitCompletion: FetchableRecord, PersistableRecord {
    public static let databaseTableName = "habitCompletion"

    public init(row: Row) throws {
        guard let habitID = row.uuid("habitID") else { throw UnreadableValue(record: "habit record", column: "habitID") }
        guard let day = LocalDay(try row.value("day", of: "habit record") as String) else {
            throw UnreadableValue(record: "habit record", column: "day")
        }
        // A status this version does not know (a newer app's) counts neither for nor against the
        // habit, as seed 003 reads an unknown task state as not started.
        self.init(habitID: habitID, day: day, status: HabitStatus(rawValue: try row.value("status", of: "habit record")) ?? .skipped)
    }

    public func encode(to container: inout PersistenceContainer) {
        container["habitID"] = habitID.lowercasedString
        container["day"] = day.description
        container["status"] = status.rawValue
    }
}
