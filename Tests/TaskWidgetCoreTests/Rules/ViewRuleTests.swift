import Foundation
import Testing

@testable import TaskWidgetCore
@testable import TaskWidgetTestSupport

/// What a view keeps of its scope, how snoozing moves a task, durations as typed, and which task
/// an entry names next (what `done --top` acts on). The store's SQL form of the view rule is
/// checked against ``TaskView/includes(_:at:)`` in TaskWidgetStoreTests' `TimelineSnapshotTests`.
@Suite struct ViewRuleTests {
    static let now = Fixed.instant("2026-11-22T15:27:00Z")
    static let berlin = LocalCalendar(timeZone: Fixed.zone("Europe/Berlin"))

    static func task(due: String? = nil, remind: String? = nil, state: TaskState = .notStarted) -> TaskItem {
        var task = TaskItem(title: "t", dueDate: due.map(Fixed.instant), reminderDate: remind.map(Fixed.instant), createdAt: Fixed.instant("2026-11-01T00:00:00Z"))
        if state == .active { task.start(at: now) }
        if state == .completed { task.complete(at: now) }
        return task
    }

    @Test func aViewKeepsTasksDueWithinItsHorizonOverdueOnesIncluded() {
        let view = TaskView(name: "soon", dueWithin: 86_400)
        #expect(view.isFiltered && view.dueLimit(at: Self.now) == Fixed.instant("2026-11-23T15:27:00Z"))
        #expect(view.includes(Self.task(due: "2026-11-20T09:00:00Z"), at: Self.now))
        #expect(view.includes(Self.task(due: "2026-11-23T15:27:00Z"), at: Self.now))
        #expect(!view.includes(Self.task(due: "2026-11-23T15:27:01Z"), at: Self.now))
        #expect(!view.includes(Self.task(), at: Self.now))
        #expect(!view.includes(Self.task(remind: "2026-11-22T16:00:00Z"), at: Self.now), "a reminder is no due date")
    }

    @Test func aTaskBeyondTheHorizonComesIntoTheViewLater() {
        let view = TaskView(name: "soon", dueWithin: 86_400)
        #expect(view.comesIntoView(Self.task(due: "2026-11-23T15:27:01Z"), at: Self.now))
        #expect(!view.comesIntoView(Self.task(due: "2026-11-23T15:27:00Z"), at: Self.now), "in it already")
        #expect(!view.comesIntoView(Self.task(), at: Self.now), "no due date: never")
        #expect(!TaskView(dueWithin: 3600, activeOnly: true).comesIntoView(Self.task(due: "2026-11-24T09:00:00Z"), at: Self.now), "not active")
        #expect(!TaskView(name: "all").comesIntoView(Self.task(due: "2026-11-24T09:00:00Z"), at: Self.now), "no horizon")
    }

    @Test func anActiveViewKeepsActiveTasksOnly() {
        let view = TaskView(activeOnly: true)
        #expect(view.includes(Self.task(state: .active), at: Self.now))
        #expect(!view.includes(Self.task(), at: Self.now))
        #expect(!view.includes(Self.task(state: .completed), at: Self.now))
        let both = TaskView(dueWithin: 3600, activeOnly: true)
        #expect(!both.includes(Self.task(state: .active), at: Self.now))
        #expect(both.includes(Self.task(due: "2026-11-22T16:00:00Z", state: .active), at: Self.now))
        #expect(!TaskView(scope: .inbox).isFiltered && TaskView(scope: .inbox).includes(Self.task(), at: Self.now))
    }

    @Test func aViewIsTitledByItsNameElseByItsScope() {
        let work = TaskList(name: "Work", createdAt: Self.now)
        #expect(TaskView(name: "work", scope: .list("WORK")).title(list: work) == "work")
        #expect(TaskView(scope: .list("WORK")).title(list: work) == "Work")
        #expect(TaskView(scope: .inbox).title(list: nil) == "Inbox")
        #expect(TaskView().title(list: nil) == nil)
    }

    @Test func snoozingMovesWhatHasPassedFromNowAndTheRestByTheDuration() {
        var overdue = Self.task(due: "2026-11-22T09:00:00Z", remind: "2026-11-22T08:00:00Z")
        overdue.snooze(by: .init(count: 1, unit: .hour), at: Self.now, in: Self.berlin)
        #expect(overdue.dueDate == Fixed.instant("2026-11-22T16:27:00Z") && overdue.reminderDate == Fixed.instant("2026-11-22T16:27:00Z"))
        #expect(overdue.modifiedAt == Self.now)
        var later = Self.task(due: "2026-11-25T09:00:00Z")
        later.snooze(by: .init(count: 30, unit: .minute), at: Self.now, in: Self.berlin)
        #expect(later.dueDate == Fixed.instant("2026-11-25T09:30:00Z") && later.reminderDate == nil)
        var undated = Self.task()
        undated.snooze(by: .init(count: 10, unit: .minute), at: Self.now, in: Self.berlin)
        #expect(undated.dueDate == nil && undated.reminderDate == Fixed.instant("2026-11-22T15:37:00Z"))
        var done = Self.task(due: "2026-11-22T09:00:00Z", state: .completed)
        let before = done
        done.snooze(by: .init(count: 1, unit: .hour), at: Self.now.adding(seconds: 60), in: Self.berlin)
        #expect(done == before)
    }

    /// A due date given as a day alone (23:59 local) moves to the end of the day that holds the
    /// later instant, even across a change of clocks; the reminder moves as any other.
    @Test func snoozingADayOnlyDueDateKeepsItADay() {
        var today = Self.task(due: "2026-11-22T22:59:00Z", remind: "2026-11-22T08:00:00Z")
        today.snooze(by: .init(count: 30, unit: .minute), at: Self.now, in: Self.berlin)
        #expect(today.dueDate == Fixed.instant("2026-11-23T22:59:00Z") && today.reminderDate == Fixed.instant("2026-11-22T15:57:00Z"))
        var overdue = Self.task(due: "2026-11-21T22:59:00Z")
        overdue.snooze(by: .init(count: 1, unit: .day), at: Self.now, in: Self.berlin)
        #expect(overdue.dueDate == Fixed.instant("2026-11-23T22:59:00Z"))
        var beforeFallBack = Self.task(due: "2026-10-24T21:59:00Z")
        beforeFallBack.snooze(by: .init(count: 1, unit: .day), at: Fixed.instant("2026-10-24T08:00:00Z"), in: Self.berlin)
        #expect(beforeFallBack.dueDate == Fixed.instant("2026-10-25T22:59:00Z"))
        // Sunday 29 March has 23 hours: a day's snooze of Saturday is Sunday (86 400 s from
        // Saturday 23:59 is Monday 00:59), a week's the next Saturday.
        for (amount, expected) in [(TimeAmount(count: 1, unit: .day), "2026-03-29T21:59:00Z"), (.init(count: 1, unit: .week), "2026-04-04T21:59:00Z")] {
            var beforeSpringForward = Self.task(due: "2026-03-28T22:59:00Z")
            beforeSpringForward.snooze(by: amount, at: Fixed.instant("2026-03-28T08:00:00Z"), in: Self.berlin)
            #expect(beforeSpringForward.dueDate == Fixed.instant(expected), "\(amount)")
        }
        var timed = Self.task(due: "2026-11-22T22:58:00Z")
        timed.snooze(by: .init(count: 30, unit: .minute), at: Self.now, in: Self.berlin)
        #expect(timed.dueDate == Fixed.instant("2026-11-22T23:28:00Z"))
        // Overdue, snoozed in the last hour before 23:59: the hour ends after 23:59, so the day
        // is tomorrow, where it was today's 23:59 and overdue again within the hour (helper-132).
        for (now, amount) in [("2026-11-23T21:59:30Z", TimeAmount(count: 1, unit: .hour)), ("2026-11-23T22:29:30Z", .init(count: 30, unit: .minute))] {
            var late = Self.task(due: "2026-11-21T22:59:00Z")
            late.snooze(by: amount, at: Fixed.instant(now), in: Self.berlin)
            #expect(late.dueDate == Fixed.instant("2026-11-24T22:59:00Z"), "\(now) \(amount)")
        }
        // Right at 23:59 less the amount, today's end is still the moved instant.
        var exact = Self.task(due: "2026-11-21T22:59:00Z")
        exact.snooze(by: .init(count: 1, unit: .hour), at: Fixed.instant("2026-11-23T21:59:00Z"), in: Self.berlin)
        #expect(exact.dueDate == Fixed.instant("2026-11-23T22:59:00Z"))
    }

    /// Days and weeks are calendar days, as in `--due "in 1d"`: a timed due date and a reminder
    /// keep their wall-clock time across a change of clocks, where hours count exactly. `--by 1d`
    /// moved Saturday 12:00 to Sunday 13:00 over Berlin's spring-forward (helper-79).
    @Test(arguments: [
        (TimeAmount(count: 1, unit: .day), "2026-03-29T10:00:00Z", "2026-03-29T09:00:00Z"),  // 12:00 and 11:00 CEST
        (.init(count: 1, unit: .week), "2026-04-04T10:00:00Z", "2026-04-04T09:00:00Z"),
        (.init(count: 24, unit: .hour), "2026-03-29T11:00:00Z", "2026-03-29T10:00:00Z"),  // 13:00 and 12:00 CEST
    ])
    func snoozingByDaysKeepsTheTimeOfDayAcrossAChangeOfClocks(amount: TimeAmount, due: String, reminder: String) {
        var task = Self.task(due: "2026-03-28T11:00:00Z", remind: "2026-03-28T10:00:00Z")  // 12:00 and 11:00 CET
        task.snooze(by: amount, at: Fixed.instant("2026-03-28T09:00:00Z"), in: Self.berlin)
        #expect(task.dueDate == Fixed.instant(due) && task.reminderDate == Fixed.instant(reminder))
    }

    /// The units of the WHEN grammar too (`in 90 min`): `snooze --by 30min` was refused. And as
    /// there, a space before the unit and any case: `snooze --by "2 days"` and `--by 1H` were
    /// refused where `--due "in 2 days"` and `"in 1H"` were read (helper-74).
    @Test(arguments: [
        ("30m", 1800), ("24h", 86_400), ("2d", 172_800), ("1w", 604_800), ("45s", 45), ("0m", 0), ("30min", 1800), ("2hours", 7200),
        ("1day", 86_400), ("3weeks", 1_814_400), ("90secs", 90), ("30 m", 1800), ("1 hour", 3600), ("2 Days", 172_800), ("1H", 3600),
        (" 15 min ", 900),
    ] as [(String, Int64)])
    func durationsAreANumberAndAUnit(text: String, seconds: Int64) {
        #expect(DurationText.seconds(text) == seconds)
    }

    @Test(arguments: ["", "m", "30", "1.5h", "-1h", "1y", "2000000h", "１h", "30M", "30 M", "30minute s", "in 1h"])
    func otherTextIsNoDuration(text: String) {
        #expect(DurationText.seconds(text) == nil)
    }
}
