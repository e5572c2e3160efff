import Foundation
import PropertyBased
import Testing

@testable import TaskWidgetCore
@testable import TaskWidgetTestSupport

/// The WHEN grammar and `--now` instants as properties: what the formatter writes reads back, any
/// text is read or refused in one line, results keep the documented bounds, relative dates move
/// the right way, and every quarter hour of real DST days lands where the documentation says.
/// The expected values come from `TimeZone.secondsFromGMT(for:)` and a UTC calendar, not from
/// the zone arithmetic of `Calendar` that the parser uses.
@Suite struct DateGrammarProperties {
    static let zoneNames = [
        "UTC", "Europe/Berlin", "America/New_York", "America/Santiago", "Australia/Lord_Howe", "Pacific/Chatham",
        "Asia/Kathmandu", "America/St_Johns", "Pacific/Kiritimati",
    ]
    static let zones = Gen<String?>.element(of: zoneNames).map { Fixed.zone($0!) }
    /// Milliseconds from 1971 through the last millisecond of 9999.
    static let milliseconds = Gen.int64(in: 31_536_000_000...253_402_300_799_999)
    /// Milliseconds from 1996 through 2100, for a now from which relative dates are taken: after
    /// Kiritimati skipped 31 December 1994 and St John's had its two-hour DST of 1988, so that
    /// every gap is a DST hour or less.
    static let nows = Gen.int64(in: 820_454_400_000...4_133_980_799_999).map { Date(timeIntervalSince1970: Double($0) / 1000) }

    // MARK: parse ∘ format

    /// RFC 3339 text from `InstantFormat` (local with its offset, or UTC) is read back as the same
    /// instant by the export reader, by `--now`, and (whole seconds) by the WHEN grammar, in any zone.
    @Test func formattedInstantsReadBackAsTheSameInstant() async {
        await SeededProperty.check(count: 600, seed: 0xDA7E_0001, input: zip(Self.milliseconds, Self.zones, Self.zones)) {
            milliseconds, writer, reader in
            let date = Date(timeIntervalSince1970: Double(milliseconds) / 1000)
            let whole = Date(timeIntervalSince1970: Double(milliseconds.dividedRoundingDown(by: 1000)))
            for text in [InstantFormat.local(Instant(date), in: writer), InstantFormat.utc(Instant(date))] {
                #expect(InstantFormat.parse(text)?.date == date, "\(text)")
                let instant = try WhenParser.parseInstantDate(text, calendar: LocalCalendar(timeZone: reader))
                #expect((instant.timeIntervalSince1970 * 1000).rounded() == Double(milliseconds), "\(text)")
            }
            let text = InstantFormat.local(Instant(whole), in: writer)
            #expect(try WhenParser(now: date, calendar: LocalCalendar(timeZone: reader)).parseDate(text, for: .due) == whole, "\(text)")
        }
    }

    // MARK: Any text

    static let texts = Gen<String?>.element(of: HostileText.datePieces).array(of: 0...12).map { $0.map { $0! }.joined() }

    /// Any text is a whole-second instant the store can export, or a short one-line usage error;
    /// the same for `--now`. (FuzzTests tries many more inputs within a time bound.)
    @Test func anyTextIsReadOrRefusedInOneLine() async {
        await SeededProperty.check(count: 1500, seed: 0xDA7E_0002, input: zip(Self.texts, Self.nows, Self.zones)) { text, now, zone in
            let problem = FuzzOracle.whenProblem(text, now: Instant(now), zone: zone)
            #expect(problem == nil, "\(text.debugDescription): \(problem ?? "")")
        }
    }

    // MARK: Documented bounds

    enum Form: CaseIterable, Sendable {
        case minutes, hours, days, weeks, time, today, tomorrow, tonight, weekday, isoDay
    }

    /// Each form lands where README's WHEN paragraph says, seen through the zone's offsets.
    @Test func resultsKeepTheirDocumentedBounds() async {
        let input = zip(Gen<Form>.case, Self.nows, Self.zones, Gen.int(in: 0...999_999), Gen.int(in: 0...1439))
        await SeededProperty.check(count: 1500, seed: 0xDA7E_0003, input: input) { form, now, zone, count, minuteOfDay in
            let parser = WhenParser(now: now, calendar: LocalCalendar(timeZone: zone))
            let n = now.timeIntervalSince1970.rounded(.down)
            let today = Wall(Date(timeIntervalSince1970: n), zone)
            let hhmm = String(format: "%02d:%02d", minuteOfDay / 60, minuteOfDay % 60)
            let weekdays = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"]
            switch form {
            case .minutes, .hours:
                let unit = form == .minutes ? 60.0 : 3600.0
                let result = try parser.parseDate("in \(count)\(form == .minutes ? "m" : "h")", for: .due)
                #expect(result.timeIntervalSince1970 == n + Double(count) * unit)
            case .days, .weeks:
                let days = count % 3000 * (form == .weeks ? 7 : 1)
                let text = form == .weeks ? "+\(count % 3000)w" : "in \(days)d"
                let result = Wall(try parser.parseDate(text, for: .due), zone)
                // The calendar date moves by exactly that many days; the wall clock stays, unless
                // it does not exist that day (then it moves forward by the gap, at most an hour).
                #expect(result.dayNumber == today.dayNumber + Int64(days), "\(text)")
                #expect((0...3600).contains(result.secondOfDay - today.secondOfDay), "\(text)")
            case .time:
                let result = try parser.parseDate(hhmm, for: .due).timeIntervalSince1970
                #expect(result > n && result <= n + 25 * 3600, "\(hhmm)")
                let wall = Wall(Date(timeIntervalSince1970: result), zone)
                #expect(wall.minuteOfDay == minuteOfDay || Self.isInAGap(wall, minuteOfDay: minuteOfDay, zone), "\(hhmm)")
            case .today, .tomorrow, .tonight:
                let text = form == .today ? "today" : form == .tomorrow ? "tomorrow" : "tonight"
                let result = Wall(try parser.parseDate(text, for: .due), zone)
                #expect(result.dayNumber == today.dayNumber + (form == .tomorrow ? 1 : 0))
                // Tonight is 20:00 until then, and the rest of the evening after.
                let tonight = today.minuteOfDay < 20 * 60 ? 20 * 60 : 23 * 60 + 59
                #expect(result.minuteOfDay == (form == .tonight ? tonight : 23 * 60 + 59))
                let reminder = Wall(try parser.parseDate(text, for: .reminder), zone)
                #expect(reminder.minuteOfDay == (form == .tonight ? tonight : 9 * 60))
            case .weekday:
                let weekday = count % 7
                let result = Wall(try parser.parseDate(weekdays[weekday] + " " + hhmm, for: .due), zone)
                // The next such day strictly after today: 1 to 7 days ahead.
                #expect((1...7).contains(result.dayNumber - today.dayNumber), "\(weekdays[weekday])")
                #expect(result.weekday == weekday)
            case .isoDay:
                let day = Wall(Date(timeIntervalSince1970: n + Double(count % 20_000 - 10_000) * 86_400), zone)
                let result = Wall(try parser.parseDate(day.isoDay, for: .due), zone)
                #expect(result.isoDay == day.isoDay && result.minuteOfDay == 23 * 60 + 59, "\(day.isoDay)")
            }
        }
    }

    /// Whether `minuteOfDay` (asked for) is skipped on the day of `wall` by a DST change, which
    /// moves it forward: the zone's offset grew within the day.
    static func isInAGap(_ wall: Wall, minuteOfDay: Int, _ zone: TimeZone) -> Bool {
        let startOffset = zone.secondsFromGMT(for: wall.date.addingTimeInterval(-86_400))
        return zone.secondsFromGMT(for: wall.date) > startOffset && wall.minuteOfDay > minuteOfDay
    }

    // MARK: Monotonic

    /// A larger amount is later (strictly for minutes and hours, by whole days for days and weeks),
    /// and a later now never gives an earlier result for the same text.
    @Test func relativeDatesAreMonotonic() async {
        let units = Gen<String?>.element(of: ["m", "h", "d", "w", " minutes", " hours", " days", " weeks"]).map { $0! }
        let input = zip(Self.nows, Gen.int(in: 0...86_400 * 3), Self.zones, units, Gen.int(in: 0...9999), Gen.int(in: 0...9999))
        await SeededProperty.check(count: 1000, seed: 0xDA7E_0004, input: input) { now, later, zone, unit, a, b in
            let early = WhenParser(now: now, calendar: LocalCalendar(timeZone: zone))
            let (small, large) = (min(a, b), max(a, b))
            let first = try early.parseDate("in \(small)\(unit)", for: .due)
            let second = try early.parseDate("in \(large)\(unit)", for: .due)
            #expect(small == large ? first == second : first < second, "in \(small)\(unit) / in \(large)\(unit)")
            let late = WhenParser(now: now.addingTimeInterval(Double(later)), calendar: LocalCalendar(timeZone: zone))
            for text in ["in \(small)\(unit)", "+\(large)\(unit)", "17:00", "5:30am", "tomorrow", "fri 9am", "tonight"] {
                #expect(try late.parseDate(text, for: .due) >= early.parseDate(text, for: .due), "\(text)")
            }
        }
    }

    // MARK: Daylight-saving days

    static let dstZones = ["Europe/Berlin", "America/New_York", "America/Santiago", "Australia/Lord_Howe", "Pacific/Chatham"]

    /// Every transition of 2025 through 2028 in zones with DST at 02:00, at midnight (Santiago), by
    /// half an hour (Lord Howe) and at 02:45 (Chatham): every quarter hour of the day is read as
    /// the documented instant, and `in 1d` from the day before keeps the wall clock.
    @Test(arguments: dstZones)
    func everyQuarterHourOfDSTDaysLandsAsDocumented(zoneName: String) throws {
        let zone = Fixed.zone(zoneName)
        var transitions: [Date] = []
        var cursor = Fixed.date("2025-01-01T00:00:00Z")
        while let next = zone.nextDaylightSavingTimeTransition(after: cursor), next < Fixed.date("2029-01-01T00:00:00Z") {
            transitions.append(next)
            cursor = next
        }
        #expect(transitions.count >= 7, "\(zoneName) has \(transitions.count) transitions")
        for transition in transitions {
            let before = zone.secondsFromGMT(for: transition.addingTimeInterval(-1))
            let after = zone.secondsFromGMT(for: transition)
            // The local day of the transition (for a change at midnight that falls back, the day
            // whose last hour repeats).
            let day = Wall(transition, zone)
            let parser = WhenParser(now: Date(timeIntervalSince1970: Double((day.dayNumber - 3) * 86_400)), calendar: LocalCalendar(timeZone: zone))
            for minuteOfDay in stride(from: 0, to: 1440, by: 15) {
                let local = day.dayNumber * 86_400 + Int64(minuteOfDay * 60)
                // Read with each offset of the day; a time that exists with several takes the first
                // instant, a skipped time is read with the offset before the change (so it moves
                // forward by the length of the gap).
                let candidates = [before, after].map { local - Int64($0) }.filter { zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double($0))) == Int(local - $0) }
                let expected = candidates.min() ?? local - Int64(before)
                let text = day.isoDay + String(format: " %02d:%02d", minuteOfDay / 60, minuteOfDay % 60)
                #expect(try parser.parseDate(text, for: .due).timeIntervalSince1970 == Double(expected), "\(zoneName) \(text)")
                // The same wall clock the day before, moved by a calendar day.
                let yesterday = try parser.parseDate(Wall.isoDay(day.dayNumber - 1) + text.dropFirst(10), for: .due)
                let moved = WhenParser(now: yesterday, calendar: LocalCalendar(timeZone: zone))
                #expect(try moved.parseDate("in 1d", for: .due).timeIntervalSince1970 == Double(expected), "\(zoneName) \(text) in 1d")
            }
        }
    }
}

/// An instant seen on a zone's wall clock, computed from the zone's offset and a UTC calendar only.
struct Wall {
    let date: Date
    /// Days since 1970-01-01 of the local date.
    let dayNumber: Int64
    let secondOfDay: Int
    let isoDay: String
    /// 0 is Sunday.
    let weekday: Int

    var minuteOfDay: Int { secondOfDay / 60 }

    init(_ date: Date, _ zone: TimeZone) {
        self.date = date
        let local = Int64(date.timeIntervalSince1970.rounded(.down)) + Int64(zone.secondsFromGMT(for: date))
        dayNumber = local.dividedRoundingDown(by: 86_400)
        secondOfDay = Int(local - dayNumber * 86_400)
        isoDay = Self.isoDay(dayNumber)
        // 1970-01-01 was a Thursday.
        weekday = Int(dayNumber + 4 - (dayNumber + 4).dividedRoundingDown(by: 7) * 7)
    }

    /// `YYYY-MM-DD` of a day number, by a UTC calendar.
    static func isoDay(_ dayNumber: Int64) -> String {
        var utc = Calendar(identifier: .gregorian)
        utc.timeZone = TimeZone(identifier: "UTC")!
        let parts = utc.dateComponents([.year, .month, .day], from: Date(timeIntervalSince1970: Double(dayNumber * 86_400)))
        return String(format: "%04d-%02d-%02d", parts.year!, parts.month!, parts.day!)
    }
}

extension Int64 {
    func dividedRoundingDown(by divisor: Int64) -> Int64 {
        let (quotient, remainder) = quotientAndRemainder(dividingBy: divisor)
        return remainder < 0 ? quotient - 1 : quotient
    }
}

// The properties compute their expectations with Foundation's dates: these read the parser's
// instants as dates.
extension WhenParser {
    fileprivate init(now: Date, calendar: LocalCalendar) {
        self.init(now: Instant(now), calendar: calendar)
    }

    fileprivate func parseDate(_ text: String, for purpose: Purpose) throws -> Date {
        try parse(text, for: purpose).date
    }
}

extension WhenParser {
    fileprivate static func parseInstantDate(_ text: String, calendar: LocalCalendar) throws -> Date {
        try parseInstant(text, calendar: calendar).date
    }
}
