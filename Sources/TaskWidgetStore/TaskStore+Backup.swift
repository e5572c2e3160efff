import Foundation
import GRDB
import Glibc
import TaskWidgetCore

/// Whole-store copies through SQLite's online backup, which reads and writes the store as any
/// connection does. A copy of the file alone misses the writes still in its `-wal`, and a copy put
/// over a store in use is read with the old `-wal` on top: the old tasks came back over the
/// restored ones, or later writes never reached the file (helper-125).
///
/// ```swift
/// try store.backUp(to: "/home/me/tasks-backup.sqlite")
/// let restored = try writer.restore(from: "/home/me/tasks-backup.sqlite")
/// ```
extension TaskStore {
    /// Writes a copy of the whole store as of now to `path`, private to the user, through a file
    /// beside it that is renamed into place once complete (an older backup there is replaced).
    public func backUp(to path: String) throws {
        let temporary = path + ".new-\(UUID.random().uuidString)"
        defer { for suffix in ["", "-wal", "-shm"] { unlink(temporary + suffix) } }
        do {
            let file = Glibc.open(temporary, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
            guard file >= 0 else {
                throw TaskWidgetError.system(errno, "cannot write the backup \(path)", advice: "check its folder", context: path)
            }
            close(file)
            let copy = try DatabaseQueue(path: temporary)
            defer { Self.retire(copy) }
            try database.backup(to: copy)
            try copy.close()  // its only connection: the copy is whole in its file
            guard rename(temporary, path) == 0 else {
                throw TaskWidgetError.system(errno, "cannot write the backup \(path)", advice: "check its folder", context: path)
            }
            AtomicFile.syncFolder(StoreLocation(path: path, isDefault: false).folder)
        } catch let error as TaskWidgetError {
            throw error
        } catch {
            throw StoreErrors.map(error, path: path)
        }
    }

    /// Replaces everything the store holds with what the store file at `path` holds (a
    /// ``backUp(to:)``, or a store file copied while nothing wrote to it), in one write that
    /// watch, serve and notify follow as any other; a backup from an older taskwidget is then
    /// upgraded. Returns what the store holds now.
    public func restore(from path: String) throws -> StoreCounts {
        guard access(path, F_OK) == 0 else {
            throw TaskWidgetError(.storeMissing, "there is no backup at \(path): check the path", context: path)
        }
        var configuration = Configuration()
        configuration.readonly = true
        let backup: DatabaseQueue
        let applied: Set<String>
        do {
            try Self.refuseIfNotSQLite(path)
            backup = try DatabaseQueue(path: Self.readOnlyURI(path), configuration: configuration)
        } catch {
            throw Self.notABackup(error, path: path)
        }
        defer { Self.retire(backup) }
        do {
            applied = try Self.checkSchema(backup, path: path, allowEmpty: true)
        } catch {
            throw Self.notABackup(error, path: path)
        }
        guard !applied.isEmpty else {
            throw TaskWidgetError(.damagedStore, "\(path) is an empty store: there is nothing in it to restore", context: path)
        }
        try write { _ in }  // a store that is not there yet is made
        do {
            try backup.backup(to: database)
            if !applied.isSuperset(of: Migrations.migrator.migrations) { try Self.migrate(database) }
        } catch {
            throw StoreErrors.map(error, path: self.path)
        }
        SavedChanges.note()
        return try counts()
    }

    /// The error of a backup that cannot be read: a damaged or foreign file is named as the
    /// backup, not as a store to pass another --store for.
    private static func notABackup(_ error: any Error, path: String) -> TaskWidgetError {
        let mapped = StoreErrors.map(error, path: path)
        guard mapped.code == .damagedStore else { return mapped }
        return TaskWidgetError(.damagedStore, "\(path) is no taskwidget store, or is damaged: give a file `taskwidget backup` wrote", context: path)
    }

    /// How many tasks, lists and habits the store holds.
    public func counts() throws -> StoreCounts {
        try read { db in try StoreCounts(db) }
    }
}

/// How many tasks, lists and habits a store holds.
public struct StoreCounts: Sendable, Equatable {
    public var isEmpty: Bool { tasks == 0 && lists == 0 && habits == 0 }

    public var tasks: Int
    public var lists: Int
    public var habits: Int

    init(_ db: Database) throws {
        let row = try Row.fetchOne(db, sql: "SELECT (SELECT count(*) FROM task), (SELECT count(*) FROM taskList), (SELECT count(*) FROM habit)")
        (tasks, lists, habits) = (row?[0] ?? 0, row?[1] ?? 0, row?[2] ?? 0)
    }
}
