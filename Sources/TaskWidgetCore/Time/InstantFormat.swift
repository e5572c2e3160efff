public import Foundation

/// ISO 8601 and the proleptic Gregorian calendar arithmetic behind it: the one place that reads and
/// writes dates as text. Instants are written in UTC with milliseconds when there are any
/// (`2026-11-23T08:00:00Z`, `2026-11-23T08:00:00.250Z`) or with a zone's offset
/// (`2026-11-22T16:27:00+01:00`); parsing the output gives the same instant. The arithmetic is done
/// here rather than through `Calendar`, which switches to the Julian calendar before 1582.
public enum InstantFormat {
    /// The instants written with a four-digit year, 0000-01-01T00:00:00Z through
    /// 9999-12-31T23:59:59.999Z: what ``utc(_:)`` writes and ``parse(_:)`` reads back. The store
    /// keeps only these, so that every export imports again.
    public static let writableRange = Instant(millisecondsSince1970: -62_167_219_200_000)
        ... Instant(millisecondsSince1970: 253_402_300_799_999)

    /// ``writableRange`` in whole seconds: the local times ``local(_:in:)`` writes with an offset.
    private static let writableSeconds = floorDivision(writableRange.lowerBound.millisecondsSince1970, 1000).quotient
        ... floorDivision(writableRange.upperBound.millisecondsSince1970, 1000).quotient

    /// `2026-11-23T08:00:00Z`, with `.250` before the `Z` when the instant has milliseconds.
    public static func utc(_ instant: Instant) -> String {
        let (seconds, fraction) = floorDivision(instant.millisecondsSince1970, 1000)
        return dateTime(seconds: seconds) + (fraction == 0 ? "" : "." + pad(Int(fraction), 3)) + "Z"
    }

    /// RFC 3339 with the zone's offset at that instant, and milliseconds when there are any:
    /// `2026-11-22T16:27:00+01:00`, `2026-11-22T17:07:00.500+01:00`. An instant whose local time
    /// has no four-digit year (0000-01-01T00:00Z in New York, 9999-12-31T23:59Z in Kiritimati) is
    /// written in UTC, as ``utc(_:)`` writes it: RFC 3339 has no other years.
    public static func local(_ instant: Instant, in timeZone: TimeZone) -> String {
        let (seconds, fraction) = floorDivision(instant.millisecondsSince1970, 1000)
        let offset = timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(seconds)))
        guard writableSeconds.contains(seconds + Int64(offset)) else { return utc(instant) }
        let minutes = abs(offset) / 60
        return dateTime(seconds: seconds + Int64(offset)) + (fraction == 0 ? "" : "." + pad(Int(fraction), 3))
            + (offset < 0 ? "-" : "+") + clock(hour: minutes / 60, minute: minutes % 60)
    }

    /// Parses `YYYY-MM-DDTHH:MM[:SS[.fraction]]` followed by `Z`, `±HH:MM` or `±HHMM`: what
    /// ``utc(_:)`` and ``local(_:in:)`` write, and any ISO 8601 instant with an explicit offset.
    /// Rounded to milliseconds; `nil` outside ``writableRange`` (`9999-12-31T23:59:59.9999Z`
    /// rounds into the year 10000, `0000-01-01T00:00:00+01:00` is in the year -1).
    public static func parse(_ text: String) -> Instant? {
        guard let timestamp = Scanner.read(text, with: { $0.timestamp(hourDigits: 2...2) }),
            let offset = timestamp.utcOffset
        else { return nil }
        let instant = timestamp.instant(offsetSeconds: offset)
        return writableRange.contains(instant) ? instant : nil
    }

    /// `2026-11-23T09:00:00` for whole Unix `seconds` (UTC, or local time once an offset is added).
    static func dateTime(seconds: Int64) -> String {
        let (days, secondOfDay) = floorDivision(seconds, 86_400)
        let (year, month, day) = civilDate(daysSinceEpoch: days)
        let time = Int(secondOfDay)
        return pad(Int(year), 4) + "-" + pad(month, 2) + "-" + pad(day, 2) + "T"
            + pad(time / 3600, 2) + ":" + pad(time / 60 % 60, 2) + ":" + pad(time % 60, 2)
    }

    /// Howard Hinnant's `civil_from_days`: the proleptic Gregorian date of a day count from 1970-01-01.
    static func civilDate(daysSinceEpoch days: Int64) -> (year: Int64, month: Int, day: Int) {
        let shifted = days + 719_468
        let era = floorDivision(shifted, 146_097).quotient
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = Int(dayOfYear - (153 * monthIndex + 2) / 5 + 1)
        let month = Int(monthIndex < 10 ? monthIndex + 3 : monthIndex - 9)
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// Howard Hinnant's `days_from_civil`, the inverse of ``civilDate(daysSinceEpoch:)``.
    static func daysSinceEpoch(year: Int64, month: Int, day: Int) -> Int64 {
        let year = month <= 2 ? year - 1 : year
        let era = floorDivision(year, 400).quotient
        let yearOfEra = year - era * 400
        let dayOfYear = Int64((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1)
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The number of days of `month` in the Gregorian `year`.
    static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// A time of day as a 24-hour clock shows it: `09:05`, `23:30`.
    static func clock(hour: Int, minute: Int) -> String {
        pad(hour, 2) + ":" + pad(minute, 2)
    }

    /// `value` in decimal, left-padded with zeros to `width` digits (the sign comes first).
    static func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(value.magnitude)
        return (value < 0 ? "-" : "") + String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    static func floorDivision(_ value: Int64, _ divisor: Int64) -> (quotient: Int64, remainder: Int64) {
        let (quotient, remainder) = value.quotientAndRemainder(dividingBy: divisor)
        return remainder < 0 ? (quotient - 1, remainder + divisor) : (quotient, remainder)
    }
}

// MARK: - Reading ISO 8601 pieces

extension InstantFormat {
    /// A calendar date as written: a valid Gregorian date (checked when scanned).
    struct CivilDate: Sendable, Equatable {
        var year: Int
        var month: Int
        var day: Int
    }

    /// A wall-clock time of day; `second` is nil when the text had none.
    struct WallTime: Sendable, Equatable {
        var hour: Int
        var minute: Int
        var second: Int?
    }

    /// A date and time with the fraction of a second (in milliseconds, rounded) and the offset from
    /// UTC in seconds when the text gave one.
    struct Timestamp: Sendable, Equatable {
        var date: CivilDate
        var time: WallTime
        var milliseconds: Int64 = 0
        var utcOffset: Int?

        /// The instant this timestamp names at `offsetSeconds` east of UTC.
        func instant(offsetSeconds: Int) -> Instant {
            let days = InstantFormat.daysSinceEpoch(year: Int64(date.year), month: date.month, day: date.day)
            let seconds = days * 86_400 + Int64(time.hour * 3600 + time.minute * 60 + (time.second ?? 0)) - Int64(offsetSeconds)
            return Instant(millisecondsSince1970: seconds * 1000 + milliseconds)
        }
    }

    /// Reads the pieces of ISO 8601 from the front of some text, as ASCII bytes; the letters `T` and
    /// `Z` in either case. A `scan` method returns nil when the text does not continue with its
    /// piece; the scanner may then have moved, so a failed scan ends the attempt (see ``read(_:with:)``).
    struct Scanner {
        private let bytes: [UInt8]
        private(set) var index = 0

        init(_ text: some StringProtocol) { bytes = Array(text.utf8) }

        /// Reads all of `text` with `scan`; nil when `scan` fails or leaves text unread.
        static func read<Value>(_ text: some StringProtocol, with scan: (inout Scanner) -> Value?) -> Value? {
            var scanner = Scanner(text)
            guard let value = scan(&scanner), scanner.isAtEnd else { return nil }
            return value
        }

        var isAtEnd: Bool { index == bytes.count }

        /// Skips `literal` (ASCII, matched case-insensitively) if the text continues with it.
        @discardableResult
        mutating func skip(_ literal: String) -> Bool {
            let expected = Array(literal.lowercased().utf8)
            guard index + expected.count <= bytes.count,
                zip(bytes[index..<index + expected.count], expected).allSatisfy({ Self.lowercased($0) == $1 })
            else { return false }
            index += expected.count
            return true
        }

        /// Between `lengths.lowerBound` and `lengths.upperBound` ASCII digits, as text.
        mutating func digits(_ lengths: ClosedRange<Int>) -> String? {
            var end = index
            while end < bytes.count, end - index < lengths.upperBound, Self.isDigit(bytes[end]) { end += 1 }
            guard end - index >= lengths.lowerBound else { return nil }
            defer { index = end }
            return String(decoding: bytes[index..<end], as: UTF8.self)
        }

        /// A number written with a count of digits within `lengths`, valid only within `range`.
        mutating func number(digits lengths: ClosedRange<Int>, in range: ClosedRange<Int>) -> Int? {
            guard let number = digits(lengths).flatMap({ Int($0) }), range.contains(number) else { return nil }
            return number
        }

        /// `2026-11-23`: a valid Gregorian date with a four-digit year.
        mutating func date() -> CivilDate? {
            guard let year = number(digits: 4...4, in: 0...9999), skip("-"),
                let month = number(digits: 2...2, in: 1...12), skip("-"),
                let day = number(digits: 2...2, in: 1...InstantFormat.daysInMonth(year: year, month: month))
            else { return nil }
            return CivilDate(year: year, month: month, day: day)
        }

        /// `17:00` or `17:00:30`, the hour written with a count of digits in `hourDigits`.
        mutating func time(hourDigits: ClosedRange<Int>) -> WallTime? {
            guard let hour = number(digits: hourDigits, in: 0...23), skip(":"), let minute = number(digits: 2...2, in: 0...59)
            else { return nil }
            guard skip(":") else { return WallTime(hour: hour, minute: minute) }
            return number(digits: 2...2, in: 0...59).map { WallTime(hour: hour, minute: minute, second: $0) }
        }

        /// `2026-11-23T17:00`, `2026-11-23 17:00:30.25Z`, `2026-11-23t17:00+01:00`: a date and a time
        /// with optional seconds, fraction (after seconds only, `.` or `,`) and offset.
        mutating func timestamp(hourDigits: ClosedRange<Int>) -> Timestamp? {
            guard let date = date(), skip("t") || skip(" "), let time = time(hourDigits: hourDigits) else { return nil }
            var timestamp = Timestamp(date: date, time: time)
            if time.second != nil, skip(".") || skip(",") {
                guard let digits = digits(1...Int.max), let fraction = Double("0." + digits) else { return nil }
                timestamp.milliseconds = Int64((fraction * 1000).rounded())
            }
            if !isAtEnd {
                guard let offset = utcOffset() else { return nil }
                timestamp.utcOffset = offset
            }
            return timestamp
        }

        /// `Z`, `±HH:MM` or `±HHMM`, in seconds east of UTC.
        mutating func utcOffset() -> Int? {
            if skip("z") { return 0 }
            let sign = skip("+") ? 1 : skip("-") ? -1 : 0
            guard sign != 0, let hours = number(digits: 2...2, in: 0...23) else { return nil }
            skip(":")
            guard let minutes = number(digits: 2...2, in: 0...59) else { return nil }
            return sign * (hours * 3600 + minutes * 60)
        }

        private static func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }

        private static func lowercased(_ byte: UInt8) -> UInt8 {
            (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte + 32 : byte
        }
    }
}
