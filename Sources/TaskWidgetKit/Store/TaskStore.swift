import Foundation
import GRDB
import GRDBSQLite
import Glibc
public import Logging

/// The user's tasks, lists and habits in one SQLite file (SPEC §3).
///
/// Writers open it with ``open(at:mode:logger:)`` in `.readWrite` mode, which creates and migrates
/// the file; display commands use `.readOnly`, which never creates, migrates or modifies it.
///
/// ```swift
/// let store = try TaskStore.open(at: location, mode: .readWrite, logger: logger)
/// let task = try store.addTask(NewTask(title: "Pay rent"), now: now)
/// ```
public final class TaskStore: Sendable {
    public enum AccessMode: Sendable {
        case readOnly
        case readWrite
    }

    public let path: String
    public let mode: AccessMode
    let database: any DatabaseWriter
    /// Whether the store keeps the open-task counts (migration v3); a store no writer has upgraded
    /// yet is counted by scanning its open tasks.
    let keepsOpenTaskCounts: Bool
    let logger: Logger

    private init(path: String, mode: AccessMode, database: any DatabaseWriter, keepsOpenTaskCounts: Bool, logger: Logger) {
        self.path = path
        self.mode = mode
        self.database = database
        self.keepsOpenTaskCounts = keepsOpenTaskCounts
        self.logger = logger
    }

    /// Opens the store. In `.readWrite` mode a missing file is created (and the default folder with
    /// it) and migrated; in `.readOnly` mode a missing store is an error and nothing is written.
    public static func open(at location: StoreLocation, mode: AccessMode, logger: Logger) throws -> TaskStore {
        let path = location.path
        try checkPath(location, mode: mode)
        var configuration = Configuration()
        configuration.readonly = mode == .readOnly
        // Concurrent writers wait for each other instead of failing.
        configuration.busyMode = .timeout(15)
        configuration.prepareDatabase { db in
            guard !db.configuration.readonly else { return }
            // Keep the -wal and -shm files when the last writer closes, so that display commands
            // find them and never have to create files next to the store (GRDB's DatabaseSharing).
            var persist: CInt = 1
            let code = sqlite3_file_control(db.sqliteConnection, nil, SQLITE_FCNTL_PERSIST_WAL, &persist)
            guard code == SQLITE_OK else { throw DatabaseError(resultCode: ResultCode(rawValue: code)) }
            // But empty it then (with a size limit, the last connection truncates the checkpointed
            // -wal): the next process rebuilds its index from every frame still valid in a kept
            // -wal, never starts it over, and each write made it grow (25 KB a task, for ever).
            try db.execute(sql: "PRAGMA journal_size_limit = 4194304")
        }
        do {
            let database: any DatabaseWriter
            var keepsOpenTaskCounts = true
            switch mode {
            case .readWrite:
                // Refuse a foreign or newer database before anything can write to it.
                if (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0 > 0 {
                    var readOnly = configuration
                    readOnly.readonly = true
                    try checkSchema(DatabaseQueue(path: readOnlyURI(path), configuration: readOnly), path: path, allowEmpty: true)
                } else if !FileManager.default.fileExists(atPath: path) {
                    try createComplete(at: path, configuration: configuration)
                }
                database = try DatabasePool(path: path, configuration: configuration)
                // Every acknowledged write reaches the disk (seed NFR6: zero data loss). GRDB sets
                // NORMAL when it enables WAL, after `prepareDatabase`; the pool has one writer.
                try database.writeWithoutTransaction { try $0.execute(sql: "PRAGMA synchronous = FULL") }
                try migrate(database, path: path)
            case .readOnly:
                // One read-only connection: the cheapest open for a status bar.
                database = try DatabaseQueue(path: readOnlyURI(path), configuration: configuration)
                keepsOpenTaskCounts = try checkSchema(database, path: path).contains(Migrations.openTaskCounts)
            }
            logger.debug("opened store", metadata: ["path": "\(path)", "mode": "\(mode)"])
            let store = TaskStore(
                path: path, mode: mode, database: database, keepsOpenTaskCounts: keepsOpenTaskCounts, logger: logger)
            if mode == .readWrite { store.emptyTheWALIfLarge() }  // after a migration of a big store
            return store
        } catch {
            throw StoreErrors.map(error, path: path)
        }
    }

    /// Runs `body` in one write transaction; any error rolls everything back.
    func write<T: Sendable>(_ body: @Sendable (Database) throws -> T) throws -> T {
        guard mode == .readWrite else {
            throw TaskWidgetError(.usage, "the store was opened read-only")
        }
        let result: T
        do {
            result = try database.write(body)
        } catch {
            throw StoreErrors.map(error, path: path)
        }
        emptyTheWALIfLarge()
        return result
    }

    /// A `-wal` file larger than this is copied into the store and emptied after a write.
    static let walLimit = 1 << 20

    /// A process that opens the store while no other has it open first reads the whole `-wal` file
    /// (SQLite's WAL recovery): after an import of 100 000 tasks that took every status line 15 ms.
    /// So a write that leaves the `-wal` past ``walLimit`` checkpoints it and truncates it. The write
    /// is already committed: a checkpoint that fails (a reader holds it back) is left for the next one.
    private func emptyTheWALIfLarge() {
        let size = (try? FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int) ?? 0
        guard size > Self.walLimit else { return }
        do {
            try database.writeWithoutTransaction { try $0.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
        } catch {
            logger.debug("left the -wal file for later", metadata: ["bytes": "\(size)", "reason": "\(error)"])
        }
    }

    /// Runs `body` on one consistent snapshot of the store.
    func read<T: Sendable>(_ body: @Sendable (Database) throws -> T) throws -> T {
        do {
            return try database.read(body)
        } catch {
            throw StoreErrors.map(error, path: path)
        }
    }

    /// SQLite's `PRAGMA data_version` on this connection: it changes when another connection
    /// commits, and only then (a watcher compares it to skip file events that changed nothing).
    public func dataVersion() throws -> Int {
        try read { try Int.fetchOne($0, sql: "PRAGMA data_version") ?? 0 }
    }

    /// The path to open read-only. SQLite readers of a WAL database normally share the `-wal` and
    /// `-shm` files with writers, creating them when missing; but beside a file nobody may write
    /// (mode 0444), or in a folder we may not write, they cannot be created. So when there is no
    /// `-wal` (nothing is pending outside the main file) and it could not be created, the file is
    /// opened as immutable rather than refused.
    private static func readOnlyURI(_ path: String) -> String {
        var status = stat()
        guard stat(path, &status) == 0 else { return path }
        guard !FileManager.default.fileExists(atPath: path + "-wal") else { return path }
        let isWritable = access(path, W_OK) == 0 && status.st_mode & 0o222 != 0
        let folder = (path as NSString).deletingLastPathComponent
        let isFolderWritable = access(folder.isEmpty ? "." : folder, W_OK) == 0
        guard !isWritable || !isFolderWritable else { return path }
        let escaped = path.replacingOccurrences(of: "%", with: "%25")
            .replacingOccurrences(of: "?", with: "%3f").replacingOccurrences(of: "#", with: "%23")
        return "file:\(escaped)?immutable=1"
    }

    private static func checkPath(_ location: StoreLocation, mode: AccessMode) throws {
        let fileManager = FileManager.default
        let path = location.path
        var isDirectory: ObjCBool = false
        if fileManager.fileExists(atPath: path, isDirectory: &isDirectory) {
            guard !isDirectory.boolValue else {
                throw TaskWidgetError(.io, "\(path) is a folder, not a store file: pass --store with a file path")
            }
            let type = (try? fileManager.attributesOfItem(atPath: path)[.type]) as? FileAttributeType
            guard type == .typeRegular else {
                throw TaskWidgetError(
                    .io, "\(path) is not a regular file: pass --store with the path of a store file")
            }
            return
        }
        if (try? fileManager.destinationOfSymbolicLink(atPath: path)) != nil {
            throw TaskWidgetError(.io, "\(path) is a dangling or looping symbolic link: fix it or pass another --store")
        }
        switch mode {
        case .readOnly:
            throw TaskWidgetError(
                .io, "there is no store at \(path) yet: add a task with `taskwidget add TITLE` or try `taskwidget demo`")
        case .readWrite:
            let folder = (path as NSString).deletingLastPathComponent
            let folderPath = folder.isEmpty ? "." : folder
            if location.isDefault && !fileManager.fileExists(atPath: folderPath) {
                do {
                    try fileManager.createDirectory(
                        atPath: folderPath, withIntermediateDirectories: true,
                        attributes: [.posixPermissions: 0o700])
                } catch {
                    throw TaskWidgetError(.io, "cannot create the folder \(folderPath): check its permissions")
                }
            }
            guard fileManager.fileExists(atPath: folderPath, isDirectory: &isDirectory), isDirectory.boolValue
            else {
                throw TaskWidgetError(
                    .io, "the folder \(folderPath) does not exist: create it first or pass another --store")
            }
            guard fileManager.isWritableFile(atPath: folderPath) else {
                throw TaskWidgetError(
                    .io, "the folder \(folderPath) is not writable: fix its permissions or pass another --store")
            }
        }
    }

    /// Creates a new store with its whole schema beside `path`, then links it into place: a reader
    /// never finds a store whose migrations are half done (GRDB commits each on its own), and of
    /// several processes creating the store at once, one links its file and the others use it.
    private static func createComplete(at path: String, configuration: Configuration) throws {
        let folder = (path as NSString).deletingLastPathComponent
        let temporary = path + ".new-\(UUID().uuidString)"
        defer { unlink(temporary) }
        // A rollback journal while it is built: no -wal or -shm to clean up; the pool turns WAL on.
        let queue = try DatabaseQueue(path: temporary, configuration: configuration)
        try migrate(queue, path: path)
        try queue.close()
        guard link(temporary, path) == 0 || errno == EEXIST else {
            throw TaskWidgetError(.io, "cannot create the store \(path): \(String(cString: strerror(errno))): check the folder")
        }
        let descriptor = Glibc.open(folder.isEmpty ? "." : folder, O_RDONLY | O_DIRECTORY)
        if descriptor >= 0 {
            fsync(descriptor)
            Glibc.close(descriptor)
        }
    }

    /// Brings the schema up to date. Several processes may race to migrate a new store: the loser's
    /// transaction fails and is rolled back, and it then finds the migrations applied.
    private static func migrate(_ database: any DatabaseWriter, path: String) throws {
        let migrator = Migrations.migrator
        if try database.read(migrator.hasCompletedMigrations) { return }
        do {
            try migrator.migrate(database)
        } catch {
            guard try database.read(migrator.hasCompletedMigrations) else { throw error }
        }
    }

    /// Refuses foreign databases, stores from a newer taskwidget, and (for readers) unmigrated ones.
    /// Returns the migrations the store has.
    @discardableResult
    private static func checkSchema(_ database: any DatabaseReader, path: String, allowEmpty: Bool = false) throws -> Set<String> {
        try database.read { db in
            // One query answers all three questions; only a database without the table asks more.
            let applied: Set<String>
            do {
                applied = try String.fetchSet(db, sql: "SELECT identifier FROM grdb_migrations")
            } catch let error as DatabaseError where error.message?.hasPrefix("no such table") == true {
                let tableCount = try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master WHERE type = 'table'") ?? 0
                if tableCount == 0 && allowEmpty { return [] }
                throw TaskWidgetError(
                    .data,
                    tableCount == 0
                        ? "the store \(path) is empty: add a task with `taskwidget add TITLE` to set it up"
                        : "\(path) is an SQLite database but not a taskwidget store: pass another --store")
            }
            if !applied.isSubset(of: Migrations.migrator.migrations) {
                throw TaskWidgetError(
                    .data, "the store \(path) was written by a newer taskwidget: upgrade taskwidget to use it")
            }
            if !allowEmpty, !applied.contains(Migrations.lastNeededForReading) {
                throw TaskWidgetError(
                    .data, "the store \(path) needs an upgrade: run a write command such as `taskwidget list ls`")
            }
            return applied
        }
    }
}
