import Foundation
import GRDB

// How the model types are stored. Instants are INTEGER milliseconds since 1970 (UTC), rounded, so
// that a date read back and written again, or exported and imported, is exactly the same value.
// UUIDs are lowercase text, so that short ids can be matched with an index range scan.

enum StoredInstant {
    static func encode(_ date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1000).rounded())
    }

    static func decode(_ milliseconds: Int64) -> Date {
        Date(timeIntervalSince1970: Double(milliseconds) / 1000)
    }
}

protocol StoredRecord: Codable, FetchableRecord, PersistableRecord {}

extension StoredRecord {
    static func databaseDateEncodingStrategy(for column: String) -> DatabaseDateEncodingStrategy {
        .custom { StoredInstant.encode($0) }
    }

    static func databaseDateDecodingStrategy(for column: String) -> DatabaseDateDecodingStrategy {
        .custom { value in Int64.fromDatabaseValue(value).map(StoredInstant.decode) }
    }

    static func databaseUUIDEncodingStrategy(for column: String) -> DatabaseUUIDEncodingStrategy { .lowercaseString }
}

extension TaskItem: StoredRecord {
    static let databaseTableName = "task"
}

extension TaskList: StoredRecord {
    static let databaseTableName = "taskList"
}

extension Habit: StoredRecord {
    static let databaseTableName = "habit"
}

extension HabitCompletion: StoredRecord {
    static let databaseTableName = "habitCompletion"
}
