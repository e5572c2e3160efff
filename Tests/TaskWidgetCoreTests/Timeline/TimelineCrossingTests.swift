import Foundation
import Testing

@testable import TaskWidgetCore
@testable import TaskWidgetTestSupport

/// SPEC §5: an entry at every due date of an open task in (now, now + 24 h] that is not on the
/// grid, the counts, the top tasks and their labels, and habits — on Sunday 22 November 2026,
/// 16:27 in Berlin (+01:00, no DST change within the next days).
@Suite struct TimelineCrossingTests {
    static let zone = Fixed.zone("Europe/Berlin")
    static let now = berlin("2026-11-22T16:27:00")

    /// Unix seconds of a Berlin wall-clock time in November (+01:00).
    static func berlin(_ text: String) -> Int64 {
        TL.seconds(text + "+01:00")
    }

    static func due(_ text: String) -> Instant {
        TL.instant(berlin(text))
    }

    static func newBuilder() -> StoreBuilder {
        StoreBuilder(created: Fixed.instant("2026-11-01T08:00:00Z"))
    }

    func timeline(_ builder: StoreBuilder, scope: TaskScope = .all, family: WidgetFamily? = nil) throws -> Timeline {
        try TL.timeline(builder.export, now: Self.now, zone: Self.zone, scope: scope, family: family)
    }

    func entry(_ timeline: Timeline, _ time: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> TimelineEntry {
        try TL.entry(timeline, at: Self.berlin(time), sourceLocation: sourceLocation)
    }

    func dueEntryTimes(_ timeline: Timeline) -> [String] {
        timeline.entries.filter { $0.reasons.contains(.due) }.map { TL.local($0.date.secondsSince1970, Self.zone) }
    }

    // MARK: Crossings

    @Test func taskDueOffTheGridAddsOneDueEntry() throws {
        var builder = Self.newBuilder()
        builder.task("Pay rent", due: Self.due("2026-11-22T17:07:00"))
        let timeline = try self.timeline(builder)
        #expect(timeline.entries.count == 98)
        #expect(dueEntryTimes(timeline) == ["2026-11-22T17:07:00+01:00"])
        let crossing = try entry(timeline, "2026-11-22T17:07:00")
        #expect(crossing.reasons == [.due])
        #expect(crossing.counts.overdue == 1 && crossing.counts.dueToday == 0)
        #expect(crossing.nextChange.secondsSince1970 == Self.berlin("2026-11-22T17:15:00"))
        let before = try entry(timeline, "2026-11-22T17:00:00")
        #expect(before.counts.overdue == 0 && before.counts.dueToday == 1)
        #expect(before.nextChange.secondsSince1970 == crossing.date.secondsSince1970)
        #expect(timeline.entries[0].counts.overdue == 0)
    }

    @Test func taskDueOnTheGridAddsNoEntryButCountsThere() throws {
        var builder = Self.newBuilder()
        builder.task("Pay rent", due: Self.due("2026-11-22T17:00:00"))
        let timeline = try self.timeline(builder)
        #expect(timeline.entries.count == 97)
        let onTime = try entry(timeline, "2026-11-22T17:00:00")
        #expect(onTime.reasons == [.cadence, .due])
        #expect(onTime.counts.overdue == 1 && onTime.counts.dueToday == 0)
        let before = try entry(timeline, "2026-11-22T16:45:00")
        #expect(before.reasons == [.cadence])
        #expect(before.counts.overdue == 0 && before.counts.dueToday == 1)
    }

    @Test func dueAtMidnightJoinsTheMidnightEntry() throws {
        var builder = Self.newBuilder()
        builder.task("Renew passport", due: Self.due("2026-11-23T00:00:00"))
        let timeline = try self.timeline(builder)
        #expect(timeline.entries.count == 97)
        let midnight = try entry(timeline, "2026-11-23T00:00:00")
        #expect(midnight.reasons == [.cadence, .due, .midnight])
        // Due at 00:00 belongs to the next day: not due today before it (due < dayEnd fails), but
        // due soon; overdue from then on.
        let before = try entry(timeline, "2026-11-22T23:45:00").counts
        #expect(before.dueToday == 0 && before.dueSoon == 1 && before.overdue == 0)
        #expect(midnight.counts.overdue == 1 && midnight.counts.dueToday == 0)
    }

    @Test func completedTasksAddNoEntry() throws {
        var builder = Self.newBuilder()
        builder.task("Pay rent", due: Self.due("2026-11-22T17:07:00"), kind: .completed(Self.due("2026-11-22T10:00:00")))
        let timeline = try self.timeline(builder)
        #expect(timeline.entries.count == 97)
        #expect(dueEntryTimes(timeline).isEmpty)
        #expect(timeline.entries.allSatisfy { $0.counts.overdue == 0 && $0.counts.open == 0 })
    }

    @Test func dueDateWithMillisecondsCrossesAtTheNextWholeSecond() throws {
        var builder = Self.newBuilder()
        builder.task("Pay rent", due: Fixed.instant("2026-11-22T17:07:00.500+01:00"))
        let timeline = try self.timeline(builder)
        #expect(dueEntryTimes(timeline) == ["2026-11-22T17:07:01+01:00"])
        #expect(!timeline.entries.contains { $0.date.secondsSince1970 == Self.berlin("2026-11-22T17:07:00") })
        // At 17:07:00 it is not yet due (due ≤ date is false), from 17:07:01 on it is overdue.
        #expect(try entry(timeline, "2026-11-22T17:00:00").counts.overdue == 0)
        #expect(try entry(timeline, "2026-11-22T17:07:01").counts.overdue == 1)
        #expect(timeline.entry(at: TL.instant(Self.berlin("2026-11-22T17:07:00")))?.counts.overdue == 0)
    }

    @Test func crossingsBeyondTheCapAreDroppedEarliestFirstAndTimelineSaysTruncated() throws {
        var builder = Self.newBuilder()
        // 120 distinct instants off the grid, every 700 s (+13 s), the last 23 h 31 min after now;
        // added latest first, so that the order of the store is not the order of the crossings.
        let dues = (1...120).map { Self.now + 700 * Int64($0) + 13 }
        try #require(dues.allSatisfy { $0 % 900 != 0 && $0 <= Self.now + 86_400 })
        for due in dues.reversed() { builder.task("Task at \(due)", due: TL.instant(due)) }
        let timeline = try self.timeline(builder)
        #expect(timeline.truncated)
        #expect(timeline.entries.count == 97 + 96)
        let dueDates = timeline.entries.filter { $0.reasons.contains(.due) }.map(\.date.secondsSince1970)
        #expect(dueDates == Array(dues.prefix(96)))
        // A dropped crossing still counts: every task is overdue by the last entry.
        #expect(timeline.entries.last!.date.secondsSince1970 > dues.last!)
        #expect(timeline.entries.last!.counts.overdue == 120)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(TimelineJSON.document(timeline).utf8)) as? [String: Any])
        #expect(json["truncated"] as? Bool == true)
        // The entry before the first crossing dropped changes at it, not at the next entry: watch
        // and serve read the store again then, where they showed 96 overdue until the quarter
        // hour (helper-132). Every entry's counts hold until its next change.
        #expect(timeline.firstDroppedCrossing?.secondsSince1970 == dues[96])
        #expect(timeline.rereadDeadline == min(timeline.reloadAfter, TL.instant(dues[96])))
        let beforeDropped = try #require(timeline.entry(at: TL.instant(dues[96] - 1)))
        #expect(beforeDropped.nextChange.secondsSince1970 == dues[96])
        for entry in timeline.entries {
            let justBefore = TL.instant(entry.nextChange.secondsSince1970 - 1)
            guard justBefore > entry.date else { continue }
            let fresh = try TL.timeline(builder.export, now: justBefore, zone: Self.zone).entries[0]
            #expect(fresh.counts.overdue == entry.counts.overdue, "\(entry.date) until \(entry.nextChange)")
        }
    }

    @Test func exactly96CrossingsAreNotTruncated() throws {
        var builder = Self.newBuilder()
        let dues = (1...96).map { Self.now + 700 * Int64($0) + 13 }
        for due in dues { builder.task("Task at \(due)", due: TL.instant(due)) }
        // A second task at the same instant and tasks on the grid do not use up the cap.
        builder.task("Same instant", due: TL.instant(dues[10]))
        for quarter in 1...5 { builder.task("On the grid \(quarter)", due: TL.instant((Self.now / 900 + Int64(quarter)) * 900)) }
        let timeline = try self.timeline(builder)
        #expect(!timeline.truncated)
        #expect(timeline.entries.count == 97 + 96)
        #expect(timeline.entries.filter { $0.reasons.contains(.due) }.count == 96 + 5)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(TimelineJSON.document(timeline).utf8)) as? [String: Any])
        #expect(json["truncated"] as? Bool == false)
    }

    @Test func dueDatesOutsideTheNext24HoursAddNothing() throws {
        var builder = Self.newBuilder()
        builder.task("Just after the horizon", due: TL.instant(Self.now + 86_401))
        builder.task("Tomorrow evening", due: Self.due("2026-11-23T19:07:00"))
        builder.task("Right now", due: TL.instant(Self.now))
        builder.task("Yesterday", due: Self.due("2026-11-21T17:07:00"))
        var timeline = try self.timeline(builder)
        #expect(timeline.entries.count == 97)
        #expect(dueEntryTimes(timeline).isEmpty)
        // Due exactly now: overdue in the first entry, which stays `now` only.
        #expect(timeline.entries[0].reasons == [.now])
        #expect(timeline.entries[0].counts.overdue == 2)

        // The horizon itself is inside: (n, n + 86 400].
        builder.task("At the horizon", due: TL.instant(Self.now + 86_400))
        timeline = try self.timeline(builder)
        #expect(timeline.entries.count == 98)
        #expect(timeline.entries.last!.date.secondsSince1970 == Self.now + 86_400 && timeline.entries.last!.reasons == [.due])
        #expect(timeline.entries.last!.date.secondsSince1970 == timeline.validUntil.secondsSince1970)
    }

    @Test func onlyTasksInScopeCross() throws {
        var builder = Self.newBuilder()
        let home = builder.list("Home")
        let work = builder.list("Work")
        builder.task("Home task", due: Self.due("2026-11-22T17:07:00"), list: home)
        builder.task("Work task", due: Self.due("2026-11-22T18:07:00"), list: work)
        builder.task("Inbox task", due: Self.due("2026-11-22T19:07:00"))
        #expect(dueEntryTimes(try self.timeline(builder, scope: .list("home"))) == ["2026-11-22T17:07:00+01:00"])
        #expect(dueEntryTimes(try self.timeline(builder, scope: .list("Work"))) == ["2026-11-22T18:07:00+01:00"])
        #expect(dueEntryTimes(try self.timeline(builder, scope: .inbox)) == ["2026-11-22T19:07:00+01:00"])
        #expect(dueEntryTimes(try self.timeline(builder)).count == 3)
        let inbox = try self.timeline(builder, scope: .inbox)
        #expect(inbox.entries[0].counts.open == 1 && inbox.entries[0].counts.inbox == 1 && inbox.entries[0].scopeTitle == "Inbox")
        #expect(try self.timeline(builder, scope: .list("work")).entries[0].scopeTitle == "Work")
        #expect(try self.timeline(builder).entries[0].scopeTitle == nil)
    }

    /// A task beyond a view's due horizon that comes within it before the next quarter hour: the
    /// timeline asks to be read again then, and a follower does (helper-143: serve said the image
    /// held 14 minutes more while `status --view` showed the task).
    @Test func aTaskComingIntoAViewsHorizonIsWhenToReadAgain() throws {
        var builder = Self.newBuilder()
        builder.task("Within", due: Self.due("2026-11-22T17:00:00"))
        builder.task("Beyond", due: Self.due("2026-11-22T18:33:00"))
        builder.task("Done beyond", due: Self.due("2026-11-22T18:29:00"), kind: .completed(TL.instant(Self.now)))
        let calendar = LocalCalendar(timeZone: Self.zone)
        let view = TaskView(name: "soon", dueWithin: 2 * 3600)
        let request = TimelineRequest(now: TL.instant(Self.now), calendar: calendar, view: view)
        let snapshot = try TimelineSnapshot(builder.export, request: request)
        #expect(snapshot.openCount == 1 && snapshot.nextTaskIntoView == Self.due("2026-11-22T16:33:00"))
        let timeline = TL.provider.timeline(for: request, snapshot: snapshot)
        #expect(timeline.reloadAfter == Self.due("2026-11-22T16:33:00") && timeline.rereadDeadline == timeline.reloadAfter)
        // Read again then, the view shows it; with no task beyond, the quarter hour stands.
        let later = TimelineRequest(now: Self.due("2026-11-22T16:33:00"), calendar: calendar, view: view)
        let reread = try TimelineSnapshot(builder.export, request: later)
        #expect(reread.openCount == 2 && reread.nextTaskIntoView == nil)
        #expect(TL.provider.timeline(for: later, snapshot: reread).reloadAfter == Self.due("2026-11-22T16:48:00"))
        // A task coming in after the quarter hour leaves it as it is.
        let hourView = TimelineRequest(now: TL.instant(Self.now), calendar: calendar, view: TaskView(name: "soon", dueWithin: 3600))
        let far = TL.provider.timeline(for: hourView, snapshot: try TimelineSnapshot(builder.export, request: hourView))
        #expect(far.reloadAfter == Self.due("2026-11-22T16:42:00"))
    }

    // MARK: Counts

    @Test func countsAtChosenEntries() throws {
        var builder = Self.newBuilder()
        builder.task("A: today 17:07", due: Self.due("2026-11-22T17:07:00"))
        builder.task("B: today, end of day", due: Self.due("2026-11-22T23:59:00"))
        builder.task("C: tomorrow 09:00", due: Self.due("2026-11-23T09:00:00"))
        builder.task("G: yesterday", due: Self.due("2026-11-21T15:00:00"))
        builder.task("D: done this morning", kind: .completed(Self.due("2026-11-22T10:00:00")))
        builder.task("E: done yesterday", kind: .completed(Self.due("2026-11-21T20:00:00")))
        builder.task("F: done at midnight", kind: .completed(Self.due("2026-11-22T00:00:00")))
        let timeline = try self.timeline(builder)

        // (time, overdue, dueToday, dueSoon, completedToday); open = 4 (A, B, C, G) throughout.
        let expected: [(String, Int, Int, Int, Int)] = [
            ("2026-11-22T16:27:00", 1, 2, 1, 2),  // A is due within the hour
            ("2026-11-22T16:30:00", 1, 2, 1, 2),
            ("2026-11-22T17:00:00", 1, 2, 1, 2),
            ("2026-11-22T17:07:00", 2, 1, 0, 2),  // A crosses
            ("2026-11-22T22:30:00", 2, 1, 0, 2),  // [22:30, 22:45): 23:59 is more than 1 h away
            ("2026-11-22T22:45:00", 2, 1, 1, 2),  // at 22:59:xx, 23:59 is within the hour
            ("2026-11-22T23:45:00", 2, 1, 1, 2),
            ("2026-11-22T23:59:00", 3, 0, 0, 2),  // B crosses
            ("2026-11-23T00:00:00", 3, 1, 0, 0),  // a new day: C is due today, nothing done yet
            ("2026-11-23T07:45:00", 3, 1, 0, 0),  // [07:45, 08:00): 09:00 is more than 1 h away
            ("2026-11-23T08:00:00", 3, 1, 1, 0),  // at 08:00, 09:00 is within the hour (≤ 1 h)
            ("2026-11-23T09:00:00", 4, 0, 0, 0),  // C crosses (on the grid)
        ]
        for (time, overdue, dueToday, dueSoon, completedToday) in expected {
            let counts = try entry(timeline, time).counts
            #expect(
                counts == TaskCounts(open: 4, overdue: overdue, dueToday: dueToday, dueSoon: dueSoon, completedToday: completedToday, inbox: 4),
                "at \(time)")
        }
        let first = timeline.entries[0]
        #expect(first.relevance == Relevance(score: 10 * 1 + 2, duration: 180))
        let midnight = try entry(timeline, "2026-11-23T00:00:00")
        #expect(midnight.reasons == [.cadence, .midnight])
        #expect(midnight.dayStart.secondsSince1970 == Self.berlin("2026-11-23T00:00:00") && midnight.dayEnd.secondsSince1970 == Self.berlin("2026-11-24T00:00:00"))
        #expect(first.dayStart.secondsSince1970 == Self.berlin("2026-11-22T00:00:00") && first.dayEnd.secondsSince1970 == midnight.date.secondsSince1970)
    }

    // MARK: Top tasks

    /// The task due first leads (``TimelineEntry/next``); an active task keeps its place by due
    /// date, and among the undated ones goes first.
    @Test func topOrderIsByDueDateThenActiveUndatedThenUndatedWithTies() throws {
        var builder = Self.newBuilder()
        let created = Fixed.instant("2026-11-10T08:00:00Z")
        builder.task("U1: undated", sortOrder: 0, createdAt: created.adding(seconds: 60))
        builder.task("Act: active, undated", kind: .active, sortOrder: 9)
        builder.task("Ad: active, today 20:30", due: Self.due("2026-11-22T20:30:00"), kind: .active, sortOrder: 8)
        builder.task("L: later", due: Self.due("2026-11-25T10:00:00"))
        builder.task("O: overdue", due: Self.due("2026-11-21T09:00:00"), sortOrder: 5)
        builder.task("T: today 20:00, sortOrder 2", due: Self.due("2026-11-22T20:00:00"), sortOrder: 2)
        builder.task("T2: today 20:00, sortOrder 1", due: Self.due("2026-11-22T20:00:00"), sortOrder: 1)
        builder.task("Sb: 21:00, id …0b", due: Self.due("2026-11-22T21:00:00"), createdAt: created, id: TL.id(0xb, kind: 9))
        builder.task("Sa: 21:00, id …0a", due: Self.due("2026-11-22T21:00:00"), createdAt: created, id: TL.id(0xa, kind: 9))
        builder.task("U2: undated, created earlier", sortOrder: 0, createdAt: created)
        builder.task("Done: completed", due: Self.due("2026-11-20T09:00:00"), kind: .completed(Self.due("2026-11-21T09:00:00")))
        let order = ["O", "T2", "T", "Ad", "Sa", "Sb", "L", "Act", "U2", "U1"]

        func titles(_ entry: TimelineEntry) -> [String] {
            entry.top.map { String($0.title.prefix { $0 != ":" }) }
        }
        #expect(titles(try self.timeline(builder).entries[0]) == Array(order.prefix(8)))
        #expect(titles(try self.timeline(builder, family: .small).entries[0]) == Array(order.prefix(3)))
        #expect(titles(try self.timeline(builder, family: .medium).entries[0]) == Array(order.prefix(5)))
        #expect(titles(try self.timeline(builder, family: .large).entries[0]) == order)
        // The order does not change as time passes (overdue tasks keep their place by due date).
        let timeline = try self.timeline(builder)
        #expect(timeline.entries.allSatisfy { titles($0) == Array(order.prefix(8)) })
        // The oracle agrees.
        #expect(timeline.entries[0].top.map(\.id) == Oracle(builder.export, zone: Self.zone).topIDs(limit: 8))
    }

    @Test func topTaskCarriesItsListAndState() throws {
        var builder = Self.newBuilder()
        let home = builder.list("Home", color: "34C759")
        let task = builder.task(
            "Fix the tap", due: Self.due("2026-11-22T17:07:00"), list: home, kind: .active, remind: Self.due("2026-11-22T16:50:00"))
        let top = try #require(try self.timeline(builder).entries[0].top.first)
        #expect(top == TopTask(
            id: task.id, title: "Fix the tap", listName: "Home", colorHex: "34C759", dueDate: Self.due("2026-11-22T17:07:00"),
            isOverdue: false, state: .active, dueLabel: "17:07", reminderDate: Self.due("2026-11-22T16:50:00")))
    }

    @Test func dueLabelAndIsOverdueChangeExactlyAtTheCrossingAndAtMidnight() throws {
        var builder = Self.newBuilder()
        builder.task("A", due: Self.due("2026-11-22T17:07:00"))
        builder.task("C", due: Self.due("2026-11-23T09:00:00"))
        builder.task("W", due: Self.due("2026-11-24T09:00:00"))
        builder.task("Y", due: Self.due("2026-11-22T23:59:00"))
        let timeline = try self.timeline(builder)

        func labels(_ time: String) throws -> [String: String] {
            let top = try entry(timeline, time).top
            return Dictionary(uniqueKeysWithValues: top.map { ($0.title, ($0.isOverdue ? "! " : "") + ($0.dueLabel ?? "–")) })
        }
        // 22 November 2026 is a Sunday, so the 24th is a Tuesday.
        #expect(try labels("2026-11-22T16:27:00") == ["A": "17:07", "Y": "Today", "C": "Tomorrow 09:00", "W": "Tue 24 Nov 09:00"])
        #expect(try labels("2026-11-22T17:00:00") == ["A": "17:07", "Y": "Today", "C": "Tomorrow 09:00", "W": "Tue 24 Nov 09:00"])
        #expect(try labels("2026-11-22T17:07:00") == ["A": "! Overdue · 17:07", "Y": "Today", "C": "Tomorrow 09:00", "W": "Tue 24 Nov 09:00"])
        #expect(try labels("2026-11-22T23:45:00") == ["A": "! Overdue · 17:07", "Y": "Today", "C": "Tomorrow 09:00", "W": "Tue 24 Nov 09:00"])
        #expect(try labels("2026-11-22T23:59:00") == ["A": "! Overdue · 17:07", "Y": "! Overdue · Today", "C": "Tomorrow 09:00", "W": "Tue 24 Nov 09:00"])
        #expect(try labels("2026-11-23T00:00:00") == [
            "A": "! Overdue · Yesterday 17:07", "Y": "! Overdue · Yesterday", "C": "09:00", "W": "Tomorrow 09:00",
        ])
        #expect(try labels("2026-11-23T08:45:00") == [
            "A": "! Overdue · Yesterday 17:07", "Y": "! Overdue · Yesterday", "C": "09:00", "W": "Tomorrow 09:00",
        ])
        #expect(try labels("2026-11-23T09:00:00") == [
            "A": "! Overdue · Yesterday 17:07", "Y": "! Overdue · Yesterday", "C": "! Overdue · 09:00", "W": "Tomorrow 09:00",
        ])

        // Nowhere else: between consecutive entries the tasks change only at a due or midnight entry.
        for (previous, next) in zip(timeline.entries, timeline.entries.dropFirst()) where previous.top != next.top {
            #expect(!next.reasons.isDisjoint(with: [.due, .midnight]), "top changed at \(TL.local(next.date.secondsSince1970, Self.zone))")
        }
    }

    /// Days that start at 01:00 (midnight skipped) last 23 h: "tomorrow" is the next local date,
    /// not the day 24 h after today's start.
    @Test(arguments: [
        ("America/Santiago", "2026-09-06T02:00:00-03:00", "2026-09-07T09:00:00-03:00", "2026-09-08T09:00:00-03:00", "Tue 8 Sep 09:00"),
        ("Africa/Cairo", "2026-04-24T02:00:00+03:00", "2026-04-25T09:00:00+03:00", "2026-04-26T09:00:00+03:00", "Sun 26 Apr 09:00"),
        ("America/Havana", "2026-03-08T02:00:00-04:00", "2026-03-09T09:00:00-04:00", "2026-03-10T09:00:00-04:00", "Tue 10 Mar 09:00"),
    ])
    func dueLabelCountsDaysOnADayThatStartsAtOne(
        zoneIdentifier: String, now: String, tomorrow: String, dayAfter: String, dayAfterLabel: String
    ) throws {
        let zone = Fixed.zone(zoneIdentifier)
        let calendar = TL.calendar(zone)
        let startOfToday = calendar.startOfDay(for: Fixed.date(now))
        #expect(calendar.component(.hour, from: startOfToday) == 1, "the day of \(now) starts at 01:00")
        var builder = Self.newBuilder()
        builder.task("Tomorrow", due: Fixed.instant(tomorrow))
        builder.task("Day after", due: Fixed.instant(dayAfter))
        let timeline = try TL.timeline(builder.export, now: Fixed.instant(now), zone: zone)
        let first = timeline.entries[0].top.map(\.dueLabel)
        #expect(first == ["Tomorrow 09:00", dayAfterLabel])
        // From the next midnight on, the first one is due today.
        let midnight = try #require(timeline.entries.first { $0.reasons.contains(.midnight) })
        #expect(midnight.top.map(\.dueLabel) == ["09:00", "Tomorrow 09:00"])
        // Every entry agrees with the rules written again (one issue listing the first few that do not).
        let labels = LabelOracle(zone: zone)
        let wrong = timeline.entries.compactMap { entry -> String? in
            let expected = entry.top.map { $0.dueDate.map { labels.label(due: $0.date, at: TL.date(entry.date.secondsSince1970)) } ?? "-" }
            let actual = entry.top.map { $0.dueLabel ?? "-" }
            return actual == expected ? nil : "at \(TL.local(entry.date.secondsSince1970, zone)): \(actual), expected \(expected)"
        }
        #expect(wrong.count == 0, "\(wrong.count) entries with wrong labels, e.g.\n\(wrong.prefix(3).joined(separator: "\n"))")
    }

    // MARK: Content hash

    /// "Equal hashes, equal widgets": the hash changes exactly when what the entry shows does
    /// (counts, top, habits, scope), never for the date, the reasons or the day alone.
    @Test func contentHashChangesExactlyWhenTheContentDoes() throws {
        let zone = Self.zone
        for seed in UInt64(1)...5 {
            let export = RandomStore.make(seed: seed, now: Self.now, zone: zone, taskCount: 20...40)
            let timeline = try TL.timeline(export, now: Self.now, zone: zone)
            var changes = 0
            for (a, b) in zip(timeline.entries, timeline.entries.dropFirst()) {
                let sameContent = a.counts == b.counts && a.top == b.top && a.habits == b.habits && a.scopeTitle == b.scopeTitle
                #expect(sameContent == (a.contentHash == b.contentHash), "seed \(seed) at \(TL.local(b.date.secondsSince1970, zone))")
                #expect(sameContent == a.hasSameContent(as: b), "seed \(seed) at \(TL.local(b.date.secondsSince1970, zone))")
                if !sameContent { changes += 1 }
            }
            #expect(changes > 0 && changes < timeline.entries.count - 1, "seed \(seed): the store should change some entries, not all")
        }
        // The same content in another scope is another widget.
        var builder = Self.newBuilder()
        let home = builder.list("Home")
        builder.task("Only task", list: home)
        let inList = try self.timeline(builder, scope: .list("Home")).entries[0]
        let inAll = try self.timeline(builder).entries[0]
        #expect(inList.counts == inAll.counts && inList.top == inAll.top)
        #expect(inList.contentHash != inAll.contentHash)
    }

    // MARK: Habits

    @Test func habitsCountTheEntrysLocalDay() throws {
        var builder = Self.newBuilder()
        builder.habit("Water", icon: "💧", color: "32ADE6", records: [("2026-11-22", .done)])
        builder.habit("Read", icon: "📖", color: "AF52DE", records: [("2026-11-22", .missed), ("2026-11-23", .done)])
        builder.habit("Walk", records: [("2026-11-21", .done)])
        let timeline = try self.timeline(builder)
        for entry in timeline.entries {
            let isToday = entry.date.secondsSince1970 < Self.berlin("2026-11-23T00:00:00")
            let statuses = entry.habits.items.map(\.status)
            #expect(entry.habits.total == 3)
            #expect(entry.habits.done == 1)
            #expect(statuses == (isToday ? [.done, .missed, nil] : [nil, .done, nil]), "at \(TL.local(entry.date.secondsSince1970, Self.zone))")
        }
        #expect(timeline.entries[0].habits.items.map(\.name) == ["Water", "Read", "Walk"])
        #expect(timeline.entries[0].habits.items[0] == HabitSummary.Item(name: "Water", icon: "💧", colorHex: "32ADE6", status: .done))
    }
}
