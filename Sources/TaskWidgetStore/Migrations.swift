import GRDB

/// The store's schema, as migrations with stable names. A migration never uses the model types:
/// it must create the same schema in every future version of the code.
enum Migrations {
    /// The last migration that changes what readers read. Later ones only add indexes, so a display
    /// command, which never migrates, still reads a store that no writer has upgraded yet.
    static let lastNeededForReading = "v1"

    /// The migration that adds `openTaskCount`; readers of older stores count by scanning.
    static let openTaskCounts = "v3"

    /// `openTaskCount.dueBucket` of an open task: its due date (Unix ms) shifted right by
    /// ``dueBucketShift``, a bucket of 18.6 hours (a shift floors negative dates too); undated tasks
    /// go in the largest bucket. Frozen in v3's triggers: a new shift needs a new migration.
    static func dueBucket(_ column: String) -> String { "coalesce(\(column) >> \(dueBucketShift), \(Int64.max))" }
    static let dueBucketShift: Int64 = 26

    /// `openTaskCount.listKey` of a task in no list (the others have their list's id).
    static let inboxKey = "''"
    static func listKey(_ column: String) -> String { "coalesce(\(column), \(inboxKey))" }

    /// The migration that adds sync's state (SPEC §12). Its name says what it is, so that no other
    /// branch's fourth migration can be taken for it.
    static let syncState = "v4-sync"

    /// The migration that keeps deleted lists that a server knows of until sync has deleted them there.
    static let listTombstones = "v5-list-tombstones"

    /// The migration that remembers each collection's name and color as the server gave them, so
    /// that sync sees a rename there.
    static let collectionNames = "v6-collection-names"

    /// The migration that keeps, for an account whose sync state was forgotten (`sync account
    /// forget`), the lists and tasks it synced, so that no other account takes them before its
    /// next sync places them.
    static let syncClaims = "v7-sync-claims"

    /// The migration that marks the calendar objects sync leaves alone (not valid iCalendar) by a
    /// column of their own, so that they keep the last common copy of their task for the merge
    /// once they are valid again.
    static let leftAloneObjects = "v8-left-alone-objects"

    /// The migration that keeps a task's tombstone once sync has carried its deletion to the
    /// server (marked settled, which sync then passes over), and records one for a task deleted on
    /// the server: `import` of an older copy keeps such a task deleted, where it brought it back,
    /// and the next sync took it to every device (helper-130).
    static let settledTombstones = "v9-settled-tombstones"

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            // The seeds' SchemaV1 (tasks, lists) plus habits and their daily completions (seed 002).
            try db.create(table: "taskList") { t in
                t.primaryKey("id", .text)
                t.column("name", .text).notNull().unique().collate(.nocase)
                t.column("colorHex", .text).notNull()
                t.column("createdAt", .integer).notNull()
                t.column("sortOrder", .integer).notNull()
            }
            try db.create(table: "task") { t in
                t.primaryKey("id", .text)
                t.column("title", .text).notNull()
                t.column("isCompleted", .boolean).notNull()
                t.column("state", .text).notNull()
                t.column("dueDate", .integer)
                t.column("reminderDate", .integer)
                t.column("createdAt", .integer).notNull()
                t.column("modifiedAt", .integer).notNull()
                t.column("completedAt", .integer)
                t.column("listID", .text).references("taskList", onDelete: .cascade)
                t.column("sortOrder", .integer).notNull()
            }
            // Status queries read open tasks by due date and recent completions only, so their cost
            // does not grow with the number of completed tasks. The open-task index holds every
            // column those queries read (isCompleted too, which SQLite needs to use it as covering).
            try db.execute(
                sql: """
                    CREATE INDEX task_open_by_due ON task(dueDate, listID, isCompleted) WHERE isCompleted = 0;
                    CREATE INDEX task_by_completion ON task(completedAt) WHERE completedAt IS NOT NULL;
                    CREATE INDEX task_by_list_order ON task(listID, sortOrder, createdAt);
                    """)
            try db.create(table: "habit") { t in
                t.primaryKey("id", .text)
                t.column("name", .text).notNull().unique().collate(.nocase)
                t.column("icon", .text).notNull()
                t.column("colorHex", .text).notNull()
                t.column("createdAt", .integer).notNull()
            }
            try db.create(table: "habitCompletion") { t in
                t.column("habitID", .text).notNull().references("habit", onDelete: .cascade)
                t.column("day", .text).notNull()
                t.column("status", .text).notNull()
                t.primaryKey(["habitID", "day"])
            }
        }
        migrator.registerMigration("v2") { db in
            // The widget's top tasks come out of these in order, a handful of rows each, instead of
            // scanning every open task, whatever their number. The order index holds
            // the whole order key, so `ORDER BY dueDate, sortOrder, createdAt, id LIMIT n` stops after n
            // rows, dated or undated (NULL due dates come first). The narrower task_open_by_due stays
            // for the counts, which scan it whole.
            try db.execute(
                sql: """
                    CREATE INDEX task_open_in_order ON task(dueDate, sortOrder, createdAt, id) WHERE isCompleted = 0;
                    CREATE INDEX task_open_by_state ON task(state, listID) WHERE isCompleted = 0;
                    """)
        }
        migrator.registerMigration(openTaskCounts) { db in
            // The counts of open tasks per list and due bucket, kept by triggers, so that a status
            // line sums a few hundred rows instead of scanning every open task (SPEC §9: status at
            // 100 000 tasks within 1.5× its time at 1 000). An update that moves a task out of a
            // bucket and into another runs both halves; rows that reach 0 are removed.
            let (newBucket, oldBucket) = (dueBucket("NEW.dueDate"), dueBucket("OLD.dueDate"))
            let (newKey, oldKey) = (listKey("NEW.listID"), listKey("OLD.listID"))
            let add = """
                INSERT INTO openTaskCount SELECT \(newKey), \(newBucket), 1 WHERE NEW.isCompleted = 0
                    ON CONFLICT DO UPDATE SET count = count + 1;
                """
            let remove = """
                UPDATE openTaskCount SET count = count - 1
                    WHERE OLD.isCompleted = 0 AND listKey = \(oldKey) AND dueBucket = \(oldBucket);
                DELETE FROM openTaskCount WHERE count = 0 AND listKey = \(oldKey) AND dueBucket = \(oldBucket);
                """
            try db.execute(
                sql: """
                    CREATE TABLE openTaskCount (
                        listKey TEXT NOT NULL, dueBucket INTEGER NOT NULL, count INTEGER NOT NULL,
                        PRIMARY KEY (listKey, dueBucket)) WITHOUT ROWID;
                    INSERT INTO openTaskCount SELECT \(listKey("listID")), \(dueBucket("dueDate")), count(*)
                        FROM task WHERE isCompleted = 0 GROUP BY 1, 2;
                    CREATE TRIGGER openTaskCount_insert AFTER INSERT ON task BEGIN \(add) END;
                    CREATE TRIGGER openTaskCount_delete AFTER DELETE ON task BEGIN \(remove) END;
                    CREATE TRIGGER openTaskCount_update AFTER UPDATE OF isCompleted, dueDate, listID ON task
                        BEGIN \(remove) \(add) END;
                    """)
        }
        migrator.registerMigration(syncState) { db in
            // What `taskwidget sync` remembers between runs, apart from the tasks themselves, which
            // it never changes the shape of. Per account: its calendar home, found from its URL. Per collection: the list it maps to, the
            // sync-token and ctag. Per calendar object: its task, entity tag, the server's text (so
            // that other clients' properties go back byte for byte), the UID when it is not the
            // task's id, and the fields both sides agreed on at the last sync (JSON), the base of
            // the three-way merge. Tombstones keep deleted tasks that a server knows of until sync
            // has deleted them there. Status queries never read these tables.
            try db.execute(
                sql: """
                    CREATE TABLE syncAccount (account TEXT PRIMARY KEY NOT NULL, accountURL TEXT NOT NULL, homeURL TEXT NOT NULL);
                    CREATE TABLE syncCollection (
                        account TEXT NOT NULL, href TEXT NOT NULL, url TEXT NOT NULL,
                        listID TEXT, isInbox INTEGER NOT NULL DEFAULT 0,
                        syncToken TEXT, ctag TEXT,
                        PRIMARY KEY (account, href));
                    CREATE TABLE syncObject (
                        account TEXT NOT NULL, href TEXT NOT NULL, collectionHref TEXT NOT NULL,
                        taskID TEXT NOT NULL, uid TEXT, etag TEXT, icalendar BLOB NOT NULL, base TEXT,
                        PRIMARY KEY (account, href));
                    CREATE INDEX syncObject_by_task ON syncObject(taskID);
                    CREATE TABLE taskTombstone (taskID TEXT PRIMARY KEY NOT NULL, deletedAt INTEGER NOT NULL);
                    """)
        }
        migrator.registerMigration(listTombstones) { db in
            // A list deleted here whose collection a server holds, until sync has deleted the
            // collection there (or found that it cannot).
            try db.execute(sql: "CREATE TABLE listTombstone (listID TEXT PRIMARY KEY NOT NULL, deletedAt INTEGER NOT NULL)")
        }
        migrator.registerMigration(collectionNames) { db in
            // NULL until the next sync of the collection: a store upgraded in between renames nothing.
            try db.execute(sql: "ALTER TABLE syncCollection ADD COLUMN displayName TEXT; ALTER TABLE syncCollection ADD COLUMN color TEXT")
        }
        migrator.registerMigration(syncClaims) { db in
            // A list (listID) or a task (taskID) per row; a row goes once the account's sync has
            // placed it on its server.
            try db.execute(sql: "CREATE TABLE syncClaim (account TEXT NOT NULL, listID TEXT, taskID TEXT)")
        }
        migrator.registerMigration(leftAloneObjects) { db in
            // Before, such an object was the one with text and no base.
            try db.execute(
                sql: """
                    ALTER TABLE syncObject ADD COLUMN isLeftAlone INTEGER NOT NULL DEFAULT 0;
                    UPDATE syncObject SET isLeftAlone = 1 WHERE base IS NULL AND length(icalendar) > 0;
                    """)
        }
        migrator.registerMigration(settledTombstones) { db in
            try db.execute(sql: "ALTER TABLE taskTombstone ADD COLUMN isSettled INTEGER NOT NULL DEFAULT 0")
        }
        return migrator
    }
}
