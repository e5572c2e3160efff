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

    @Test func withoutRemindersThereIsNoColumn() {
        #expect(listing.table([task("Walk")]) == "ID          TITLE  LIST   DUE\n3f2a9c1b  ○ Walk   Inbox\n")
    }
}
