import Foundation
import PropertyBased
import Testing

@testable import TaskWidgetCore
@testable import TaskWidgetStore
@testable import TaskWidgetTestSupport

/// `export` / `import`: the lossless round trip, refusing bad documents whole, and instants as text.
@Suite struct TransferTests {
    let fixture: TemporaryStore
    var store: TaskStore { fixture.store }

    static let t0 = Fixed.instant("2026-11-23T09:00:00Z")

    init() throws {
        fixture = try TemporaryStore()
    }

    /// `t0` plus `seconds`, as a whole number of milliseconds like every instant the store keeps.
    func at(_ seconds: Double) -> Instant {
        Instant(millisecondsSince1970: Self.t0.millisecondsSince1970 + Int64((seconds * 1000).rounded()))
    }

    /// Lists, tasks in every state with every optional field, text that needs JSON escaping, and
    /// habits with and without completions; instants with milliseconds.
    func fillStore() throws {
        _ = try store.addList(named: "Home", colorHex: "#34c759", now: at(0))
        _ = try store.addList(named: "Wörk", colorHex: nil, now: at(1))
        let rent = try store.addTask(
            NewTask(title: "Pay rent", dueDate: at(3600.25), reminderDate: at(1800.5)), now: at(2.125)).task
        _ = try store.addTask(NewTask(title: #"Say "hi" \ bye / <now> & then"#, listName: "Home"), now: at(3))
        let tap = try store.addTask(NewTask(title: "Fix the tap 🔧", listName: "home"), now: at(4)).task
        let gift = try store.addTask(NewTask(title: "Gift for 田中さん 🎁", dueDate: at(-86400), listName: "Wörk"), now: at(5)).task
        _ = try store.addTask(NewTask(title: "Later", listName: "New list", createsList: true), now: at(6))
        _ = try store.startTasks([tap.id.shortID], now: at(60))
        _ = try store.completeTasks([gift.id.shortID, rent.id.shortID], now: at(120.999))
        _ = try store.addHabit(named: "Walk", icon: "🚶", colorHex: "#34C759", now: at(7))
        _ = try store.addHabit(named: "Read", icon: nil, colorHex: nil, now: at(8))
        _ = try store.checkHabit("Walk", on: Fixed.day("2026-11-22"), status: .skipped)
        _ = try store.checkHabit("Walk", on: Fixed.day("2026-11-21"), status: .done)
        _ = try store.checkHabit("Walk", on: Fixed.day("2026-11-23"), status: .missed)
    }

    // MARK: - Round trips

    @Test func exportImportExportIsTheSameDocumentAndTheSameBytes() throws {
        try fillStore()
        let exported = try store.export()
        #expect(exported.schema == "taskwidget.export/1")
        #expect(exported.lists.map(\.name) == ["Home", "Wörk", "New list"])
        #expect(exported.tasks.map(\.title) == [
            "Pay rent", #"Say "hi" \ bye / <now> & then"#, "Fix the tap 🔧", "Gift for 田中さん 🎁", "Later",
        ])
        #expect(exported.habits.map(\.habit.name) == ["Walk", "Read"])
        #expect(exported.habits[0].completions.map(\.day.description) == ["2026-11-21", "2026-11-22", "2026-11-23"])
        #expect(exported.tasks[0].dueDate == at(3600.25))
        #expect(exported.tasks[0].completedAt == at(120.999))

        let other = try TemporaryStore()
        let counts = try other.store.importing(exported, source: "export.json")
        #expect(counts == ImportSummary(lists: 3, tasks: 5, habits: 2, added: 5))
        let reexported = try other.store.export()
        #expect(reexported == exported)
        #expect(try reexported.jsonData() == exported.jsonData())
    }

    @Test func theJSONTextReadsBackAsTheSameDocument() throws {
        try fillStore()
        let exported = try store.export()
        let data = try exported.jsonData()
        #expect(try StoreExport.decode(data, source: "export.json") == exported)
        // Instants are UTC text with milliseconds only when there are some.
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains(#""dueDate" : "2026-11-23T10:00:00.250Z""#))
        #expect(text.contains(#""createdAt" : "2026-11-23T09:00:00Z""#))
    }

    /// Ids are written in lower case, as `ls`, the timeline and the store show them (Foundation
    /// writes upper case), and read back in either.
    @Test func idsAreWrittenInLowerCase() throws {
        let (listID, taskID, habitID) = (
            UUID(uuidString: "AAAAAAAA-0000-4000-8000-00000000000B")!, UUID(uuidString: "CCCCCCCC-0000-4000-8000-00000000000D")!,
            UUID(uuidString: "EEEEEEEE-0000-4000-8000-00000000000F")!
        )
        let document = StoreExport(
            lists: [TaskList(id: listID, name: "Home", createdAt: at(0))],
            tasks: [TaskItem(id: taskID, title: "Pay rent", listID: listID, createdAt: at(0))],
            habits: [.init(habit: Habit(id: habitID, name: "Walk", icon: "🚶", colorHex: "34C759", createdAt: at(0)), completions: [])])
        let data = try document.jsonData()
        let text = String(decoding: data, as: UTF8.self)
        for id in [listID, taskID, habitID] {
            #expect(text.contains("\"\(id.uuidString.lowercased())\"") && !text.contains(id.uuidString), "\(text)")
        }
        #expect(text.contains(#""listID" : "aaaaaaaa-0000-4000-8000-00000000000b""#))
        #expect(try StoreExport.decode(data, source: "export.json") == document)
        let upper = Data(text.replacingOccurrences(of: taskID.uuidString.lowercased(), with: taskID.uuidString).utf8)
        #expect(try StoreExport.decode(upper, source: "export.json") == document)
    }

    /// An empty array is `[]`, where Foundation wrote `[`, an empty line and `]`; brackets in
    /// text stay as they are.
    @Test func emptyArraysAreWrittenOnOneLine() throws {
        let task = TaskItem(title: "[  ] and [\n]", sortOrder: 0, createdAt: at(0))
        let data = try StoreExport(tasks: [task]).jsonData()
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains("\"habits\" : [],\n  \"lists\" : [],\n"), "\(text)")
        #expect(text.contains(#""title" : "[  ] and [\n]""#), "\(text)")
        #expect(try StoreExport.decode(data, source: "export.json") == StoreExport(tasks: [task]))
    }

    /// SPEC §12: `import` merges by sync's rules, where a deletion is kept and loses only to an
    /// edit made after it, whether or not a server ever knew the task. An older backup does not
    /// bring back a task deleted since; a copy edited after the deletion does come back.
    @Test func aTaskDeletedSinceTheBackupStaysDeletedUnlessTheFileEditedItLater() throws {
        try fillStore()
        let backup = try store.export()
        let index = try #require(backup.tasks.firstIndex { $0.title == "Later" })
        let deleted = backup.tasks[index]
        _ = try store.deleteTasks([deleted.id.uuidString], now: at(600))

        #expect(try store.importing(backup, source: "backup.json") == ImportSummary(lists: 3, tasks: 5, habits: 2, unchanged: 4, keptDeleted: 1))
        #expect(try store.export().tasks.map(\.id) == backup.tasks.map(\.id).filter { $0 != deleted.id })

        var editedLater = backup
        editedLater.tasks[index].title = "Later, edited elsewhere"
        editedLater.tasks[index].modifiedAt = at(700)
        #expect(try store.importing(editedLater, source: "other.json") == ImportSummary(lists: 3, tasks: 5, habits: 2, added: 1, unchanged: 4))
        #expect(try store.export().tasks.first { $0.id == deleted.id }?.title == "Later, edited elsewhere")
    }

    @Test func importingTheSameDocumentAgainReplacesRecordsById() throws {
        try fillStore()
        let exported = try store.export()
        let counts = try store.importing(exported, source: "export.json")
        #expect(counts == ImportSummary(lists: 3, tasks: 5, habits: 2, unchanged: 5))
        #expect(try store.export() == exported)
    }

    /// Names that moved between records since the store's copy: a list renamed and a new one
    /// (with a task) given its old name, two lists and two habits whose names were swapped. Each
    /// record now comes in under its id with the file's name; the upsert of a name still held had
    /// updated the record holding it, which lost the new list (or refused its task) and gave each
    /// habit the other's history.
    @Test func namesThatMovedBetweenRecordsImportAsTheFileHasThem() throws {
        try fillStore()
        let copy = try TemporaryStore()
        try copy.store.importing(try store.export(), source: "before.json")
        _ = try store.renameList("New list", to: "Errands")
        _ = try store.addList(named: "New list", colorHex: "#ff3b30", now: at(30))
        _ = try store.addTask(NewTask(title: "In the new list of that name", listName: "New list"), now: at(31))
        _ = try store.renameList("Home", to: "Swap")
        _ = try store.renameList("Wörk", to: "Home")
        _ = try store.renameList("Swap", to: "Wörk")
        _ = try store.editHabit("Walk", newName: "Swap", icon: nil, colorHex: nil)
        _ = try store.editHabit("Read", newName: "Walk", icon: nil, colorHex: nil)
        _ = try store.editHabit("Swap", newName: "Read", icon: nil, colorHex: nil)
        let file = try store.export()
        // Three lists and both habits renamed: the summary says so.
        var expected = ImportSummary(lists: 4, tasks: 6, habits: 2, added: 1, unchanged: 5)
        (expected.listsChanged, expected.habitsChanged) = (3, 2)
        #expect(try copy.store.importing(file, source: "after.json") == expected)
        #expect(try copy.store.export() == file)
    }

    /// A habit of the file replaces the store's whole, its days too, as `import --help` says: a
    /// backup taken before a day was checked takes that day back. The days were merged, and a day
    /// checked since the backup stayed.
    @Test func aHabitsDaysAreTheFilesAfterAnImport() throws {
        try fillStore()
        let backup = try store.export()
        _ = try store.checkHabit("Walk", on: Fixed.day("2026-11-24"), status: .done)
        _ = try store.checkHabit("Read", on: Fixed.day("2026-11-24"), status: .done)
        try store.importing(backup, source: "backup.json")
        #expect(try store.export() == backup)
    }

    /// An older backup does not undo a newer `move`: the tasks it renumbered kept their edit
    /// time, so on the tie the backup's places won, and two tasks shared one.
    @Test func anOlderBackupDoesNotUndoANewerMove() throws {
        let tasks = try ["A", "B", "C"].map { try store.addTask(NewTask(title: $0), now: at(0)).task }
        let backup = try store.export()
        _ = try store.moveTask(tasks[2].id.shortID, to: 1, now: at(7200))
        let moved = try store.export()
        #expect(try store.importing(backup, source: "backup.json") == ImportSummary(lists: 0, tasks: 3, habits: 0, unchanged: 3))
        #expect(try store.export() == moved)
        #expect(try store.tasks(in: .inbox, includeCompleted: false).map(\.task.title) == ["C", "A", "B"])
    }

    /// Nor one that renumbered the list: its renumbered tasks keep their edit time, and on that
    /// tie the store keeps its places (the file's won, and two tasks shared one).
    @Test func anOlderBackupDoesNotUndoAMoveThatRenumbered() throws {
        let tasks = try ["A", "B", "C", "D"].map { try store.addTask(NewTask(title: $0), now: at(0)).task }
        let backup = try store.export()
        _ = try store.moveTask(tasks[3].id.shortID, to: 2, now: at(7200))
        let moved = try store.export()
        #expect(try store.importing(backup, source: "backup.json") == ImportSummary(lists: 0, tasks: 4, habits: 0, unchanged: 4))
        #expect(try store.export() == moved)
        #expect(try store.tasks(in: .inbox, includeCompleted: false).map(\.task.title) == ["A", "D", "B", "C"])
    }

    /// A copy edited after the store's counts as updated; an older one changes nothing.
    @Test func aNewerCopyUpdatesAndAnOlderOneChangesNothing() throws {
        try fillStore()
        var file = try store.export()
        file.tasks[0].title = "Pay the rent"
        file.tasks[0].modifiedAt = at(10_000)
        file.tasks[1].title = "An older title"
        file.tasks[1].modifiedAt = at(-10_000)
        #expect(try store.importing(file, source: "file.json") == ImportSummary(lists: 3, tasks: 5, habits: 2, updated: 1, unchanged: 4))
        let titles = try store.export().tasks.map(\.title)
        #expect(titles.contains("Pay the rent") && !titles.contains("An older title"))
    }

    /// The largest sort order a file may give (a sync server too) is no end of the order: the next
    /// task or list goes after it at the same order. `add` trapped on the overflow, in the Inbox
    /// and in that list, until a `move` renumbered them.
    @Test func aTaskOrListAtTheLargestOrderStillTakesAnotherAfterIt() throws {
        try fillStore()
        var file = try store.export()
        let inboxTask = try #require(file.tasks.firstIndex { $0.listID == nil })
        file.tasks[inboxTask].sortOrder = .max
        file.lists[0].sortOrder = .max
        let other = try TemporaryStore()
        _ = try other.store.importing(file, source: "file.json")
        let added = try other.store.addTask(NewTask(title: "After the largest"), now: at(20_000)).task
        #expect(added.sortOrder == .max)
        #expect(try other.store.tasks(in: .inbox, includeCompleted: true).last?.task.id == added.id, "after it: created later")
        let list = try other.store.addList(named: "After the largest", colorHex: nil, now: at(20_000))
        #expect(list.sortOrder == .max)
    }

    /// Monday 23 November 2026, 10:10 in Berlin.
    static let demoNow = Fixed.instant("2026-11-23T10:10:00+01:00")

    @Test func demoDataRoundTrips() throws {
        let demo = DemoData.export(now: Self.demoNow, calendar: LocalCalendar(timeZone: Fixed.zone("Europe/Berlin")))
        #expect(try store.importing(demo, source: "demo") == ImportSummary(lists: 3, tasks: 14, habits: 4, added: 14))
        let exported = try store.export()
        // The demo document is already in the store's order.
        #expect(exported == demo)

        let other = try TemporaryStore()
        try other.store.importing(exported, source: "export.json")
        #expect(try other.store.export().jsonData() == exported.jsonData())
        #expect(try StoreExport.decode(exported.jsonData(), source: "export.json") == exported)
    }

    @Test func demoDataIsInternallyConsistent() throws {
        let demo = DemoData.export(now: Self.demoNow, calendar: LocalCalendar(timeZone: Fixed.zone("Europe/Berlin")))
        for task in demo.tasks {
            #expect(task.modifiedAt >= task.createdAt, "\(task.title)")
            #expect(task.modifiedAt <= Self.demoNow, "\(task.title)")
            if let completedAt = task.completedAt {
                #expect(completedAt >= task.createdAt && completedAt <= task.modifiedAt, "\(task.title)")
            }
        }
        for list in [nil] + demo.lists.map(\.id) {
            let orders = demo.tasks.filter { $0.listID == list }.map(\.sortOrder)
            #expect(orders == Array(0..<orders.count))
        }
    }

    @Test func demoFillsOnlyAnEmptyStore() throws {
        try store.fillWithDemoData(now: Self.demoNow, calendar: LocalCalendar(timeZone: Fixed.zone("Europe/Berlin")))
        let filled = try store.export()
        #expect(filled.tasks.count == 14)
        expectError(.invalidInput) { try store.fillWithDemoData(now: Self.demoNow, calendar: LocalCalendar(timeZone: Fixed.zone("Europe/Berlin"))) }
        #expect(try store.export() == filled)
    }

    // MARK: - Bad documents change nothing

    /// Documents that import must refuse whole: each adds a valid list and task first, then a bad
    /// record, so that a partial write would show.
    enum BadDocument: String, CaseIterable {
        case emptyTitle, controlCharacterInTitle, badListColor, reservedListName, taskInAnUnknownList
        case duplicateTaskIDs, completedButNotStarted, completedAtOnAnOpenTask, listNameTakenByAnotherID
        case badHabitIcon, habitNameTakenByAnotherID, duplicateCompletionDay

        /// What the error message names, when the document says where.
        var field: String? {
            switch self {
            case .emptyTitle, .controlCharacterInTitle, .completedButNotStarted, .completedAtOnAnOpenTask: "tasks[1]"
            case .taskInAnUnknownList: "tasks[1] (task "
            case .badListColor, .reservedListName: "lists[1]"
            case .badHabitIcon, .duplicateCompletionDay: "habits[0]"
            case .duplicateTaskIDs, .listNameTakenByAnotherID, .habitNameTakenByAnotherID: nil
            }
        }

        func document(at now: Instant) -> StoreExport {
            let work = TaskList(name: "Work", createdAt: now, sortOrder: 5)
            var document = StoreExport(
                lists: [work], tasks: [TaskItem(title: "valid", listID: work.id, sortOrder: 5, createdAt: now)])
            var task = TaskItem(title: "bad", listID: work.id, sortOrder: 6, createdAt: now)
            var list = TaskList(name: "Other", createdAt: now, sortOrder: 6)
            var habit = StoreExport.HabitRecord(
                habit: Habit(name: "Run", icon: "🏃", colorHex: "FF0000", createdAt: now), completions: [])
            switch self {
            case .emptyTitle: task.title = "  "
            case .controlCharacterInTitle: task.title = "bad\u{0007}bell"
            case .badListColor: list.colorHex = "blue"
            case .reservedListName: list.name = "inbox"
            case .taskInAnUnknownList: task.listID = Fixed.uuid("99999999-9999-4999-8999-999999999999")
            case .duplicateTaskIDs: task.id = document.tasks[0].id
            case .completedButNotStarted:
                task.isCompleted = true
                task.completedAt = now
            case .completedAtOnAnOpenTask: task.completedAt = now
            case .listNameTakenByAnotherID: list.name = "HOME"
            case .badHabitIcon: habit.habit.icon = ""
            case .habitNameTakenByAnotherID: habit.habit.name = "walk"
            case .duplicateCompletionDay:
                habit.completions = [.init(day: Fixed.day("2026-11-22"), status: .done), .init(day: Fixed.day("2026-11-22"), status: .missed)]
            }
            document.lists.append(list)
            document.tasks.append(task)
            document.habits.append(habit)
            return document
        }
    }

    @Test(arguments: BadDocument.allCases)
    func importingABadDocumentIsADataErrorAndChangesNothing(bad: BadDocument) throws {
        _ = try store.addTask(NewTask(title: "home", listName: "Home", createsList: true), now: at(0))
        _ = try store.addHabit(named: "Walk", icon: nil, colorHex: nil, now: at(0))
        let before = try store.export()

        let error = expectError(.badImport) { try store.importing(bad.document(at: at(10)), source: "bad.json") }
        #expect(error?.message.hasPrefix("bad.json: ") == true)
        #expect(error?.message.components(separatedBy: "bad.json").count == 2, "names the file once")
        if let field = bad.field {
            #expect(error?.message.contains(field) == true, "\(error?.message ?? "")")
        }
        #expect(try store.export() == before)
    }

    /// Every list and habit whose name another has in the store is named, at once, before
    /// anything is written: the first one alone was found after every task (helper-114). A task in
    /// a list that is nowhere is named by its place and the list's id.
    @Test func everyClashAndAnUnknownListAreNamedBeforeAnythingIsWritten() throws {
        _ = try store.addTask(NewTask(title: "home", listName: "Home", createsList: true), now: at(0))
        _ = try store.addTask(NewTask(title: "work", listName: "Work", createsList: true), now: at(0))
        _ = try store.addHabit(named: "Walk", icon: nil, colorHex: nil, now: at(0))
        let before = try store.export()
        let now = at(10)
        let clashing = StoreExport(
            lists: [TaskList(name: "HOME", createdAt: now), TaskList(name: "New", createdAt: now), TaskList(name: "work", createdAt: now)],
            tasks: (0..<3).map { TaskItem(title: "task \($0)", createdAt: now) },
            habits: [.init(habit: Habit(name: "walk", icon: "🚶", colorHex: "FF0000", createdAt: now), completions: [])])
        let clashes = expectError(.badImport) { try store.importing(clashing, source: "old.json") }
        #expect(
            clashes?.message
                == "old.json: the lists “HOME”, “work” and the habit “walk” already exist in the store with other ids: rename one of each pair first",
            "named as the file has them (helper-120)")
        let nowhere = Fixed.uuid("99999999-9999-4999-8999-999999999999")
        let lost = StoreExport(tasks: [TaskItem(title: "fine", createdAt: now)] + (0..<3).map { TaskItem(title: "lost \($0)", listID: nowhere, createdAt: now) })
        let unknown = expectError(.badImport) { try store.importing(lost, source: "old.json") }
        #expect(
            unknown?.message
                == "old.json: tasks[1] (task \(lost.tasks[1].id.shortID)) is in the list 99999999-9999-4999-8999-999999999999, which is not in the file or the store (nor are the lists of 2 other tasks)")
        #expect(try store.export() == before)
    }

    /// A record that appears twice is named as the file has it: a name in its own case, an id
    /// in lower case, as exports write ids.
    @Test func aDuplicateIsNamedAsTheFileHasIt() throws {
        let now = at(0)
        let task = TaskItem(title: "Call Bob", createdAt: now)
        let lists = [TaskList(name: "Home", createdAt: now), TaskList(name: "HOME", createdAt: now)]
        let names = expectError(.badImport) { try StoreExport(lists: lists, tasks: []).normalized(source: "a.json") }
        #expect(names?.message == "a.json: lists: list name “HOME” appears twice")
        let ids = expectError(.badImport) { try StoreExport(tasks: [task, task]).normalized(source: "a.json") }
        #expect(ids?.message == "a.json: tasks: task id \(task.id.lowercasedString) appears twice")
    }

    @Test(arguments: BadDocument.allCases)
    func theValidPartOfEachBadDocumentImports(bad: BadDocument) throws {
        var document = bad.document(at: at(10))
        document.lists.removeLast()
        document.tasks.removeLast()
        document.habits.removeLast()
        #expect(try store.importing(document, source: "good.json") == ImportSummary(lists: 1, tasks: 1, habits: 0, added: 1))
    }

    // MARK: - Reading export files

    static let validDocument = """
        {
          "schema": "taskwidget.export/1",
          "lists": [
            {"id": "11111111-1111-4111-8111-111111111111", "name": "Home", "colorHex": "34C759",
             "createdAt": "2026-11-20T08:00:00Z", "sortOrder": 0}
          ],
          "tasks": [
            {"id": "22222222-2222-4222-8222-222222222222", "title": "Pay rent", "isCompleted": false,
             "state": "notStarted", "dueDate": "2026-11-23T17:00:00.250+01:00",
             "createdAt": "2026-11-20T08:00:00Z", "modifiedAt": "2026-11-21T08:00:00.5Z",
             "listID": "11111111-1111-4111-8111-111111111111", "sortOrder": 0}
          ],
          "habits": [
            {"habit": {"id": "33333333-3333-4333-8333-333333333333", "name": "Walk", "icon": "🚶",
                       "colorHex": "34C759", "createdAt": "2026-11-20T08:00:00Z"},
             "completions": [{"day": "2026-11-22", "status": "done"}]}
          ]
        }
        """

    @Test func aValidDocumentDecodesToExactlyItsValues() throws {
        let document = try StoreExport.decode(Data(Self.validDocument.utf8), source: "backup.json")
        let list = TaskList(
            id: Fixed.uuid("11111111-1111-4111-8111-111111111111"), name: "Home", colorHex: "34C759",
            createdAt: Fixed.instant("2026-11-20T08:00:00Z"), sortOrder: 0)
        var task = TaskItem(
            id: Fixed.uuid("22222222-2222-4222-8222-222222222222"), title: "Pay rent",
            dueDate: Fixed.instant("2026-11-23T16:00:00.250Z"), listID: list.id, sortOrder: 0,
            createdAt: Fixed.instant("2026-11-20T08:00:00Z"))
        task.modifiedAt = Fixed.instant("2026-11-21T08:00:00.500Z")
        let habit = Habit(
            id: Fixed.uuid("33333333-3333-4333-8333-333333333333"), name: "Walk", icon: "🚶", colorHex: "34C759",
            createdAt: Fixed.instant("2026-11-20T08:00:00Z"))
        #expect(document == StoreExport(
            lists: [list], tasks: [task],
            habits: [.init(habit: habit, completions: [.init(day: Fixed.day("2026-11-22"), status: .done)])]))
    }

    /// Noncharacters in a document's text are dropped: a store of an earlier taskwidget may hold
    /// them, and its export could not be imported again once titles refused them (helper-141).
    @Test func noncharactersInADocumentAreDropped() throws {
        let text = Self.validDocument
            .replacingOccurrences(of: #""title": "Pay rent""#, with: #""title": "Pay\ufffe rent""#)
            .replacingOccurrences(of: #""name": "Home""#, with: #""name": "Ho\ufdd0me""#)
            .replacingOccurrences(of: #""name": "Walk""#, with: #""name": "Walk\uffff""#)
        #expect(text != Self.validDocument)
        let document = try StoreExport.decode(Data(text.utf8), source: "backup.json").normalized(source: "backup.json")
        #expect(document == (try StoreExport.decode(Data(Self.validDocument.utf8), source: "backup.json").normalized(source: "backup.json")))
    }

    /// The valid document with one piece of text replaced, and what the error must name.
    @Test(arguments: [
        (#""title": "Pay rent", "#, "", "tasks[0].title"),
        (#""schema": "taskwidget.export/1","#, "", "schema"),
        (#""habits": ["#, #""habitz": ["#, "habits"),
        (#""day": "2026-11-22""#, #""day": "2026-02-30""#, "habits[0].completions[0].day"),
        (#""day": "2026-11-22""#, #""day": 20261122"#, "habits[0].completions[0].day"),
        (#""status": "done""#, #""status": "maybe""#, "habits[0].completions[0].status"),
        (#""dueDate": "2026-11-23T17:00:00.250+01:00""#, #""dueDate": "tomorrow""#, "tasks[0].dueDate"),
        (#""dueDate": "2026-11-23T17:00:00.250+01:00""#, #""dueDate": "2026-11-23T17:00:00""#, "tasks[0].dueDate"),
        (#""createdAt": "2026-11-20T08:00:00Z", "sortOrder": 0}"#, #""createdAt": "", "sortOrder": 0}"#, "lists[0].createdAt"),
        (#""state": "notStarted""#, #""state": "paused""#, "tasks[0].state"),
        (#""isCompleted": false"#, #""isCompleted": "no""#, "tasks[0].isCompleted"),
        (#""id": "22222222-2222-4222-8222-222222222222""#, #""id": "not-a-uuid""#, "tasks[0].id"),
        (#""name": "Walk""#, #""name": null"#, "habits[0].habit.name"),
    ])
    func aMalformedDocumentIsADataErrorNamingTheField(original: String, replacement: String, field: String) throws {
        #expect(Self.validDocument.contains(original))
        let text = Self.validDocument.replacingOccurrences(of: original, with: replacement)
        let error = expectError(.badImport) { try StoreExport.decode(Data(text.utf8), source: "backup.json") }
        #expect(error?.message.hasPrefix("backup.json") == true)
        #expect(error?.message.contains(field) == true, "\(error?.message ?? "")")
        // In our words, not the decoder's.
        #expect(error?.message.contains("Cannot initialize") == false && error?.message.contains("Attempted to") == false, "\(error?.message ?? "")")
    }

    /// A field the format does not have is refused, not passed over: a misspelt `listID` put the
    /// task in the Inbox with exit 0. A null stands for a field left out, known or not.
    @Test(arguments: [
        (#""listID": "1111"#, #""listId": "1111"#, "tasks[0] has a field “listId”"),
        (#""schema": "taskwidget.export/1","#, #""schema": "taskwidget.export/1", "comment": "mine","#, "the document has a field “comment”"),
        (#""status": "done""#, #""status": "done", "note": {}"#, "habits[0].completions[0] has a field “note”"),
        (#""icon": "🚶","#, #""icon": "🚶", "emoji\n": "🚶","#, "habits[0].habit has a field “emoji”"),
    ])
    func aFieldTheFormatDoesNotHaveIsRefused(original: String, replacement: String, expected: String) throws {
        #expect(Self.validDocument.contains(original))
        let text = Self.validDocument.replacingOccurrences(of: original, with: replacement)
        let error = expectError(.badImport) { try StoreExport.decode(Data(text.utf8), source: "backup.json") }
        #expect(error?.message.hasPrefix("backup.json is not a taskwidget export: \(expected)") == true, "\(error?.message ?? "")")
        #expect(error?.message.contains("\n") == false)
    }

    /// A field near one the format has is suggested (`listId` had only "check its spelling").
    @Test(arguments: [
        (#""listID": "1111"#, #""listId": "1111"#, "tasks[0] has a field “listId” that an export does not have: did you mean “listID”?"),
        (#""dueDate": "#, #""due_date": "#, "tasks[0] has a field “due_date” that an export does not have: did you mean “dueDate”?"),
        (#""status": "done""#, #""status": "done", "dya": "2026-01-01""#, "habits[0].completions[0] has a field “dya” that an export does not have: did you mean “day”?"),
    ])
    func aFieldNearOneTheFormatHasIsSuggested(original: String, replacement: String, expected: String) throws {
        #expect(Self.validDocument.contains(original))
        let text = Self.validDocument.replacingOccurrences(of: original, with: replacement)
        let error = expectError(.badImport) { try StoreExport.decode(Data(text.utf8), source: "backup.json") }
        #expect(error?.message == "backup.json is not a taskwidget export: \(expected)")
    }

    /// The fields suggested are the ones an export writes, at every place in the document.
    @Test func theFieldsSuggestedAreTheOnesAnExportWrites() throws {
        let export = try StoreExport.decode(Data(Self.validDocument.utf8), source: "backup.json")
        let written = try JSONSerialization.jsonObject(with: export.jsonData())
        var checked = 0
        func walk(_ value: Any, path: String) {
            if let object = value as? [String: Any] {
                let names = Set(StoreExport.fieldNames(at: path.isEmpty ? "the document" : path))
                #expect(Set(object.keys).isSubset(of: names), "\(path): \(object.keys.sorted()) against \(names.sorted())")
                checked += 1
                for (key, value) in object { walk(value, path: path.isEmpty ? key : "\(path).\(key)") }
            } else if let array = value as? [Any] {
                for (index, element) in array.enumerated() { walk(element, path: "\(path)[\(index)]") }
            }
        }
        walk(written, path: "")
        #expect(checked >= 6)
    }

    /// A field that is needed and misspelt is named with the misspelling (it was only "is missing").
    @Test(arguments: [
        (#""title": "Pay rent""#, #""titel": "Pay rent""#, "tasks[0].title is missing, and tasks[0] has “titel”: check its spelling against what `taskwidget export` writes"),
        (#""habits": ["#, #""habitz": ["#, "habits is missing, and the document has “habitz”: check its spelling against what `taskwidget export` writes"),
        (#""title": "Pay rent""#, #""note": "Pay rent""#, "tasks[0].title is missing"),
    ])
    func aMissingFieldNamesItsMisspelling(original: String, replacement: String, expected: String) throws {
        #expect(Self.validDocument.contains(original))
        let text = Self.validDocument.replacingOccurrences(of: original, with: replacement)
        let error = expectError(.badImport) { try StoreExport.decode(Data(text.utf8), source: "backup.json") }
        #expect(error?.message == "backup.json is not a taskwidget export: \(expected)")
    }

    @Test func aNullStandsForAFieldLeftOutKnownOrNot() throws {
        let nulls = Self.validDocument.replacingOccurrences(of: #""sortOrder": 0}"#, with: #""sortOrder": 0, "reminderDate": null, "later": null}"#)
        #expect(nulls != Self.validDocument)
        #expect(try StoreExport.decode(Data(nulls.utf8), source: "backup.json") == StoreExport.decode(Data(Self.validDocument.utf8), source: "backup.json"))
    }

    /// JSON that does not parse says where; a file cut short says so; a number its field cannot
    /// take, which Foundation's decoder calls invalid JSON, says that instead, and which field.
    @Test func aDocumentTheDecoderRefusesWithoutAFieldSaysWhatIsWrong() throws {
        let cases = [
            (Self.validDocument.replacingOccurrences(of: #""sortOrder": 0}"#, with: #""sortOrder": 1.5}"#), "lists[0].sortOrder is a number that does not fit"),
            (
                Self.validDocument.replacingOccurrences(of: #"8111-111111111111", "sortOrder": 0}"#, with: #"8111-111111111111", "sortOrder": 1e30}"#),
                "tasks[0].sortOrder is a number that does not fit"
            ),
            (String(Self.validDocument.prefix(200)), "the JSON ends too soon: the file may be cut short"),
            ("{\n  \"schema\": tru\n}", "the JSON is malformed at line 2, column"),
            // Valid JSON that no field can hold was "malformed", with no place (helper-114).
            (Self.validDocument.replacingOccurrences(of: #""sortOrder": 0}"#, with: #""sortOrder": 1e400}"#), "the number at line 5, column 56 is too large for any field"),
            // Half a character, and a raw control character: "ends too soon", or no place (helper-135).
            ("{\n  \"schema\": \"x\\ud800\"\n}", "the JSON is malformed at line 2, column 15: a \\u escape there is half of a character"),
            ("{\n  \"schema\": \"x\\udc00\\ud800\"\n}", "the JSON is malformed at line 2, column 15: a \\u escape there is half of a character"),
            ("{\n  \"schema\": \"x\\ud800\\udc00y\\udbff\"\n}", "at line 2, column 28: a \\u escape there is half of a character"),
            ("{\n  \"schema\": \"x\u{7}\"\n}", "the JSON is malformed at line 2, column 15 (a control character, which a string holds only escaped)"),
            ("\u{FEFF}{\n  \"schema\": \"x\u{7}\"\n}", "the JSON is malformed at line 2, column 15 (a control character, which a string holds only escaped)"),
            ("\u{FEFF}{\n  \"schema\": tru\n}", "the JSON is malformed at line 2, column 16"),
        ]
        for (text, expected) in cases {
            let error = expectError(.badImport) { try StoreExport.decode(Data(text.utf8), source: "backup.json") }
            #expect(error?.message.contains(expected) == true, "\(error?.message ?? "")")
        }
    }

    /// A file cut inside a character is cut short, as one cut between characters; a byte that is
    /// not UTF-8 is found by its line and column (both were only "not UTF-8 text", helper-114).
    @Test func bytesThatAreNotUTF8AreCutShortOrFoundByTheirPlace() throws {
        let document = Self.validDocument.replacingOccurrences(of: "Pay rent", with: "Pay 日本 rent")
        let characterStart = try #require(document.utf8.firstIndex(of: "日".utf8.first!)).utf16Offset(in: document)
        for cut in 1...2 {
            let data = Data(document.utf8.prefix(characterStart + cut))
            let error = expectError(.badImport) { try StoreExport.decode(data, source: "backup.json") }
            #expect(error?.message == "backup.json is not a taskwidget export: the JSON ends too soon: the file may be cut short", "\(error?.message ?? "")")
        }
        var bad = Data(document.utf8)
        bad[bad.startIndex + characterStart] = 0xFF
        let error = expectError(.badImport) { try StoreExport.decode(bad, source: "backup.json") }
        #expect(
            error?.message == "backup.json is not UTF-8 text (line 8, column 66): save it as UTF-8, as `taskwidget export` writes it",
            "\(error?.message ?? "")")
        #expect(StoreExport.firstByteNotUTF8(in: Data(document.utf8)) == nil)
    }

    /// Regression: the error quoted the bad value raw (`Cannot initialize TaskState from invalid
    /// String value …`, `expected a day as YYYY-MM-DD, found “…”`), so a value with a line break
    /// gave a two-line error and a 100 KB value a 100 KB line.
    @Test(arguments: [
        (#""state": "notStarted""#, "tasks[0].state"), (#""day": "2026-11-22""#, "habits[0].completions[0].day"),
        (#""status": "done""#, "habits[0].completions[0].status"),
    ])
    func aBadValueIsQuotedOnOneShortLine(original: String, field: String) throws {
        let key = original.prefix(while: { $0 != ":" })
        for value in [#"line one\nline two\u0000\u2028"#, String(repeating: "x", count: 100_000)] {
            let text = Self.validDocument.replacingOccurrences(of: original, with: "\(key): \"\(value)\"")
            let error = try #require(expectError(.badImport) { try StoreExport.decode(Data(text.utf8), source: "backup.json") })
            #expect(error.message.contains(field), "\(error.message)")
            #expect(FuzzOracle.errorProblem(error, expected: .badImport, maxCharacters: 249) == nil)
        }
    }

    @Test(arguments: ["", "{", "not json", "[]", "null", #"{"schema": "taskwidget.export/1""#])
    func textThatIsNotAnExportIsADataError(text: String) throws {
        let error = expectError(.badImport) { try StoreExport.decode(Data(text.utf8), source: "backup.json") }
        #expect(error?.message.hasPrefix("backup.json") == true)
    }

    @Test func bytesThatAreNotUTF8AreADataError() throws {
        expectError(.badImport) { try StoreExport.decode(Data([0xFF, 0xFE, 0x7B, 0x00]), source: "backup.json") }
        // UTF-16, with or without its byte order mark, and UTF-8 with a raw NUL.
        for data in [Self.validDocument.data(using: .utf16)!, Self.validDocument.data(using: .utf16LittleEndian)!, Data("{\u{0}}".utf8)] {
            let error = expectError(.badImport) { try StoreExport.decode(data, source: "backup.json") }
            #expect(error?.message.hasPrefix("backup.json is not") == true, "\(error?.message ?? "")")
        }
    }

    /// Regression: Foundation's JSON decoder stops at 512 levels of nesting, but traps (SIGILL, a
    /// backtrace) when the 513th `[` is the last byte of the file: `import` of exactly 513 `[`
    /// crashed. Nesting is now checked first, whatever follows, and brackets in strings do not count.
    @Test(arguments: [513, 512, 65, 100_000])
    func deeplyNestedFilesAreRefusedWithoutReachingTheDecoder(depth: Int) throws {
        for text in [String(repeating: "[", count: depth), String(repeating: "{\"a\":", count: depth)] {
            let error = expectError(.badImport) { try StoreExport.decode(Data(text.utf8), source: "deep.json") }
            #expect(error?.message == "deep.json is not a taskwidget export: arrays and objects are nested more than 64 deep")
        }
        let inStrings = Self.validDocument.replacingOccurrences(of: "Pay rent", with: String(repeating: "[{\\\"", count: depth))
        #expect(try StoreExport.decode(Data(inStrings.utf8), source: "ok.json").tasks[0].title.hasPrefix(#"[{"[{""#))
    }

    @Test(arguments: ["taskwidget.export/2", "taskwidget.timeline/1", ""])
    func anotherSchemaIsADataErrorNamingIt(schema: String) throws {
        let text = Self.validDocument.replacingOccurrences(of: "taskwidget.export/1", with: schema)
        let error = expectError(.badImport) { try StoreExport.decode(Data(text.utf8), source: "backup.json") }
        #expect(error?.message.contains("“\(schema)”") == true)
        #expect(error?.message.contains("taskwidget.export/1") == true)
    }

    /// The schema is read before the rest: a newer format whose fields differ got “habits is
    /// missing” instead of the advice to upgrade, and a timeline's JSON “lists is missing”
    /// (helper-101). A store, and a document that is no object, are named as such.
    @Test func theSchemaAndTheKindOfFileComeFirst() throws {
        func message(_ text: String) -> String? {
            expectError(.badImport) { try StoreExport.decode(Data(text.utf8), source: "f.json") }?.message
        }
        #expect(
            message(#"{"schema": "taskwidget.export/2", "tasks": [{"state": "waiting"}]}"#)
                == "f.json has schema “taskwidget.export/2”; this taskwidget reads taskwidget.export/1: a newer taskwidget wrote it, upgrade taskwidget to import it")
        #expect(
            message(#"{"schema": "taskwidget.timeline/1", "entries": []}"#)
                == "f.json has schema “taskwidget.timeline/1”; this taskwidget reads taskwidget.export/1: give a file that `taskwidget export` wrote")
        #expect(message(#"[{"id": "x"}]"#) == "f.json is not a taskwidget export: the document is not a JSON object, as an export is: give a file that `taskwidget export` wrote")
        // A document of another program, and a compressed backup (helper-102).
        #expect(message("{}") == "f.json is not a taskwidget export: schema is missing: give a file that `taskwidget export` wrote")
        let gzip = expectError(.badImport) { try StoreExport.decode(Data([0x1F, 0x8B, 0x08, 0x00, 0xFF]), source: "f.json.gz") }
        #expect(gzip?.message == "f.json.gz is compressed with gzip: import it with `gunzip -c f.json.gz | taskwidget import -`")
        let piped = expectError(.badImport) { try StoreExport.decode(Data([0x28, 0xB5, 0x2F, 0xFD, 0x00]), source: "standard input") }
        #expect(piped?.message == "standard input is compressed with zstd: pipe it through `zstd -dc` first")
        let archive = expectError(.badImport) { try StoreExport.decode(Data([0x1F, 0x8B, 0x08, 0x00, 0xFF]), source: "backup.tgz") }
        #expect(archive?.message == "backup.tgz is compressed with gzip: take the export out of the archive (tar xf backup.tgz) and import that")
        let store = expectError(.badImport) { try StoreExport.decode(Data("SQLite format 3\0\u{10}\0".utf8), source: "tasks.sqlite") }
        #expect(
            store?.message == "tasks.sqlite is an SQLite database, such as a store, not an export: import a store with `taskwidget export --store FILE | taskwidget import -`")
    }
}
