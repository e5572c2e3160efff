public import Foundation
import GRDB
public import TaskWidgetCore

/// A server collection that sync knows, and the list it maps to (SPEC §12).
public struct SyncedCollection: Sendable, Equatable {
    /// The account's name in the configuration.
    public var account: String
    /// The collection's path on the server, percent-decoded, ending with `/`: its key.
    public var href: String
    /// Its full URL.
    public var url: String
    /// The list its tasks belong to; `nil` for the Inbox's collection.
    public var listID: UUID?
    /// Whether it holds the Inbox (the tasks without a list).
    public var isInbox: Bool
    public var syncToken: String?
    public var ctag: String?
    /// Its display name and `calendar-color` as the server gave them at the last sync, empty when
    /// it gave none (`nil` before the store remembered them), to tell a rename there.
    public var displayName: String?
    public var color: String?

    public init(
        account: String, href: String, url: String, listID: UUID?, isInbox: Bool, syncToken: String?, ctag: String?,
        displayName: String? = nil, color: String? = nil
    ) {
        self.account = account
        self.href = href
        self.url = url
        self.listID = listID
        self.isInbox = isInbox
        self.syncToken = syncToken
        self.ctag = ctag
        self.displayName = displayName
        self.color = color
    }
}

/// A calendar object on a server as sync last saw it.
public struct SyncedObject: Sendable, Equatable {
    public var account: String
    /// The object's path on the server, percent-decoded: its key.
    public var href: String
    /// The collection it lives in.
    public var collectionHref: String
    /// The task it is; a task deleted since has a tombstone with this id.
    public var taskID: UUID
    /// The VTODO's UID when it is not `taskID` written as a UUID (another client's task).
    public var uid: String?
    public var etag: String?
    /// The server's iCalendar text, so that what taskwidget does not model goes back unchanged.
    public var icalendar: Data
    /// The fields both sides agreed on at the last sync; `nil` for an object that never held a
    /// valid task.
    public var base: TaskFields?
    /// Sync leaves the object alone, and its task here too, until it reads as valid iCalendar;
    /// its text is then the invalid one, and its base the one from before.
    public var isLeftAlone: Bool

    public init(
        account: String, href: String, collectionHref: String, taskID: UUID, uid: String?, etag: String?, icalendar: Data,
        base: TaskFields?, isLeftAlone: Bool = false
    ) {
        self.account = account
        self.href = href
        self.collectionHref = collectionHref
        self.taskID = taskID
        self.uid = uid
        self.etag = etag
        self.icalendar = icalendar
        self.base = base
        self.isLeftAlone = isLeftAlone
    }
}

/// A deleted task that a server knows of: kept until sync has deleted it there (or an edit made
/// after it on the server brought it back).
public struct TaskTombstone: Sendable, Equatable {
    public var taskID: UUID
    public var deletedAt: Instant

    public init(taskID: UUID, deletedAt: Instant) {
        self.taskID = taskID
        self.deletedAt = deletedAt
    }
}

/// What sync reads in one snapshot: the account's state, and every list, task and tombstone.
public struct SyncSnapshot: Sendable {
    /// The account's calendar home, found by discovery on its first sync, and the account URL
    /// it was found from (a changed URL means discovering it again).
    public var home: (accountURL: String, homeURL: String)?
    public var collections: [SyncedCollection]
    /// The lists that other accounts' collections hold, or that they claim
    /// (``TaskStore/forgetSyncState(account:keepingClaims:)``).
    public var listsOfOtherAccounts: Set<UUID>
    /// The objects of this account.
    public var objects: [SyncedObject]
    /// The ids of tasks that another account with an Inbox has objects of, or Inbox tasks that
    /// another account claims: in the Inbox, they are that account's to sync (one without an
    /// Inbox deletes its copy of a task moved to the Inbox). A task in a list goes with its list.
    public var tasksOfOtherAccounts: Set<UUID>
    /// The lists this account claims: synced with it before its state was forgotten, they are
    /// its to place, whether or not it receives new lists.
    public var claimedLists: Set<UUID> = []
    /// The Inbox tasks this account claims, as ``claimedLists``.
    public var claimedInboxTasks: Set<UUID> = []
    public var lists: [TaskList]
    public var tasks: [TaskItem]
    public var tombstones: [TaskTombstone]
    /// Lists deleted here whose collection some account's server may still hold.
    public var listTombstones: Set<UUID>
}

/// What one sync writes to the store, all in one transaction.
public struct SyncChanges: Sendable {
    /// The account's calendar home and the account URL it was found from, to remember.
    public var home: (accountURL: String, homeURL: String)?
    /// Lists to create (collections new to this store).
    public var listsToSave: [TaskList] = []
    /// Lists whose collection the server renamed or recolored: only their name and color are
    /// written, and only while the list is there and no other list has the name (a command may
    /// have changed the store since the snapshot they come from).
    public var listsRenamed: [TaskList] = []
    /// Tasks to create or replace with merged fields.
    public var tasksToSave: [TaskItem] = []
    /// Tasks to delete (deleted on the server), each with when sync found it deleted: a settled
    /// tombstone of that time keeps an older copy out of `import`.
    public var tasksToDelete: [UUID: Instant] = [:]
    /// Lists to delete (their collection is gone from the server and they have no tasks left).
    public var listsToDelete: [UUID] = []
    /// Each task written or deleted as sync read it (`nil`: absent). If the store holds anything
    /// else now, another command changed it meanwhile: nothing is written, and sync merges again.
    public var expectedTasks: [UUID: TaskItem?] = [:]
    public var collectionsToSave: [SyncedCollection] = []
    /// Hrefs of this account's collections to forget, with their objects.
    public var collectionsToForget: [String] = []
    public var objectsToSave: [SyncedObject] = []
    /// Hrefs of this account's objects to forget.
    public var objectsToForget: [String] = []
    /// Tombstones whose deletion has reached the server (or lost to a later edit): they are kept,
    /// settled, for `import`, while their task stays deleted.
    public var tombstonesToClear: [UUID] = []
    /// Deleted lists whose collection sync has dealt with (deleted it there, or left it), or
    /// that came back.
    public var listTombstonesToClear: [UUID] = []

    public init() {}

    public var isEmpty: Bool {
        home == nil && listsToSave.isEmpty && listsRenamed.isEmpty && tasksToSave.isEmpty && tasksToDelete.isEmpty && listsToDelete.isEmpty && collectionsToSave.isEmpty
            && collectionsToForget.isEmpty && objectsToSave.isEmpty && objectsToForget.isEmpty && tombstonesToClear.isEmpty
            && listTombstonesToClear.isEmpty
    }
}

extension TaskStore {
    /// Everything sync needs for `account`, read in one snapshot.
    public func syncSnapshot(account: String) throws -> SyncSnapshot {
        try read { db in
            let collections = try Row.fetchAll(db, sql: "SELECT * FROM syncCollection WHERE account = ? ORDER BY href", arguments: [account])
                .map { row in
                    SyncedCollection(
                        account: row["account"], href: row["href"], url: row["url"],
                        listID: (row["listID"] as String?).flatMap(UUID.init(uuidString:)), isInbox: row["isInbox"],
                        syncToken: row["syncToken"], ctag: row["ctag"], displayName: row["displayName"], color: row["color"])
                }
            let decoder = JSONDecoder()
            let objects = try Row.fetchAll(db, sql: "SELECT * FROM syncObject WHERE account = ? ORDER BY href", arguments: [account])
                .compactMap { row -> SyncedObject? in
                    guard let taskID = UUID(uuidString: row["taskID"]) else { return nil }
                    let base = (row["base"] as String?).flatMap { try? decoder.decode(TaskFields.self, from: Data($0.utf8)) }
                    return SyncedObject(
                        account: row["account"], href: row["href"], collectionHref: row["collectionHref"], taskID: taskID,
                        uid: row["uid"], etag: row["etag"], icalendar: row["icalendar"], base: base, isLeftAlone: row["isLeftAlone"])
                }
            let others = try String.fetchAll(
                db,
                sql: """
                    SELECT taskID FROM syncObject o WHERE account != ?1
                        AND EXISTS (SELECT 1 FROM syncCollection c WHERE c.account = o.account AND c.isInbox)
                    UNION SELECT taskID FROM syncClaim JOIN task ON task.id = taskID WHERE account != ?1 AND task.listID IS NULL
                    """,
                arguments: [account])
            let otherLists = try String.fetchAll(
                db,
                sql: """
                    SELECT listID FROM syncCollection WHERE account != ?1 AND listID IS NOT NULL
                    UNION SELECT listID FROM syncClaim WHERE account != ?1 AND listID IS NOT NULL
                    """,
                arguments: [account])
            let claimedLists = try String.fetchAll(
                db, sql: "SELECT listID FROM syncClaim WHERE account = ? AND listID IS NOT NULL", arguments: [account])
            let claimedInboxTasks = try String.fetchAll(
                db, sql: "SELECT taskID FROM syncClaim JOIN task ON task.id = taskID WHERE account = ? AND task.listID IS NULL", arguments: [account])
            let home = try Row.fetchOne(db, sql: "SELECT accountURL, homeURL FROM syncAccount WHERE account = ?", arguments: [account])
                .map { (accountURL: $0["accountURL"] as String, homeURL: $0["homeURL"] as String) }
            let tombstones = try Row.fetchAll(db, sql: "SELECT * FROM taskTombstone WHERE isSettled = 0").compactMap { row -> TaskTombstone? in
                UUID(uuidString: row["taskID"]).map { TaskTombstone(taskID: $0, deletedAt: row["deletedAt"]) }
            }
            return SyncSnapshot(
                home: home, collections: collections,
                listsOfOtherAccounts: Set(otherLists.compactMap(UUID.init(uuidString:))), objects: objects, tasksOfOtherAccounts: Set(others.compactMap(UUID.init(uuidString:))),
                claimedLists: Set(claimedLists.compactMap(UUID.init(uuidString:))),
                claimedInboxTasks: Set(claimedInboxTasks.compactMap(UUID.init(uuidString:))),
                lists: try TaskList.fetchAllInOrder(db), tasks: try TaskItem.fetchAll(db),
                tombstones: tombstones,
                listTombstones: Set(try String.fetchAll(db, sql: "SELECT listID FROM listTombstone").compactMap(UUID.init(uuidString:))))
        }
    }

    /// Writes one sync's changes in one transaction: all of them or, on any error, none.
    ///
    /// - Throws: ``TaskWidgetError/Code/storeLocked`` with the context `store changed` when a
    ///   task is no longer as ``SyncChanges/expectedTasks`` says (another command wrote it since
    ///   the snapshot): the caller merges again from a new snapshot.
    public func applySync(_ changes: SyncChanges, account: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        try write { db in
            // The tasks as they are now, a few hundred per query (one bound variable each) instead
            // of a query per task: a first pull expects a thousand tasks to be absent. In id order,
            // so that the same changes make the same queries.
            let expectedIDs = changes.expectedTasks.keys.sorted()
            var current: [UUID: TaskItem] = [:]
            for start in stride(from: 0, to: expectedIDs.count, by: Self.keysPerQuery) {
                let keys = expectedIDs[start..<min(start + Self.keysPerQuery, expectedIDs.count)].map(\.lowercasedString)
                for task in try TaskItem.fetchAll(db, keys: keys) { current[task.id] = task }
            }
            for (id, expected) in changes.expectedTasks where current[id] != expected { throw Self.storeChangedDuringSync }
            if let home = changes.home {
                try db.execute(
                    sql: "INSERT OR REPLACE INTO syncAccount (account, accountURL, homeURL) VALUES (?, ?, ?)",
                    arguments: [account, home.accountURL, home.homeURL])
            }
            for list in changes.listsToSave { try list.save(db) }
            for list in changes.listsRenamed {
                try db.execute(
                    sql: "UPDATE OR IGNORE taskList SET name = ?, colorHex = ? WHERE id = ?",
                    arguments: [list.name, list.colorHex, list.id.lowercasedString])
            }
            for (id, deletedAt) in changes.tasksToDelete {
                _ = try TaskItem.deleteOne(db, key: id.lowercasedString)
                try db.execute(
                    sql: "INSERT OR REPLACE INTO taskTombstone (taskID, deletedAt, isSettled) VALUES (?, ?, 1)",
                    arguments: [id.lowercasedString, deletedAt])
            }
            var existingLists: Set<UUID> = []
            for task in changes.tasksToSave {
                if let listID = task.listID, !existingLists.contains(listID) {
                    guard try TaskList.exists(db, key: listID.lowercasedString) else {
                        throw TaskWidgetError(.damagedStore, "sync would put a task in a list that does not exist", context: "sync: missing list")
                    }
                    existingLists.insert(listID)
                }
                try task.save(db)
            }
            for id in changes.listsToDelete {
                if try TaskItem.filter(Column("listID") == id.lowercasedString).fetchCount(db) == 0 {
                    _ = try TaskList.deleteOne(db, key: id.lowercasedString)
                }
            }
            for href in changes.collectionsToForget {
                try db.execute(sql: "DELETE FROM syncObject WHERE account = ? AND collectionHref = ?", arguments: [account, href])
                try db.execute(sql: "DELETE FROM syncCollection WHERE account = ? AND href = ?", arguments: [account, href])
            }
            for collection in changes.collectionsToSave {
                try db.execute(
                    sql: """
                        INSERT OR REPLACE INTO syncCollection (account, href, url, listID, isInbox, syncToken, ctag, displayName, color)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                        """,
                    arguments: [
                        account, collection.href, collection.url, collection.listID?.lowercasedString, collection.isInbox,
                        collection.syncToken, collection.ctag, collection.displayName, collection.color,
                    ])
            }
            for href in changes.objectsToForget {
                try db.execute(sql: "DELETE FROM syncObject WHERE account = ? AND href = ?", arguments: [account, href])
            }
            for object in changes.objectsToSave {
                let base = try object.base.map { String(decoding: try encoder.encode($0), as: UTF8.self) }
                try db.execute(
                    sql: """
                        INSERT OR REPLACE INTO syncObject (account, href, collectionHref, taskID, uid, etag, icalendar, base, isLeftAlone)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                        """,
                    arguments: [
                        account, object.href, object.collectionHref, object.taskID.lowercasedString, object.uid, object.etag,
                        object.icalendar, base, object.isLeftAlone,
                    ])
            }
            for id in changes.tombstonesToClear {
                try db.execute(sql: "UPDATE taskTombstone SET isSettled = 1 WHERE taskID = ?", arguments: [id.lowercasedString])
            }
            // A task that came back has no use for its tombstone.
            try db.execute(sql: "DELETE FROM taskTombstone WHERE isSettled = 1 AND taskID IN (SELECT id FROM task)")
            for id in changes.listTombstonesToClear {
                try db.execute(sql: "DELETE FROM listTombstone WHERE listID = ?", arguments: [id.lowercasedString])
            }
            // The claims the account has placed now (or whose list or task is gone) are done.
            try db.execute(
                sql: """
                    DELETE FROM syncClaim WHERE account = ?1 AND (
                        listID IN (SELECT listID FROM syncCollection WHERE account = ?1)
                        OR taskID IN (SELECT taskID FROM syncObject WHERE account = ?1)
                        OR (listID IS NOT NULL AND listID NOT IN (SELECT id FROM taskList))
                        OR (taskID IS NOT NULL AND taskID NOT IN (SELECT id FROM task)))
                    """,
                arguments: [account])
        }
    }

    /// Forgets, in one transaction, what this store synced with `account`: its calendar home,
    /// collections and calendar objects, so that its next sync is a first sync. The lists and
    /// tasks stay; with `keepingClaims` (an account still configured) they stay the account's,
    /// and no other account takes them until its sync has placed them
    /// (``SyncSnapshot/claimedLists``); without, they become this machine's own. Deletions not
    /// yet sent stay recorded (`import` reads them too). Returns how many of the account's lists
    /// and tasks stay, or `nil` when the store had nothing of the account.
    public func forgetSyncState(account: String, keepingClaims: Bool) throws -> (lists: Int, tasks: Int)? {
        try write { db in
            let lists = try String.fetchAll(db, sql: "SELECT id \(Self.lists(heldBy: "?1"))", arguments: [account])
            let tasks = try String.fetchAll(db, sql: "SELECT id \(Self.tasks(heldBy: "?1"))", arguments: [account])
            var forgotten = 0
            for table in ["syncObject", "syncCollection", "syncAccount", "syncClaim"] {
                try db.execute(sql: "DELETE FROM \(table) WHERE account = ?", arguments: [account])
                forgotten += db.changesCount
            }
            guard forgotten > 0 else { return nil }
            if keepingClaims {
                for list in lists { try db.execute(sql: "INSERT INTO syncClaim (account, listID) VALUES (?, ?)", arguments: [account, list]) }
                for task in tasks { try db.execute(sql: "INSERT INTO syncClaim (account, taskID) VALUES (?, ?)", arguments: [account, task]) }
            }
            return (lists.count, tasks.count)
        }
    }

    /// Whether the list `id` is synced with a collection of some account (a store without the
    /// sync tables syncs none).
    public func isListSynced(_ id: UUID) throws -> Bool {
        try read { db in
            guard try db.tableExists("syncCollection") else { return false }
            return try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM syncCollection WHERE listID = ?)", arguments: [id.lowercasedString]) ?? false
        }
    }

    /// Every account name this store keeps sync state or claims for, with how many of its lists
    /// and tasks are here: the accounts of config.toml, and any it no longer names (a renamed or
    /// removed account, whose lists and tasks no other account takes until it is forgotten).
    /// None in a store without the sync tables (read as an earlier release wrote it).
    public func accountsWithSyncState() throws -> [(account: String, lists: Int, tasks: Int)] {
        try read { db in
            let tables = try String.fetchAll(
                db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name IN ('syncAccount', 'syncCollection', 'syncObject', 'syncClaim')")
            guard tables.count == 4 else { return [] }
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT holder, (SELECT count(*) \(Self.lists(heldBy: "held.holder"))), (SELECT count(*) \(Self.tasks(heldBy: "held.holder"))) FROM (
                        SELECT account AS holder FROM syncAccount UNION SELECT account FROM syncCollection
                        UNION SELECT account FROM syncObject UNION SELECT account FROM syncClaim) AS held
                    ORDER BY holder
                    """)
            return rows.map { (account: $0[0], lists: $0[1], tasks: $0[2]) }
        }
    }

    /// `FROM … WHERE …` of the lists here that the account named by the SQL expression `account`
    /// (a parameter or a column) synced or claims.
    private static func lists(heldBy account: String) -> String {
        """
        FROM taskList WHERE id IN (
            SELECT listID FROM syncCollection WHERE account = \(account) UNION SELECT listID FROM syncClaim WHERE account = \(account))
        """
    }

    /// `FROM … WHERE …` of the tasks here that the account named by the SQL expression `account`
    /// synced or claims.
    private static func tasks(heldBy account: String) -> String {
        """
        FROM task WHERE id IN (
            SELECT taskID FROM syncObject WHERE account = \(account) UNION SELECT taskID FROM syncClaim WHERE account = \(account))
        """
    }

    /// How many keys ``applySync(_:account:)`` reads per query: well under SQLite's limit on bound
    /// variables (32 766 since 3.32, 999 before).
    static let keysPerQuery = 500

    /// The error ``applySync(_:account:)`` throws when another command wrote a task meanwhile.
    static let storeChangedDuringSync = TaskWidgetError(
        .storeLocked, "the store changed while sync was merging: run sync again", context: "store changed")

    /// The tasks among `ids` whose calendar object on a server repeats (its VTODO has an RRULE or
    /// an RDATE): completing such a task here completes the whole series there at the next sync.
    /// None in a store without the sync tables (read as the first release wrote it); asked at each
    /// read, since a writer may upgrade the store under a reader that keeps it open (notify).
    public func tasksRepeatingOnServer(_ ids: [UUID]) throws -> Set<UUID> {
        guard !ids.isEmpty else { return [] }
        return try read { db in
            // Asked of SQLite itself: GRDB's schema cache does not see another connection's upgrade.
            guard try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM sqlite_master WHERE name = 'syncObject')") == true else { return [] }
            var repeating: Set<UUID> = []
            for id in ids {
                let texts = try Data.fetchAll(db, sql: "SELECT icalendar FROM syncObject WHERE taskID = ?", arguments: [id.lowercasedString])
                if texts.contains(where: { Self.todoRepeats(String(decoding: $0, as: UTF8.self)) }) { repeating.insert(id) }
            }
            return repeating
        }
    }

    /// Whether the VTODOs of a calendar object's text have a recurrence rule or dates. Only those
    /// count: a VTIMEZONE's rules (`RRULE:FREQ=YEARLY;BYMONTH=10`) are no task's. A property name
    /// starts its line, and folding never splits the first 75 bytes of a line.
    static func todoRepeats(_ text: String) -> Bool {
        let upper = text.uppercased()
        guard let start = upper.range(of: "BEGIN:VTODO"), let end = upper.range(of: "END:VTODO", options: .backwards),
            start.upperBound < end.lowerBound
        else { return false }
        let todos = upper[start.upperBound..<end.lowerBound]
        return ["\nRRULE:", "\nRRULE;", "\nRDATE:", "\nRDATE;"].contains { todos.contains($0) }
    }

    /// Whether `error` says that another command changed the store during a sync's merge.
    public static func isStoreChangedDuringSync(_ error: any Error) -> Bool {
        (error as? TaskWidgetError).map { $0.code == .storeLocked && $0.context == "store changed" } ?? false
    }

    /// Remembers a deleted list whose collection a sync account holds, so that sync deletes the
    /// collection there too.
    static func recordTombstone(forList list: UUID, at now: Instant, in db: Database) throws {
        try db.execute(
            sql: """
                INSERT OR REPLACE INTO listTombstone (listID, deletedAt)
                SELECT ?, ? WHERE EXISTS (SELECT 1 FROM syncCollection WHERE listID = ?)
                """,
            arguments: [list.lowercasedString, now, list.lowercasedString])
    }

    /// Records the deletion of `tasks` at `now` (SPEC §12: a deletion is kept, and loses only to
    /// a later edit), whether or not a server knows them: sync deletes a known task's object, and
    /// `import` keeps an older copy of any of them out. A sync account only acts on the tasks it
    /// knows.
    static func recordTombstones(for tasks: [UUID], at now: Instant, in db: Database) throws {
        for id in tasks {
            try db.execute(
                sql: "INSERT OR REPLACE INTO taskTombstone (taskID, deletedAt) VALUES (?, ?)", arguments: [id.lowercasedString, now])
        }
    }
}
