import Foundation
import Testing

@testable import TaskWidgetCore
@testable import TaskWidgetStore
@testable import TaskWidgetTestSupport

/// Lists and habits in the store, and the day a habit is checked for.
@Suite struct StoreListHabitTests: StoreSuite {
    let fixture: TemporaryStore

    init() throws {
        fixture = try TemporaryStore()
    }

    @discardableResult
    func addList(_ name: String, color: String? = nil, second: Int = 0) throws -> TaskList {
        try store.addList(named: name, colorHex: color, now: at(second))
    }

    @discardableResult
    func addTask(_ title: String, list: String?, second: Int = 0) throws -> TaskItem {
        try store.addTask(NewTask(title: title, listName: list, createsList: true), now: at(second)).task
    }

    // MARK: - List names

    @Test func addListStoresTheListAtTheEndOfTheOrder() throws {
        let work = try addList(" Work ", second: 1)
        let home = try addList("Home", color: "34c759", second: 2)
        #expect(work.name == "Work" && work.colorHex == "007AFF" && work.createdAt == at(1) && work.sortOrder == 0)
        #expect(home.name == "Home" && home.colorHex == "34C759" && home.createdAt == at(2) && home.sortOrder == 1)
        #expect(try store.listSummaries().map(\.list) == [work, home])
    }

    @Test(arguments: [
        ("Work", "work"),
        ("Work", "WORK"),
        ("Work", "  Work  "),
        ("Ärger", "ärger"),
        ("ärger", "ÄRGER"),
        ("Ωμέγα", "ωμέγα"),
    ])
    func listNamesAreUniqueCaseInsensitively(existing: String, new: String) throws {
        let list = try addList(existing)
        let error = expectError(.nameTaken) { try addList(new, second: 1) }
        #expect(error?.message.contains(list.name) == true)
        #expect(try store.listSummaries().map(\.list) == [list])
    }

    @Test func namesThatDifferInMoreThanCaseAreDistinct() throws {
        try addList("Ärger")
        try addList("Arger", second: 1)
        try addList("Ärger 2", second: 2)
        #expect(try store.listSummaries().map(\.list.name) == ["Ärger", "Arger", "Ärger 2"])
    }

    @Test(arguments: ["Inbox", "inbox", " INBOX ", "InBoX"])
    func inboxIsReserved(name: String) throws {
        expectError(.invalidInput) { try addList(name) }
        try addList("Work")
        expectError(.invalidInput) { try store.renameList("Work", to: name) }
        #expect(try store.listSummaries().map(\.list.name) == ["Work"])
    }

    @Test func aNameThatOnlyContainsInboxIsAllowed() throws {
        #expect(try addList("Inbox zero").name == "Inbox zero")
    }

    // MARK: - Renaming

    @Test func renameKeepsTheListAndItsTasks() throws {
        let work = try addList("Work")
        try addTask("report", list: "Work")
        let (renamed, previousName) = try store.renameList("work", to: "Job")
        #expect(previousName == "Work")
        #expect(renamed.id == work.id && renamed.name == "Job" && renamed.colorHex == work.colorHex)
        #expect(try store.tasks(in: .list("job"), includeCompleted: false).map(\.task.title) == ["report"])
        expectError(.notFound) { try store.tasks(in: .list("Work"), includeCompleted: false) }
    }

    @Test(arguments: [("Work", "WORK"), ("Ärger", "ÄRGER"), ("ärger", "Ärger")])
    func renameMayChangeOnlyTheCase(old: String, new: String) throws {
        let list = try addList(old)
        let (renamed, previousName) = try store.renameList(old, to: new)
        #expect(previousName == old)
        #expect(renamed.id == list.id && renamed.name == new)
        #expect(try store.listSummaries().map(\.list.name) == [new])
    }

    @Test(arguments: ["work", "Work", "ÄRGER"])
    func renameToAnotherListsNameIsRefused(new: String) throws {
        try addList("Home")
        try addList("Work", second: 1)
        try addList("Ärger", second: 2)
        expectError(.nameTaken) { try store.renameList("Home", to: new) }
        #expect(try store.listSummaries().map(\.list.name) == ["Home", "Work", "Ärger"])
    }

    @Test func renameAnUnknownListIsAUsageError() throws {
        try addList("Home")
        expectError(.notFound) { try store.renameList("Hoem", to: "House") }
        #expect(try store.listSummaries().map(\.list.name) == ["Home"])
    }

    // MARK: - Colors

    @Test(arguments: [("#1e90ff", "1E90FF"), ("1e90FF", "1E90FF"), (" #abcdef ", "ABCDEF"), ("000000", "000000")])
    func colorsAreNormalized(given: String, stored: String) throws {
        #expect(try addList("Work", color: given).colorHex == stored)
        #expect(try store.setListColor("work", colorHex: given).colorHex == stored)
        #expect(try store.listSummaries().map(\.list.colorHex) == [stored])
    }

    @Test(arguments: ["", "#", "red", "12345", "1234567", "#1e90f", "GG0000", "##123456", "12 456", "１２３４５６", "ＦＦ００００"])
    func badColorsAreRefused(color: String) throws {
        expectError(.invalidInput) { try addList("Work", color: color) }
        #expect(try store.listSummaries() == [])
        try addList("Home", color: "#ff9500")
        expectError(.invalidInput) { try store.setListColor("Home", colorHex: color) }
        #expect(try store.listSummaries().map(\.list.colorHex) == ["FF9500"])
    }

    // MARK: - Order

    @Test(arguments: [
        ("Errands", 1, ["Errands", "Home", "Work"], 0),
        ("home", 3, ["Work", "Errands", "Home"], 2),
        ("Home", 99, ["Work", "Errands", "Home"], 2),
        ("Work", 2, ["Home", "Work", "Errands"], 1),
        ("Work", 1, ["Work", "Home", "Errands"], 0),
    ])
    func moveListPutsItAtThePositionAndRenumbers(name: String, position: Int, expected: [String], index: Int) throws {
        try addList("Home", second: 1)
        try addList("Work", second: 2)
        try addList("Errands", second: 3)
        let (moved, isChanged) = try store.moveList(name, to: position)
        #expect(moved.sortOrder == index && NameLookup.isSame(moved.name, name))
        #expect(isChanged == (name != "Work" || position != 2), "Work was second")
        let lists = try store.listSummaries().map(\.list)
        #expect(lists.map(\.name) == expected)
        #expect(lists.map(\.sortOrder) == [0, 1, 2])
        try addTask("report", list: "Work")
        try addTask("milk", list: "Errands")
        try addTask("rent", list: "Home")
        #expect(try store.tasks(in: .all, includeCompleted: false).map(\.list?.name) == expected)
    }

    @Test func moveListRefusesBadPositionsAndUnknownNames() throws {
        try addList("Home")
        expectError(.invalidInput) { try store.moveList("Home", to: 0) }
        let error = expectError(.notFound) { try store.moveList("Hmoe", to: 1) }
        #expect(error?.message.contains("did you mean “Home”?") == true)
        expectError(.notFound) { try store.moveList("Inbox", to: 1) }
        #expect(try store.listSummaries().map(\.list.sortOrder) == [0])
    }

    // MARK: - Deleting and counting

    @Test func deleteListDeletesItsTasksOnly() throws {
        let home1 = try addTask("home 1", list: "Home", second: 1)
        try addTask("home 2", list: "Home", second: 2)
        try addTask("work", list: "Work", second: 3)
        try addTask("inbox", list: nil, second: 4)
        _ = try store.completeTasks([home1.id.shortID], now: at(10))

        let (list, count) = try store.deleteList("HOME", now: Fixed.instant("2026-11-22T12:00:00Z"))
        #expect(list.name == "Home")
        #expect(count == 2)
        #expect(try store.listSummaries().map(\.list.name) == ["Work"])
        #expect(try store.tasks(in: .all, includeCompleted: true).map(\.task.title) == ["inbox", "work"])
        #expect(try fixture.fetchInt("SELECT count(*) FROM task") == 2)
    }

    @Test func deleteAnEmptyListCountsNothing() throws {
        try addList("Empty")
        try addTask("inbox", list: nil)
        #expect(try store.deleteList("empty", now: Fixed.instant("2026-11-22T12:00:00Z")).deletedTaskCount == 0)
        #expect(try store.listSummaries() == [])
        #expect(try store.tasks(in: .all, includeCompleted: true).count == 1)
    }

    @Test func deleteAnUnknownListIsAUsageError() throws {
        try addTask("home", list: "Home")
        expectError(.notFound) { try store.deleteList("Inbox", now: Fixed.instant("2026-11-22T12:00:00Z")) }
        expectError(.notFound) { try store.deleteList("Hoem", now: Fixed.instant("2026-11-22T12:00:00Z")) }
        #expect(try store.tasks(in: .all, includeCompleted: true).count == 1)
    }

    @Test func listSummariesCountOpenAndAllTasksPerList() throws {
        try addList("Empty")
        let done = try addTask("home 1", list: "Home", second: 1)
        try addTask("home 2", list: "Home", second: 2)
        try addTask("home 3", list: "Home", second: 3)
        try addTask("work", list: "Work", second: 4)
        try addTask("inbox", list: nil, second: 5)
        _ = try store.completeTasks([done.id.shortID], now: at(10))

        let summaries = try store.listSummaries()
        #expect(summaries.map(\.list.name) == ["Empty", "Home", "Work"])
        #expect(summaries.map(\.openCount) == [0, 2, 1])
        #expect(summaries.map(\.totalCount) == [0, 3, 1])
    }

    // MARK: - Habits

    @Test func addHabitWithDefaultsAndWithGivenIconAndColor() throws {
        let plain = try store.addHabit(named: "  Walk ", icon: nil, colorHex: nil, now: at(1))
        #expect(plain.name == "Walk" && plain.icon == "•" && plain.colorHex == "007AFF" && plain.createdAt == at(1))
        let water = try store.addHabit(named: "Drink water", icon: " 💧 ", colorHex: "#32ade6", now: at(2))
        #expect(water.icon == "💧" && water.colorHex == "32ADE6")
        let day = Fixed.day("2026-11-23")
        #expect(try store.habitDays(on: day) == [
            HabitDay(habit: plain, day: day, status: nil), HabitDay(habit: water, day: day, status: nil),
        ])
    }

    @Test(arguments: ["Walk", "walk", " WALK "])
    func aDuplicateHabitNameIsRefused(name: String) throws {
        _ = try store.addHabit(named: "Walk", icon: nil, colorHex: nil, now: at(0))
        expectError(.nameTaken) { try store.addHabit(named: name, icon: "🚶", colorHex: nil, now: at(1)) }
        #expect(try store.habitDays(on: Fixed.day("2026-11-23")).map(\.habit.icon) == ["•"])
    }

    @Test func badHabitInputIsRefused() throws {
        expectError(.invalidInput) { try store.addHabit(named: " ", icon: nil, colorHex: nil, now: at(0)) }
        expectError(.invalidInput) { try store.addHabit(named: "Walk", icon: "", colorHex: nil, now: at(0)) }
        expectError(.invalidInput) { try store.addHabit(named: "Walk", icon: "123456789", colorHex: nil, now: at(0)) }
        expectError(.invalidInput) { try store.addHabit(named: "Walk", icon: nil, colorHex: "blue", now: at(0)) }
        #expect(try store.habitDays(on: Fixed.day("2026-11-23")) == [])
    }

    @Test func checkingTwiceLeavesOneCompletion() throws {
        _ = try store.addHabit(named: "Walk", icon: nil, colorHex: nil, now: at(0))
        let day = Fixed.day("2026-11-23")
        let first = try store.checkHabit("walk", on: day, status: .done)
        let second = try store.checkHabit("Walk", on: day, status: .done)
        #expect(first == second && first.status == .done && first.isDone)
        #expect(try fixture.fetchInt("SELECT count(*) FROM habitCompletion") == 1)
        #expect(try store.habitDays(on: day).map(\.status) == [.done])
    }

    @Test func checkingWithAnotherStatusOverwrites() throws {
        _ = try store.addHabit(named: "Walk", icon: nil, colorHex: nil, now: at(0))
        let day = Fixed.day("2026-11-23")
        _ = try store.checkHabit("Walk", on: day, status: .done)
        let missed = try store.checkHabit("Walk", on: day, status: .missed)
        #expect(missed.status == .missed && !missed.isDone)
        #expect(try store.habitDays(on: day).map(\.status) == [.missed])
        #expect(try fixture.fetchInt("SELECT count(*) FROM habitCompletion") == 1)
        #expect(try fixture.fetchInt("SELECT count(*) FROM habitCompletion WHERE status = 'missed' AND day = '2026-11-23'") == 1)
    }

    @Test func uncheckingTwiceIsFineAndSaysWhatWasRemoved() throws {
        _ = try store.addHabit(named: "Walk", icon: nil, colorHex: nil, now: at(0))
        let day = Fixed.day("2026-11-23")
        _ = try store.checkHabit("Walk", on: day, status: .skipped)
        #expect(try store.uncheckHabit("walk", on: day).removed == .skipped)
        #expect(try store.uncheckHabit("walk", on: day).removed == nil)
        #expect(try store.habitDays(on: day).map(\.status) == [nil])
        #expect(try fixture.fetchInt("SELECT count(*) FROM habitCompletion") == 0)
    }

    @Test func toggleChecksAndUnchecksTheDay() throws {
        _ = try store.addHabit(named: "Walk", icon: nil, colorHex: nil, now: at(0))
        let day = Fixed.day("2026-11-23"), dayBefore = Fixed.day("2026-11-22")
        _ = try store.checkHabit("Walk", on: dayBefore, status: .done)
        #expect(try store.toggleHabit("walk", on: day).status == .done)
        #expect(try store.habitDays(on: day).map(\.status) == [.done])
        #expect(try store.toggleHabit("Walk", on: day).status == nil)
        #expect(try store.habitDays(on: day).map(\.status) == [nil])
        // A missed day becomes done, not erased.
        _ = try store.checkHabit("Walk", on: day, status: .missed)
        #expect(try store.toggleHabit("Walk", on: day).status == .done)
        #expect(try store.habitDays(on: dayBefore).map(\.status) == [.done], "other days stay")
        #expect(try fixture.fetchInt("SELECT count(*) FROM habitCompletion") == 2)
    }

    @Test func editHabitRenamesAndChangesIconAndColorKeepingItsHistory() throws {
        let walk = try store.addHabit(named: "Walk", icon: nil, colorHex: nil, now: at(0))
        _ = try store.addHabit(named: "Read", icon: nil, colorHex: nil, now: at(1))
        let day = Fixed.day("2026-11-23")
        _ = try store.checkHabit("Walk", on: day, status: .done)
        let iconOnly = try store.editHabit("walk", newName: nil, icon: " 🚶 ", colorHex: nil)
        #expect(iconOnly == Habit(id: walk.id, name: "Walk", icon: "🚶", colorHex: "007AFF", createdAt: walk.createdAt))
        let renamed = try store.editHabit("Walk", newName: " Evening walk ", icon: nil, colorHex: "#34c759")
        #expect(renamed == Habit(id: walk.id, name: "Evening walk", icon: "🚶", colorHex: "34C759", createdAt: walk.createdAt))
        #expect(try store.habitDays(on: day).map(\.habit.name) == ["Evening walk", "Read"])
        #expect(try store.habitDays(on: day).map(\.status) == [.done, nil])
        #expect(try store.editHabit("evening walk", newName: "EVENING WALK", icon: nil, colorHex: nil).name == "EVENING WALK")
    }

    @Test func editHabitRefusesATakenNameBadValuesAndUnknownHabits() throws {
        _ = try store.addHabit(named: "Walk", icon: nil, colorHex: nil, now: at(0))
        _ = try store.addHabit(named: "Read", icon: nil, colorHex: nil, now: at(1))
        let before = try store.export()
        expectError(.nameTaken) { try store.editHabit("Walk", newName: "read", icon: nil, colorHex: nil) }
        expectError(.invalidInput) { try store.editHabit("Walk", newName: " ", icon: nil, colorHex: nil) }
        expectError(.invalidInput) { try store.editHabit("Walk", newName: nil, icon: "123456789", colorHex: nil) }
        expectError(.invalidInput) { try store.editHabit("Walk", newName: nil, icon: nil, colorHex: "blue") }
        let error = expectError(.notFound) { try store.editHabit("Wakl", newName: nil, icon: "🚶", colorHex: nil) }
        #expect(error?.message.contains("did you mean “Walk”?") == true)
        #expect(try store.export() == before)
    }

    @Test func checkingAnUnknownHabitIsAUsageError() throws {
        _ = try store.addHabit(named: "Walk", icon: nil, colorHex: nil, now: at(0))
        let error = expectError(.notFound) { try store.checkHabit("Run", on: Fixed.day("2026-11-23"), status: .done) }
        #expect(error?.message.contains("Walk") == true)
        expectError(.notFound) { try store.uncheckHabit("Run", on: Fixed.day("2026-11-23")) }
        #expect(try fixture.fetchInt("SELECT count(*) FROM habitCompletion") == 0)
    }

    @Test func habitDaysShowWhatWasRecordedOnThatDayOnly() throws {
        let walk = try store.addHabit(named: "Walk", icon: "🚶", colorHex: nil, now: at(1))
        let read = try store.addHabit(named: "Read", icon: "📖", colorHex: nil, now: at(2))
        let monday = Fixed.day("2026-11-23"), sunday = Fixed.day("2026-11-22"), saturday = Fixed.day("2026-11-21")
        _ = try store.checkHabit("Walk", on: monday, status: .done)
        _ = try store.checkHabit("Read", on: sunday, status: .skipped)
        _ = try store.checkHabit("Walk", on: sunday, status: .missed)

        #expect(try store.habitDays(on: monday) == [
            HabitDay(habit: walk, day: monday, status: .done), HabitDay(habit: read, day: monday, status: nil),
        ])
        #expect(try store.habitDays(on: sunday).map(\.status) == [.missed, .skipped])
        #expect(try store.habitDays(on: saturday).map(\.status) == [nil, nil])
        #expect(try store.habitDays(on: monday).map(\.isDone) == [true, false])
    }

    @Test func deleteHabitRemovesItsCompletions() throws {
        _ = try store.addHabit(named: "Walk", icon: nil, colorHex: nil, now: at(1))
        _ = try store.addHabit(named: "Read", icon: nil, colorHex: nil, now: at(2))
        _ = try store.checkHabit("Walk", on: Fixed.day("2026-11-22"), status: .done)
        _ = try store.checkHabit("Walk", on: Fixed.day("2026-11-23"), status: .missed)
        _ = try store.checkHabit("Read", on: Fixed.day("2026-11-23"), status: .done)

        #expect(try store.habitWithHistory(named: "Walk").days == 2)
        let deleted = try store.deleteHabit("WALK")
        #expect(deleted.habit.name == "Walk" && deleted.days == 2)
        #expect(try fixture.fetchInt("SELECT count(*) FROM habit") == 1)
        #expect(try fixture.fetchInt("SELECT count(*) FROM habitCompletion") == 1)
        #expect(try store.habitDays(on: Fixed.day("2026-11-23")).map(\.habit.name) == ["Read"])
        expectError(.notFound) { try store.deleteHabit("Walk") }
    }

    // MARK: - The day a habit is checked for

    /// 2026-11-22T23:30Z is already Monday 23 November in Berlin, still Sunday in UTC.
    static let lateSunday = Fixed.instant("2026-11-22T23:30:00Z")

    @Test(arguments: [
        (nil, "Europe/Berlin", "2026-11-23"),
        ("today", "Europe/Berlin", "2026-11-23"),
        (" Today ", "Europe/Berlin", "2026-11-23"),
        ("yesterday", "Europe/Berlin", "2026-11-22"),
        ("YESTERDAY", "Europe/Berlin", "2026-11-22"),
        ("2026-11-23", "Europe/Berlin", "2026-11-23"),
        ("2024-02-29", "Europe/Berlin", "2024-02-29"),
        ("today", "UTC", "2026-11-22"),
        ("yesterday", "UTC", "2026-11-21"),
        ("today", "America/Los_Angeles", "2026-11-22"),
    ] as [(String?, String, String)])
    func habitDayReadsTodayYesterdayAndDates(text: String?, zone: String, expected: String) throws {
        let day = try LocalDay.habitDay(text, now: Self.lateSunday, calendar: LocalCalendar(timeZone: Fixed.zone(zone)))
        #expect(day.description == expected)
    }

    @Test(arguments: [
        ("2026-11-24", "Europe/Berlin"),
        ("2027-01-01", "Europe/Berlin"),
        ("2026-11-23", "UTC"),
    ])
    func habitDayRefusesFutureDays(text: String, zone: String) throws {
        let error = expectError(.invalidInput) { try LocalDay.habitDay(text, now: Self.lateSunday, calendar: LocalCalendar(timeZone: Fixed.zone(zone))) }
        #expect(error?.message.contains("future") == true)
    }

    @Test(arguments: ["", "garbage", "tomorrow", "2026-02-30", "2026-13-01", "2026-1-05", "23/11/2026", "2026-11-23T10:00", "２０２６-11-23"])
    func habitDayRefusesGarbage(text: String) throws {
        expectError(.invalidInput) { try LocalDay.habitDay(text, now: Self.lateSunday, calendar: LocalCalendar(timeZone: Fixed.zone("Europe/Berlin"))) }
    }

    /// Berlin's 2026-03-29 has 23 hours: yesterday is still the calendar day before.
    @Test(arguments: [
        ("2026-03-30T00:30:00+02:00", "2026-03-29"),
        ("2026-03-29T23:30:00+02:00", "2026-03-28"),
        ("2026-03-29T00:30:00+01:00", "2026-03-28"),
        ("2026-10-26T00:30:00+01:00", "2026-10-25"),
    ])
    func yesterdayAcrossDaylightSavingChanges(now: String, expected: String) throws {
        let day = try LocalDay.habitDay("yesterday", now: Fixed.instant(now), calendar: LocalCalendar(timeZone: Fixed.zone("Europe/Berlin")))
        #expect(day.description == expected)
    }

    @Test(arguments: [
        ("2026-11-23", true), ("2028-02-29", true), ("0001-01-01", true),
        ("2026-02-29", false), ("2026-04-31", false), ("2026-00-10", false), ("2026-11-00", false),
        ("26-11-23", false), ("2026-11-23 ", false), ("2026/11/23", false),
        // Signs are not digits.
        ("+026-11-23", false), ("2026-+1-05", false), ("2026-11-+5", false),
    ])
    func localDayParsesOnlyRealDates(text: String, valid: Bool) throws {
        let day = LocalDay(text)
        #expect((day != nil) == valid)
        if let day { #expect(day.description == text) }
    }
}
