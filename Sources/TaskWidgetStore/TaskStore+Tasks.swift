public import Foundation
import GRDB
public import TaskWidgetCore

extension TaskStore {
    /// Creates a task at the end of its list (or the Inbox) and returns it, with the list when
    /// this call created it (only with ``NewTask/createsList``).
    public func addTask(_ newTask: NewTask, now: Instant) throws -> (task: TaskItem, createdList: TaskList?) {
        let title = try Validation.title(newTask.title)
        let listName = try newTask.listName.map(Validation.listName)
        return try write { db in
            var (list, createdList): (TaskList?, TaskList?) = (nil, nil)
            if let listName, newTask.createsList, try Self.existingList(named: listName, in: db) == nil {
                createdList = try Self.insertList(named: listName, colorHex: TaskList.defaultColorHex, now: now, in: db)
                list = createdList
            } else if let listName {
                list = try Self.list(named: listName, in: db, creation: "add --new-list to create it")
            }
            let task = TaskItem(
                title: title, dueDate: newTask.dueDate, reminderDate: newTask.reminderDate,
                listID: list?.id, sortOrder: try Self.nextSortOrder(in: list?.id, db), createdAt: now)
            try task.insert(db)
            return (task, createdList)
        }
    }

    /// The tasks in `scope` in display order: the Inbox first, then each list in its order; within
    /// each, sortOrder then createdAt. Completed tasks only when `includeCompleted`. A list scope
    /// that names no list is an error that ends in `missingListAdvice` when given.
    public func tasks(in scope: TaskScope, includeCompleted: Bool, missingListAdvice: String? = nil) throws -> [ListedTask] {
        try read { db in
            let lists = try TaskList.fetchAllInOrder(db)
            var request = TaskItem.all()
            if !includeCompleted { request = request.filter(Column("isCompleted") == false) }
            switch scope {
            case .all: break
            case .inbox: request = request.filter(Column("listID") == nil)
            case .list(let name):
                let list = try Self.list(named: name, in: db, creation: missingListAdvice)
                request = request.filter(Column("listID") == list.id.lowercasedString)
            }
            let listByID = Dictionary(uniqueKeysWithValues: lists.map { ($0.id, $0) })
            let tasks = try Self.orderedTasks(request.fetchAll(db), lists: lists)
            let shownIDs = try Self.distinguishingIDs(of: tasks.map(\.id), in: db)
            return tasks.map { ListedTask(task: $0, list: $0.listID.flatMap { listByID[$0] }, shownID: shownIDs[$0.id]) }
        }
    }

    /// The id to show for `id`: its 8 digits, or more when another task's id shares them.
    public func shownID(of id: UUID) throws -> String {
        try read { db in try Self.distinguishingIDs(of: [id], in: db)[id] ?? id.shortID }
    }

    /// For the ids among `ids` whose first 8 digits another task's id shares, the prefix that tells
    /// them apart (``Foundation/UUID/distinguishingPrefixes(of:)``); with 32 bits of id in them, a
    /// store of 100 000 tasks likely has such a pair. A few ids (`add`, an `ls` of open tasks) are
    /// looked up on the id index one by one; for many, one pass over all ids finds the shared
    /// prefixes first.
    static func distinguishingIDs(of ids: [UUID], in db: Database) throws -> [UUID: String] {
        var candidates = ids
        if ids.count > 256 {
            let shared = Set(try String.fetchAll(db, sql: "SELECT substr(id, 1, 8) FROM task GROUP BY 1 HAVING count(*) > 1"))
            candidates = ids.filter { shared.contains($0.shortID) }
        }
        var shown: [UUID: String] = [:]
        // One query per shared prefix, not per id: 10 000 ids sharing theirs read 10 000 rows each.
        for (shortID, wanted) in Dictionary(grouping: candidates, by: \.shortID) {
            let sharing = try String.fetchAll(db, sql: "SELECT id FROM task WHERE id GLOB ?", arguments: [shortID + "*"])
            guard sharing.count > 1 else { continue }
            let prefixes = UUID.distinguishingPrefixes(of: sharing.compactMap(UUID.init(storedText:)))
            for id in wanted { shown[id] = prefixes[id] }
        }
        return shown
    }

    /// Display order: the Inbox first, then each list in list order; within each, ``TaskItem/precedes(_:_:)``.
    static func orderedTasks(_ tasks: [TaskItem], lists: [TaskList]) -> [TaskItem] {
        let rank = Dictionary(uniqueKeysWithValues: lists.sorted(by: TaskList.precedes).enumerated().map { ($1.id, $0) })
        return tasks.map { (rank: $0.listID.flatMap { rank[$0] } ?? -1, task: $0) }
            .sorted { lhs, rhs in lhs.rank != rhs.rank ? lhs.rank < rhs.rank : TaskItem.precedes(lhs.task, rhs.task) }
            .map(\.task)
    }

    /// The task whose id starts with `idPrefix` (4 or more hex digits).
    public func task(withID idPrefix: String) throws -> TaskItem {
        try read { db in try Self.resolveTask(idPrefix, in: db) }
    }

    /// Completes the tasks (idempotent) and returns them as they are now, each with whether it changed.
    public func completeTasks(_ idPrefixes: [String], now: Instant) throws -> [TaskUpdate] {
        try modifyTasks(idPrefixes) { $0.complete(at: now) }
    }

    /// Reopens completed tasks (idempotent) and returns them, each with whether it changed.
    public func uncompleteTasks(_ idPrefixes: [String], now: Instant) throws -> [TaskUpdate] {
        try modifyTasks(idPrefixes) { $0.uncomplete(at: now) }
    }

    /// Marks the tasks active and returns them, each with whether it changed.
    public func startTasks(_ idPrefixes: [String], now: Instant) throws -> [TaskUpdate] {
        try modifyTasks(idPrefixes) { $0.start(at: now) }
    }

    /// Puts active tasks back to not started and returns them, each with whether it changed.
    public func stopTasks(_ idPrefixes: [String], now: Instant) throws -> [TaskUpdate] {
        try modifyTasks(idPrefixes) { $0.stop(at: now) }
    }

    /// Moves the tasks' due dates and reminders later (``TaskItem/snooze(by:at:in:)``) and returns
    /// them, each with whether it changed. A date it would move past what the store keeps
    /// (``InstantFormat/writableRange``, which every export can carry) is an error, and no task
    /// changes.
    public func snoozeTasks(
        _ idPrefixes: [String], by amount: TimeAmount, now: Instant, in calendar: LocalCalendar
    ) throws -> [TaskUpdate] {
        try modifyTasks(idPrefixes) { task in
            task.snooze(by: amount, at: now, in: calendar)
            guard [task.dueDate, task.reminderDate].allSatisfy({ $0.map(InstantFormat.writableRange.contains) ?? true }) else {
                throw TaskWidgetError(
                    .invalidInput, "snoozing \(task.id.shortID) by that much takes it past the year 9999, which taskwidget does not keep: snooze by less")
            }
        }
    }

    /// Applies `changes` to one task: the task before and after (unchanged, and not written, when
    /// it already was as asked). Moving to another list puts it at that list's end.
    public func editTask(_ idPrefix: String, _ changes: TaskChanges, now: Instant) throws -> TaskUpdate {
        let title = try changes.title.map { try Validation.title($0) }
        return try write { db in
            var task = try Self.resolveTask(idPrefix, in: db)
            let original = task
            if let title { task.title = title }
            if let change = changes.dueDate { task.dueDate = change.value }
            if let change = changes.reminderDate { task.reminderDate = change.value }
            if let change = changes.list {
                let listID = try change.value.map { try Self.list(named: $0, in: db).id }
                if listID != task.listID {
                    task.listID = listID
                    task.sortOrder = try Self.nextSortOrder(in: listID, db)
                }
            }
            if task != original {
                task.modifiedAt = now
                try task.update(db)
            }
            return TaskUpdate(previous: original, task: task)
        }
    }

    /// Deletes the tasks and returns what was deleted. Each leaves a tombstone dated `now`, so that
    /// the next sync deletes it on a server that knows it, and an older backup does not bring it
    /// back (SPEC §12).
    public func deleteTasks(_ idPrefixes: [String], now: Instant) throws -> [TaskItem] {
        try write { db in
            let tasks = try Self.resolveTasks(idPrefixes, in: db)
            for task in tasks { try task.delete(db) }
            try Self.recordTombstones(for: tasks.map(\.id), at: now, in: db)
            return tasks
        }
    }

    /// Moves a task to the 1-based `position` among the open tasks of its list (as `ls` shows them;
    /// among all of them for a completed task). Returns the task, the position it got (the one
    /// after the last for a `position` past the end), and whether it moved: a task already there
    /// is left as it is.
    ///
    /// The moved task takes a sortOrder between its new neighbours' when there is one (below the
    /// first, above the last); else the list is renumbered. Only the moved task is edited `now`:
    /// a task renumbered and dated `now` lost an edit made to it in another store, as `import`
    /// keeps the copy edited last (helper-158, helper-161). Import keeps the store's place on a
    /// tie, so that an older copy (a backup) does not take a renumbered task's old place back.
    public func moveTask(_ idPrefix: String, to position: Int, now: Instant) throws -> (task: TaskItem, position: Int, moved: Bool) {
        let position = try Validation.position(position)
        return try write { db in
            var moved = try Self.resolveTask(idPrefix, in: db)
            let list = try TaskItem
                .filter(Column("listID") == moved.listID?.lowercasedString)
                .fetchAll(db)
                .sorted(by: TaskItem.precedes)
            var siblings = list.filter { $0.id != moved.id }
            let visible = siblings.indices.filter { moved.isCompleted || !siblings[$0].isCompleted }
            let index = position - 1 < visible.count ? visible[position - 1] : (visible.last.map { $0 + 1 } ?? 0)
            let gotten = min(position, visible.count + 1)
            guard list.firstIndex(where: { $0.id == moved.id }) != index else { return (moved, gotten, false) }
            moved.modifiedAt = now
            let below = index > 0 ? siblings[index - 1].sortOrder : nil
            if let order = Self.order(between: below, and: index < siblings.count ? siblings[index].sortOrder : nil) {
                moved.sortOrder = order
                try moved.update(db)
                return (moved, gotten, true)
            }
            siblings.insert(moved, at: index)
            for (order, var task) in siblings.enumerated() where task.sortOrder != order || task.id == moved.id {
                task.sortOrder = order
                try task.update(db)
                if task.id == moved.id { moved = task }
            }
            return (moved, gotten, true)
        }
    }

    /// A sortOrder after `below` and before `above` (`nil`: no task there), when the two leave room.
    static func order(between below: Int?, and above: Int?) -> Int? {
        switch (below, above) {
        case (let below?, let above?):
            let (gap, overflow) = above.subtractingReportingOverflow(below)
            return !overflow && gap >= 2 ? below + gap / 2 : nil
        case (let below?, nil): return below < .max ? below + 1 : nil
        case (nil, let above?): return above > .min ? above - 1 : nil
        case (nil, nil): return nil
        }
    }

    private func modifyTasks(_ idPrefixes: [String], _ change: @escaping @Sendable (inout TaskItem) throws -> Void) throws -> [TaskUpdate] {
        try write { db in
            try Self.resolveTasks(idPrefixes, in: db).map { task in
                var changed = task
                try change(&changed)
                if changed != task { try changed.update(db) }
                return TaskUpdate(previous: task, task: changed)
            }
        }
    }

    // MARK: - Resolution

    static func resolveTasks(_ idPrefixes: [String], in db: Database) throws -> [TaskItem] {
        var seen = Set<UUID>()
        return try idPrefixes.map { try resolveTask($0, in: db) }.filter { seen.insert($0.id).inserted }
    }

    /// Finds the one task whose id starts with `text`; unknown and ambiguous prefixes are errors.
    static func resolveTask(_ text: String, in db: Database) throws -> TaskItem {
        let prefix = try canonicalIDPrefix(text)
        let matches = try TaskItem.fetchAll(db, sql: "SELECT * FROM task WHERE id GLOB ? LIMIT 6", arguments: [prefix + "*"])
        switch matches.count {
        case 1:
            return matches[0]
        case 0:
            // A task deleted here or by sync: "no task has the id" sent `undo` users to ls (helper-135).
            if try Bool.fetchOne(db, sql: "SELECT 1 FROM taskTombstone WHERE taskID GLOB ?", arguments: [prefix + "*"]) == true {
                throw TaskWidgetError(
                    .notFound,
                    "the task \(text.sanitizedForMessage) was deleted: only a backup made before brings it back (taskwidget restore FILE, which also undoes every change since)",
                    context: "task deleted")
            }
            throw TaskWidgetError(
                .notFound, "no task has the id \(text.sanitizedForMessage): see `taskwidget ls --all` for the ids", context: "task not found")
        default:
            let prefixes = UUID.distinguishingPrefixes(of: matches.map(\.id))
            let candidates = matches.prefix(5).map { "\(prefixes[$0.id] ?? $0.id.shortID) (\($0.title.sanitizedForMessage))" }
            throw TaskWidgetError(
                .ambiguous, "the id \(text.sanitizedForMessage) is ambiguous, it matches \(candidates.joined(separator: ", ")): type more characters",
                context: "\(matches.count) matches")
        }
    }

    /// `3F2A-9c1b…` → `3f2a9c1b-…` as stored: lowercase hex with dashes at the UUID positions.
    /// Spaces around it are no part of it: an id pasted with one was refused (helper-119).
    static func canonicalIDPrefix(_ text: String) throws -> String {
        let hex = text.trimmingWhitespace.filter { $0 != "-" }.lowercased()
        guard hex.count >= 4, hex.count <= 32, hex.allSatisfy({ $0.isASCII && $0.isHexDigit }) else {
            throw TaskWidgetError(
                .invalidInput, "“\(text.sanitizedForMessage)” is not a task id: use the id `taskwidget ls` prints (4 or more of its characters)")
        }
        var canonical = ""
        for (offset, character) in hex.enumerated() {
            if [8, 12, 16, 20].contains(offset) { canonical.append("-") }
            canonical.append(character)
        }
        return canonical
    }

    static func nextSortOrder(in listID: UUID?, _ db: Database) throws -> Int {
        let maximum = try Int.fetchOne(
            db, sql: "SELECT max(sortOrder) FROM task WHERE listID IS ?", arguments: [listID?.lowercasedString])
        return SortOrder.after(maximum)
    }
}
