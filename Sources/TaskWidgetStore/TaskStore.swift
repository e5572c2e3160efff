import Foundation
import GRDB
import GRDBSQLite
import Glibc
public import Logging
import Synchronization
import TaskWidgetCore

/// The user's tasks, lists and habits in one SQLite file (SPEC §3).
///
/// Writers open it with ``open(at:mode:logger:)`` in `.readWrite` mode, which migrates the file,
/// and creates it with the first write that commits; display commands use `.readOnly`, which never
/// creates, migrates or modifies it.
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
    let location: StoreLocation
    private let configuration: Configuration
    private let connection: Mutex<Connection>
    /// Whether the store keeps the open-task counts (migration v3); a store no writer has upgraded
    /// yet is counted by scanning its open tasks.
    let keepsOpenTaskCounts: Bool
    let logger: Logger

    /// The database the store reads and writes now.
    private enum Connection {
        /// The store's file (or, for a reader of a store not created yet, an empty one in memory).
        case opened(any DatabaseWriter)
        /// A writer's store that does not exist yet: it reads as this empty one in memory until the
        /// first write that commits creates the file, so that a failed command leaves none behind.
        case notCreated(empty: DatabaseQueue)
    }

    private init(
        location: StoreLocation, mode: AccessMode, configuration: Configuration, connection: Connection, keepsOpenTaskCounts: Bool,
        logger: Logger
    ) {
        self.path = location.path
        self.location = location
        self.mode = mode
        self.configuration = configuration
        self.connection = Mutex(connection)
        self.keepsOpenTaskCounts = keepsOpenTaskCounts
        self.logger = logger
    }

    deinit {
        // A writer empties the `-wal` before it lets the store go, as SQLite's last connection does
        // on its own only when no other process has the store open. Kept while a watch, serve or
        // notify held the store, the frames of that write stayed in it, and a copy renamed or
        // copied over the store (a restore) was then read with those frames on top: the old tasks
        // came back over the restored ones, without a word and with `integrity_check` ok.
        if mode == .readWrite, case .opened(let database) = connection.withLock({ $0 }) {
            Self.emptyTheWAL(of: database, waitingUpTo: Self.readerTimeout)
        }
        Self.retire(database)
    }

    /// Closes `database` and keeps it for the rest of the process. Released, a GRDB connection's
    /// dispatch queue hands the disposal of its queue-specific values to one of libdispatch's
    /// global queues, and the first worker thread there starts libdispatch's pool monitor, which
    /// wakes the process every second for the rest of its life: a watch that reopened its store
    /// (created after it started, replaced, or SIGUSR1) did (helper-71). Kept, a closed connection
    /// costs about 2 KB (1 000 reopens: 18.8 → 21.0 MB), once per reopen or notify button press:
    /// those follow a user's actions.
    static func retire(_ database: any DatabaseReader) {
        try? database.close()
        retired.withLock { $0.append(database) }
    }

    private static let retired = Mutex<[any DatabaseReader]>([])

    /// The database the store reads and writes now.
    var database: any DatabaseWriter {
        connection.withLock { connection in
            switch connection {
            case .opened(let database): database
            case .notCreated(let empty): empty
            }
        }
    }

    /// Opens the store. In `.readWrite` mode a store found is migrated, and a missing one (with the
    /// default folder) is created by the first write that commits. In `.readOnly` mode nothing is
    /// written: a store missing at the default location reads as an empty one (a first run shows
    /// "No open tasks", not an error), and one missing at a path the user named is an error. So is
    /// one missing for a writer that is not `creating` it (one that changes what a store holds).
    /// A writer waits up to `writerTimeout` seconds for another to finish.
    public static func open(
        at location: StoreLocation, mode: AccessMode, creating: Bool = true, writerTimeout: Double = 15, logger: Logger
    ) throws -> TaskStore {
        let path = location.path
        let exists = try checkPath(location, mode: mode, creating: creating)
        var configuration = Configuration()
        configuration.readonly = mode == .readOnly
        // Concurrent writers wait for each other instead of failing. A reader of the WAL store
        // waits only on a foreign program that locks it whole: not for long, so that a bar's
        // status line shows the error instead of freezing.
        configuration.busyMode = .timeout(mode == .readOnly ? readerTimeout : writerTimeout)
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
            let connection: Connection
            let applied: Set<String>
            // A file that is no SQLite database is refused before GRDB opens it: a connection
            // that fails to open is released inside GRDB, and so starts libdispatch's pool monitor
            // (``retire(_:)``): a watch that once met a damaged store woke every second for good
            // (helper-116).
            if exists { try refuseIfNotSQLite(path) }
            switch mode {
            case .readWrite where exists:
                ScratchDatabase.removeLeftovers(in: location.folder)
                let database: DatabaseQueue
                (database, applied) = try openForWriting(path, configuration: configuration)
                connection = .opened(database)
            case .readWrite:
                connection = .notCreated(empty: try emptyInMemory())
                applied = Set(Migrations.migrator.migrations)
            case .readOnly where !exists:
                connection = .opened(try emptyInMemory())
                applied = Set(Migrations.migrator.migrations)
            case .readOnly:
                let database = try DatabaseQueue(path: readOnlyURI(path), configuration: configuration)
                do {
                    applied = try checkSchema(database, path: path)
                } catch {
                    retire(database)
                    throw error
                }
                connection = .opened(database)
            }
            logger.debug("opened store", metadata: ["path": "\(path)", "mode": "\(mode)", "exists": "\(exists)"])
            return TaskStore(
                location: location, mode: mode, configuration: configuration, connection: connection,
                keepsOpenTaskCounts: applied.contains(Migrations.openTaskCounts), logger: logger)
        } catch {
            throw StoreErrors.map(error, path: path)
        }
    }

    /// A store file opened for writing: refused if foreign or newer, converted to WAL if empty, and
    /// migrated. Returns its connection and the migrations it has.
    private static func openForWriting(_ path: String, configuration: Configuration) throws -> (DatabaseQueue, Set<String>) {
        giveJournalsTheStoresMode(path)
        let database = try DatabaseQueue(path: path, configuration: configuration)
        do {
            // Refuse a foreign or newer database before anything can write to it.
            var applied = try checkSchema(database, path: path, allowEmpty: true)
            // WAL, which the store has had since it was created (this only converts a file that was
            // empty). Every acknowledged write reaches the disk (seed NFR6: zero data loss).
            try database.writeWithoutTransaction { try $0.execute(sql: "PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL") }
            // A backup copied over the store by hand (cp, mv, sqlite3's .restore) is the store once
            // written to: with a backup's mark, `backup` took it for an old one and replaced it
            // (helper-166). `restore` unmarks what it writes as well.
            try database.writeWithoutTransaction { db in
                if try Int32.fetchOne(db, sql: "PRAGMA application_id") == backupApplicationID { try db.execute(sql: "PRAGMA application_id = 0") }
            }
            if !applied.isSuperset(of: Migrations.migrator.migrations) {
                try migrate(database)
                applied = Set(Migrations.migrator.migrations)
                emptyTheWAL(of: database)  // the new indexes and counts of a big store
            }
            return (database, applied)
        } catch {
            retire(database)
            throw error
        }
    }

    /// Throws SQLite's "not a database" for a file that is not empty and does not start with
    /// SQLite's header (`SQLite format 3` and a NUL). Opened without waiting, as a FIFO would make
    /// a read wait.
    static func refuseIfNotSQLite(_ path: String) throws {
        let descriptor = Glibc.open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { return }  // SQLite says why
        defer { close(descriptor) }
        var header = [UInt8](repeating: 0, count: 16)
        let count = Glibc.read(descriptor, &header, 16)
        guard count > 0, header != Array("SQLite format 3\0".utf8) else { return }
        throw DatabaseError(resultCode: .SQLITE_NOTADB, message: "file is not a database")
    }

    /// Gives a read-only `-wal` or `-shm` of a store that may be written the store's mode back.
    /// SQLite makes them with the store's mode, so a read while the store was read-only left them
    /// so, and after `chmod u+w` on the store the first write said it was still read-only
    /// (helper-108). Only the owner can, and only the owner could have fixed the store.
    private static func giveJournalsTheStoresMode(_ path: String) {
        var store = stat()
        guard access(path, W_OK) == 0, stat(path, &store) == 0 else { return }
        for journal in ["-wal", "-shm"].map({ path + $0 }) where access(journal, F_OK) == 0 && access(journal, W_OK) != 0 {
            chmod(journal, store.st_mode & 0o777)
        }
    }

    /// An empty store in memory, with the whole schema: what a store not created yet reads as.
    private static func emptyInMemory() throws -> DatabaseQueue {
        let database = try DatabaseQueue()
        try Migrations.migrator.migrate(database)
        return database
    }

    /// Runs `body` in one write transaction; any error rolls everything back. The first write to a
    /// store that does not exist yet creates it, and only if `body` succeeds.
    func write<T: Sendable>(_ body: @Sendable (Database) throws -> T) throws -> T {
        guard mode == .readWrite else {
            throw TaskWidgetError(.permissionDenied, "the store was opened read-only", context: path)
        }
        do {
            let result =
                if case .opened(let database) = connection.withLock({ $0 }) {
                    try database.write(body)
                } else {
                    try connection.withLock { connection in
                        switch connection {
                        case .opened(let database):
                            return try database.write(body)
                        case .notCreated(let empty):
                            let (database, result) = try Self.create(at: location, configuration: configuration, writingFirst: body)
                            connection = .opened(database)
                            Self.retire(empty)
                            return result
                        }
                    }
                }
            SavedChanges.note()
            return result
        } catch {
            throw StoreErrors.map(error, path: path)
        }
    }

    /// How long a read-only connection waits for a lock, in seconds.
    static let readerTimeout: TimeInterval = 2

    /// The `-wal` size past which the last writer to close truncates it (`journal_size_limit`).
    static let walLimit = 4 << 20

    /// A process that opens the store while no other has it open first reads the whole `-wal` file
    /// (SQLite's WAL recovery), which after a big import costs every status line more than the rest of its work.
    /// The last writer to close truncates it, but not when another process (a watch) has the store
    /// open then. So a big write (an import, a migration) checkpoints and truncates it at once, and
    /// so does every writer when it closes (`deinit`). The write is already committed: a reader
    /// that holds the checkpoint back is waited for up to `seconds` (after a big write, not at all:
    /// the `-wal` is then left for the writer's close).
    static func emptyTheWAL(of database: some DatabaseWriter, waitingUpTo seconds: TimeInterval = 0) {
        try? database.writeWithoutTransaction { db in
            let configured = try Int.fetchOne(db, sql: "PRAGMA busy_timeout") ?? 0
            try db.execute(sql: "PRAGMA busy_timeout = \(Int(seconds * 1000))")
            defer { try? db.execute(sql: "PRAGMA busy_timeout = \(configured)") }
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

    /// Drops the pages the connection keeps in memory, so that the next read takes them from the
    /// file again: for a file written in place, which SQLite does not see (`cp backup.sqlite
    /// tasks.sqlite`), without opening it again.
    public func forgetCachedPages() throws {
        try database.unsafeRead { db in _ = sqlite3_db_release_memory(db.sqliteConnection) }
    }

    /// The path to open read-only. SQLite readers of a WAL database normally share the `-wal` and
    /// `-shm` files with writers, creating them when missing; but beside a file nobody may write
    /// (mode 0444), or in a folder we may not write, they cannot be created. So when there is no
    /// `-wal` (nothing is pending outside the main file) and it could not be created, the file is
    /// opened as immutable rather than refused.
    static func readOnlyURI(_ path: String) -> String {
        // An empty `-wal` (what every writer leaves) holds nothing: without its `-shm` (a backup
        // tool that skipped it, on a read-only mount), it is as if it were not there. SQLite
        // could not make the `-shm`, and the store could not be read (helper-125).
        let isEmptyWithoutIndex = fileStatus(path + "-wal")?.st_size == 0 && access(path + "-shm", F_OK) != 0
        guard access(path + "-wal", F_OK) != 0 || isEmptyWithoutIndex else { return path }
        let isWritable = access(path, W_OK) == 0 && (fileStatus(path)?.st_mode ?? 0) & 0o222 != 0
        guard !isWritable || access(StoreLocation(path: path, isDefault: false).folder, W_OK) != 0 else { return path }
        let escaped = path.replacingOccurrences(of: "%", with: "%25")
            .replacingOccurrences(of: "?", with: "%3f").replacingOccurrences(of: "#", with: "%23")
        return "file:\(escaped)?immutable=1"
    }

    /// Where a store is looked for, to check when it is not there.
    public static let storePathAdvice = "check the path (--store, TASKWIDGET_STORE, config.toml's store)"

    /// The error for a store that a command needs but that is not there. A first `add` creates the
    /// store, but not its folder: then the folder is to be made first.
    private static func missingStore(at path: String) -> TaskWidgetError {
        TaskWidgetError(.storeMissing, "there is no store at \(path) yet: \(missingStoreAdvice(at: path))", context: path)
    }

    /// What to do about the store at `path` that is not there: check the path, or create it (and
    /// its folder, when that is missing too) with a first add that names it: a plain one, after
    /// `ls --store work.sqlite`, wrote into the default store (helper-148).
    public static func missingStoreAdvice(at path: String) -> String {
        let folder = StoreLocation(path: path, isDefault: false).folder
        var isFolder: ObjCBool = false
        let firstAdd = "a first `taskwidget add --store \(path.shellQuoted) TITLE`"
        return FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder) && isFolder.boolValue
            ? storePathAdvice + ", or create it with " + firstAdd
            : storePathAdvice + ", or create its folder (mkdir -p \(folder.shellQuoted)) and then the store with " + firstAdd
    }

    /// `stat` of `path`, through symbolic links; `nil` when there is nothing there to reach.
    static func fileStatus(_ path: String) -> stat? {
        var status = stat()
        return stat(path, &status) == 0 ? status : nil
    }

    /// Refuses what cannot be a store file; returns whether the store exists. For a missing store
    /// that a writer will create, checks its folder (at the default location, the first write
    /// creates it); a reader accepts a missing store at the default location only, and a writer
    /// that is not `creating` one none.
    private static func checkPath(_ location: StoreLocation, mode: AccessMode, creating: Bool) throws -> Bool {
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
        case .readOnly, .readWrite where !creating:
            throw missingStore(at: path)
        case .readWrite:
            let fileManager = FileManager.default
            let folderPath = location.folder
            var isDirectory: ObjCBool = false
            if location.isDefault && !fileManager.fileExists(atPath: folderPath) { return false }
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

    /// Creates the store with its first write and returns its connection and what `body` returned.
    ///
    /// A new file beside the store's path gets the whole schema and `body`'s changes, and is linked
    /// into place once both are committed. So a reader never finds a store whose migrations are half
    /// done (GRDB commits each on its own), and a first command that fails leaves no store, nor the
    /// folders it made for the default one. Of several processes creating the store at once, one links its file,
    /// and the others run `body` again in that store.
    private static func create<T>(
        at location: StoreLocation, configuration: Configuration, writingFirst body: (Database) throws -> T
    ) throws -> (DatabaseQueue, T) {
        let path = location.path
        let madeFolders = try makeDefaultFolder(of: location)
        let linked: Bool
        let result: T
        do {
            // The store is its user's alone, whatever the umask: SQLite makes a file others may
            // read (0644), and the -wal and -shm it makes take the store's mode. Every user of the
            // machine could read the tasks (helper-121).
            let scratch = try ScratchDatabase(beside: path, kind: "new", failure: "cannot create the store \(path)", advice: "check the folder")
            defer { scratch.remove() }
            let queue = try DatabaseQueue(path: scratch.path, configuration: configuration)
            defer { retire(queue) }
            try queue.writeWithoutTransaction { try $0.execute(sql: "PRAGMA journal_mode = WAL") }
            try migrate(queue)
            result = try queue.write(body)
            // Everything into the file before it is linked. Closing checkpoints too, but one that
            // fails there (a full disk) keeps the -wal, which is then removed: the store linked
            // was damaged and every later command failed with exit 65 (helper-135).
            try queue.writeWithoutTransaction { db in
                let row = try Row.fetchOne(db, sql: "PRAGMA wal_checkpoint(TRUNCATE)")
                guard row?[0] == 0 else { throw DatabaseError(resultCode: .SQLITE_BUSY, message: "the new store's checkpoint was held back") }
            }
            try queue.close()  // the last connection
            linked = link(scratch.path, path) == 0
            guard linked || errno == EEXIST else {
                throw TaskWidgetError.system(errno, "cannot create the store \(path)", advice: "check the folder", context: path)
            }
        } catch let error as DatabaseError where error.resultCode == .SQLITE_ERROR && error.message?.hasPrefix("no such table") == true {
            // In a file just made, SQLite's own tables are missing only when a write beneath it
            // failed unreported: a disk too full for the -shm. It read as another program's
            // database (helper-135).
            for folder in madeFolders { rmdir(folder) }
            throw TaskWidgetError(.ioFailure, "cannot create the store \(path): SQLite could not set it up: check that its disk has room", context: path, cause: error)
        } catch {
            for folder in madeFolders { rmdir(folder) }
            throw error
        }
        AtomicFile.syncFolder(location.folder)
        let (database, _) = try openForWriting(path, configuration: configuration)
        return (database, linked ? result : try database.write(body))
    }

    /// Creates the default store's folder (private to the user) if it is missing; returns the
    /// folders it made, the innermost first.
    public static func makeDefaultFolder(of location: StoreLocation) throws -> [String] {
        var missing: [String] = []
        var folder = URL(fileURLWithPath: location.folder)
        while location.isDefault && folder.path != "/" && !FileManager.default.fileExists(atPath: folder.path) {
            missing.append(folder.path)
            folder.deleteLastPathComponent()
        }
        guard !missing.isEmpty else { return [] }
        try AtomicFile.makeFolder(location.folder, permissions: 0o700)
        return missing
    }

    /// Brings the schema up to date. Several processes may race to migrate a new store: the loser's
    /// transaction fails and is rolled back, and it then finds the migrations applied.
    static func migrate(_ database: any DatabaseWriter) throws {
        let migrator = Migrations.migrator
        if try database.read(migrator.hasCompletedMigrations) { return }
        do {
            try migrator.migrate(database)
        } catch {
            guard try database.read(migrator.hasCompletedMigrations) else { throw error }
        }
    }

    /// The columns of a taskwidget store's `task` table since its first version.
    private static let taskColumns: Set = ["id", "title", "isCompleted", "state", "dueDate", "reminderDate", "createdAt", "modifiedAt", "listID", "sortOrder"]

    /// The error for another program's SQLite database.
    static func notATaskwidgetStore(_ path: String) -> TaskWidgetError {
        TaskWidgetError(.damagedStore, "\(path) is an SQLite database but not a taskwidget store: pass another --store", context: path)
    }

    /// Refuses foreign databases, stores from a newer taskwidget, and (for readers) unmigrated ones.
    /// Returns the migrations the store has.
    static func checkSchema(_ database: any DatabaseReader, path: String, allowEmpty: Bool = false) throws -> Set<String> {
        try database.read { db in
            // One query answers all three questions; only a database without the table asks more.
            let applied: Set<String>
            do {
                applied = try String.fetchSet(db, sql: "SELECT identifier FROM grdb_migrations")
            } catch let error as DatabaseError where error.message?.hasPrefix("no such table") == true {
                let tableCount = try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master WHERE type = 'table'") ?? 0
                if tableCount == 0 && allowEmpty { return [] }
                guard tableCount > 0 else {
                    throw TaskWidgetError(
                        .damagedStore, "the store \(path) is empty: add a task with `taskwidget add TITLE` to set it up", context: path)
                }
                throw notATaskwidgetStore(path)
            }
            let known = Set(Migrations.migrator.migrations)
            if !applied.isSubset(of: known) || (allowEmpty && !known.isSubset(of: applied)) {
                // Newer, or to be upgraded; or another program's GRDB database, whose migrations
                // are its own (its first may be named v1 too, and it may have a `task` table): it
                // was migrated as an old store, and left in WAL mode, or called newer (helpers 85,
                // 89). Ours have taskwidget's tasks and lists.
                let tables = try String.fetchSet(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
                if allowEmpty && applied.isEmpty && tables == ["grdb_migrations"] { return [] }
                let taskColumns = try String.fetchSet(db, sql: "SELECT name FROM pragma_table_info('task')")
                guard tables.contains("taskList"), Self.taskColumns.isSubset(of: taskColumns) else { throw notATaskwidgetStore(path) }
            }
            if !applied.isSubset(of: known) {
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
