import Foundation
import Testing

@testable import TaskWidgetCore
@testable import TaskWidgetStore
@testable import TaskWidgetTestSupport

/// Tasks in the store: creation, order, scopes, state changes, edits, moves and id prefixes.
@Suite struct StoreTaskTests: StoreSuite {
    let fixture: TemporaryStore

    init() throws {
        fixture = try TemporaryStore()
    }

    /// Adds a task created `second` seconds after `t0`.
    @discardableResult
    func add(_ title: String, list: String? = nil, due: Instant? = nil, second: Int) throws -> TaskItem {
        try store.addTask(NewTask(title: title, dueDate: due, listName: list, createsList: true), now: at(second)).task
    }

    func titles(_ scope: TaskScope, includeCompleted: Bool = false) throws -> [String] {
        try store.tasks(in: scope, includeCompleted: includeCompleted).map(\.task.title)
    }

    /// Puts tasks with chosen ids (and everything else chosen) into the store.
    func insert(_ tasks: [TaskItem], lists: [TaskList] = []) throws {
        try store.importing(StoreExport(lists: lists, tasks: tasks), source: "fixture")
    }

    // MARK: - Adding

    @Test func addPutsEachTaskAtTheEndOfItsListAndTheInboxSeparately() throws {
        let added = [
            try add("inbox 1", second: 0),
            try add("home 1", list: "Home", second: 1),
            try add("inbox 2", second: 2),
            try add("home 2", list: "Home", second: 3),
            try add("work 1", list: "Work", second: 4),
            try add("home 3", list: "home", second: 5),
        ]
        #expect(added.map(\.sortOrder) == [0, 0, 1, 1, 0, 2])
        #expect(added[0].listID == nil && added[2].listID == nil)
        #expect(added[1].listID != nil && added[1].listID == added[3].listID && added[3].listID == added[5].listID)
        #expect(added[4].listID != nil && added[4].listID != added[1].listID)
    }

    @Test func addStoresEveryFieldAsGiven() throws {
        let due = Fixed.instant("2026-11-24T17:00:00.250Z")
        let reminder = Fixed.instant("2026-11-24T16:30:00Z")
        let (task, createdList) = try store.addTask(
            NewTask(title: "  Pay rent  ", dueDate: due, reminderDate: reminder), now: at(7))
        #expect(createdList == nil)
        #expect(task.title == "Pay rent")
        #expect(task.dueDate == due && task.reminderDate == reminder)
        #expect(task.createdAt == at(7) && task.modifiedAt == at(7))
        #expect(task.isCompleted == false && task.state == .notStarted && task.completedAt == nil)
        #expect(try store.task(withID: task.id.shortID) == task)
    }

    @Test func addWithANewListNameCreatesTheListOnceAndThenReusesIt() throws {
        _ = try store.addList(named: "Work", colorHex: nil, now: at(0))
        let first = try store.addTask(NewTask(title: "milk", listName: "Groceries", createsList: true), now: at(1))
        let list = try #require(first.createdList)
        #expect(list.name == "Groceries")
        #expect(list.colorHex == "007AFF")
        #expect(list.createdAt == at(1))
        #expect(list.sortOrder == 1)
        #expect(first.task.listID == list.id)

        let second = try store.addTask(NewTask(title: "eggs", listName: " groceries ", createsList: true), now: at(2))
        #expect(second.createdList == nil)
        #expect(second.task.listID == list.id)
        #expect(second.task.sortOrder == 1)
        #expect(try store.listSummaries().map(\.list.name) == ["Work", "Groceries"])
    }

    @Test func addToAnUnknownListIsRefusedWithTheClosestNameUnlessAskedToCreateIt() throws {
        _ = try store.addList(named: "Work", colorHex: nil, now: at(0))
        let before = try store.export()
        let error = expectError(.notFound) { try store.addTask(NewTask(title: "report", listName: "Wrok"), now: at(1)) }
        #expect(error?.message == "no list is named “Wrok”: did you mean “Work”? (add --new-list to create it)")
        #expect(try store.export() == before)
        let added = try store.addTask(NewTask(title: "report", listName: "Wrok", createsList: true), now: at(2))
        #expect(added.createdList?.name == "Wrok")
        #expect(try store.listSummaries().map(\.list.name) == ["Work", "Wrok"])
    }

    @Test(arguments: ["", "   ", "two\nlines"])
    func addRefusesABadTitleAndWritesNothing(title: String) throws {
        expectError(.invalidInput) { try store.addTask(NewTask(title: title, listName: "New list"), now: at(0)) }
        #expect(try store.export() == StoreExport())
    }

    @Test(arguments: ["Inbox", "inbox", " INBOX "])
    func addRefusesTheReservedListName(name: String) throws {
        expectError(.invalidInput) { try store.addTask(NewTask(title: "t", listName: name), now: at(0)) }
        #expect(try store.export() == StoreExport())
    }

    // MARK: - Order and scopes

    /// Lists created Work then Home, tasks added in a mixed order.
    func addMixedTasks() throws {
        _ = try store.addList(named: "Work", colorHex: nil, now: at(0))
        _ = try store.addList(named: "Home", colorHex: "34C759", now: at(1))
        try add("home 1", list: "Home", second: 2)
        try add("work 1", list: "Work", second: 3)
        try add("inbox 1", second: 4)
        try add("home 2", list: "Home", second: 5)
        try add("work 2", list: "Work", second: 6)
        try add("inbox 2", second: 7)
    }

    @Test func allScopeShowsTheInboxFirstThenTheListsInTheirOrder() throws {
        try addMixedTasks()
        let listed = try store.tasks(in: .all, includeCompleted: false)
        #expect(listed.map(\.task.title) == ["inbox 1", "inbox 2", "work 1", "work 2", "home 1", "home 2"])
        #expect(listed.map { $0.list?.name } == [nil, nil, "Work", "Work", "Home", "Home"])
        #expect(listed.last?.list?.colorHex == "34C759")
    }

    @Test func listsAreOrderedBySortOrderNotByCreation() throws {
        let early = TaskList(name: "Early", createdAt: at(0), sortOrder: 1)
        let late = TaskList(name: "Late", createdAt: at(1), sortOrder: 0)
        try insert(
            [TaskItem(title: "in early", listID: early.id, createdAt: at(2)),
             TaskItem(title: "in late", listID: late.id, createdAt: at(3))],
            lists: [early, late])
        #expect(try titles(.all) == ["in late", "in early"])
    }

    @Test func withinAListSortOrderComesFirstThenCreatedAt() throws {
        try insert([
            TaskItem(title: "order 1", sortOrder: 1, createdAt: at(0)),
            TaskItem(title: "order 0, later", sortOrder: 0, createdAt: at(20)),
            TaskItem(title: "order 0, earlier", sortOrder: 0, createdAt: at(10)),
        ])
        #expect(try titles(.inbox) == ["order 0, earlier", "order 0, later", "order 1"])
    }

    @Test func inboxScopeHasOnlyTasksWithoutAList() throws {
        try addMixedTasks()
        let listed = try store.tasks(in: .inbox, includeCompleted: true)
        #expect(listed.map(\.task.title) == ["inbox 1", "inbox 2"])
        #expect(listed.allSatisfy { $0.task.listID == nil && $0.list == nil })
    }

    @Test(arguments: ["Home", "home", "HOME", " hOmE "])
    func listScopeMatchesTheNameCaseInsensitively(name: String) throws {
        try addMixedTasks()
        #expect(try titles(.list(name)) == ["home 1", "home 2"])
    }

    @Test func listScopeWithAnUnknownNameIsAUsageError() throws {
        try addMixedTasks()
        let typo = expectError(.notFound) { try store.tasks(in: .list("Hoem"), includeCompleted: false) }
        #expect(typo?.message.contains("did you mean “Home”?") == true)
        let unknown = expectError(.notFound) { try store.tasks(in: .list("Garden"), includeCompleted: false) }
        #expect(unknown?.message.contains("Work, Home") == true)
    }

    @Test func completedTasksAreListedOnlyWhenAsked() throws {
        try addMixedTasks()
        let work1 = try #require(store.tasks(in: .list("Work"), includeCompleted: false).first?.task)
        _ = try store.completeTasks([work1.id.shortID], now: at(100))
        #expect(try titles(.list("Work")) == ["work 2"])
        #expect(try titles(.list("Work"), includeCompleted: true) == ["work 1", "work 2"])
        #expect(try titles(.all).count == 5)
        #expect(try titles(.all, includeCompleted: true).count == 6)
    }

    // MARK: - State changes

    @Test func completeSetsTheCompletionAndCompletingAgainKeepsTheFirst() throws {
        let task = try add("Pay rent", second: 0)
        let completed = try #require(store.completeTasks([task.id.shortID], now: at(60)).first?.task)
        #expect(completed.isCompleted)
        #expect(completed.state == .completed)
        #expect(completed.completedAt == at(60))
        #expect(completed.modifiedAt == at(60))
        #expect(try store.task(withID: task.id.shortID) == completed)

        let again = try store.completeTasks([task.id.shortID], now: at(120))
        #expect(again == [TaskUpdate(previous: completed, task: completed)])
        #expect(try store.task(withID: task.id.shortID) == completed)
    }

    @Test func uncompleteReopensAndIsIdempotent() throws {
        let task = try add("Pay rent", second: 0)
        _ = try store.completeTasks([task.id.shortID], now: at(60))
        let reopened = try #require(store.uncompleteTasks([task.id.shortID], now: at(120)).first?.task)
        #expect(!reopened.isCompleted)
        #expect(reopened.state == .notStarted)
        #expect(reopened.completedAt == nil)
        #expect(reopened.modifiedAt == at(120))

        #expect(try store.uncompleteTasks([task.id.shortID], now: at(180)) == [TaskUpdate(previous: reopened, task: reopened)])
        #expect(try store.task(withID: task.id.shortID) == reopened)
    }

    @Test func completeTakesSeveralIdsAndCountsEachTaskOnce() throws {
        let a = try add("a", second: 0)
        let b = try add("b", second: 1)
        let done = try store.completeTasks([a.id.shortID, b.id.uuidString, a.id.shortID], now: at(60))
        #expect(done.map(\.task.title) == ["a", "b"])
        #expect(try titles(.all) == [])
    }

    @Test func startAndStop() throws {
        let task = try add("Fix the tap", second: 0)
        let started = try #require(store.startTasks([task.id.shortID], now: at(60)).first?.task)
        #expect(started.state == .active && !started.isCompleted && started.modifiedAt == at(60))

        let stopped = try #require(store.stopTasks([task.id.shortID], now: at(120)).first?.task)
        #expect(stopped.state == .notStarted && stopped.modifiedAt == at(120))
        // Stopping a task that is not active changes nothing.
        #expect(try store.stopTasks([task.id.shortID], now: at(180)) == [TaskUpdate(previous: stopped, task: stopped)])
        #expect(try store.task(withID: task.id.shortID) == stopped)
    }

    @Test func startingACompletedTaskReopensIt() throws {
        let task = try add("Fix the tap", second: 0)
        _ = try store.completeTasks([task.id.shortID], now: at(60))
        let started = try #require(store.startTasks([task.id.shortID], now: at(120)).first?.task)
        #expect(started.state == .active)
        #expect(!started.isCompleted && started.completedAt == nil)
        #expect(started.modifiedAt == at(120))
    }

    @Test func anUnknownIdAmongSeveralChangesNothing() throws {
        let task = try add("a", second: 0)
        expectError(.notFound) { try store.completeTasks([task.id.shortID, "ffff"], now: at(60)) }
        #expect(try store.task(withID: task.id.shortID) == task)
    }

    // MARK: - Editing

    @Test func editChangesTheTitleAndModifiedAt() throws {
        let task = try add("Pay rent", second: 0)
        let edited = try store.editTask(task.id.shortID, TaskChanges(title: "  Pay the rent "), now: at(60)).task
        #expect(edited.title == "Pay the rent")
        #expect(edited.modifiedAt == at(60))
        #expect(edited.createdAt == at(0))
        #expect(try store.task(withID: task.id.shortID) == edited)
    }

    @Test func editSetsAndClearsTheDueAndReminderDates() throws {
        let task = try add("Pay rent", second: 0)
        let due = Fixed.instant("2026-11-30T17:00:00Z")
        let reminder = Fixed.instant("2026-11-30T16:00:00Z")
        let set = try store.editTask(
            task.id.shortID, TaskChanges(dueDate: .set(due), reminderDate: .set(reminder)), now: at(60)).task
        #expect(set.dueDate == due && set.reminderDate == reminder && set.modifiedAt == at(60))

        let clearedDue = try store.editTask(task.id.shortID, TaskChanges(dueDate: .clear), now: at(120)).task
        #expect(clearedDue.dueDate == nil && clearedDue.reminderDate == reminder)

        let clearedReminder = try store.editTask(task.id.shortID, TaskChanges(reminderDate: .clear), now: at(180)).task
        #expect(clearedReminder.dueDate == nil && clearedReminder.reminderDate == nil)
        #expect(try store.task(withID: task.id.shortID) == clearedReminder)
    }

    @Test func editMovingToAListPutsTheTaskAtItsEnd() throws {
        try add("home 1", list: "Home", second: 0)
        try add("home 2", list: "Home", second: 1)
        let task = try add("inbox", second: 2)
        let moved = try store.editTask(task.id.shortID, TaskChanges(list: .set("home")), now: at(60)).task
        let home = try #require(store.listSummaries().first?.list)
        #expect(moved.listID == home.id)
        #expect(moved.sortOrder == 2)
        #expect(moved.modifiedAt == at(60))
        #expect(try titles(.list("Home")) == ["home 1", "home 2", "inbox"])
    }

    @Test func editClearingTheListMovesTheTaskToTheEndOfTheInbox() throws {
        try add("inbox 1", second: 0)
        try add("inbox 2", second: 1)
        let task = try add("home", list: "Home", second: 2)
        let moved = try store.editTask(task.id.shortID, TaskChanges(list: .clear), now: at(60)).task
        #expect(moved.listID == nil)
        #expect(moved.sortOrder == 2)
        #expect(try titles(.inbox) == ["inbox 1", "inbox 2", "home"])
        #expect(try titles(.list("Home")) == [])
    }

    @Test func editToAnUnknownListIsAUsageErrorAndCreatesNoList() throws {
        let task = try add("inbox", second: 0)
        expectError(.notFound) { try store.editTask(task.id.shortID, TaskChanges(list: .set("Nowhere")), now: at(60)) }
        #expect(try store.task(withID: task.id.shortID) == task)
        #expect(try store.listSummaries() == [])
    }

    @Test func editWithABadTitleChangesNothing() throws {
        let task = try add("Pay rent", second: 0)
        expectError(.invalidInput) { try store.editTask(task.id.shortID, TaskChanges(title: " "), now: at(60)) }
        #expect(try store.task(withID: task.id.shortID) == task)
    }

    @Test func anEditThatChangesNothingKeepsModifiedAt() throws {
        let due = Fixed.instant("2026-11-30T17:00:00Z")
        let task = try add("Pay rent", list: "Home", due: due, second: 0)
        let sameValues = TaskChanges(title: "Pay rent", dueDate: .set(due), reminderDate: .clear, list: .set("HOME"))
        for changes in [TaskChanges(), sameValues] {
            let update = try store.editTask(task.id.shortID, changes, now: at(60))
            #expect(update.task == task && !update.isChanged)
        }
        #expect(try store.task(withID: task.id.shortID) == task)
    }

    // MARK: - Deleting

    @Test func deleteRemovesExactlyTheGivenTasks() throws {
        let a = try add("a", second: 0)
        let b = try add("b", list: "Home", second: 1)
        try add("c", second: 2)
        let deleted = try store.deleteTasks([b.id.shortID, a.id.uuidString], now: Fixed.instant("2026-11-22T12:00:00Z"))
        #expect(deleted.map(\.title) == ["b", "a"])
        #expect(try titles(.all, includeCompleted: true) == ["c"])
        expectError(.notFound) { try store.task(withID: a.id.shortID) }
        // The list stays, empty.
        #expect(try store.listSummaries().map(\.totalCount) == [0])
    }

    @Test func deleteWithAnUnknownIdDeletesNothing() throws {
        let a = try add("a", second: 0)
        expectError(.notFound) { try store.deleteTasks([a.id.shortID, "0000000"], now: Fixed.instant("2026-11-22T12:00:00Z")) }
        #expect(try titles(.all) == ["a"])
    }

    // MARK: - Moving

    /// Tasks "A"… in the Inbox, created in that order (sortOrder 0…), optionally some completed.
    @discardableResult
    func addInbox(_ titles: [String], completing completed: Set<String> = []) throws -> [String: TaskItem] {
        var tasks: [String: TaskItem] = [:]
        for (index, title) in titles.enumerated() {
            tasks[title] = try add(title, second: index)
        }
        let ids = titles.filter(completed.contains).map { tasks[$0]!.id.shortID }
        _ = try store.completeTasks(ids, now: at(50))
        return tasks
    }

    /// Only the moved task is edited, whether its new neighbours leave room (at either end) or the
    /// list is renumbered: each task edited for nothing lost an edit made to it in another store,
    /// which `import` takes from the copy edited last (helper-158, helper-161).
    @Test(arguments: [
        ("D", 1, ["D", "A", "B", "C"], ["D"]),
        ("A", 1, ["A", "B", "C", "D"], []),
        ("C", 3, ["A", "B", "C", "D"], []),
        ("A", 3, ["B", "C", "A", "D"], ["A"]),
        ("D", 2, ["A", "D", "B", "C"], ["D"]),
        ("B", 4, ["A", "C", "D", "B"], ["B"]),
        ("B", 99, ["A", "C", "D", "B"], ["B"]),
    ])
    func moveToAPosition(title: String, position: Int, expected: [String], edited: [String]) throws {
        let tasks = try addInbox(["A", "B", "C", "D"])
        let moved = try store.moveTask(tasks[title]!.id.shortID, to: position, now: at(100))
        #expect(moved.moved == !edited.isEmpty)
        #expect(moved.position == expected.firstIndex(of: title)! + 1, "where it went, past the end too")
        let listed = try store.tasks(in: .inbox, includeCompleted: true).map(\.task)
        #expect(listed.map(\.title) == expected)
        #expect(Set(listed.map(\.sortOrder)).count == 4, "no two at one place")
        #expect(listed.filter { $0.modifiedAt == at(100) }.map(\.title).sorted() == edited)
    }

    /// Between two tasks with room between their orders (as a server's or an import's may leave),
    /// only the moved one is edited.
    @Test func aMoveBetweenTwoTasksWithRoomEditsTheMovedOneOnly() throws {
        let tasks = try addInbox(["A", "B", "C"])
        _ = try store.moveTask(tasks["A"]!.id.shortID, to: 4, now: at(60))
        _ = try store.moveTask(tasks["C"]!.id.shortID, to: 4, now: at(70))
        // B 1, A 3, C 4: room between B and A.
        let moved = try store.moveTask(tasks["C"]!.id.shortID, to: 2, now: at(100))
        #expect(moved.moved && moved.position == 2)
        let listed = try store.tasks(in: .inbox, includeCompleted: true).map(\.task)
        #expect(listed.map(\.title) == ["B", "C", "A"])
        #expect(listed.filter { $0.modifiedAt == at(100) }.map(\.title) == ["C"])
    }

    @Test(arguments: [
        (1, 3, 2), (1, 2, nil), (nil, 5, 4), (5, nil, 6), (nil, Int.min, nil), (Int.max, nil, nil), (Int.min, Int.max, nil), (-3, 3, 0), (nil, nil, nil),
    ] as [(Int?, Int?, Int?)])
    func anOrderBetweenTwoIsFoundWhenThereIsRoom(below: Int?, above: Int?, expected: Int?) {
        #expect(TaskStore.order(between: below, and: above) == expected)
    }

    /// A, B(done), C, D(done), E: `ls` shows A, C, E, and positions count those only; the task
    /// goes just before the open task that held the position (or after the last open one).
    @Test(arguments: [
        ("E", 1, ["E", "A", "C"], ["E", "A", "B", "C", "D"]),
        ("E", 2, ["A", "E", "C"], ["A", "B", "E", "C", "D"]),
        ("A", 2, ["C", "A", "E"], ["B", "C", "D", "A", "E"]),
        ("A", 3, ["C", "E", "A"], ["B", "C", "D", "E", "A"]),
        ("A", 10, ["C", "E", "A"], ["B", "C", "D", "E", "A"]),
    ])
    func moveCountsOpenTasksOnlyWhenCompletedOnesAreInterleaved(
        title: String, position: Int, expectedOpen: [String], expectedAll: [String]
    ) throws {
        let tasks = try addInbox(["A", "B", "C", "D", "E"], completing: ["B", "D"])
        let moved = try store.moveTask(tasks[title]!.id.shortID, to: position, now: at(100))
        #expect(moved.position == expectedOpen.firstIndex(of: title)! + 1)
        #expect(try titles(.inbox) == expectedOpen)
        let all = try store.tasks(in: .inbox, includeCompleted: true).map(\.task)
        #expect(all.map(\.title) == expectedAll)
        #expect(Set(all.map(\.sortOrder)).count == 5, "no two at one place")
    }

    @Test func moveLeavesOtherListsAlone() throws {
        try add("home 1", list: "Home", second: 0)
        try add("home 2", list: "Home", second: 1)
        let tasks = try addInbox(["A", "B"])
        _ = try store.moveTask(tasks["B"]!.id.shortID, to: 1, now: at(100))
        #expect(try titles(.inbox) == ["B", "A"])
        let home = try store.tasks(in: .list("Home"), includeCompleted: true).map(\.task)
        #expect(home.map(\.title) == ["home 1", "home 2"])
        #expect(home.map(\.sortOrder) == [0, 1])
        #expect(home.map(\.modifiedAt) == [at(0), at(1)])
    }

    @Test(arguments: [0, -1])
    func moveToAPositionBelowOneIsAUsageError(position: Int) throws {
        let tasks = try addInbox(["A", "B"])
        expectError(.invalidInput) { try store.moveTask(tasks["B"]!.id.shortID, to: position, now: at(100)) }
        #expect(try titles(.inbox) == ["A", "B"])
    }

    // MARK: - Id prefixes

    static let first = Fixed.uuid("ABCD1111-0000-4000-8000-000000000001")
    static let second = Fixed.uuid("ABCD2222-0000-4000-8000-000000000002")
    static let third = Fixed.uuid("12345678-9ABC-4DEF-8000-0000000000FF")

    func insertCraftedIDs() throws {
        try insert([
            TaskItem(id: Self.first, title: "first", createdAt: at(0)),
            TaskItem(id: Self.second, title: "second", sortOrder: 1, createdAt: at(1)),
            TaskItem(id: Self.third, title: "third", sortOrder: 2, createdAt: at(2)),
        ])
    }

    @Test(arguments: [
        ("1234", "third"),
        ("12345678", "third"),
        ("abcd1", "first"),
        ("ABCD2", "second"),
        ("abcd-2222", "second"),
        ("12345678-9ABC-4DEF-8000-0000000000FF", "third"),
        ("12345678-9abc-4def-8000-0000000000ff", "third"),
        ("123456789abc4def80000000000000ff", "third"), (" 123456789abc4def80000000000000ff \n", "third"),
    ])
    func aUniquePrefixOrTheFullIdFindsTheTask(prefix: String, title: String) throws {
        try insertCraftedIDs()
        #expect(try store.task(withID: prefix).title == title)
    }

    /// Spaces around an id are no part of it (a pasted one was refused, helper-119); inside it they are.
    @Test(arguments: ["", "123", "abc", "xyzw", "12g4", "12 34", " 123 ", "123456789abc4def80000000000000ff0"])
    func aMalformedIdIsAUsageError(text: String) throws {
        try insertCraftedIDs()
        expectError(.invalidInput) { try store.task(withID: text) }
    }

    @Test(arguments: ["ffff", "abcd3", "12345679"])
    func anUnknownIdIsAUsageError(text: String) throws {
        try insertCraftedIDs()
        let error = expectError(.notFound) { try store.task(withID: text) }
        #expect(error?.message.contains(text) == true)
    }

    @Test func anAmbiguousPrefixIsAUsageErrorNamingTheCandidates() throws {
        try insertCraftedIDs()
        let error = expectError(.ambiguous) { try store.task(withID: "abcd") }
        #expect(error?.message.contains("abcd1111") == true)
        #expect(error?.message.contains("abcd2222") == true)
        #expect(error?.message.contains("12345678") == false)
        // A command given the ambiguous prefix changes nothing.
        expectError(.ambiguous) { try store.completeTasks(["ABCD"], now: at(60)) }
        #expect(try titles(.all) == ["first", "second", "third"])
    }
}
