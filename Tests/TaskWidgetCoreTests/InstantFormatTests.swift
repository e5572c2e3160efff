import Foundation
import PropertyBased
import Testing

@testable import TaskWidgetCore
@testable import TaskWidgetTestSupport

/// Instants as ISO 8601 text: what `export` writes and `import` and `--now` read.
@Suite struct InstantFormatTests {
    static let t0 = Fixed.instant("2026-11-23T09:00:00Z")


    @Test(arguments: [
        (0, "1970-01-01T00:00:00Z"),
        (-1, "1969-12-31T23:59:59.999Z"),
        (-86_400_000, "1969-12-31T00:00:00Z"),
        (951_782_400_000, "2000-02-29T00:00:00Z"),
        (1_795_420_800_250, "2026-11-23T08:00:00.250Z"),
        (1_795_420_800_007, "2026-11-23T08:00:00.007Z"),
        (1_795_420_800_100, "2026-11-23T08:00:00.100Z"),
        (-2_208_988_800_000, "1900-01-01T00:00:00Z"),
        (253_402_300_799_999, "9999-12-31T23:59:59.999Z"),
    ])
    func utcWritesMillisecondsOnlyWhenThereAreSome(milliseconds: Int, text: String) throws {
        let date = Instant(millisecondsSince1970: Int64(milliseconds))
        #expect(InstantFormat.utc(date) == text)
        #expect(InstantFormat.parse(text) == date)
    }

    @Test(arguments: [
        (0.9996, "1970-01-01T00:00:01Z"),
        (-0.0004, "1970-01-01T00:00:00Z"),
        (59.9999, "1970-01-01T00:01:00Z"),
        (1_795_420_800.123_4, "2026-11-23T08:00:00.123Z"),
    ])
    func utcRoundsToTheNearestMillisecond(seconds: Double, text: String) throws {
        #expect(InstantFormat.utc(Instant(Date(timeIntervalSince1970: seconds))) == text)
    }

    @Test(arguments: [
        ("2026-11-23T09:00:00+01:00", 1_795_420_800_000),
        ("2026-11-23T02:00:00-06:00", 1_795_420_800_000),
        ("2026-11-23T08:00:00.250Z", 1_795_420_800_250),
        ("2026-11-23T13:45:00.999+05:45", 1_795_420_800_999),
    ])
    func parseReadsAnyOffset(text: String, milliseconds: Int) throws {
        #expect(InstantFormat.parse(text) == Instant(millisecondsSince1970: Int64(milliseconds)))
    }

    @Test(arguments: ["", "now", "2026-11-23", "2026-11-23T08:00:00", "2026-13-23T08:00:00Z", "2026-11-23T08:00:00+25:00"])
    func parseRefusesWhatIsNotAnInstantWithAnOffset(text: String) throws {
        #expect(InstantFormat.parse(text) == nil)
    }

    /// Regression: `parse` read instants that round or shift out of the four-digit years, which
    /// `utc` then wrote as `10000-01-01T00:00:00Z` or `-0001-12-31T23:00:00Z`: an export that its
    /// own import refused. The edges of the range still read.
    @Test func parseRefusesInstantsOutsideTheFourDigitYears() throws {
        for text in [
            "9999-12-31T23:59:59.9995Z", "9999-12-31T23:59:59-00:01", "9999-12-31T23:59:00-23:59",
            "0000-01-01T00:00:00+00:01", "0000-01-01T00:00:00.000+23:59",
        ] {
            #expect(InstantFormat.parse(text) == nil, "\(text)")
        }
        for text in ["9999-12-31T23:59:59.999Z", "9999-12-31T23:59:59.9994Z", "0000-01-01T00:00:00Z", "0000-01-01T00:00:00-00:01"] {
            let date = try #require(InstantFormat.parse(text), "\(text)")
            #expect(InstantFormat.parse(InstantFormat.utc(date)) == date, "\(text)")
            #expect(InstantFormat.writableRange.contains(date))
        }
    }

    /// The first and last instants the store keeps have no four-digit year in far zones: they
    /// are written in UTC there. `-0001-12-31T19:03:58-04:56` (a year-0000 due date in New York)
    /// made `render` fail and the timeline JSON break its schema (helper-79).
    @Test(arguments: [
        ("0000-01-01T00:00:00Z", "America/New_York", "0000-01-01T00:00:00Z"),
        ("0000-01-01T10:00:00Z", "Etc/GMT+5", "0000-01-01T05:00:00-05:00"),
        ("9999-12-31T23:59:00Z", "Pacific/Kiritimati", "9999-12-31T23:59:00Z"),
        ("9999-12-31T09:59:00.500Z", "Pacific/Kiritimati", "9999-12-31T23:59:00.500+14:00"),
    ])
    func localTimesOutsideTheFourDigitYearsAreWrittenInUTC(instant: String, zone: String, expected: String) throws {
        let parsed = try #require(InstantFormat.parse(instant))
        let written = InstantFormat.local(parsed, in: try #require(TimeZone(identifier: zone)))
        #expect(written == expected)
        #expect(InstantFormat.parse(written) == parsed)
    }

    @Test func anExportWithAnInstantPastTheYear9999IsRefusedWhole() throws {
        var document = StoreExport(tasks: [TaskItem(title: "far", createdAt: Self.t0)])
        let text = String(decoding: try document.jsonData(), as: UTF8.self)
            .replacingOccurrences(of: InstantFormat.utc(Self.t0), with: "9999-12-31T23:59:59.9999Z")
        let error = expectError(.badImport) { try StoreExport.decode(Data(text.utf8), source: "far.json") }
        #expect(error?.message.contains("tasks[0].createdAt") == true, "\(error?.message ?? "")")
        document.tasks[0].createdAt = Instant(secondsSince1970: 253_402_300_800)
        #expect(!InstantFormat.writableRange.contains(document.tasks[0].createdAt))
    }

    /// Years 0001…9999 in milliseconds since 1970, before and after it.
    static let milliseconds = Gen.int(in: -62_135_596_800_000...253_402_300_799_999)
    /// Years 1583…9999: after the Gregorian reform, where every calendar agrees.
    static let gregorianMilliseconds = Gen.int(in: -12_212_553_600_000...253_402_300_799_999)

    @Test func parseReadsBackWhatUTCWrites() async {
        await propertyCheck(count: 1000, input: Self.milliseconds) { milliseconds in
            let date = Instant(millisecondsSince1970: Int64(milliseconds))
            #expect(InstantFormat.parse(InstantFormat.utc(date)) == date)
        }
    }

    @Test func utcMatchesAnIndependentCalendarComputation() async {
        await propertyCheck(count: 1000, input: Self.gregorianMilliseconds) { milliseconds in
            let date = Instant(millisecondsSince1970: Int64(milliseconds))
            #expect(InstantFormat.utc(date) == Self.referenceUTC(milliseconds: milliseconds))
        }
    }

    /// ISO 8601 and RFC 3339 count days in the proleptic Gregorian calendar, also before the
    /// reform of 15 October 1582, so that other programs read the export's instants the same way.
    @Test(arguments: [
        (-12_219_292_800_000, "1582-10-15T00:00:00Z"),
        (-12_219_292_800_001, "1582-10-14T23:59:59.999Z"),
        (-30_610_224_000_000, "1000-01-01T00:00:00Z"),
        (-62_135_596_800_000, "0001-01-01T00:00:00Z"),
    ])
    func utcUsesTheProlepticGregorianCalendarBefore1582(milliseconds: Int, text: String) throws {
        #expect(Self.referenceUTC(milliseconds: milliseconds) == text)
        #expect(InstantFormat.utc(Instant(millisecondsSince1970: Int64(milliseconds))) == text)
    }

    /// The proleptic Gregorian date of Unix milliseconds (Howard Hinnant's `civil_from_days`).
    static func referenceUTC(milliseconds: Int) -> String {
        func floorDivide(_ a: Int, _ b: Int) -> (Int, Int) {
            let (q, r) = a.quotientAndRemainder(dividingBy: b)
            return r < 0 ? (q - 1, r + b) : (q, r)
        }
        func pad(_ value: Int, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        let (seconds, millisecond) = floorDivide(milliseconds, 1000)
        let (days, secondOfDay) = floorDivide(seconds, 86_400)
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        var text = "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T"
            + "\(pad(secondOfDay / 3600, 2)):\(pad(secondOfDay / 60 % 60, 2)):\(pad(secondOfDay % 60, 2))"
        if millisecond != 0 { text += "." + pad(millisecond, 3) }
        return text + "Z"
    }
}
