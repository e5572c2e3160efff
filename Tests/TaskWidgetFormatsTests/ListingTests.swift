import Foundation
import TaskWidgetCore
import TaskWidgetFormats
import Testing

@testable import TaskWidgetTestSupport

/// `ls` for people: the REMIND column shows only when a task has a reminder, and stays aligned.
@Suite struct ListingTests {
    static let now = Fixed.instant("2026-11-22T16:27:00+01:00")
    let listing = Listing(now: now, calendar: LocalCalendar(timeZone: Fixed.zone("Europe/Berlin")))

    func task(_ title: String, remind: String? = nil) -> ListedTask {
        var item = TaskItem(title: title, reminderDate: remind.map(Fixed.instant), createdAt: Self.now)
        item.id = UUID(uuidString: "3F2A9C1B-0000-4000-8000-00000000000\(title.count % 10)")!
        return ListedTask(task: item, list: nil)
    }

    @Test func aReminderGetsABellAndItsTimeInAColumnOfItsOwn() {
        let table = listing.table([task("Pay rent", remind: "2026-11-27T17:00:00+01:00"), task("Walk", remind: nil), task("Call", remind: "2026-11-22T18:00:00+01:00")])
        #expect(table == """
            ID          TITLE     LIST   DUE  REMIND
            3f2a9c1b  ○ Pay rent  Inbox       🔔 Fri 27 Nov 17:00
            3f2a9c1b  ○ Walk      Inbox
            3f2a9c1b  ○ Call      Inbox       🔔 18:00

            """)
    }

    /// On a terminal, titles take the room the other columns leave, and at least 16 columns; in a
    /// pipe or a file, 44. Titles were cut at 44 on every terminal, and overflowed a narrow one.
    @Test func onATerminalTitlesTakeTheRoomTheOtherColumnsLeave() {
        let long = "Call the dentist about the appointment next week before noon"  // 60 columns
        let tasks = [task(long), task("Walk")]
        func table(width: Int?) -> String {
            Listing(now: Self.now, calendar: LocalCalendar(timeZone: Fixed.zone("Europe/Berlin")), terminalWidth: width).table(tasks)
        }
        // ID 8, the mark 2, LIST 5, DUE 3 (its heading) and two spaces thrice: 24 columns besides the title.
        #expect(table(width: 50).split(separator: "\n")[1] == "3f2a9c1b  ○ Call the dentist about th…  Inbox")
        #expect(table(width: 50).split(separator: "\n").allSatisfy { String($0).terminalWidth <= 50 })
        #expect(table(width: 100).split(separator: "\n")[1] == "3f2a9c1b  ○ \(long)  Inbox")
        #expect(table(width: 20).split(separator: "\n")[1] == "3f2a9c1b  ○ Call the dentis…  Inbox")
        #expect(table(width: nil).split(separator: "\n")[1] == "3f2a9c1b  ○ Call the dentist about the appointment next…  Inbox")
    }

    /// So do list and habit names in `list ls` and `habit ls`: a long one made every row wider
    /// than the screen (helper-79). In a pipe or a file, which scripts read, they stay whole.
    @Test func onATerminalListAndHabitNamesTakeTheRoomTheOtherColumnsLeave() {
        let long = String(repeating: "Errands ", count: 8).trimmingWhitespace  // 63 columns
        func listing(width: Int?) -> Listing {
            Listing(now: Self.now, calendar: LocalCalendar(timeZone: Fixed.zone("Europe/Berlin")), terminalWidth: width)
        }
        let lists = [ListSummary(list: TaskList(name: long, colorHex: "34C759", createdAt: Self.now), openCount: 3, totalCount: 12)]
        // COLOR 7, OPEN 4, TOTAL 5 and two spaces thrice: 22 columns besides the name.
        #expect(listing(width: 50).table(lists).split(separator: "\n")[1] == "Errands Errands Errands Err…  #34C759  3     12")
        #expect(listing(width: nil).table(lists).split(separator: "\n")[1].hasPrefix(long + "  #34C759"))
        let habits = [HabitDay(habit: Habit(name: long, icon: "🚶", colorHex: "34C759", createdAt: Self.now), day: LocalDay("2026-11-22")!, status: .done)]
        for width in [40, 60] {
            let rows = listing(width: width).table(habits).split(separator: "\n")
            #expect(rows.allSatisfy { String($0).terminalWidth <= width }, "\(rows)")
            #expect(rows[1].contains("Errands Errands") && rows[1].contains("…"), "\(rows)")
        }
        #expect(listing(width: nil).table(habits).contains(long))
    }

    /// On a terminal, a long list name in `ls` is cut to a quarter of its width (at least 12
    /// columns): rows were wider than the screen (helper-82). In a pipe it stays whole.
    @Test func onATerminalALongListNameIsCut() {
        var item = task("Walk")
        item.list = TaskList(name: "Groceries and household errands", colorHex: "34C759", createdAt: Self.now)
        func row(width: Int?) -> String {
            String(Listing(now: Self.now, calendar: LocalCalendar(timeZone: Fixed.zone("Europe/Berlin")), terminalWidth: width).table([item]).split(separator: "\n")[1])
        }
        #expect(row(width: 60) == "3f2a9c1b  ○ Walk   Groceries and…")  // 15 columns, the space before … left out
        #expect(row(width: 100) == "3f2a9c1b  ○ Walk   Groceries and household…")
        #expect(row(width: nil) == "3f2a9c1b  ○ Walk   Groceries and household errands")
    }

    @Test func withoutRemindersThereIsNoColumn() {
        #expect(listing.table([task("Walk")]) == "ID          TITLE  LIST   DUE\n3f2a9c1b  ○ Walk   Inbox\n")
    }

    /// In colour, an overdue task's mark and due label are red and a list is a dot of its colour;
    /// the columns stay aligned on what shows.
    @Test func inColourOverdueIsRedAndListsAreDotsOfTheirColour() {
        var overdue = task("Pay rent")
        overdue.task.dueDate = Fixed.instant("2026-11-22T09:00:00+01:00")
        var later = task("Walk")
        later.task.dueDate = Fixed.instant("2026-11-27T14:30:00+01:00")
        later.list = TaskList(name: "Home", colorHex: "34C759", createdAt: Self.now)
        let colored = Listing(now: Self.now, calendar: LocalCalendar(timeZone: Fixed.zone("Europe/Berlin")), usesColor: true)
        let (red, green, reset) = ("\u{1B}[31m", "\u{1B}[38;2;52;199;89m", "\u{1B}[0m")
        #expect(colored.table([overdue, later]) == """
            ID          TITLE     LIST     DUE
            3f2a9c1b  \(red)!\(reset) Pay rent    Inbox  \(red)Overdue · 09:00\(reset)
            3f2a9c1b  ○ Walk      \(green)●\(reset) Home   Fri 27 Nov 14:30

            """)
        // Without colour: the same table, no escapes.
        #expect(listing.table([overdue, later]) == """
            ID          TITLE     LIST   DUE
            3f2a9c1b  ! Pay rent  Inbox  Overdue · 09:00
            3f2a9c1b  ○ Walk      Home   Fri 27 Nov 14:30

            """)
    }

    @Test(arguments: [
        ("auto", true, [:], true), ("auto", false, [:], false), ("auto", true, ["NO_COLOR": "1"], false),
        ("auto", true, ["NO_COLOR": ""], true), ("auto", true, ["TERM": "dumb"], false),
        ("always", false, ["NO_COLOR": "1"], true), ("never", true, [:], false),
    ])
    func colourFollowsTheChoiceTheTerminalAndNoColor(choice: String, isTerminal: Bool, environment: [String: String], expected: Bool) {
        #expect(ColorChoice(rawValue: choice)?.usesColor(isTerminal: isTerminal, environment: environment) == expected)
    }

    /// Nothing to list: say so, and how to see more.
    /// A view of config.toml is named with its own option (it spoke of --list for `ls --view`).
    @Test(arguments: [
        (TaskView(), false, "No open tasks — `taskwidget ls --all` shows completed ones\n"),
        (TaskView(), true, "No tasks yet — add one: taskwidget add \"Buy milk\" --due today\n"),
        (TaskView(scope: .list("Work")), false, "No open tasks in Work — add --all for completed ones, or leave out --list for every list\n"),
        (TaskView(scope: .list("Work")), true, "No tasks in Work — leave out --list for every list\n"),
        (TaskView(scope: .inbox), false, "No open tasks in the Inbox — add --all for completed ones, or leave out --inbox for every list\n"),
        (TaskView(name: "soon", scope: .list("Work"), dueWithin: 1800), false,
         "No open tasks in the view soon — add --all for completed ones, or leave out --view for every task\n"),
    ])
    func anEmptyListingSaysHowToSeeMore(view: TaskView, includesCompleted: Bool, expected: String) throws {
        #expect(listing.table([], in: view, includesCompleted: includesCompleted) == expected)
        #expect(try listing.json([]) == "[]\n")
    }
}
