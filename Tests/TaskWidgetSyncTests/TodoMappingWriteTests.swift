import Foundation
import TaskWidgetCore
import Testing
import TaskWidgetSync

@Suite("fields → VTODO")
struct TodoMappingWriteTests {
    private let mapping = TodoMapping(timeZone: berlin)
    private let now = instant("2026-11-21 12:00:00")

    /// Reads `text`, lets `change` edit the fields, applies them; returns the lines before and after.
    private func edit(_ text: String, _ change: (inout TodoFields) -> Void) throws
        -> (changed: Bool, before: [String], after: [String], calendar: ICalendar)
    {
        var calendar = try ICalendar(parsing: text)
        var fields = try mapping.fields(from: calendar)
        change(&fields)
        let changed = try mapping.apply(fields, to: &calendar, now: now)
        return (changed, lines(text), lines(calendar.serialized()), calendar)
    }

    /// The lines of `after` that are not in `before` and the other way round, as multisets.
    private func difference(_ before: [String], _ after: [String]) -> (removed: [String], added: [String]) {
        var remaining = after
        var removed: [String] = []
        for line in before {
            if let index = remaining.firstIndex(of: line) { remaining.remove(at: index) } else { removed.append(line) }
        }
        return (removed, remaining)
    }

    @Test("fields that did not change write nothing", arguments: Fixtures.all.map(\.name))
    func unchanged(name: String) throws {
        let text = try #require(Fixtures.all.first { $0.name == name }?.text)
        let result = try edit(text) { _ in }
        #expect(!result.changed)
        #expect(result.calendar.serialized() == text)
        // Nor does a newer modification time alone, or a fraction of a second.
        let touched = try edit(text) { fields in
            fields.modifiedAt = now
            fields.dueDate = fields.dueDate?.addingTimeInterval(0.4)
        }
        #expect(!touched.changed)
        #expect(touched.calendar.serialized() == text)
    }

    @Test("a new title rewrites SUMMARY, LAST-MODIFIED, DTSTAMP and SEQUENCE only")
    func title() throws {
        let result = try edit(Fixtures.apple) {
            $0.title = "Buy oat milk, 2 litres"
            $0.modifiedAt = instant("2026-11-21 11:59:30")
        }
        #expect(result.changed)
        let (removed, added) = difference(result.before, result.after)
        #expect(
            removed.sorted() == [
                "DTSTAMP:20261120T090005Z", "LAST-MODIFIED:20261120T090000Z", "SEQUENCE:3",
                #"SUMMARY:Buy milk\, eggs\; and bread"#,
            ])
        #expect(
            added.sorted() == [
                "DTSTAMP:20261121T120000Z", "LAST-MODIFIED:20261121T115930Z", "SEQUENCE:4",
                #"SUMMARY:Buy oat milk\, 2 litres"#,
            ])
        // In place: the order of the lines is the same.
        #expect(result.after.firstIndex(of: "SEQUENCE:4") == result.before.firstIndex(of: "SEQUENCE:3"))
    }

    @Test("a VTODO without SEQUENCE gets SEQUENCE:1; LAST-MODIFIED never goes back")
    func sequenceAndModified() throws {
        let result = try edit(Fixtures.thunderbird) {
            $0.title = "Other"
            $0.modifiedAt = instant("2020-01-01 00:00:00")
        }
        let (_, added) = difference(result.before, result.after)
        #expect(added.contains("SEQUENCE:1"))
        #expect(result.after.contains("LAST-MODIFIED:20261102T100000Z"))
    }

    @Test(
        "DUE: kept when the same instant, else DATE for a day without a time, else UTC",
        arguments: [
            // fixture, new due (Berlin local) or nil, dueIsDateOnly, expected DUE line or nil
            ("apple", "2026-11-27 23:59:00", true, "DUE;VALUE=DATE:20261127"),  // unchanged: kept
            ("apple", "2026-11-28 23:59:00", true, "DUE;VALUE=DATE:20261128"),
            ("apple", "2026-11-28 23:59:00", false, "DUE:20261128T225900Z"),
            ("apple", "2026-11-28 10:00:00", true, "DUE:20261128T090000Z"),  // has a time: not a DATE
            ("apple", nil, false, nil),
            ("thunderbird", "2026-11-27 17:00:00", false, "DUE;TZID=/mozilla.org/20050126_1/Europe/Berlin:20261127T170000"),
            ("thunderbird", "2026-11-27 18:00:00", false, "DUE:20261127T170000Z"),  // TZID goes
            ("thunderbird", "2026-11-30 23:59:00", true, "DUE;VALUE=DATE:20261130"),
            ("tasksOrg", "2026-11-12 23:59:00", true, "DUE:20261112T225900Z"),  // DTSTART is a DATE-TIME
            ("outlook", "2026-07-15 17:00:00", false, #"DUE;TZID="W. Europe Standard Time":20260715T170000"#),
        ] as [(String, String?, Bool, String?)])
    func due(fixture: String, due: String?, dateOnly: Bool, expected: String?) throws {
        let text = try #require(Fixtures.all.first { $0.name == fixture }?.text)
        let result = try edit(text) {
            $0.dueDate = due.map { instant($0, zone: "Europe/Berlin") }
            $0.dueIsDateOnly = dateOnly
        }
        #expect(result.after.filter { $0.hasPrefix("DUE") } == (expected.map { [$0] } ?? []))
        // And it reads back as that instant.
        let reread = try mapping.fields(from: result.calendar)
        #expect(reread.dueDate == due.map { instant($0, zone: "Europe/Berlin") })
    }

    /// A VTODO with `start` and `due` lines (and `extra` ones), as a phone or tasks.org writes it.
    private static func calendarText(start: String, due: String, extra: [String] = []) -> String {
        (["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//test//EN", "BEGIN:VTODO", "UID:start-and-due", "DTSTAMP:20261101T100000Z",
          "SUMMARY:Plan the trip", start, due] + extra + ["END:VTODO", "END:VCALENDAR", ""]).joined(separator: "\r\n")
    }

    /// RFC 5545 §3.8.2.3: DUE is of DTSTART's value type and not before it; sabre/dav (Nextcloud,
    /// Baïkal) refuses a PUT otherwise ("Validation error in iCalendar: The value type (DATE or
    /// DATE-TIME) must be identical for DUE and DTSTART", "DUE must occur after DTSTART"). A
    /// due time set here beside a DATE start, or a due moved before the start, made such a task.
    @Test(
        "DTSTART is made to agree with a DUE written here: same value type, not after it",
        arguments: [
            // DTSTART line, DUE line, new due (Berlin), dueIsDateOnly, expected DTSTART and DUE lines
            ("DTSTART;VALUE=DATE:20261201", "DUE;VALUE=DATE:20261205", "2026-12-05 15:00:00", false,
             ["DTSTART:20261130T230000Z", "DUE:20261205T140000Z"]),  // the start of its day, as a time
            ("DTSTART;VALUE=DATE:20261201", "DUE;VALUE=DATE:20261205", "2026-12-03 23:59:00", true,
             ["DTSTART;VALUE=DATE:20261201", "DUE;VALUE=DATE:20261203"]),  // fits: kept
            ("DTSTART;VALUE=DATE:20261201", "DUE;VALUE=DATE:20261205", "2026-11-28 23:59:00", true,
             ["DTSTART;VALUE=DATE:20261128", "DUE;VALUE=DATE:20261128"]),  // moved before the start
            ("DTSTART;VALUE=DATE:20261201", "DUE;VALUE=DATE:20261205", "2026-11-28 10:00:00", false,
             ["DTSTART:20261128T090000Z", "DUE:20261128T090000Z"]),  // both at once
            ("DTSTART;TZID=Europe/Berlin:20261205T090000", "DUE;TZID=Europe/Berlin:20261205T090000", "2026-12-04 10:00:00", false,
             ["DTSTART:20261204T090000Z", "DUE:20261204T090000Z"]),  // Apple's start at the due time
            ("DTSTART;TZID=Europe/Berlin:20261201T090000", "DUE;TZID=Europe/Berlin:20261205T090000", "2026-12-06 23:59:00", true,
             ["DTSTART;TZID=Europe/Berlin:20261201T090000", "DUE:20261206T225900Z"]),  // fits: kept
        ] as [(String, String, String, Bool, [String])])
    func startAgreesWithDue(start: String, due: String, newDue: String, dateOnly: Bool, expected: [String]) throws {
        let result = try edit(Self.calendarText(start: start, due: due)) {
            $0.dueDate = instant(newDue, zone: "Europe/Berlin")
            $0.dueIsDateOnly = dateOnly
        }
        #expect(result.after.filter { $0.hasPrefix("DTSTART") || $0.hasPrefix("DUE") } == expected)
        #expect(try mapping.fields(from: result.calendar).dueDate == instant(newDue, zone: "Europe/Berlin"))
    }

    /// Alarms relative to DTSTART fire when they did before DTSTART moved, the reminder and the
    /// others: they are written as the instants they were.
    @Test func alarmsRelativeToAMovedStartStayAtTheirInstants() throws {
        let text = Self.calendarText(
            start: "DTSTART;TZID=Europe/Berlin:20261205T090000", due: "DUE;TZID=Europe/Berlin:20261205T090000",
            extra: [
                "BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTION:Reminder", "TRIGGER:-PT15M", "END:VALARM",
                "BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTION:The day before", "TRIGGER;RELATED=START:-P1D", "END:VALARM",
            ])
        let before = try mapping.fields(from: try ICalendar(parsing: text))
        #expect(before.reminderDate == instant("2026-12-05 08:45:00", zone: "Europe/Berlin"))
        let result = try edit(text) { $0.dueDate = instant("2026-12-04 10:00:00", zone: "Europe/Berlin") }
        #expect(result.after.contains("DTSTART:20261204T090000Z"))
        #expect(try mapping.fields(from: result.calendar).reminderDate == before.reminderDate)
        #expect(result.after.filter { $0.hasPrefix("TRIGGER") } == ["TRIGGER;VALUE=DATE-TIME:20261205T074500Z", "TRIGGER;VALUE=DATE-TIME:20261204T080000Z"])
    }

    /// A repeating task's DTSTART anchors its series, and RRULE's UNTIL and the overrides'
    /// RECURRENCE-ID are of its type: a due date changed here keeps the start's type (a series of
    /// days stays one) and never falls before it (sabre/dav and so Nextcloud refuse both). Moved
    /// before it, the start goes back by whole periods of the rule, at its wall-clock time in its
    /// zone (across a change to summer time too), so the series keeps its weekdays; its relative
    /// alarms stay relative. It left DTSTART as it was, after the new DUE.
    @Test(arguments: [
        // RRULE, DTSTART, new due (Berlin), expected DTSTART and DUE lines
        ("FREQ=WEEKLY;BYDAY=MO", "DTSTART;TZID=Europe/Berlin:20261207T090000", "2026-12-03 10:00:00",
         ["DTSTART;TZID=Europe/Berlin:20261130T090000", "DUE:20261203T090000Z"]),  // the Monday before
        ("FREQ=WEEKLY;BYDAY=MO", "DTSTART;TZID=Europe/Berlin:20261207T090000", "2026-12-08 10:00:00",
         ["DTSTART;TZID=Europe/Berlin:20261207T090000", "DUE:20261208T090000Z"]),  // after it: kept
        ("FREQ=WEEKLY", "DTSTART;VALUE=DATE:20261201", "2026-12-02 15:00:00",
         ["DTSTART;VALUE=DATE:20261201", "DUE;VALUE=DATE:20261202"]),  // a series of days: the due's day
        ("FREQ=WEEKLY", "DTSTART;VALUE=DATE:20261201", "2026-11-30 10:00:00",
         ["DTSTART;VALUE=DATE:20261124", "DUE;VALUE=DATE:20261130"]),  // both: the Tuesday before
        ("FREQ=DAILY;INTERVAL=2", "DTSTART;TZID=Europe/Berlin:20261207T090000", "2026-12-04 08:00:00",
         ["DTSTART;TZID=Europe/Berlin:20261203T090000", "DUE:20261204T070000Z"]),  // every other day
        ("FREQ=WEEKLY", "DTSTART;TZID=Europe/Berlin:20260406T090000", "2026-03-20 10:00:00",
         ["DTSTART;TZID=Europe/Berlin:20260316T090000", "DUE:20260320T090000Z"]),  // 09:00 in winter time too
        ("FREQ=MONTHLY", "DTSTART;TZID=Europe/Berlin:20261215T090000", "2026-10-01 10:00:00",
         ["DTSTART;TZID=Europe/Berlin:20260915T090000", "DUE:20261001T080000Z"]),
        ("FREQ=MONTHLY", "DTSTART;TZID=Europe/Berlin:20260531T090000", "2026-04-30 12:00:00",
         ["DTSTART;TZID=Europe/Berlin:20260331T090000", "DUE:20260430T100000Z"]),  // no 31 April
        ("FREQ=YEARLY", "DTSTART;VALUE=DATE:20280229", "2027-03-01 23:59:00",
         ["DTSTART;VALUE=DATE:20240229", "DUE;VALUE=DATE:20270301"]),  // leap days only
        // Rules that whole periods would change start at the due itself: one that counts its
        // occurrences, a position in the month, and an INTERVAL no calendar steps through.
        ("FREQ=WEEKLY;COUNT=5", "DTSTART;TZID=Europe/Berlin:20261207T090000", "2026-12-03 10:00:00",
         ["DTSTART;TZID=Europe/Berlin:20261203T100000", "DUE:20261203T090000Z"]),
        ("FREQ=MONTHLY;BYDAY=1MO", "DTSTART;TZID=Europe/Berlin:20261207T090000", "2026-12-03 10:00:00",
         ["DTSTART;TZID=Europe/Berlin:20261203T100000", "DUE:20261203T090000Z"]),
        ("FREQ=WEEKLY;INTERVAL=1317624576693539402", "DTSTART;TZID=Europe/Berlin:20261207T090000", "2026-12-03 10:00:00",
         ["DTSTART;TZID=Europe/Berlin:20261203T100000", "DUE:20261203T090000Z"]),
    ] as [(String, String, String, [String])])
    func aRepeatingTasksStartKeepsItsTypeAndItsSeries(rule: String, start: String, newDue: String, expected: [String]) throws {
        let text = Self.calendarText(
            start: start, due: start.replacingOccurrences(of: "DTSTART", with: "DUE"),
            extra: [
                "RRULE:\(rule)",
                "BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTION:Reminder", "TRIGGER;RELATED=END:-PT15M", "END:VALARM",
                "BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTION:The day before", "TRIGGER:-P1D", "END:VALARM",
            ])
        let before = try mapping.fields(from: try ICalendar(parsing: text))
        let result = try edit(text) { $0.dueDate = instant(newDue, zone: "Europe/Berlin") }
        #expect(result.after.filter { $0.hasPrefix("DTSTART") || $0.hasPrefix("DUE") } == expected)
        #expect(result.after.filter { $0.hasPrefix("RRULE") } == ["RRULE:\(rule)"])
        // The reminder fires when it did, as any reminder of a moved due date; the other alarm
        // still fires the day before each occurrence.
        #expect(try mapping.fields(from: result.calendar).reminderDate == before.reminderDate)
        #expect(result.after.filter { $0.hasPrefix("TRIGGER") }.last == "TRIGGER:-P1D")
    }

    /// An all-day DUE pulled in Berlin (23:59 there), pushed again by a run in another zone with
    /// only the title changed: the due is the one both sides agreed on, so the DATE stays. It was
    /// written as a due time, 22:59 UTC, turning the phone's all-day task into a timed one.
    @Test("a due or a reminder as agreed at the last sync is kept, whatever the run's zone")
    func agreedDueInAnotherZone() throws {
        var calendar = try ICalendar(parsing: Fixtures.apple)
        let agreed = try mapping.fields(from: calendar)
        var fields = agreed
        fields.title = "Buy oat milk"
        let utc = TodoMapping(timeZone: TimeZone(identifier: "UTC")!)
        var unagreed = calendar
        _ = try utc.apply(fields, to: &unagreed, now: now)
        #expect(lines(unagreed.serialized()).contains("DUE:20261127T225900Z"), "what a run without the base does")

        #expect(try utc.apply(fields, agreed: agreed, to: &calendar, now: now))
        let after = lines(calendar.serialized())
        #expect(after.filter { $0.hasPrefix("DUE") } == ["DUE;VALUE=DATE:20261127"])
        #expect(after.contains("SUMMARY:Buy oat milk"))
        #expect(difference(lines(Fixtures.apple), after).removed.filter { $0.hasPrefix("TRIGGER") || $0.hasPrefix("BEGIN:VALARM") }.isEmpty)
        // A due changed here is written, DATE or not.
        fields.dueDate = instant("2026-11-28 22:59:00")
        fields.dueIsDateOnly = true
        var changed = try ICalendar(parsing: Fixtures.apple)
        _ = try utc.apply(fields, agreed: agreed, to: &changed, now: now)
        #expect(lines(changed.serialized()).filter { $0.hasPrefix("DUE") } == ["DUE:20261128T225900Z"])
    }

    @Test("a changed due replaces DURATION")
    func dueReplacesDuration() throws {
        let text = crlf("BEGIN:VCALENDAR\nBEGIN:VTODO\nUID:d\nDTSTART:20261127T080000Z\nDURATION:PT8H\nEND:VTODO\nEND:VCALENDAR")
        let result = try edit(text) { $0.dueDate = instant("2026-11-27 18:00:00") }
        #expect(result.after.contains("DUE:20261127T180000Z"))
        #expect(!result.after.contains { $0.hasPrefix("DURATION") })
    }

    @Test(
        "STATUS is written only when the state changes; CANCELLED stays while the task stays completed",
        arguments: [
            // fixture, new state, title changed too, expected STATUS, expected PERCENT-COMPLETE, COMPLETED line?
            ("outlook", TaskState.completed, true, "STATUS:CANCELLED", nil, false),
            ("outlook", .notStarted, false, "STATUS:NEEDS-ACTION", nil, false),
            ("outlook", .active, false, "STATUS:IN-PROCESS", nil, false),
            ("apple", .notStarted, false, "STATUS:NEEDS-ACTION", nil, false),  // reopened: 100 % goes
            ("apple", .completed, true, "STATUS:COMPLETED", "PERCENT-COMPLETE:100", true),
            ("thunderbird", .completed, false, "STATUS:COMPLETED", "PERCENT-COMPLETE:100", true),
            ("thunderbird", .notStarted, false, "STATUS:NEEDS-ACTION", "PERCENT-COMPLETE:40", false),
            ("tasksOrg", .completed, false, "STATUS:COMPLETED", nil, true),
        ] as [(String, TaskState, Bool, String, String?, Bool)])
    func status(
        fixture: String, state: TaskState, retitle: Bool, status: String, percent: String?, hasCompleted: Bool
    ) throws {
        let text = try #require(Fixtures.all.first { $0.name == fixture }?.text)
        let result = try edit(text) { fields in
            if state != fields.state {
                fields.state = state
                fields.completedAt = state == .completed ? instant("2026-11-21 11:00:00") : nil
            }
            if retitle { fields.title += " (edited)" }
        }
        #expect(result.changed)
        #expect(result.after.filter { $0.hasPrefix("STATUS") } == [status])
        #expect(result.after.filter { $0.hasPrefix("PERCENT-COMPLETE") } == (percent.map { [$0] } ?? []))
        #expect(result.after.contains { $0.hasPrefix("COMPLETED:") } == hasCompleted)
        #expect(try mapping.fields(from: result.calendar).state == state)
    }

    @Test("the reminder alarm: kept when it fires at the same instant, else only its TRIGGER changes")
    func reminderKeptOrRetimed() throws {
        // Same instant, other field changed: both alarms byte for byte.
        let same = try edit(Fixtures.apple) { $0.title = "x" }
        let alarmLines = lines(Fixtures.apple).drop { $0 != "BEGIN:VALARM" }.prefix { $0 != "END:VTODO" }
        #expect(Array(same.after.drop { $0 != "BEGIN:VALARM" }.prefix { $0 != "END:VTODO" }) == Array(alarmLines))

        // A new instant: only the TRIGGER line of the first alarm changes.
        let moved = try edit(Fixtures.apple) { $0.reminderDate = instant("2026-11-27 07:30:00") }
        let (removed, added) = difference(moved.before, moved.after)
        #expect(removed.contains("TRIGGER;VALUE=DATE-TIME:20261127T080000Z"))
        #expect(added.contains("TRIGGER;VALUE=DATE-TIME:20261127T073000Z"))
        #expect(removed.filter { !$0.hasPrefix("DTSTAMP") && !$0.hasPrefix("LAST-MODIFIED") && !$0.hasPrefix("SEQUENCE") }.count == 1)
        #expect(moved.after.contains("X-WR-ALARMUID:0B2C2D4E-1111-2222-3333-444455556666"))
        #expect(moved.after.contains("X-APPLE-PROXIMITY:ARRIVE"))
        #expect(try mapping.fields(from: moved.calendar).reminderDate == instant("2026-11-27 07:30:00"))
    }

    @Test("a relative trigger follows a moved due date only if the reminder moved with it")
    func relativeTrigger() throws {
        // Due moves one hour later; the reminder (15:45Z) stays: the -PT15M trigger becomes absolute.
        let stays = try edit(Fixtures.thunderbird) { $0.dueDate = instant("2026-11-27 17:00:00") }
        #expect(stays.after.contains("TRIGGER;VALUE=DATE-TIME:20261127T154500Z"))
        #expect(stays.after.contains("TRIGGER;RELATED=END:-P1D"))  // the other client's second alarm
        #expect(try mapping.fields(from: stays.calendar).reminderDate == instant("2026-11-27 15:45:00"))

        // Due and reminder move together: the relative trigger still says it, byte for byte.
        let together = try edit(Fixtures.thunderbird) {
            $0.dueDate = instant("2026-11-27 17:00:00")
            $0.reminderDate = instant("2026-11-27 16:45:00")
        }
        #expect(together.after.contains("TRIGGER:-PT15M"))
        #expect(!together.after.contains { $0.hasPrefix("TRIGGER;VALUE=DATE-TIME") })
    }

    /// RFC 5545 counts a relative trigger from DUE or DTSTART: with the due date removed here, the
    /// alarms counted from it (Thunderbird's -PT15M, without DTSTART, and its RELATED=END one) are
    /// written as the instants they were. The second one was left relative to nothing.
    @Test("a due removed here leaves the alarms counted from it at their instants")
    func dueRemoved() throws {
        let result = try edit(Fixtures.thunderbird) { $0.dueDate = nil }
        #expect(!result.after.contains { $0.hasPrefix("DUE") })
        #expect(result.after.filter { $0.hasPrefix("TRIGGER") } == ["TRIGGER;VALUE=DATE-TIME:20261127T154500Z", "TRIGGER;VALUE=DATE-TIME:20261126T160000Z"])
        #expect(todo(of: result.calendar).components("VALARM").count == 2)
        #expect(try mapping.fields(from: result.calendar).reminderDate == instant("2026-11-27 15:45:00"))
    }

    /// What the store fills in where the server has nothing (a completion time for another
    /// client's CANCELLED, a sort order, a creation time) stays out of the object while it is as
    /// both sides agreed: a title edit on Outlook's cancelled task added COMPLETED and
    /// X-APPLE-SORT-ORDER.
    @Test("filled-in fields as agreed are not written")
    func filledInFieldsAsAgreed() throws {
        var calendar = try ICalendar(parsing: Fixtures.outlook)
        var agreed = try mapping.fields(from: calendar)
        #expect(agreed.state == .completed && agreed.completedAt == nil && agreed.sortOrder == nil && agreed.createdAt == nil)
        agreed.completedAt = instant("2026-11-03 08:00:00")
        agreed.sortOrder = 0
        agreed.createdAt = instant("2026-11-03 08:00:00")
        var fields = agreed
        fields.title = "Angebot prüfen (edited)"
        var unagreed = calendar
        _ = try mapping.apply(fields, to: &unagreed, now: now)
        #expect(lines(unagreed.serialized()).contains("COMPLETED:20261103T080000Z"), "what a push without the base does")

        #expect(try mapping.apply(fields, agreed: agreed, to: &calendar, now: now))
        let (removed, added) = difference(lines(Fixtures.outlook), lines(calendar.serialized()))
        #expect(removed.filter { !$0.hasPrefix("DTSTAMP") } == ["SUMMARY;LANGUAGE=de-DE:Angebot prüfen"])
        #expect(added.filter { !$0.hasPrefix("DTSTAMP") && !$0.hasPrefix("LAST-MODIFIED") && !$0.hasPrefix("SEQUENCE") } == [
            "SUMMARY;LANGUAGE=de-DE:Angebot prüfen (edited)"
        ])
        // Changed here, they are written.
        fields.sortOrder = 3
        _ = try mapping.apply(fields, agreed: agreed, to: &calendar, now: now)
        #expect(lines(calendar.serialized()).contains("X-APPLE-SORT-ORDER:3"))
    }

    @Test("a new reminder gets a new VALARM; other clients' alarms stay")
    func newReminder() throws {
        let result = try edit(Fixtures.outlook) { $0.reminderDate = instant("2026-07-15 14:00:00") }
        let (removed, added) = difference(result.before, result.after)
        #expect(removed.count == 1)  // DTSTAMP (no LAST-MODIFIED or SEQUENCE before)
        #expect(
            added.filter { !$0.hasPrefix("DTSTAMP") && !$0.hasPrefix("LAST-MODIFIED") && !$0.hasPrefix("SEQUENCE") } == [
                "BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTION:Reminder", "TRIGGER;VALUE=DATE-TIME:20260715T140000Z",
                "END:VALARM",
            ])
        #expect(try mapping.fields(from: result.calendar).reminderDate == instant("2026-07-15 14:00:00"))
    }

    /// Apple's "no alarm" placeholder (RFC 9074's ACTION:NONE) is no reminder to move: a reminder
    /// set here went into it, and the phone never rang (helper-126).
    @Test func aNewReminderBesideAnAlarmThatDoesNothingGetsAnAlarmOfItsOwn() throws {
        let placeholder = Fixtures.outlook.replacingOccurrences(
            of: "END:VTODO", with: "BEGIN:VALARM\r\nACTION:NONE\r\nTRIGGER;VALUE=DATE-TIME:19760401T005545Z\r\nEND:VALARM\r\nEND:VTODO")
        let result = try edit(placeholder) { $0.reminderDate = instant("2026-07-15 14:00:00") }
        let alarms = todo(of: result.calendar).components("VALARM")
        #expect(alarms.map { $0.property("ACTION")?.value } == ["NONE", "DISPLAY"])
        #expect(alarms.map { $0.property("TRIGGER")?.value } == ["19760401T005545Z", "20260715T140000Z"])
        #expect(try mapping.fields(from: result.calendar).reminderDate == instant("2026-07-15 14:00:00"))
    }

    @Test("clearing the reminder removes the alarms that would give one, and keeps location alarms")
    func clearedReminder() throws {
        let apple = try edit(Fixtures.apple) { $0.reminderDate = nil }
        #expect(todo(of: apple.calendar).components("VALARM").count == 1)
        #expect(apple.after.contains("X-APPLE-PROXIMITY:ARRIVE"))
        #expect(try mapping.fields(from: apple.calendar).reminderDate == nil)

        let thunderbird = try edit(Fixtures.thunderbird) { $0.reminderDate = nil }
        #expect(todo(of: thunderbird.calendar).components("VALARM").isEmpty)
        #expect(try mapping.fields(from: thunderbird.calendar).reminderDate == nil)
    }

    /// The alarm a phone acknowledged stays as it is: a new reminder moves the phone's snooze
    /// alarm (the phone rang at both), and clearing the reminder removes that one only (helper-93).
    @Test func anAcknowledgedAlarmStays() throws {
        let acknowledged = ["BEGIN:VALARM", "UID:alarm-1", "ACTION:DISPLAY", "TRIGGER;VALUE=DATE-TIME:20261130T132500Z", "ACKNOWLEDGED:20261130T132600Z", "END:VALARM"]
        let text = crlf(
            (["BEGIN:VCALENDAR", "BEGIN:VTODO", "UID:x", "DUE:20261130T140000Z"] + acknowledged
                + ["BEGIN:VALARM", "UID:alarm-2", "RELATED-TO;RELTYPE=SNOOZE:alarm-1", "ACTION:DISPLAY", "TRIGGER;VALUE=DATE-TIME:20261130T134400Z", "END:VALARM",
                   "END:VTODO", "END:VCALENDAR"]).joined(separator: "\n"))
        let snoozed = try edit(text) { $0.reminderDate = instant("2026-11-30 14:44:00") }
        #expect(difference(snoozed.before, snoozed.after).removed.contains("TRIGGER;VALUE=DATE-TIME:20261130T134400Z"))
        #expect(snoozed.after.contains("TRIGGER;VALUE=DATE-TIME:20261130T144400Z"))
        #expect(snoozed.after.joined(separator: "\n").contains(acknowledged.joined(separator: "\n")))
        let cleared = try edit(text) { $0.reminderDate = nil }
        #expect(todo(of: cleared.calendar).components("VALARM").count == 1)
        #expect(cleared.after.joined(separator: "\n").contains(acknowledged.joined(separator: "\n")))
        #expect(try mapping.fields(from: cleared.calendar).reminderDate == nil)
    }

    @Test("sort order and creation time")
    func sortOrderAndCreated() throws {
        let result = try edit(Fixtures.tasksOrg) {
            $0.sortOrder = 12
            $0.createdAt = instant("2026-11-01 00:00:00")
        }
        #expect(result.after.contains("X-APPLE-SORT-ORDER:12"))
        #expect(result.after.contains("CREATED:20261101T000000Z"))
        let removed = try edit(Fixtures.apple) { $0.sortOrder = nil }
        #expect(!removed.after.contains { $0.hasPrefix("X-APPLE-SORT-ORDER") })
    }

    @Test("what taskwidget does not model survives any edit", arguments: Fixtures.all.map(\.name))
    func preserved(name: String) throws {
        let text = try #require(Fixtures.all.first { $0.name == name }?.text)
        let result = try edit(text) { fields in
            fields.title = "Everything changed"
            fields.dueDate = instant("2027-01-01 10:00:00")
            fields.state = fields.state == .completed ? .notStarted : .completed
            fields.completedAt = fields.state == .completed ? instant("2026-11-21 10:00:00") : nil
            fields.sortOrder = 1
            fields.reminderDate = instant("2027-01-01 09:00:00")
        }
        let modelled = [
            "SUMMARY", "DUE", "STATUS", "COMPLETED", "PERCENT-COMPLETE", "X-APPLE-SORT-ORDER", "LAST-MODIFIED",
            "DTSTAMP", "SEQUENCE", "TRIGGER", "BEGIN:VALARM", "END:VALARM", "ACTION:DISPLAY", "DESCRIPTION:Reminder",
        ]
        let (removed, _) = difference(result.before, result.after)
        for line in removed {
            #expect(modelled.contains { line.hasPrefix($0) }, "lost: \(line)")
        }
    }

    @Test("fields of another UID are refused")
    func uidMismatch() throws {
        var calendar = try ICalendar(parsing: Fixtures.apple)
        var fields = try mapping.fields(from: calendar)
        fields.uid = "someone-else"
        #expect(throws: ICalError(.uidMismatch)) { try mapping.apply(fields, to: &calendar, now: now) }
    }

    @Test(
        "what is written reads back as the same fields",
        arguments: [
            TodoFields(uid: "u", title: "Plain"),
            TodoFields(
                uid: "u", title: "Day only; with, escapes\nand lines", dueDate: instant("2026-12-24 23:59:00", zone: "Europe/Berlin"),
                dueIsDateOnly: true, createdAt: instant("2026-11-01 10:00:00"), modifiedAt: instant("2026-11-02 10:00:00")),
            TodoFields(
                uid: "u", title: "Timed", dueDate: instant("2026-12-24 17:30:00"), state: .active, sortOrder: -3,
                reminderDate: instant("2026-12-24 17:00:00")),
            TodoFields(
                uid: "u", title: "Done", state: .completed, completedAt: instant("2026-11-20 08:00:00"),
                createdAt: instant("2026-11-01 10:00:00"), modifiedAt: instant("2026-11-20 08:00:00"), sortOrder: 5,
                reminderDate: instant("2026-11-19 08:00:00")),
            TodoFields(uid: "u", title: String(repeating: "長い", count: 100), reminderDate: instant("2026-11-19 08:00:00")),
        ])
    func readBack(fields: TodoFields) throws {
        // As a new calendar object ...
        let created = mapping.newCalendar(for: fields, now: now)
        let createdFields = try mapping.fields(from: ICalendar(parsing: created.serialized()))
        expectSame(createdFields, fields, createdAt: fields.createdAt ?? now, modifiedAt: fields.modifiedAt ?? now)

        // ... and applied over each fixture (with its UID).
        for (_, text) in Fixtures.all {
            var calendar = try ICalendar(parsing: text)
            var applied = fields
            applied.uid = try mapping.fields(from: calendar).uid
            try mapping.apply(applied, to: &calendar, now: now)
            let reread = try mapping.fields(from: ICalendar(parsing: calendar.serializedData()))
            #expect(reread.title == fields.title)
            #expect(reread.dueDate == fields.dueDate)
            #expect(reread.state == fields.state)
            #expect(reread.completedAt == fields.completedAt)
            #expect(reread.sortOrder == fields.sortOrder)
            #expect(reread.reminderDate == fields.reminderDate)
        }
    }

    private func expectSame(_ actual: TodoFields, _ expected: TodoFields, createdAt: Date, modifiedAt: Date) {
        var expected = expected
        expected.createdAt = createdAt
        expected.modifiedAt = modifiedAt
        #expect(actual == expected)
    }

    @Test("a new calendar object has what RFC 5545 and the servers need")
    func newObject() throws {
        let fields = TodoFields(
            uid: "6F9619FF-8B86-D011-B42D-00CF4FC964FF", title: "Pay rent",
            dueDate: instant("2026-12-01 23:59:00", zone: "Europe/Berlin"), dueIsDateOnly: true,
            createdAt: instant("2026-11-20 10:00:00"), modifiedAt: instant("2026-11-20 10:05:00"),
            sortOrder: 3, reminderDate: instant("2026-12-01 08:00:00"))
        let text = mapping.newCalendar(for: fields, now: now).serialized()
        #expect(
            lines(text) == [
                "BEGIN:VCALENDAR",
                "PRODID:-//taskwidget//EN",
                "VERSION:2.0",
                "BEGIN:VTODO",
                "UID:6F9619FF-8B86-D011-B42D-00CF4FC964FF",
                "DTSTAMP:20261121T120000Z",
                "CREATED:20261120T100000Z",
                "LAST-MODIFIED:20261120T100500Z",
                "SUMMARY:Pay rent",
                "STATUS:NEEDS-ACTION",
                "DUE;VALUE=DATE:20261201",
                "X-APPLE-SORT-ORDER:3",
                "BEGIN:VALARM",
                "ACTION:DISPLAY",
                "DESCRIPTION:Reminder",
                "TRIGGER;VALUE=DATE-TIME:20261201T080000Z",
                "END:VALARM",
                "END:VTODO",
                "END:VCALENDAR",
            ])
    }
}
