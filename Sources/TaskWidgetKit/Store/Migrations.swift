import GRDB

/// The store's schema, as migrations with stable names. A migration never uses the model types:
/// it must create the same schema in every future version of the code.
enum Migrations {
    /// The last migration that changes what readers read. Later ones only add indexes, so a display
    /// command, which never migrates, still reads a store that no writer has upgraded yet.
    static let lastNeededForReading = "v1"

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
            // scanning every open task (100 000 tasks: 60 ms → under 1 ms). The order index holds
            // the whole order key, so `ORDER BY dueDate, sortOrder, createdAt, id LIMIT n` stops after n
            // rows, dated or undated (NULL due dates come first). The narrower task_open_by_due stays
            // for the counts, which scan it whole.
            try db.execute(
                sql: """
                    CREATE INDEX task_open_in_order ON task(dueDate, sortOrder, createdAt, id) WHERE isCompleted = 0;
                    CREATE INDEX task_open_by_state ON task(state, listID) WHERE isCompleted = 0;
                    """)
        }
        return migrator
    }
}
