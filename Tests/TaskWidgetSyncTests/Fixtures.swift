import Foundation
import TaskWidgetSync

/// Calendar objects as real clients write them (shapes after Apple Reminders, Thunderbird,
/// tasks.org/DAVx⁵ and Outlook), written with LF here and turned into CRLF by ``crlf(_:)``.
enum Fixtures {
    /// Apple Reminders: DATE due, completed, sort order, an absolute alarm and a location alarm.
    static let apple = crlf(
        #"""
        BEGIN:VCALENDAR
        VERSION:2.0
        PRODID:-//Apple Inc.//iOS 17.4//EN
        CALSCALE:GREGORIAN
        BEGIN:VTODO
        COMPLETED:20261120T090000Z
        CREATED:20261101T080000Z
        DTSTAMP:20261120T090005Z
        DUE;VALUE=DATE:20261127
        LAST-MODIFIED:20261120T090000Z
        PERCENT-COMPLETE:100
        PRIORITY:1
        SEQUENCE:3
        STATUS:COMPLETED
        SUMMARY:Buy milk\, eggs\; and bread
        UID:6F9619FF-8B86-D011-B42D-00CF4FC964FF
        X-APPLE-SORT-ORDER:700000000
        BEGIN:VALARM
        ACTION:DISPLAY
        DESCRIPTION:Reminder
        TRIGGER;VALUE=DATE-TIME:20261127T080000Z
        UID:0B2C2D4E-1111-2222-3333-444455556666
        X-WR-ALARMUID:0B2C2D4E-1111-2222-3333-444455556666
        END:VALARM
        BEGIN:VALARM
        ACTION:DISPLAY
        DESCRIPTION:Reminder
        TRIGGER;VALUE=DATE-TIME:19760401T005545Z
        X-APPLE-PROXIMITY:ARRIVE
        X-APPLE-STRUCTURED-LOCATION;VALUE=URI;X-APPLE-RADIUS=100;X-TITLE="Home, sweet home":geo:52.52,13.40
        END:VALARM
        END:VTODO
        END:VCALENDAR
        """#)

    /// Thunderbird: a VTIMEZONE with a Mozilla TZID, a relative alarm (to DUE, no DTSTART), a
    /// second alarm, categories, a long folded description, quoted parameters and X- properties.
    static let thunderbird = crlf(
        #"""
        BEGIN:VCALENDAR
        PRODID:-//Mozilla.org/NONSGML Mozilla Calendar V1.1//EN
        VERSION:2.0
        BEGIN:VTIMEZONE
        TZID:/mozilla.org/20050126_1/Europe/Berlin
        X-LIC-LOCATION:Europe/Berlin
        BEGIN:DAYLIGHT
        TZOFFSETFROM:+0100
        TZOFFSETTO:+0200
        TZNAME:CEST
        DTSTART:19700329T020000
        RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=3
        END:DAYLIGHT
        BEGIN:STANDARD
        TZOFFSETFROM:+0200
        TZOFFSETTO:+0100
        TZNAME:CET
        DTSTART:19701025T030000
        RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=10
        END:STANDARD
        END:VTIMEZONE
        BEGIN:VTODO
        CREATED:20261101T100000Z
        LAST-MODIFIED:20261102T100000Z
        DTSTAMP:20261102T100000Z
        UID:thunderbird-7d2e1c3a-5b6f
        SUMMARY:Prepare the quarterly report
        STATUS:IN-PROCESS
        PERCENT-COMPLETE:40
        CATEGORIES:Work,Reports
        RELATED-TO;RELTYPE=PARENT:thunderbird-parent-1
        ATTENDEE;CN="Doe, Jane";ROLE=REQ-PARTICIPANT;DELEGATED-FROM="mailto:a@example.com","mailto:b@example.com":mailto:jane@example.com
        DESCRIPTION;ALTREP="cid:part1.0001@example.org":Collect the numbers from sales\, marketing and s
         upport\; then write the summary.\nSecond paragraph with a tab	inside an
         d more text.
        X-MOZ-GENERATION:4
        DUE;TZID=/mozilla.org/20050126_1/Europe/Berlin:20261127T170000
        BEGIN:VALARM
        ACTION:DISPLAY
        TRIGGER:-PT15M
        DESCRIPTION:Default Mozilla Description
        END:VALARM
        BEGIN:VALARM
        ACTION:DISPLAY
        TRIGGER;RELATED=END:-P1D
        DESCRIPTION:Default Mozilla Description
        END:VALARM
        X-MOZ-LASTACK:20261101T100000Z
        END:VTODO
        END:VCALENDAR
        """#)

    /// tasks.org through DAVx⁵: floating due, DTSTART, no LAST-MODIFIED (DTSTAMP instead), a
    /// non-UUID UID and an alarm relative to the due date.
    static let tasksOrg = crlf(
        #"""
        BEGIN:VCALENDAR
        VERSION:2.0
        PRODID:+//IDN tasks.org//android-130804//EN
        BEGIN:VTODO
        DTSTAMP:20261105T120000Z
        UID:4738963758340284587
        CREATED:20261105T115959Z
        SUMMARY:Call the plumber
        PRIORITY:9
        STATUS:NEEDS-ACTION
        X-APPLE-SORT-ORDER:-5
        DTSTART:20261110T080000
        DUE:20261110T090000
        BEGIN:VALARM
        TRIGGER;RELATED=END:PT0S
        ACTION:DISPLAY
        DESCRIPTION:Default Tasks.org description
        END:VALARM
        END:VTODO
        END:VCALENDAR
        """#)

    /// Outlook/Exchange: a Windows TZID with its VTIMEZONE, and a CANCELLED task.
    static let outlook = crlf(
        #"""
        BEGIN:VCALENDAR
        PRODID:-//Microsoft Corporation//Outlook 16.0 MIMEDIR//EN
        VERSION:2.0
        BEGIN:VTIMEZONE
        TZID:W. Europe Standard Time
        BEGIN:STANDARD
        DTSTART:16011028T030000
        RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=10
        TZOFFSETFROM:+0200
        TZOFFSETTO:+0100
        END:STANDARD
        BEGIN:DAYLIGHT
        DTSTART:16010325T020000
        RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=3
        TZOFFSETFROM:+0100
        TZOFFSETTO:+0200
        END:DAYLIGHT
        END:VTIMEZONE
        BEGIN:VTODO
        UID:040000008200E00074C5B7101A82E00800000000
        DTSTAMP:20261103T080000Z
        SUMMARY;LANGUAGE=de-DE:Angebot prüfen
        STATUS:CANCELLED
        DUE;TZID="W. Europe Standard Time":20260715T170000
        X-MICROSOFT-CDO-BUSYSTATUS:FREE
        END:VTODO
        END:VCALENDAR
        """#)

    static let all: [(name: String, text: String)] = [
        ("apple", apple), ("thunderbird", thunderbird), ("tasksOrg", tasksOrg), ("outlook", outlook),
    ]
}

/// LF → CRLF, the way calendars travel.
func crlf(_ text: String) -> String {
    text.split(separator: "\n", omittingEmptySubsequences: false).joined(separator: "\r\n") + "\r\n"
}

/// `"2026-11-27 17:00:00"` in UTC (or in `zone`) as an instant.
func instant(_ text: String, zone: String = "UTC") -> Date {
    let numbers = text.split(whereSeparator: { !$0.isNumber }).map { Int($0)! }
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: zone)!
    return calendar.date(
        from: DateComponents(
            year: numbers[0], month: numbers[1], day: numbers[2], hour: numbers[3], minute: numbers[4],
            second: numbers.count > 5 ? numbers[5] : 0))!
}

let berlin = TimeZone(identifier: "Europe/Berlin")!
let newYork = TimeZone(identifier: "America/New_York")!

/// The physical lines of a serialized calendar (without their CRLF).
func lines(_ text: String) -> [String] {
    text.components(separatedBy: "\r\n").dropLast().map { String($0) }
}

/// The master VTODO of a calendar (first VTODO of the first VCALENDAR).
func todo(of calendar: ICalendar) -> ICalComponent {
    calendar.vcalendar!.components("VTODO")[0]
}

/// Puts `todo` in place of the calendar's first VTODO.
func replaceTodo(in calendar: inout ICalendar, with todo: ICalComponent) {
    let index = calendar.components[0].children.firstIndex {
        if case .component(let component) = $0 { component.hasName("VTODO") } else { false }
    }!
    calendar.components[0].children[index] = .component(todo)
}
