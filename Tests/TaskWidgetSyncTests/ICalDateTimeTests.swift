import Foundation
import Testing
import TaskWidgetSync

@testable import TaskWidgetTestSupport

@Suite("iCalendar dates and time zones")
struct ICalDateTimeTests {
    private let zones = ICalTimeZones(floating: newYork)

    @Test(
        "values name instants",
        arguments: [
            // value, TZID, expected instant (UTC)
            ("20261127T170000Z", nil, "2026-11-27 17:00:00"),
            ("20261127T170000z", nil, "2026-11-27 17:00:00"),
            ("20261127T170000Z", "Europe/Berlin", "2026-11-27 17:00:00"),  // Z wins over TZID
            ("20261127T170000", "Europe/Berlin", "2026-11-27 16:00:00"),  // CET, +1
            ("20260715T170000", "Europe/Berlin", "2026-07-15 15:00:00"),  // CEST, +2
            ("20261127T170000", nil, "2026-11-27 22:00:00"),  // floating: New York, -5
            ("20261127", nil, "2026-11-27 05:00:00"),  // DATE: local midnight
            ("20260329T023000", "Europe/Berlin", "2026-03-29 01:30:00"),  // in the DST gap: moved forward
            ("20261127T170000", "/mozilla.org/20050126_1/Europe/Berlin", "2026-11-27 16:00:00"),
            ("20261127T170000", "/citadel.org/20190914_1/Asia/Tokyo", "2026-11-27 08:00:00"),
            ("20261127T170000", "Unknown/Zone", "2026-11-27 22:00:00"),  // unknown: floating
            ("20161231T235960Z", nil, "2016-12-31 23:59:59"),  // leap second
            ("19700101T000000Z", nil, "1970-01-01 00:00:00"),
            ("16010101T000000Z", nil, "1601-01-01 00:00:00"),
        ] as [(String, String?, String)])
    func instants(value: String, tzid: String?, expected: String) throws {
        let dateTime = try #require(ICalDateTime(value: value, tzid: tzid))
        #expect(dateTime.instant(in: zones) == instant(expected))
    }

    @Test(
        "malformed values are nil",
        arguments: [
            "", "2026112", "2026-11-27", "20261327", "20260230", "20261127T", "20261127T1700",
            "20261127T250000", "20261127T176000", "20261127X170000", "20261127T170000ZZ", "00001127", "２０２６１１２７",
        ])
    func malformed(value: String) {
        #expect(ICalDateTime(value: value) == nil)
    }

    @Test("values are written in their form")
    func writing() throws {
        #expect(ICalDateTime.utc(instant("2026-11-27 17:00:05")).valueText == "20261127T170005Z")
        #expect(ICalDateTime.utc(instant("2026-11-27 17:00:05").addingTimeInterval(0.9)).valueText == "20261127T170005Z")
        #expect(ICalDateTime.utc(instant("1969-12-31 23:59:59")).valueText == "19691231T235959Z")
        let day = try #require(ICalDateTime.date(containing: instant("2026-11-27 23:30:00"), in: newYork))
        #expect(day.valueText == "20261127")
        #expect(day.parameters == [ICalParameter("VALUE", "DATE")])
        let zoned = try #require(ICalDateTime(value: "20261127T170000", tzid: "Europe/Berlin"))
        #expect(zoned.parameters == [ICalParameter("TZID", "Europe/Berlin")])
        #expect(zoned.valueText == "20261127T170000")
    }

    @Test("UTC arithmetic agrees with Foundation over four centuries")
    func civilArithmetic() {
        var generator = SplitMix64(seed: 7)
        for _ in 0..<2000 {
            let seconds = Double(Int64.random(in: -11_000_000_000...200_000_000_000, using: &generator))
            let date = Date(timeIntervalSince1970: seconds)
            let written = ICalDateTime.utc(date)
            #expect(written.instant(in: zones) == date)
            var utcCalendar = Calendar(identifier: .gregorian)
            utcCalendar.timeZone = TimeZone(identifier: "UTC")!
            let parts = utcCalendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
            #expect(
                [written.year, written.month, written.day, written.hour, written.minute, written.second]
                    == [parts.year, parts.month, parts.day, parts.hour, parts.minute, parts.second])
        }
    }

    @Test(
        "Windows zone names resolve to IANA zones",
        arguments: [
            ("W. Europe Standard Time", "Europe/Berlin"),
            ("Central Europe Standard Time", "Europe/Budapest"),
            ("Romance Standard Time", "Europe/Paris"),
            ("GMT Standard Time", "Europe/London"),
            ("Eastern Standard Time", "America/New_York"),
            ("Central Standard Time", "America/Chicago"),
            ("Mountain Standard Time", "America/Denver"),
            ("Pacific Standard Time", "America/Los_Angeles"),
            ("Tokyo Standard Time", "Asia/Tokyo"),
            ("China Standard Time", "Asia/Shanghai"),
            ("India Standard Time", "Asia/Kolkata"),
            ("AUS Eastern Standard Time", "Australia/Sydney"),
            // Names the table lacked: their VTIMEZONE's winter offset held all year (helper-150).
            ("Tasmania Standard Time", "Australia/Hobart"),
            ("Chatham Islands Standard Time", "Pacific/Chatham"),
            ("Pacific SA Standard Time", "America/Santiago"),
            ("UTC", "GMT"),
            ("w. europe standard time", "Europe/Berlin"),
            ("Europe/Berlin", "Europe/Berlin"),
            ("/mozilla.org/20050126_1/America/New_York", "America/New_York"),
            ("\"Europe/Paris\"", "Europe/Paris"),
        ])
    func windowsNames(tzid: String, iana: String) throws {
        let zone = try #require(ICalTimeZones.knownTimeZone(forTZID: tzid))
        #expect(zone.identifier == iana || TimeZone(identifier: iana) == zone)
    }

    @Test("every Windows name in the table maps to a zone the system knows")
    func windowsTable() {
        for (name, iana) in ICalTimeZones.windowsZones {
            #expect(TimeZone(identifier: iana) != nil, "\(name) → \(iana)")
        }
    }

    @Test("TZIDs that are not zone names never reach the file system", arguments: ["../../../etc/passwd", "Europe/../../x", ".", "Berlin "])
    func hostileTZID(tzid: String) {
        #expect(ICalTimeZones.knownTimeZone(forTZID: tzid) == nil)
    }

    private func calendar(tzid: String, location: String? = nil, standard: String? = "+0530", daylight: String? = "+0630") throws
        -> ICalComponent
    {
        var text = "BEGIN:VCALENDAR\r\nBEGIN:VTIMEZONE\r\nTZID:\(tzid)\r\n"
        if let location { text += "X-LIC-LOCATION:\(location)\r\n" }
        if let standard {
            text += "BEGIN:STANDARD\r\nDTSTART:19701025T030000\r\nTZOFFSETTO:+0100\r\nEND:STANDARD\r\n"
            text += "BEGIN:STANDARD\r\nDTSTART:20071104T020000\r\nTZOFFSETTO:\(standard)\r\nEND:STANDARD\r\n"
        }
        if let daylight { text += "BEGIN:DAYLIGHT\r\nDTSTART:20070311T020000\r\nTZOFFSETTO:\(daylight)\r\nEND:DAYLIGHT\r\n" }
        text += "END:VTIMEZONE\r\nEND:VCALENDAR\r\n"
        return try #require(try ICalendar(parsing: text).vcalendar)
    }

    @Test("an unknown TZID falls back to its VTIMEZONE: X-LIC-LOCATION, else the latest STANDARD offset, else floating")
    func vtimezoneFallback() throws {
        let value = try #require(ICalDateTime(value: "20260715T120000", tzid: "Customized Time Zone"))

        let located = ICalTimeZones(floating: newYork, calendar: try calendar(tzid: "Customized Time Zone", location: "Asia/Tokyo"))
        #expect(value.instant(in: located) == instant("2026-07-15 03:00:00"))

        // The STANDARD with the latest DTSTART (+0530), not the older one (+0100); DST ignored.
        let offset = ICalTimeZones(floating: newYork, calendar: try calendar(tzid: "Customized Time Zone"))
        #expect(value.instant(in: offset) == instant("2026-07-15 06:30:00"))

        let daylightOnly = ICalTimeZones(
            floating: newYork, calendar: try calendar(tzid: "Customized Time Zone", standard: nil))
        #expect(value.instant(in: daylightOnly) == instant("2026-07-15 16:00:00"))  // floating, New York EDT

        // A known TZID beats its VTIMEZONE (whose offsets here are deliberately wrong).
        let known = ICalTimeZones(floating: newYork, calendar: try calendar(tzid: "Europe/Berlin"))
        let berlinValue = try #require(ICalDateTime(value: "20260715T120000", tzid: "Europe/Berlin"))
        #expect(berlinValue.instant(in: known) == instant("2026-07-15 10:00:00"))
    }

    @Test(
        "durations",
        arguments: [
            ("-PT15M", -900), ("PT0S", 0), ("P1D", 86_400), ("-P1DT2H", -93_600), ("P2W", 1_209_600),
            ("+PT1H30M15S", 5_415), ("-p1dt1h", -90_000), (" -PT5M ", -300),
        ])
    func durations(text: String, seconds: Int) throws {
        let duration = try #require(ICalDuration(text))
        #expect(duration.totalSeconds == seconds)
        #expect(ICalDuration(duration.description) == duration)
    }

    @Test("malformed durations are nil", arguments: ["", "P", "PT", "-", "15M", "PT15", "P1H", "PT1D", "P1DT", "PT1M2X", "P9999999999D"])
    func malformedDurations(text: String) {
        #expect(ICalDuration(text) == nil)
    }

    @Test("a day in a duration is a calendar day across DST")
    func nominalDays() throws {
        let beforeChange = instant("2026-03-28 12:00:00", zone: "Europe/Berlin")
        let next = try #require(ICalDuration("P1D")).added(to: beforeChange, in: berlin)
        #expect(next == instant("2026-03-29 12:00:00", zone: "Europe/Berlin"))
        #expect(next.timeIntervalSince(beforeChange) == 23 * 3600)
    }
}
