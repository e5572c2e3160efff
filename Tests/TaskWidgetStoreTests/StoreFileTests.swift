import Foundation
import GRDB
import Testing

@testable import TaskWidgetCore
@testable import TaskWidgetStore
@testable import TaskWidgetTestSupport

/// The store file: what opening creates (and never creates), what it refuses, and how it is set up.
@Suite struct StoreFileTests {
    let folder: TemporaryFolder

    static let now = Fixed.instant("2026-11-23T09:00:00Z")
    static let modes: [TaskStore.AccessMode] = [.readOnly, .readWrite]

    init() throws {
        folder = try TemporaryFolder()
    }

    func open(_ name: String, _ mode: TaskStore.AccessMode, isDefault: Bool = false) throws -> TaskStore {
        try TemporaryStore.open(folder.path(name), mode: mode, isDefault: isDefault)
    }

    func contents(_ name: String) throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: folder.path(name)))
    }

    func modificationDate(_ name: String) throws -> Date? {
        try FileManager.default.attributesOfItem(atPath: folder.path(name))[.modificationDate] as? Date
    }

    // MARK: - Missing stores

    @Test func openingAMissingStoreTheUserNamedReadOnlyIsAnErrorAndCreatesNothing() throws {
        let error = expectError(.storeMissing) { try open("tasks.sqlite", .readOnly) }
        #expect(error?.message.contains("taskwidget add") == true)
        expectError(.storeMissing) { try open("data/taskwidget/tasks.sqlite", .readOnly) }
        #expect(try folder.entries() == [])
    }

    /// A first run: before the first `add`, display commands show an empty store, not an error.
    @Test func aMissingStoreAtTheDefaultLocationReadsAsAnEmptyOneAndIsNotCreated() throws {
        for name in ["tasks.sqlite", "data/taskwidget/tasks.sqlite"] {
            let store = try open(name, .readOnly, isDefault: true)
            #expect(try store.tasks(in: .all, includeCompleted: true).isEmpty)
            #expect(try store.export().tasks.isEmpty)
            let request = TimelineRequest(now: Self.now, calendar: LocalCalendar(timeZone: Fixed.zone("Europe/Berlin")))
            let entry = TimelineProvider().currentEntry(for: request, snapshot: try store.timelineSnapshot(for: request))
            #expect(entry.counts == TaskCounts(open: 0, overdue: 0, dueToday: 0, dueSoon: 0, completedToday: 0, inbox: 0))
            expectError(.permissionDenied) { try store.addTask(NewTask(title: "x"), now: Self.now) }
        }
        #expect(try folder.entries() == [])
    }

    @Test func openingReadWriteInAMissingFolderTheUserNamedIsAnIOError() throws {
        expectError(.storeMissing) { try open("missing/tasks.sqlite", .readWrite) }
        expectError(.storeMissing) { try open("missing/deeper/tasks.sqlite", .readWrite) }
        #expect(try folder.entries() == [])
    }

    @Test func theFirstWriteAtTheDefaultLocationCreatesTheFolder() throws {
        let name = "data/taskwidget/tasks.sqlite"
        let store = try open(name, .readWrite, isDefault: true)
        _ = try store.addTask(NewTask(title: "first"), now: Self.now)
        var isDirectory: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: folder.path("data/taskwidget"), isDirectory: &isDirectory))
        #expect(isDirectory.boolValue)
        #expect(FileManager.default.fileExists(atPath: folder.path(name)))
        let reader = try open(name, .readOnly)
        #expect(try reader.tasks(in: .all, includeCompleted: true).map(\.task.title) == ["first"])
    }

    @Test func aStoreIsCreatedByTheFirstWriteThatCommits() throws {
        let store = try open("tasks.sqlite", .readWrite)
        #expect(try store.export() == StoreExport())
        #expect(try folder.entries() == [])
        _ = try store.addTask(NewTask(title: "first"), now: Self.now)
        #expect(try folder.entries().contains("tasks.sqlite"))
        _ = try store.addTask(NewTask(title: "second"), now: Self.now)
        let reader = try open("tasks.sqlite", .readOnly)
        #expect(try reader.tasks(in: .all, includeCompleted: true).map(\.task.title) == ["first", "second"])
    }

    /// SPEC §4: nothing about a failed command changes the store, so a first command that fails
    /// (a typo in `--store`, an id that is not there) must not leave an empty store behind, which a
    /// status bar would then show as "No open tasks" instead of an error.
    @Test(arguments: [false, true])
    func aFirstWriteThatFailsLeavesNoStoreNorTheFoldersItMade(isDefault: Bool) throws {
        let name = isDefault ? "data/taskwidget/tasks.sqlite" : "tasks.sqlite"
        let store = try open(name, .readWrite, isDefault: isDefault)
        expectError(.notFound) { try store.completeTasks(["abcd"], now: Self.now) }
        expectError(.notFound) { _ = try store.addTask(NewTask(title: "x", listName: "Nope"), now: Self.now) }
        #expect(try folder.entries() == [])
        _ = try store.addTask(NewTask(title: "kept"), now: Self.now)
        #expect(try open(name, .readOnly).tasks(in: .all, includeCompleted: true).map(\.task.title) == ["kept"])
    }

    /// Two writers that both found no store: one links its new file into place, and the other's
    /// first write goes to that store, not to a file of its own.
    @Test func twoWritersCreatingTheStoreAtOnceWriteToTheSameOne() throws {
        let first = try open("tasks.sqlite", .readWrite)
        let second = try open("tasks.sqlite", .readWrite)
        _ = try first.addTask(NewTask(title: "one"), now: Self.now)
        _ = try second.addTask(NewTask(title: "two"), now: Self.now)
        _ = try first.addTask(NewTask(title: "three"), now: Self.now)
        let titles = try open("tasks.sqlite", .readOnly).tasks(in: .all, includeCompleted: true).map(\.task.title)
        #expect(titles.sorted() == ["one", "three", "two"])
        #expect(try folder.entries() == ["tasks.sqlite", "tasks.sqlite-shm", "tasks.sqlite-wal"])
    }

    @Test(arguments: modes)
    func aFolderAtThePathIsAnIOError(mode: TaskStore.AccessMode) throws {
        try FileManager.default.createDirectory(atPath: folder.path("tasks.sqlite"), withIntermediateDirectories: false)
        expectError(.notAFile) { try open("tasks.sqlite", mode) }
        #expect(try folder.entries() == ["tasks.sqlite"])
    }

    // MARK: - Files that are not our store

    /// Bytes that are not SQLite (a fixed pseudo-random sequence, so every run sees the same file).
    static func garbage(count: Int) -> Data {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        return Data((0..<count).map { _ in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: state >> 33)
        })
    }

    @Test(arguments: modes)
    func aFileOfGarbageIsADataErrorAndStaysAsItWas(mode: TaskStore.AccessMode) throws {
        let bytes = Self.garbage(count: 4096)
        try bytes.write(to: URL(fileURLWithPath: folder.path("tasks.sqlite")))
        let error = expectError(.damagedStore) { try open("tasks.sqlite", mode) }
        #expect(error?.message.contains("not a taskwidget store") == true)
        #expect(try contents("tasks.sqlite") == bytes)
    }

    /// A damaged store with a `-wal` beside it says how to restore a copy: a backup copied over
    /// a store in use is read with the old `-wal` on top, and the advice was to restore a backup,
    /// which the user had just done (helper-108).
    @Test(arguments: modes)
    func aDamagedStoreWithAWALSaysHowToRestoreACopy(mode: TaskStore.AccessMode) throws {
        try Self.garbage(count: 4096).write(to: URL(fileURLWithPath: folder.path("tasks.sqlite")))
        try Self.garbage(count: 100).write(to: URL(fileURLWithPath: folder.path("tasks.sqlite-wal")))
        let path = folder.path("tasks.sqlite")
        let error = expectError(.damagedStore) { try open("tasks.sqlite", mode) }
        #expect(
            error?.message == "\(path) is not a taskwidget store or is damaged: if a copy replaced it, stop watch, serve and notify, "
                + "remove \(path)-wal and \(path)-shm, and copy it again; else restore it from a backup or pass another --store")
    }

    /// An SQLite database of another program, in the default rollback-journal mode.
    func writeForeignDatabase() throws -> Data {
        let queue = try DatabaseQueue(path: folder.path("tasks.sqlite"))
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE foo (bar TEXT); INSERT INTO foo VALUES ('keep me')")
        }
        try queue.close()
        return try contents("tasks.sqlite")
    }

    @Test(arguments: modes)
    func aForeignSQLiteDatabaseIsADataErrorAndStaysAsItWas(mode: TaskStore.AccessMode) throws {
        let bytes = try writeForeignDatabase()
        let error = expectError(.damagedStore) { try open("tasks.sqlite", mode) }
        #expect(error?.message.contains("not a taskwidget store") == true)
        #expect(try contents("tasks.sqlite") == bytes)
        #expect(try folder.entries() == ["tasks.sqlite"])
    }

    /// Another program's GRDB database (grdb_migrations, a rollback journal). One whose first
    /// migration is named v1, as ours, was migrated as an old store, which failed, and left in WAL
    /// mode; one with another name was called newer (helper-85).
    /// Its own `task` table does not make it one (helper-89).
    @Test(arguments: modes, ["v1", "createPlayer"])
    func aForeignGRDBDatabaseIsNotATaskwidgetStoreAndStaysAsItWas(mode: TaskStore.AccessMode, migration: String) throws {
        let queue = try DatabaseQueue(path: folder.path("tasks.sqlite"))
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY); CREATE TABLE task (id TEXT PRIMARY KEY, title TEXT)")
            try db.execute(sql: "INSERT INTO grdb_migrations VALUES (?)", arguments: [migration])
        }
        try queue.close()
        let bytes = try contents("tasks.sqlite")
        // A reader does not look at the tables before its first read.
        let error = expectError(.damagedStore) { _ = try open("tasks.sqlite", mode).listSummaries() }
        #expect(error?.message == "\(folder.path("tasks.sqlite")) is an SQLite database but not a taskwidget store: pass another --store")
        #expect(try contents("tasks.sqlite") == bytes)
        #expect(try folder.entries() == ["tasks.sqlite"])
    }

    @Test func anEmptyFileIsRefusedReadOnlyAndLeftEmpty() throws {
        #expect(FileManager.default.createFile(atPath: folder.path("tasks.sqlite"), contents: Data()))
        let error = expectError(.damagedStore) { try open("tasks.sqlite", .readOnly) }
        #expect(error?.message.contains("empty") == true)
        #expect(try contents("tasks.sqlite").isEmpty)
    }

    @Test(arguments: modes)
    func aStoreFromANewerTaskwidgetIsRefusedAndStaysAsItWas(mode: TaskStore.AccessMode) throws {
        let fixture = try TemporaryStore()
        _ = try fixture.store.addTask(NewTask(title: "keep me"), now: Self.now)
        let queue = try DatabaseQueue(path: fixture.path)
        try queue.write { db in try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v99')") }
        try queue.close()
        try fixture.close()
        let bytes = try Data(contentsOf: URL(fileURLWithPath: fixture.path))

        let error = expectError(.storeVersion) { try fixture.reopen(mode: mode) }
        #expect(error?.message.contains("newer") == true)
        #expect(try Data(contentsOf: URL(fileURLWithPath: fixture.path)) == bytes)
        #expect(try fixture.fetchInt("SELECT count(*) FROM grdb_migrations WHERE identifier = 'v99'") == 1)
    }

    @Test func aStoreOfTheFirstReleaseIsReadAsItIsAndUpgradedByTheNextWriter() throws {
        let fixture = try TemporaryStore()
        let kept = try fixture.store.addTask(NewTask(title: "keep me", dueDate: Self.now), now: Self.now)
        // A store written by the first release: v1 only, without the later indexes and counts.
        let queue = try DatabaseQueue(path: fixture.path)
        try queue.write { db in
            try db.execute(sql: "DROP INDEX task_open_in_order; DROP INDEX task_open_by_state")
            try TemporaryStore.dropOpenTaskCounts(db)
            try db.execute(sql: "DROP TABLE syncAccount; DROP TABLE syncCollection; DROP TABLE syncObject; DROP TABLE taskTombstone")
            try db.execute(sql: "DROP TABLE listTombstone; DROP TABLE syncClaim")
            try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier != 'v1'")
        }
        try queue.close()
        try fixture.close()
        let bytes = try Data(contentsOf: URL(fileURLWithPath: fixture.path))

        let reader = try fixture.reopen(mode: .readOnly)
        // A reader that stays open, as notify's does, across the upgrade below.
        let follower = try fixture.reopen(mode: .readOnly)
        let snapshot = try reader.timelineSnapshot(for: TL.request(now: Self.now.adding(seconds: Int64(1)), zone: .gmt))
        #expect(snapshot.leadingTasks.map(\.task.title) == ["keep me"])
        #expect(snapshot.openCount == 1 && snapshot.overdueAtStart == 1)
        // What notify asks of every snapshot: without the sync tables, nothing repeats on a server.
        #expect(try reader.tasksRepeatingOnServer([kept.task.id]).isEmpty)
        #expect(try follower.tasksRepeatingOnServer([kept.task.id]).isEmpty)
        try reader.database.close()
        #expect(try Data(contentsOf: URL(fileURLWithPath: fixture.path)) == bytes)

        try fixture.reopen(mode: .readWrite).database.close()
        #expect(try fixture.fetchInt("SELECT count(*) FROM sqlite_master WHERE name IN ('task_open_in_order', 'task_open_by_state')") == 2)
        #expect(try fixture.fetchInt("SELECT sum(count) FROM openTaskCount") == 1)
        #expect(try fixture.fetchInt("SELECT count(*) FROM sqlite_master WHERE name IN ('taskTombstone', 'syncClaim')") == 2)
        // A sync brings the task's object, which repeats: the reader opened before the upgrade sees it.
        try DatabaseQueue(path: fixture.path).write { db in
            try db.execute(
                sql: "INSERT INTO syncObject (account, href, collectionHref, taskID, icalendar) VALUES ('a', '/a/1.ics', '/a/', ?, ?)",
                arguments: [kept.task.id.lowercasedString, Data("BEGIN:VTODO\r\nRRULE:FREQ=DAILY\r\nEND:VTODO\r\n".utf8)])
        }
        #expect(try follower.tasksRepeatingOnServer([kept.task.id]) == [kept.task.id])
    }

    /// A reader waits only on a foreign program that locks the whole store, and not for 15 s: a
    /// bar's status line would freeze meanwhile.
    @Test func aReadOnlyStoreWaitsTwoSecondsForALock() throws {
        _ = try open("tasks.sqlite", .readWrite).addTask(NewTask(title: "first"), now: Self.now)
        let reader = try open("tasks.sqlite", .readOnly)
        #expect(try reader.read { db in try Int.fetchOne(db, sql: "PRAGMA busy_timeout") } == 2_000)
    }

    // MARK: - Setup of a read-write store

    @Test func aReadWriteStoreUsesWALForeignKeysAndABusyTimeout() throws {
        let fixture = try TemporaryStore()
        let database = fixture.store.database
        #expect(try database.read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") } == "wal")
        #expect(try database.read { db in try Int.fetchOne(db, sql: "PRAGMA foreign_keys") } == 1)
        let writer = try database.writeWithoutTransaction { db in
            (journalMode: try String.fetchOne(db, sql: "PRAGMA journal_mode"),
             foreignKeys: try Int.fetchOne(db, sql: "PRAGMA foreign_keys"),
             busyTimeout: try Int.fetchOne(db, sql: "PRAGMA busy_timeout"),
             synchronous: try Int.fetchOne(db, sql: "PRAGMA synchronous"))
        }
        #expect(writer.journalMode == "wal")
        #expect(writer.foreignKeys == 1)
        // Concurrent writers wait up to 15 s instead of failing.
        #expect(writer.busyTimeout == 15_000)
        // FULL: an acknowledged write survives a power cut (seed NFR6).
        #expect(writer.synchronous == 2)
        // WAL is a property of the file, seen by any other connection.
        let queue = try DatabaseQueue(path: fixture.path)
        defer { try? queue.close() }
        #expect(try queue.read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") } == "wal")
    }

    /// Every write command opens the store, writes once and closes it, keeping the `-wal` for
    /// readers. That kept `-wal` must not grow with each write: its old frames, still valid, were
    /// taken back as unsaved by the next opener's recovery, so every write appended (27 KB a
    /// task), costing disk and every reader the time to recover it.
    @Test func theKeptWALDoesNotGrowWithEveryWritingSession() throws {
        let fixture = try TemporaryStore()
        try fixture.close()
        var sizes: [Int] = []
        for index in 0..<40 {
            // As a command does: the store is released when it is done, not closed by hand.
            _ = try fixture.reopen(mode: .readWrite)
                .addTask(NewTask(title: "task \(index)", listName: index.isMultiple(of: 3) ? "Home" : nil, createsList: true), now: Self.now)
            sizes.append(try FileManager.default.attributesOfItem(atPath: fixture.path + "-wal")[.size] as? Int ?? -1)
        }
        #expect(sizes.allSatisfy { $0 >= 0 && $0 <= 65_536 }, "-wal sizes after each session: \(sizes)")
        let reader = try fixture.reopen(mode: .readOnly)
        #expect(try reader.tasks(in: .all, includeCompleted: true).count == 40)
        #expect(try fixture.fetchInt("SELECT count(*) FROM task") == 40)
    }

    @Test func aReadOnlyStoreSeesWhatTheWriterCommitted() throws {
        let fixture = try TemporaryStore()
        let reader = try fixture.reopen(mode: .readOnly)
        #expect(try reader.tasks(in: .all, includeCompleted: true).isEmpty)
        _ = try fixture.store.addTask(NewTask(title: "new", listName: "Home", createsList: true), now: Self.now)
        #expect(try reader.tasks(in: .all, includeCompleted: true).map(\.task.title) == ["new"])
        #expect(try reader.export() == fixture.store.export())
    }

    @Test func theDataVersionChangesWhenAnotherConnectionCommitsAndOnlyThen() throws {
        let fixture = try TemporaryStore()
        let reader = try fixture.reopen(mode: .readOnly)
        let before = try reader.dataVersion()
        _ = try reader.tasks(in: .all, includeCompleted: true)
        #expect(try reader.dataVersion() == before)
        _ = try fixture.store.addTask(NewTask(title: "new"), now: Self.now)
        #expect(try reader.dataVersion() != before)
    }

    // MARK: - Read-only use

    /// A store with a list, tasks and a habit.
    func fillStore(_ store: TaskStore) throws {
        _ = try store.addTask(NewTask(title: "home", listName: "Home", createsList: true), now: Self.now)
        let task = try store.addTask(NewTask(title: "inbox"), now: Self.now).task
        _ = try store.completeTasks([task.id.shortID], now: Self.now.adding(seconds: Int64(60)))
        _ = try store.addHabit(named: "Walk", icon: nil, colorHex: nil, now: Self.now)
        _ = try store.checkHabit("Walk", on: Fixed.day("2026-11-23"), status: .done)
    }

    @Test func readingAReadOnlyFileLeavesItsBytesAndModificationTimeAlone() throws {
        let fixture = try TemporaryStore()
        try fillStore(fixture.store)
        let expected = try fixture.store.export()
        try fixture.close()
        let path = fixture.path
        let past = Fixed.date("2020-01-01T00:00:00Z")
        try FileManager.default.setAttributes([.modificationDate: past, .posixPermissions: 0o444], ofItemAtPath: path)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))

        let reader = try fixture.reopen(mode: .readOnly)
        #expect(try reader.export() == expected)
        #expect(try reader.tasks(in: .all, includeCompleted: true).map(\.task.title) == ["inbox", "home"])
        #expect(try reader.listSummaries().map(\.totalCount) == [1])
        #expect(try reader.habitDays(on: Fixed.day("2026-11-23")).map(\.status) == [.done])
        try reader.database.close()

        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date == past)
    }

    /// A big write is checkpointed into the store and the -wal emptied, so that the next reader to
    /// open the store alone doesn't first read megabytes of -wal; small writes leave it be.
    @Test func aWriteThatGrowsTheWALPastItsLimitEmptiesIt() throws {
        let fixture = try TemporaryStore()
        let walSize = { (try FileManager.default.attributesOfItem(atPath: fixture.path + "-wal")[.size] as? Int) ?? -1 }
        _ = try fixture.store.addTask(NewTask(title: "small"), now: Self.now)
        #expect(try walSize() > 0 && walSize() <= TaskStore.walLimit)
        let export = RandomStore.make(seed: 7, now: Self.now.secondsSince1970, zone: .gmt, taskCount: 8000...8000)
        try fixture.store.importing(export, source: "big.json")
        #expect(try walSize() == 0)
        let reader = try fixture.reopen(mode: .readOnly)
        #expect(try reader.tasks(in: .all, includeCompleted: true).count == 8001)
    }

    @Test func writingThroughAReadOnlyStoreThrowsAndChangesNothing() throws {
        let fixture = try TemporaryStore()
        try fillStore(fixture.store)
        let before = try fixture.store.export()
        let task = try #require(before.tasks.first)
        let reader = try fixture.reopen(mode: .readOnly)

        #expect(throws: TaskWidgetError.self) { try reader.addTask(NewTask(title: "new"), now: Self.now) }
        #expect(throws: TaskWidgetError.self) { try reader.completeTasks([task.id.shortID], now: Self.now) }
        #expect(throws: TaskWidgetError.self) { try reader.deleteTasks([task.id.shortID], now: Fixed.instant("2026-11-22T12:00:00Z")) }
        #expect(throws: TaskWidgetError.self) { try reader.addList(named: "Work", colorHex: nil, now: Self.now) }
        #expect(throws: TaskWidgetError.self) { try reader.checkHabit("Walk", on: Fixed.day("2026-11-22"), status: .done) }
        #expect(throws: TaskWidgetError.self) { try reader.importing(StoreExport(), source: "test") }
        #expect(try fixture.store.export() == before)
    }
}
