import Foundation
import Testing

@testable import TaskWidgetCore
@testable import TaskWidgetTestSupport

/// What a view keeps of its scope, how snoozing moves a task, durations as typed, and which task
/// an entry names next (what `done --top` acts on). The store's SQL form of the view rule is
/// checked against ``TaskView/includes(_:at:)`` in TaskWidgetStoreTests' `TimelineSnapshotTests`.
@Suite struct ViewRuleTests {
    static let now = Fixed.instant("2026-11-22T15:27:00Z")

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
        overdue.snooze(by: 3600, at: Self.now)
        #expect(overdue.dueDate == Fixed.instant("2026-11-22T16:27:00Z") && overdue.reminderDate == Fixed.instant("2026-11-22T16:27:00Z"))
        #expect(overdue.modifiedAt == Self.now)
        var later = Self.task(due: "2026-11-25T09:00:00Z")
        later.snooze(by: 1800, at: Self.now)
        #expect(later.dueDate == Fixed.instant("2026-11-25T09:30:00Z") && later.reminderDate == nil)
        var undated = Self.task()
        undated.snooze(by: 600, at: Self.now)
        #expect(undated.dueDate == nil && undated.reminderDate == Fixed.instant("2026-11-22T15:37:00Z"))
        var done = Self.task(due: "2026-11-22T09:00:00Z", state: .completed)
        let before = done
        done.snooze(by: 3600, at: Self.now.adding(seconds: 60))
        #expect(done == before)
    }

    @Test(arguments: [("30m", 1800), ("24h", 86_400), ("2d", 172_800), ("1w", 604_800), ("45s", 45), ("0m", 0)] as [(String, Int64)])
    func durationsAreANumberAndAUnit(text: String, seconds: Int64) {
        #expect(DurationText.seconds(text) == seconds)
    }

    @Test(arguments: ["", "m", "30", "30 m", "1.5h", "-1h", "1y", "2000000h", "１h"])
    func otherTextIsNoDuration(text: String) {
        #expect(DurationText.seconds(text) == nil)
    }
}
