import Foundation
import GRDB
import Glibc
public import TaskWidgetCore

/// Whole-store copies through SQLite's online backup, which reads and writes the store as any
/// connection does. A copy of the file alone misses the writes still in its `-wal`, and a copy put
/// over a store in use is read with the old `-wal` on top: the old tasks came back over the
/// restored ones, or later writes never reached the file (helper-125).
///
/// ```swift
/// let copied = try store.backUp(to: "/home/me/tasks-backup.sqlite")
/// let restored = try writer.restore(from: "/home/me/tasks-backup.sqlite", now: .now)
/// ```
extension TaskStore {
    /// Writes a copy of the whole store as of now to `path`, private to the user, through a file
    /// beside it that is renamed into place once complete (an older backup there is replaced).
    /// A copy SQLite's `quick_check` finds damaged is not written. Returns what the copy holds.
    public func backUp(to path: String) throws -> StoreCounts {
        do {
            let scratch = try ScratchDatabase(beside: path, kind: "new", failure: "cannot write the backup \(path)", advice: "check its folder")
            defer { scratch.remove() }
            let copy = try DatabaseQueue(path: scratch.path)
            defer { Self.retire(copy) }
            try database.backup(to: copy)
            // The online backup copies pages as they are: a damaged store made a damaged backup,
            // said to hold every task, which `restore` then put over a good store (helper-135).
            if let damage = Self.damage(in: copy) {
                throw TaskWidgetError(
                    .damagedStore,
                    "the store \(self.path) is damaged (\(damage)): no backup was written; keep the file as it is with cp, and restore an older "
                        + "backup, or save what can still be read with \(StoreErrors.rescue(self.path))",
                    context: self.path)
            }
            try copy.write { db in try db.execute(sql: "PRAGMA application_id = \(Self.backupApplicationID)") }
            // What the file holds, not the store a moment later (helper-127).
            let counts = try copy.read { db in try StoreCounts(db) }
            try copy.close()  // its only connection: the copy is whole in its file
            // The older backup's -wal, left by a program that wrote it and did not close it, would
            // be read over the new one: its old tasks came back in `ls` and `restore` (helper-156).
            for journal in ["-wal", "-shm"] where unlink(path + journal) != 0 && errno != ENOENT {
                throw TaskWidgetError.system(errno, "cannot replace the backup \(path)'s \(journal) file", advice: "check its folder", context: path)
            }
            guard rename(scratch.path, path) == 0 else {
                throw TaskWidgetError.system(errno, "cannot write the backup \(path)", advice: "check its folder", context: path)
            }
            AtomicFile.syncFolder(StoreLocation(path: path, isDefault: false).folder)
            return counts
        } catch let error as TaskWidgetError {
            throw error
        } catch {
            throw StoreErrors.map(error, path: path)
        }
    }

    /// Replaces everything the store holds with what the store file at `path` holds (a
    /// ``backUp(to:)``, or a store file copied while nothing wrote to it), in one write that
    /// watch, serve and notify follow as any other. A copy beside the store is made ready first
    /// (upgraded when the backup comes from an older taskwidget, and what sync knew forgotten:
    /// ``forgetSyncState(_:now:)``), and the store is written only once that copy is whole: an
    /// upgrade that failed left the store replaced by a copy it could not open (helper-127). A
    /// backup that `quick_check` finds damaged is refused before. Returns what the store holds now.
    public func restore(from path: String, now: Instant) throws -> StoreCounts {
        guard let status = Self.fileStatus(path) else {
            throw TaskWidgetError(.storeMissing, "there is no backup at \(path): check the path", context: path)
        }
        guard status.st_mode & S_IFMT == S_IFREG else {
            throw TaskWidgetError(.notAFile, "\(path) is no file: give the file `taskwidget backup` wrote", context: path)
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
        if let damage = Self.damage(in: backup) {
            throw TaskWidgetError(.damagedStore, "\(path) is damaged (\(damage)): nothing was restored; give another backup", context: path)
        }
        // A new machine's default folder is made first, as a first add makes it: the scratch
        // copy beside the store had no folder to go in (helper-147).
        let madeFolders = try Self.makeDefaultFolder(of: location)
        do {
            let scratch = try ScratchDatabase(beside: self.path, kind: "restore", failure: "cannot write beside \(self.path)", advice: "check its folder")
            defer { scratch.remove() }
            let copy = try DatabaseQueue(path: scratch.path)
            defer { Self.retire(copy) }
            try backup.backup(to: copy)
            if !applied.isSuperset(of: Migrations.migrator.migrations) { try Self.migrate(copy) }
            try Self.refuseCodeNotOurs(in: copy, path: path)
            try copy.write { db in
                try Self.forgetSyncState(db, now: now)
                try db.execute(sql: "PRAGMA application_id = 0")  // a store, no longer a backup
            }
            try write { _ in }  // a store that is not there yet is made
            try copy.backup(to: database)
        } catch {
            for folder in madeFolders { rmdir(folder) }  // left only while empty
            if let error = error as? TaskWidgetError { throw error }
            throw StoreErrors.map(error, path: self.path)
        }
        SavedChanges.note()
        return try counts()
    }

    /// Refuses a backup whose triggers or views are not the ones taskwidget makes: a trigger put
    /// into a copy ran at every write of the store it was restored into (helper-153).
    private static func refuseCodeNotOurs(in copy: DatabaseQueue, path: String) throws {
        let code = { (db: Database) in
            try String.fetchSet(db, sql: "SELECT type || ' ' || name || ' ' || ifnull(sql, '') FROM sqlite_master WHERE type IN ('trigger', 'view')")
        }
        let fresh = try DatabaseQueue()
        try migrate(fresh)
        guard try copy.read(code).isSubset(of: fresh.read(code)) else {
            throw TaskWidgetError(
                .damagedStore, "\(path) holds a trigger or view that taskwidget never makes: nothing was restored; give a file `taskwidget backup` wrote",
                context: path)
        }
    }

    /// The SQLite header's application id of a file ``backUp(to:)`` wrote ("TWBK"); a store has 0.
    static let backupApplicationID: Int32 = 0x5457_424B

    /// What is at a path that a backup is to be written to.
    public enum BackupTarget: Equatable, Sendable {
        /// Nothing, or an empty file.
        case nothing
        /// A file ``backUp(to:)`` wrote.
        case backup
        /// An SQLite file that is no backup of this version: a store, or an older version's backup.
        case otherDatabase
        /// Something that is not an SQLite file (an export, a text), or no regular file.
        case otherFile
    }

    /// What `path` holds, from its first 72 bytes: the SQLite header and its application id.
    public static func backupTarget(at path: String) -> BackupTarget {
        guard let status = fileStatus(path) else { return .nothing }
        guard status.st_mode & S_IFMT == S_IFREG else { return .otherFile }
        guard status.st_size > 0 else { return .nothing }
        let descriptor = Glibc.open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { return .otherFile }
        defer { close(descriptor) }
        var header = [UInt8](repeating: 0, count: 72)
        guard Glibc.read(descriptor, &header, 72) == 72, header.prefix(16).elementsEqual("SQLite format 3\0".utf8) else { return .otherFile }
        let id = header[68..<72].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        return Int32(bitPattern: id) == backupApplicationID ? .backup : .otherDatabase
    }

    /// Forgets, in a restored store, what sync knew of the servers, and makes its tasks the
    /// newest copies: the next sync reads every object again and merges each with its task as a
    /// first sync does, the task here winning, so that the restore goes to the servers. With the
    /// backup's knowledge, the servers' later changes and deletions won: a task deleted and synced
    /// after the backup was deleted again by the next sync (helper-127). Nothing for a store that
    /// never synced.
    static func forgetSyncState(_ db: Database, now: Instant) throws {
        guard try Int.fetchOne(db, sql: "SELECT count(*) FROM syncCollection") ?? 0 > 0 else { return }
        try db.execute(
            sql: """
                DELETE FROM syncObject; DELETE FROM taskTombstone; DELETE FROM listTombstone;
                UPDATE syncCollection SET syncToken = NULL, ctag = NULL;
                """)
        try db.execute(sql: "UPDATE task SET modifiedAt = ?", arguments: [now])
    }

    /// What SQLite's `quick_check` finds wrong in `database` (its first line), or `nil` when nothing.
    private static func damage(in database: some DatabaseReader) -> String? {
        do {
            let found = try database.read { db in try String.fetchOne(db, sql: "PRAGMA quick_check(1)") }
            guard let found else { return "no answer from SQLite's check" }
            // "*** in database main ***\nPage 91: btreeInitPage() returns error code 11"
            return found == "ok" ? nil : found.split(separator: "\n").filter { !$0.hasPrefix("***") }.joined(separator: "; ")
        } catch let error as DatabaseError {
            return error.message ?? "SQLite's check failed"
        } catch {
            return "SQLite's check failed"
        }
    }

    /// The error of a backup that cannot be read: a damaged or foreign file is named as the
    /// backup, not as a store to pass another --store for.
    private static func notABackup(_ error: any Error, path: String) -> TaskWidgetError {
        let mapped = StoreErrors.map(error, path: path)
        guard mapped.code == .damagedStore else { return mapped }
        if StoreErrors.isJSON(path) {
            return TaskWidgetError(.damagedStore, "\(path) is an export (JSON), not a backup: add what it holds with `taskwidget import`", context: path)
        }
        return TaskWidgetError(.damagedStore, "\(path) is no taskwidget store, or is damaged: give a file `taskwidget backup` wrote", context: path)
    }

    /// How many tasks, lists and habits the store holds.
    public func counts() throws -> StoreCounts {
        try read { db in try StoreCounts(db) }
    }
}

/// How many tasks, lists and habits a store holds.
public struct StoreCounts: Sendable, Equatable {
    public var tasks: Int
    public var lists: Int
    public var habits: Int

    public var isEmpty: Bool { tasks == 0 && lists == 0 && habits == 0 }

    init(_ db: Database) throws {
        let row = try Row.fetchOne(db, sql: "SELECT (SELECT count(*) FROM task), (SELECT count(*) FROM taskList), (SELECT count(*) FROM habit)")
        (tasks, lists, habits) = (row?[0] ?? 0, row?[1] ?? 0, row?[2] ?? 0)
    }
}
