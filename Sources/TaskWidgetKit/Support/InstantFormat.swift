public import Foundation

/// Instants as text: ISO 8601 in UTC with milliseconds when there are any
/// (`2026-11-23T08:00:00Z`, `2026-11-23T08:00:00.250Z`). Parsing the output gives the same instant.
/// The arithmetic is done here, in the proleptic Gregorian calendar that ISO 8601 uses, rather than
/// through `Calendar` (which switches to the Julian calendar before 1582, and is slower).
public enum InstantFormat {
    /// The instants written with a four-digit year, 0000-01-01T00:00:00Z through
    /// 9999-12-31T23:59:59.999Z, in whole milliseconds: what ``utc(_:)`` writes and ``parse(_:)``
    /// reads back. The store keeps only these, so that every export imports again.
    static let writableMilliseconds: ClosedRange<Int64> = -62_167_219_200_000...253_402_300_799_999

    /// Whether `date`, rounded to milliseconds as the store keeps it, is in the writable range.
    public static func isWritable(_ date: Date) -> Bool {
        let milliseconds = (date.timeIntervalSince1970 * 1000).rounded()
        return milliseconds >= Double(writableMilliseconds.lowerBound) && milliseconds <= Double(writableMilliseconds.upperBound)
    }

    public static func utc(_ date: Date) -> String {
        let milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded())
        let (seconds, fraction) = floorDivision(milliseconds, 1000)
        let text = dateTime(seconds: seconds)
        return text + (fraction == 0 ? "" : "." + pad(Int(fraction), 3)) + "Z"
    }

    /// RFC 3339 with the zone's offset at that instant: `2026-11-22T16:27:00+01:00`.
    public static func local(_ seconds: Int64, in timeZone: TimeZone) -> String {
        local(milliseconds: seconds * 1000, in: timeZone)
    }

    /// RFC 3339 with the zone's offset, and milliseconds when there are any:
    /// `2026-11-22T17:07:00.500+01:00`.
    public static func local(_ date: Date, in timeZone: TimeZone) -> String {
        local(milliseconds: StoredInstant.encode(date), in: timeZone)
    }

    private static func local(milliseconds: Int64, in timeZone: TimeZone) -> String {
        let (seconds, fraction) = floorDivision(milliseconds, 1000)
        let offset = timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(seconds)))
        let minutes = abs(offset) / 60
        return dateTime(seconds: seconds + Int64(offset)) + (fraction == 0 ? "" : "." + pad(Int(fraction), 3))
            + (offset < 0 ? "-" : "+") + pad(minutes / 60, 2) + ":" + pad(minutes % 60, 2)
    }

    /// Parses `YYYY-MM-DDTHH:MM[:SS[.fraction]]` followed by `Z`, `±HH:MM` or `±HHMM`: what
    /// ``utc(_:)`` writes and any ISO 8601 instant with an explicit offset. Rounded to milliseconds;
    /// `nil` outside the writable years (`9999-12-31T23:59:59.9999Z` rounds into the year 10000,
    /// `0000-01-01T00:00:00+01:00` is in the year -1).
    public static func parse(_ text: String) -> Date? {
        var scanner = Scanner(Array(text.utf8))
        guard let year = scanner.number(digits: 4), scanner.skip("-"), let month = scanner.number(digits: 2),
            scanner.skip("-"), let day = scanner.number(digits: 2), scanner.skip("T") || scanner.skip(" "),
            let hour = scanner.number(digits: 2), scanner.skip(":"), let minute = scanner.number(digits: 2),
            (1...12).contains(month), (1...daysInMonth(year: year, month: month)).contains(day), hour < 24, minute < 60
        else { return nil }
        var second = 0
        var milliseconds = 0.0
        if scanner.skip(":") {
            guard let value = scanner.number(digits: 2), value < 60 else { return nil }
            second = value
            if scanner.skip(".") {
                let digits = scanner.digits()
                guard !digits.isEmpty, let fraction = Double("0." + digits) else { return nil }
                milliseconds = (fraction * 1000).rounded()
            }
        }
        guard let offset = scanner.offset(), scanner.isAtEnd else { return nil }
        let days = daysSinceEpoch(year: Int64(year), month: month, day: day)
        let seconds = days * 86_400 + Int64(hour * 3600 + minute * 60 + second) - Int64(offset)
        let total = seconds * 1000 + Int64(milliseconds)
        guard writableMilliseconds.contains(total) else { return nil }
        return Date(timeIntervalSince1970: Double(total) / 1000)
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

    static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    static func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(value.magnitude)
        return (value < 0 ? "-" : "") + String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    static func floorDivision(_ value: Int64, _ divisor: Int64) -> (quotient: Int64, remainder: Int64) {
        let (quotient, remainder) = value.quotientAndRemainder(dividingBy: divisor)
        return remainder < 0 ? (quotient - 1, remainder + divisor) : (quotient, remainder)
    }

    /// Reads ASCII bytes left to right.
    private struct Scanner {
        let bytes: [UInt8]
        var index = 0

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        var isAtEnd: Bool { index == bytes.count }

        mutating func skip(_ character: Character) -> Bool {
            guard index < bytes.count, bytes[index] == character.asciiValue else { return false }
            index += 1
            return true
        }

        mutating func digits() -> String {
            let start = index
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
            return String(decoding: bytes[start..<index], as: UTF8.self)
        }

        /// Exactly `digits` decimal digits.
        mutating func number(digits count: Int) -> Int? {
            guard index + count <= bytes.count else { return nil }
            let slice = bytes[index..<index + count]
            guard slice.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else { return nil }
            index += count
            return slice.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
        }

        /// `Z`, `±HH:MM` or `±HHMM`, in seconds east of UTC.
        mutating func offset() -> Int? {
            if skip("Z") { return 0 }
            let sign = skip("+") ? 1 : skip("-") ? -1 : 0
            guard sign != 0, let hours = number(digits: 2) else { return nil }
            _ = skip(":")
            guard let minutes = number(digits: 2), hours < 24, minutes < 60 else { return nil }
            return sign * (hours * 3600 + minutes * 60)
        }
    }
}
