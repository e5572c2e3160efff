import Foundation
import GRDB
import GRDBSQLite
import Glibc
public import Logging
import TaskWidgetCore

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
    /// How a command opens the store: display commands read only, the others write.
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
    /// it) and migrated. In `.readOnly` mode nothing is written: a store missing at the default
    /// location reads as an empty one (a first run shows "No open tasks", not an error), and one
    /// missing at a path the user named is an error.
    public static func open(at location: StoreLocation, mode: AccessMode, logger: Logger) throws -> TaskStore {
        let path = location.path
        let exists = try checkPath(location, mode: mode)
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
            try db.execute(sql: "PRAGMA journal_size_limit = \(walLimit)")
        }
        do {
            // One connection either way: a command reads or writes once and exits.
            let database: DatabaseQueue
            var applied: Set<String>
            switch mode {
            case .readWrite:
                if !exists { try createComplete(at: location, configuration: configuration) }
                database = try DatabaseQueue(path: path, configuration: configuration)
                // Refuse a foreign or newer database before anything can write to it.
                applied = try checkSchema(database, path: path, allowEmpty: true)
                // WAL, which the store has had since it was created (this only converts a file that
                // was empty). Every acknowledged write reaches the disk (seed NFR6: zero data loss).
                try database.writeWithoutTransaction { try $0.execute(sql: "PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL") }
                if !applied.isSuperset(of: Migrations.migrator.migrations) {
                    try migrate(database, path: path)
                    applied = Set(Migrations.migrator.migrations)
                    emptyTheWAL(of: database)  // the new indexes and counts of a big store
                }
            case .readOnly where !exists:
                // No store yet at the default location: an empty one in memory, with the whole schema.
                database = try DatabaseQueue()
                try Migrations.migrator.migrate(database)
                applied = Set(Migrations.migrator.migrations)
            case .readOnly:
                database = try DatabaseQueue(path: readOnlyURI(path), configuration: configuration)
                applied = try checkSchema(database, path: path)
            }
            logger.debug("opened store", metadata: ["path": "\(path)", "mode": "\(mode)", "exists": "\(exists)"])
            return TaskStore(
                path: path, mode: mode, database: database, keepsOpenTaskCounts: applied.contains(Migrations.openTaskCounts),
                logger: logger)
        } catch {
            throw StoreErrors.map(error, path: path)
        }
    }

    /// Runs `body` in one write transaction; any error rolls everything back.
    func write<T: Sendable>(_ body: @Sendable (Database) throws -> T) throws -> T {
        guard mode == .readWrite else {
            throw TaskWidgetError(.permissionDenied, "the store was opened read-only", context: path)
        }
        do {
            return try database.write(body)
        } catch {
            throw StoreErrors.map(error, path: path)
        }
    }

    /// The `-wal` size past which the last writer to close truncates it (`journal_size_limit`).
    static let walLimit = 4 << 20

    /// A process that opens the store while no other has it open first reads the whole `-wal` file
    /// (SQLite's WAL recovery), which after a big import costs every status line more than the rest of its work.
    /// The last writer to close truncates it, but not when another process (a watch) has the store
    /// open then. So a big write (an import, a migration) checkpoints and truncates it at once.
    /// The write is already committed: a reader that holds the checkpoint back is not waited for,
    /// and the `-wal` is then left for the last writer.
    static func emptyTheWAL(of database: some DatabaseWriter) {
        try? database.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA busy_timeout = 0")
            defer { try? db.execute(sql: "PRAGMA busy_timeout = 15000") }
            _ = try? Row.fetchOne(db, sql: "PRAGMA wal_checkpoint(TRUNCATE)")
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
        guard access(path + "-wal", F_OK) != 0 else { return path }
        let isWritable = access(path, W_OK) == 0 && (fileStatus(path)?.st_mode ?? 0) & 0o222 != 0
        guard !isWritable || access(StoreLocation(path: path, isDefault: false).folder, W_OK) != 0 else { return path }
        let escaped = path.replacingOccurrences(of: "%", with: "%25")
            .replacingOccurrences(of: "?", with: "%3f").replacingOccurrences(of: "#", with: "%23")
        return "file:\(escaped)?immutable=1"
    }

    /// `stat` of `path`, through symbolic links; `nil` when there is nothing there to reach.
    private static func fileStatus(_ path: String) -> stat? {
        var status = stat()
        return stat(path, &status) == 0 ? status : nil
    }

    /// Refuses what cannot be a store file; returns whether the store exists. For a missing store
    /// that a writer will create, checks (or, at the default location, creates) its folder; a
    /// reader accepts a missing store at the default location only.
    private static func checkPath(_ location: StoreLocation, mode: AccessMode) throws -> Bool {
        let path = location.path
        // A store another process links into place between two looks is found by the second one.
        for _ in 0..<2 {
            if let status = fileStatus(path) {
                switch status.st_mode & S_IFMT {
                case S_IFREG: return true
                case S_IFDIR:
                    throw TaskWidgetError(.notAFile, "\(path) is a folder, not a store file: pass --store with a file path", context: path)
                default:
                    throw TaskWidgetError(
                        .notAFile, "\(path) is not a regular file: pass --store with the path of a store file", context: path)
                }
            }
            var link = stat()
            guard lstat(path, &link) == 0 else { break }
            if link.st_mode & S_IFMT == S_IFLNK, fileStatus(path) == nil {
                throw TaskWidgetError(
                    .notAFile, "\(path) is a dangling or looping symbolic link: fix it or pass another --store", context: path)
            }
        }
        switch mode {
        case .readOnly where location.isDefault:
            return false
        case .readOnly:
            throw TaskWidgetError(
                .storeMissing, "there is no store at \(path) yet: check the path (--store, TASKWIDGET_STORE), or create it with a first `taskwidget add`",
                context: path)
        case .readWrite:
            let fileManager = FileManager.default
            let folderPath = location.folder
            var isDirectory: ObjCBool = false
            if location.isDefault && !fileManager.fileExists(atPath: folderPath) {
                do {
                    try fileManager.createDirectory(
                        atPath: folderPath, withIntermediateDirectories: true,
                        attributes: [.posixPermissions: 0o700])
                } catch {
                    throw TaskWidgetError(
                        .permissionDenied, "cannot create the folder \(folderPath): check its permissions", context: folderPath,
                        cause: error)
                }
            }
            guard fileManager.fileExists(atPath: folderPath, isDirectory: &isDirectory), isDirectory.boolValue
            else {
                throw TaskWidgetError(
                    .storeMissing, "the folder \(folderPath) does not exist: create it first or pass another --store", context: folderPath)
            }
            guard fileManager.isWritableFile(atPath: folderPath) else {
                throw TaskWidgetError(
                    .permissionDenied, "the folder \(folderPath) is not writable: fix its permissions or pass another --store",
                    context: folderPath)
            }
            return false
        }
    }

    /// Creates a new store with its whole schema beside its path, then links it into place: a
    /// reader never finds a store whose migrations are half done (GRDB commits each on its own),
    /// and of several processes creating the store at once, one links its file and the others use it.
    private static func createComplete(at location: StoreLocation, configuration: Configuration) throws {
        let path = location.path
        let temporary = path + ".new-\(UUID().uuidString)"
        defer { for suffix in ["", "-wal", "-shm"] { unlink(temporary + suffix) } }
        let queue = try DatabaseQueue(path: temporary, configuration: configuration)
        try queue.writeWithoutTransaction { try $0.execute(sql: "PRAGMA journal_mode = WAL") }
        try migrate(queue, path: path)
        try queue.close()  // the last connection: everything is checkpointed into the file
        guard link(temporary, path) == 0 || errno == EEXIST else {
            throw TaskWidgetError.system(errno, "cannot create the store \(path)", advice: "check the folder", context: path)
        }
        AtomicFile.syncFolder(location.folder)
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
                    .damagedStore,
                    tableCount == 0
                        ? "the store \(path) is empty: add a task with `taskwidget add TITLE` to set it up"
                        : "\(path) is an SQLite database but not a taskwidget store: pass another --store", context: path)
            }
            if !applied.isSubset(of: Migrations.migrator.migrations) {
                throw TaskWidgetError(
                    .storeVersion, "the store \(path) was written by a newer taskwidget: upgrade taskwidget to use it", context: path)
            }
            if !allowEmpty, !applied.contains(Migrations.lastNeededForReading) {
                throw TaskWidgetError(
                    .storeVersion, "the store \(path) needs an upgrade: run a write command such as `taskwidget list add`", context: path)
            }
            return applied
        }
    }
}
