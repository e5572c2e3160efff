import Foundation
import TaskWidgetCore
import Testing
import TaskWidgetSync

@Suite("VTODO → fields")
struct TodoMappingReadTests {
    private let mapping = TodoMapping(timeZone: berlin)

    @Test("Apple Reminders: DATE due, completed, sort order, absolute alarm, location alarm skipped")
    func apple() throws {
        let fields = try mapping.fields(from: ICalendar(parsing: Fixtures.apple))
        #expect(fields.uid == "6F9619FF-8B86-D011-B42D-00CF4FC964FF")
        #expect(fields.uuid == UUID(uuidString: "6F9619FF-8B86-D011-B42D-00CF4FC964FF"))
        #expect(fields.title == "Buy milk, eggs; and bread")
        #expect(fields.dueDate == instant("2026-11-27 23:59:00", zone: "Europe/Berlin"))
        #expect(fields.dueIsDateOnly)
        #expect(fields.state == .completed)
        #expect(fields.completedAt == instant("2026-11-20 09:00:00"))
        #expect(fields.createdAt == instant("2026-11-01 08:00:00"))
        #expect(fields.modifiedAt == instant("2026-11-20 09:00:00"))  // LAST-MODIFIED, not DTSTAMP
        #expect(fields.sortOrder == 700_000_000)
        #expect(fields.reminderDate == instant("2026-11-27 08:00:00"))
    }

    @Test("Thunderbird: Mozilla TZID, non-UUID UID, relative alarm counted from DUE without DTSTART")
    func thunderbird() throws {
        let fields = try mapping.fields(from: ICalendar(parsing: Fixtures.thunderbird))
        #expect(fields.uid == "thunderbird-7d2e1c3a-5b6f")
        #expect(fields.uuid == nil)
        #expect(fields.state == .active)
        #expect(fields.dueDate == instant("2026-11-27 16:00:00"))
        #expect(!fields.dueIsDateOnly)
        #expect(fields.reminderDate == instant("2026-11-27 15:45:00"))  // the first alarm
        #expect(fields.modifiedAt == instant("2026-11-02 10:00:00"))
        #expect(fields.sortOrder == nil)
        #expect(fields.completedAt == nil)
    }

    @Test("tasks.org: floating times in the user's zone, DTSTAMP as modification time")
    func tasksOrg() throws {
        let fields = try mapping.fields(from: ICalendar(parsing: Fixtures.tasksOrg))
        #expect(fields.uid == "4738963758340284587")
        #expect(fields.dueDate == instant("2026-11-10 09:00:00", zone: "Europe/Berlin"))
        #expect(fields.reminderDate == fields.dueDate)  // RELATED=END:PT0S
        #expect(fields.modifiedAt == instant("2026-11-05 12:00:00"))
        #expect(fields.sortOrder == -5)
        #expect(fields.state == .notStarted)

        // The same object read by a user in New York: floating means *their* 09:00.
        let newYorkFields = try TodoMapping(timeZone: newYork).fields(from: ICalendar(parsing: Fixtures.tasksOrg))
        #expect(newYorkFields.dueDate == instant("2026-11-10 09:00:00", zone: "America/New_York"))
    }

    @Test("Outlook: Windows TZID, CANCELLED counts as completed")
    func outlook() throws {
        let fields = try mapping.fields(from: ICalendar(parsing: Fixtures.outlook))
        #expect(fields.title == "Angebot prüfen")
        #expect(fields.dueDate == instant("2026-07-15 15:00:00"))
        #expect(fields.state == .completed)
        #expect(fields.completedAt == nil)
        #expect(fields.createdAt == nil)
        #expect(fields.modifiedAt == instant("2026-11-03 08:00:00"))
        #expect(fields.reminderDate == nil)
    }

    private func vtodo(_ lines: String) -> String {
        crlf("BEGIN:VCALENDAR\nBEGIN:VTODO\nUID:x\n" + lines + (lines.isEmpty ? "" : "\n") + "END:VTODO\nEND:VCALENDAR")
    }

    @Test(
        "state from STATUS, else COMPLETED or PERCENT-COMPLETE:100",
        arguments: [
            ("STATUS:NEEDS-ACTION", TaskState.notStarted),
            ("STATUS:IN-PROCESS", .active),
            ("STATUS:COMPLETED", .completed),
            ("STATUS:CANCELLED", .completed),
            ("STATUS:cancelled", .completed),
            ("PERCENT-COMPLETE:100", .completed),
            ("PERCENT-COMPLETE:40", .notStarted),
            ("COMPLETED:20261120T090000Z", .completed),
            ("STATUS:NEEDS-ACTION\nPERCENT-COMPLETE:100", .notStarted),  // an explicit STATUS wins
            ("STATUS:X-WAITING\nCOMPLETED:20261120T090000Z", .completed),
            ("STATUS:X-WAITING", .notStarted),
            ("", .notStarted),
        ])
    func state(lines: String, state: TaskState) throws {
        #expect(try mapping.fields(from: ICalendar(parsing: vtodo(lines))).state == state)
    }

    @Test(
        "reminder from absolute, DUE-relative and DTSTART-relative triggers",
        arguments: [
            // extra VTODO lines, alarm lines, expected reminder (UTC) or nil
            ("DUE:20261127T170000Z", "TRIGGER;VALUE=DATE-TIME:20261127T160000Z", "2026-11-27 16:00:00"),
            ("DUE:20261127T170000Z", "TRIGGER:-PT15M", "2026-11-27 16:45:00"),  // no DTSTART: from DUE
            ("DUE:20261127T170000Z\nDTSTART:20261127T090000Z", "TRIGGER:-PT15M", "2026-11-27 08:45:00"),
            ("DUE:20261127T170000Z\nDTSTART:20261127T090000Z", "TRIGGER;RELATED=START:-PT15M", "2026-11-27 08:45:00"),
            ("DUE:20261127T170000Z", "TRIGGER;RELATED=START:-PT15M", "2026-11-27 16:45:00"),
            ("DUE:20261127T170000Z\nDTSTART:20261127T090000Z", "TRIGGER;RELATED=END:-PT1H", "2026-11-27 16:00:00"),
            ("DUE:20261127T170000Z", "TRIGGER;related=end:PT0S", "2026-11-27 17:00:00"),
            ("DUE:20261127T170000Z", "TRIGGER;VALUE=DURATION:-P1D", "2026-11-26 17:00:00"),
            ("DUE;VALUE=DATE:20261127", "TRIGGER:PT9H", "2026-11-27 08:00:00"),  // a DATE counts from 00:00 local
            ("DTSTART:20261127T090000Z\nDURATION:PT2H", "TRIGGER;RELATED=END:-PT30M", "2026-11-27 10:30:00"),
            ("DUE;TZID=Europe/Berlin:20261127T170000", "TRIGGER;VALUE=DATE-TIME:20261127T150000", "2026-11-27 14:00:00"),
            // RFC 5545 §3.3.6: hours are exact, days and weeks are nominal on the wall clock of the
            // value they count from (they were counted in the reader's zone, helper-150).
            ("DUE;TZID=Europe/Berlin:20261025T120000", "TRIGGER;RELATED=END:-PT24H", "2026-10-24 11:00:00"),
            ("DUE;TZID=Europe/Berlin:20261025T120000", "TRIGGER;RELATED=END:-P1D", "2026-10-24 10:00:00"),
            ("DUE;TZID=America/New_York:20261101T090000", "TRIGGER:-P1D", "2026-10-31 13:00:00"),
            ("DUE;TZID=America/New_York:20261105T090000", "TRIGGER:-P1W", "2026-10-29 13:00:00"),
            ("DUE:20261025T120000Z", "TRIGGER:-P1D", "2026-10-24 12:00:00"),  // UTC days are 24 h
            // Into the repeated hour: the first 02:30 (as a DATE-TIME there reads); into the
            // skipped one: moved forward by the gap.
            ("DUE;TZID=Europe/Berlin:20261026T023000", "TRIGGER;RELATED=END:-P1D", "2026-10-25 00:30:00"),
            ("DUE;TZID=Europe/Berlin:20260330T023000", "TRIGGER;RELATED=END:-P1D", "2026-03-29 01:30:00"),
            ("DTSTART;TZID=America/New_York:20261031T090000\nDURATION:P1D", "TRIGGER;RELATED=END:PT0S", "2026-11-01 14:00:00"),
            ("", "TRIGGER:-PT15M", nil),  // nothing to count from
            ("DUE:20261127T170000Z", "TRIGGER;RELATED=END:soon", nil),
            ("DUE:20261127T170000Z", "ACTION:DISPLAY", nil),  // no trigger
            ("DUE:20261127T170000Z", "TRIGGER;VALUE=DATE-TIME:19760401T005545Z\nPROXIMITY:ARRIVE", nil),
            ("DUE:20261127T170000Z", "ACTION:NONE\nTRIGGER;VALUE=DATE-TIME:19760401T005545Z", nil),  // Apple's "no alarm"
            ("DUE:20261127T170000Z", "action:none\nTRIGGER:-PT15M", nil),
            ("DUE:20261127T170000Z", "ACTION:DISPLAY\nTRIGGER;VALUE=DATE-TIME:19760401T005545Z", nil),  // the date alone
            // RFC 9074: dismissed on the phone since it fired; a series' later occurrence is to come.
            ("DUE:20261127T170000Z", "TRIGGER;VALUE=DATE-TIME:20261127T160000Z\nACKNOWLEDGED:20261127T160100Z", nil),
            ("DUE:20261127T170000Z", "TRIGGER:-PT15M\nACKNOWLEDGED:20261120T165000Z", "2026-11-27 16:45:00"),
        ] as [(String, String, String?)])
    func reminder(todoLines: String, alarmLines: String, expected: String?) throws {
        let text = vtodo(todoLines + (todoLines.isEmpty ? "" : "\n") + "BEGIN:VALARM\n\(alarmLines)\nEND:VALARM")
        let fields = try mapping.fields(from: ICalendar(parsing: text))
        #expect(fields.reminderDate == expected.map { instant($0) })
    }

    /// A phone's snooze (RFC 9074): the alarm acknowledged, and an alarm of its own related to it.
    /// The acknowledged one showed again here as missed, and the snooze's never (helper-93).
    @Test func aSnoozeOnThePhoneIsTheReminder() throws {
        let text = vtodo(
            """
            DUE:20261130T140000Z
            BEGIN:VALARM
            UID:alarm-1
            ACTION:DISPLAY
            TRIGGER;VALUE=DATE-TIME:20261130T132500Z
            ACKNOWLEDGED:20261130T132600Z
            END:VALARM
            BEGIN:VALARM
            UID:alarm-2
            RELATED-TO;RELTYPE=SNOOZE:alarm-1
            ACTION:DISPLAY
            TRIGGER;VALUE=DATE-TIME:20261130T134400Z
            END:VALARM
            """)
        #expect(try mapping.fields(from: ICalendar(parsing: text)).reminderDate == instant("2026-11-30 13:44:00"))
    }

    @Test("the reminder is the first alarm with an instant, in document order")
    func firstAlarm() throws {
        let text = vtodo(
            """
            DUE:20261127T170000Z
            BEGIN:VALARM
            TRIGGER;VALUE=DATE-TIME:19760401T005545Z
            X-APPLE-PROXIMITY:DEPART
            END:VALARM
            BEGIN:VALARM
            TRIGGER:-PT1H
            END:VALARM
            BEGIN:VALARM
            TRIGGER:-PT5M
            END:VALARM
            """)
        #expect(try mapping.fields(from: ICalendar(parsing: text)).reminderDate == instant("2026-11-27 16:00:00"))
    }

    @Test("a due date from DTSTART + DURATION, when there is no DUE")
    func dueFromDuration() throws {
        let text = vtodo("DTSTART;TZID=Europe/Berlin:20261127T090000\nDURATION:PT8H")
        let fields = try mapping.fields(from: ICalendar(parsing: text))
        #expect(fields.dueDate == instant("2026-11-27 16:00:00"))
    }

    @Test("the master VTODO is chosen over a recurrence override")
    func master() throws {
        let text = crlf(
            """
            BEGIN:VCALENDAR
            BEGIN:VTODO
            UID:r
            RECURRENCE-ID:20261127T090000Z
            SUMMARY:Override
            END:VTODO
            BEGIN:VTODO
            UID:r
            RRULE:FREQ=WEEKLY
            SUMMARY:Master
            END:VTODO
            END:VCALENDAR
            """)
        #expect(try mapping.fields(from: ICalendar(parsing: text)).title == "Master")
    }

    @Test(
        "calendar objects that are no task give typed errors",
        arguments: [
            ("BEGIN:VCALENDAR\nBEGIN:VEVENT\nUID:1\nEND:VEVENT\nEND:VCALENDAR", ICalError.Code.noTodo),
            ("BEGIN:VCALENDAR\nBEGIN:VTODO\nSUMMARY:x\nEND:VTODO\nEND:VCALENDAR", .missingUID),
            ("BEGIN:VCALENDAR\nBEGIN:VTODO\nUID:\nEND:VTODO\nEND:VCALENDAR", .missingUID),
        ])
    func notATask(text: String, code: ICalError.Code) throws {
        let calendar = try ICalendar(parsing: crlf(text))
        #expect(throws: ICalError(code)) { try mapping.fields(from: calendar) }
    }

    @Test("unreadable dates and numbers read as absent, never as errors")
    func garbageValues() throws {
        let text = vtodo("DUE:tomorrow\nCREATED:2026-11-01\nX-APPLE-SORT-ORDER:many\nLAST-MODIFIED:x\nDTSTAMP:20261101T000000Z")
        let fields = try mapping.fields(from: ICalendar(parsing: text))
        #expect(fields.dueDate == nil)
        #expect(fields.createdAt == nil)
        #expect(fields.sortOrder == nil)
        #expect(fields.modifiedAt == instant("2026-11-01 00:00:00"))
    }
}
