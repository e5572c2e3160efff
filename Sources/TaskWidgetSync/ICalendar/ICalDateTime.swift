public import Foundation

/// A DATE or DATE-TIME value (RFC 5545 §3.3.4, §3.3.5) with the form it was written in:
/// `20261127` (a day), `20261127T170000Z` (UTC), `20261127T170000` (floating, the reader's local
/// time) or `TZID=Europe/Berlin:20261127T170000` (local time in a named zone).
///
/// ```swift
/// let due = ICalDateTime(value: "20261127T170000", tzid: "Europe/Berlin")!
/// let zones = ICalTimeZones(floating: TimeZone(identifier: "America/New_York")!)
/// due.instant(in: zones)  // 2026-11-27 16:00:00 UTC
/// ```
public struct ICalDateTime: Sendable, Hashable, CustomStringConvertible {
    /// How the value names its instant.
    public enum Form: Sendable, Hashable {
        /// A calendar day without a time (`VALUE=DATE`).
        case date
        /// A UTC time (`...Z`).
        case utc
        /// A local time without a zone: the reader's time zone.
        case floating
        /// A local time in the zone named by `TZID`, as written.
        case zoned(tzid: String)
    }

    /// How the value names its instant.
    public var form: Form
    /// The Gregorian year, 1...9999.
    public var year: Int
    /// 1...12.
    public var month: Int
    /// 1...31, a real day of the month.
    public var day: Int
    /// 0...23; 0 for a DATE.
    public var hour: Int
    /// 0...59; 0 for a DATE.
    public var minute: Int
    /// 0...59 (a leap second reads as 59); 0 for a DATE.
    public var second: Int

    /// A value from its parts; `nil` when they are not a real Gregorian date and time.
    public init?(form: Form, year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0) {
        guard (1...9999).contains(year), (1...12).contains(month),
            (1...Self.daysInMonth(year: year, month: month)).contains(day),
            (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second)
        else { return nil }
        self.form = form
        self.year = year
        self.month = month
        self.day = day
        self.hour = form == .date ? 0 : hour
        self.minute = form == .date ? 0 : minute
        // A leap second names the last second of its minute for Foundation's purposes.
        self.second = form == .date ? 0 : min(second, 59)
    }

    /// Reads `YYYYMMDD`, `YYYYMMDDTHHMMSS` or `YYYYMMDDTHHMMSSZ`. The shape of the value decides
    /// DATE or DATE-TIME (a `VALUE` parameter that contradicts it is ignored); a `Z` wins over
    /// `tzid` (RFC 5545 forbids TZID on UTC times).
    public init?(value: String, tzid: String? = nil) {
        let bytes = Array(value.utf8.drop { $0 == 0x20 }.reversed().drop { $0 == 0x20 }.reversed())
        func number(_ range: Range<Int>) -> Int? {
            var result = 0
            for index in range {
                let digit = Int(bytes[index]) - 48
                guard (0...9).contains(digit) else { return nil }
                result = result * 10 + digit
            }
            return result
        }
        guard bytes.count >= 8, let year = number(0..<4), let month = number(4..<6), let day = number(6..<8)
        else { return nil }
        if bytes.count == 8 {
            self.init(form: .date, year: year, month: month, day: day)
            return
        }
        guard bytes.count == 15 || (bytes.count == 16 && (bytes[15] | 0x20) == UInt8(ascii: "z")),
            bytes[8] | 0x20 == UInt8(ascii: "t"),
            let hour = number(9..<11), let minute = number(11..<13), let second = number(13..<15)
        else { return nil }
        let form: Form =
            if bytes.count == 16 {
                .utc
            } else if let tzid, !tzid.isEmpty {
                .zoned(tzid: tzid)
            } else {
                .floating
            }
        self.init(form: form, year: year, month: month, day: day, hour: hour, minute: minute, second: second)
    }

    /// Reads a property's value with its `TZID` parameter, e.g. `DUE;TZID=Europe/Berlin:...`.
    public init?(property: ICalProperty) {
        self.init(value: property.value, tzid: property.parameterValue("TZID"))
    }

    /// `instant` as a UTC DATE-TIME, to the second (fractions are dropped); instants outside the
    /// years 1–9999 are clamped to them.
    public static func utc(_ instant: Date) -> ICalDateTime {
        let interval = instant.timeIntervalSince1970
        let first = -62_135_596_800.0  // 0001-01-01T00:00:00Z
        let last = 253_402_300_799.0  // 9999-12-31T23:59:59Z
        let seconds = Int(interval.isNaN ? 0 : min(max(interval, first), last).rounded(.down))
        let (days, secondOfDay) = seconds.quotientAndRemainder(dividingBy: 86_400)
        let (dayNumber, second) = secondOfDay < 0 ? (days - 1, secondOfDay + 86_400) : (days, secondOfDay)
        let (year, month, day) = civil(fromDays: dayNumber)
        return ICalDateTime(
            form: .utc, year: year, month: month, day: day,
            hour: second / 3600, minute: second / 60 % 60, second: second % 60)!
    }

    /// The calendar day that contains `instant` in `timeZone`, as a DATE.
    public static func date(containing instant: Date, in timeZone: TimeZone) -> ICalDateTime? {
        let parts = Calendar.iCalGregorian(in: timeZone).dateComponents([.year, .month, .day], from: instant)
        guard let year = parts.year, let month = parts.month, let day = parts.day else { return nil }
        return ICalDateTime(form: .date, year: year, month: month, day: day)
    }

    /// `instant` in the form of `other`: its day for a DATE, else its time in UTC, in the floating
    /// zone, or in `other`'s TZID (so that a series moved to it keeps its zone's wall-clock time);
    /// `nil` when that zone is unknown.
    public static func moment(_ instant: Date, inFormOf other: ICalDateTime, zones: ICalTimeZones) -> ICalDateTime? {
        guard let timeZone = other.wallClockZone(in: zones) else { return nil }
        switch other.form {
        case .date: return date(containing: instant, in: timeZone)
        case .utc: return utc(instant)
        case .floating, .zoned: break
        }
        let parts = Calendar.iCalGregorian(in: timeZone).dateComponents([.year, .month, .day, .hour, .minute, .second], from: instant)
        guard let year = parts.year, let month = parts.month, let day = parts.day else { return nil }
        return ICalDateTime(
            form: other.form, year: year, month: month, day: day, hour: parts.hour ?? 0, minute: parts.minute ?? 0, second: parts.second ?? 0)
    }

    /// The zone whose wall clock this value is read on: the floating zone for a DATE or a
    /// floating time, UTC, or its TZID's zone (`nil` when unknown).
    public func wallClockZone(in zones: ICalTimeZones) -> TimeZone? {
        switch form {
        case .date, .floating: zones.floating
        case .utc: TimeZone(identifier: "UTC")
        case .zoned(let tzid): zones.timeZone(forTZID: tzid)
        }
    }

    /// Whether this is a DATE (a day without a time).
    public var isDate: Bool { form == .date }

    /// The value as written after the `:`: `20261127`, `20261127T170000Z` or `20261127T170000`.
    public var valueText: String {
        let day = pad(year, 4) + pad(month, 2) + pad(self.day, 2)
        switch form {
        case .date: return day
        case .utc: return day + "T" + pad(hour, 2) + pad(minute, 2) + pad(second, 2) + "Z"
        case .floating, .zoned: return day + "T" + pad(hour, 2) + pad(minute, 2) + pad(second, 2)
        }
    }

    public var description: String {
        switch form {
        case .date: "VALUE=DATE:\(valueText)"
        case .zoned(let tzid): "TZID=\(tzid):\(valueText)"
        case .utc, .floating: valueText
        }
    }

    /// The parameters a property needs for this form: `VALUE=DATE`, `TZID=...` or none.
    public var parameters: [ICalParameter] {
        switch form {
        case .date: [ICalParameter("VALUE", "DATE")]
        case .zoned(let tzid): [ICalParameter("TZID", tzid)]
        case .utc, .floating: []
        }
    }

    /// The instant this value names. A DATE is taken at its midnight in the
    /// floating zone, a floating time in the floating zone, a TZID through `zones` (an unknown TZID
    /// falls back to floating, see ``ICalTimeZones``). A local time that does not exist (skipped
    /// by a DST change) moves forward by the gap, as RFC 5545 §3.3.5 asks.
    public func instant(in zones: ICalTimeZones) -> Date? {
        let timeZone: TimeZone
        // A DATE's time is midnight: both ways of making one (reading `VALUE=DATE`, and
        // ``date(containing:in:)``) leave hour, minute and second at 0.
        let parts = DateComponents(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        switch form {
        case .utc:
            let days = Self.days(fromCivil: year, month, day)
            return Date(timeIntervalSince1970: TimeInterval(days * 86_400 + hour * 3600 + minute * 60 + second))
        case .date, .floating:
            timeZone = zones.floating
        case .zoned(let tzid):
            timeZone = zones.timeZone(forTZID: tzid) ?? zones.floating
        }
        return Calendar.iCalGregorian(in: timeZone).date(from: parts)
    }

    // MARK: Gregorian arithmetic (H. Hinnant's days_from_civil), exact and allocation-free for UTC.

    static func days(fromCivil year: Int, _ month: Int, _ day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    static func civil(fromDays days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    private func pad(_ number: Int, _ width: Int) -> String {
        let digits = String(number)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}

/// A DURATION value (RFC 5545 §3.3.6) such as `-PT15M`, `P1D` or `-P1DT2H`, as used by relative
/// alarm triggers.
///
/// ```swift
/// ICalDuration("-PT15M")?.seconds  // -900
/// ```
public struct ICalDuration: Sendable, Hashable, CustomStringConvertible {
    /// Whether the duration points back in time.
    public var isNegative: Bool
    /// Nominal days (weeks count 7): a day across a DST change is 23 or 25 hours.
    public var days: Int
    /// Exact seconds (hours, minutes and seconds).
    public var seconds: Int

    /// A duration from its parts: `ICalDuration(isNegative: true, seconds: 900)` is `-PT15M`.
    public init(isNegative: Bool = false, days: Int = 0, seconds: Int = 0) {
        self.isNegative = isNegative
        self.days = days
        self.seconds = seconds
    }

    /// Reads `[+|-]P[nW][nD][T[nH][nM][nS]]`; `nil` when the text is not a duration. Weeks may be
    /// combined with days (RFC 5545 does not allow it, some producers write it).
    public init?(_ text: String) {
        var bytes = Array(text.utf8.drop { $0 == 0x20 })
        while bytes.last == 0x20 { bytes.removeLast() }
        var index = 0
        var negative = false
        if index < bytes.count, bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") {
            negative = bytes[index] == UInt8(ascii: "-")
            index += 1
        }
        guard index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "p") else { return nil }
        index += 1
        var days = 0
        var seconds = 0
        var inTime = false
        var sawElement = false
        var sawTimeElement = false
        while index < bytes.count {
            if bytes[index] | 0x20 == UInt8(ascii: "t"), !inTime {
                inTime = true
                index += 1
                continue
            }
            var number = 0
            var digits = 0
            while index < bytes.count, (48...57).contains(bytes[index]) {
                guard digits < 9 else { return nil }  // keeps the arithmetic far from overflow
                number = number * 10 + Int(bytes[index]) - 48
                digits += 1
                index += 1
            }
            guard digits > 0, index < bytes.count else { return nil }
            switch (bytes[index] | 0x20, inTime) {
            case (UInt8(ascii: "w"), false): days += number * 7
            case (UInt8(ascii: "d"), false): days += number
            case (UInt8(ascii: "h"), true): seconds += number * 3600
            case (UInt8(ascii: "m"), true): seconds += number * 60
            case (UInt8(ascii: "s"), true): seconds += number
            default: return nil
            }
            sawElement = true
            sawTimeElement = sawTimeElement || inTime
            index += 1
        }
        guard sawElement, !inTime || sawTimeElement else { return nil }
        self.init(isNegative: negative, days: days, seconds: seconds)
    }

    /// The signed number of seconds, counting a day as 86 400 seconds.
    public var totalSeconds: Int { (isNegative ? -1 : 1) * (days * 86_400 + seconds) }

    /// `date` moved by this duration: days on the wall clock of `timeZone` (a time the clocks
    /// repeat is the first, one they skip moves forward by the gap, as a DATE-TIME reads), then
    /// exact seconds.
    public func added(to date: Date, in timeZone: TimeZone) -> Date {
        let sign = isNegative ? -1 : 1
        var moved = date
        if days != 0 {
            // Calendar's date(byAdding:) took the second of two repeated times.
            let calendar = Calendar.iCalGregorian(in: timeZone)
            var parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second, .nanosecond], from: date)
            parts.day = (parts.day ?? 1) + sign * days
            moved = calendar.date(from: parts) ?? date
        }
        return moved.addingTimeInterval(TimeInterval(sign * seconds))
    }

    /// The canonical text, e.g. `-P1DT2H30M` or `PT0S`.
    public var description: String {
        var text = isNegative ? "-P" : "P"
        if days > 0 { text += "\(days)D" }
        if seconds > 0 || days == 0 {
            text += "T"
            let (hours, rest) = seconds.quotientAndRemainder(dividingBy: 3600)
            let (minutes, secs) = rest.quotientAndRemainder(dividingBy: 60)
            if hours > 0 { text += "\(hours)H" }
            if minutes > 0 { text += "\(minutes)M" }
            if secs > 0 || seconds == 0 { text += "\(secs)S" }
        }
        return text
    }
}

extension Calendar {
    /// The Gregorian calendar in `timeZone` (the repository's `Calendar.gregorian(in:)`, which
    /// this module will use once it moves there).
    static func iCalGregorian(in timeZone: TimeZone) -> Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        return calendar
    }
}
