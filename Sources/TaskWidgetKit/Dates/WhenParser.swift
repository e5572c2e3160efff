public import Foundation

/// Parses the `WHEN` grammar of SPEC §4 relative to an injected `now` and time zone.
///
/// Accepted forms, case-insensitive, with any amount of space around and between words:
/// - ISO 8601: `2026-11-23`, `2026-11-23T17:00`, `2026-11-23 17:00:30`, `2026-11-23T17:00Z`,
///   `2026-11-23T17:00+01:00`. Without an offset the time is local in the time zone.
/// - Days: `today`, `tomorrow` and weekday names (`fri`, `friday`), which mean the next such day
///   strictly after today (on a Friday, `fri` is a week later).
/// - `tonight`: today at 20:00.
/// - Times: `17:00`, `9:05`, `5pm`, `5:30pm`, `12am` (midnight), `12pm` and `noon`. A time alone
///   means its next occurrence: today if it is still ahead of now, else tomorrow.
/// - A day followed by a time: `tomorrow 5pm`, `fri 09:30`, `2026-11-23 5pm`.
/// - Relative: `in 2h`, `+30m`, `in 90 min`, `in 3 days`, `+1w`, with the units `m`, `min`, `mins`,
///   `minute(s)`; `h`, `hr`, `hrs`, `hour(s)`; `d`, `day(s)`; `w`, `week(s)`, and counts of up to six
///   digits. Minutes and hours are exact durations; days and weeks move the calendar date and keep
///   the wall-clock time.
///
/// A day without a time means the end of that day, 23:59:00 local, for a ``Purpose/due`` date and
/// 09:00 local for a ``Purpose/reminder``.
///
/// A local time skipped by a daylight-saving change moves forward by the length of the gap (02:30 on
/// a day that springs forward from 02:00 to 03:00 becomes 03:30), and a local time that occurs twice
/// means its first occurrence. Results are whole seconds.
///
/// ```swift
/// let parser = WhenParser(now: now, timeZone: TimeZone(identifier: "Europe/Berlin")!)
/// let due = try parser.parse("tomorrow 5pm", for: .due)
/// ```
public struct WhenParser: Sendable {
    /// What the parsed date is for; it decides the time of a day given without one.
    public enum Purpose: Sendable {
        /// A due date: a day alone means 23:59:00 local that day.
        case due
        /// A reminder: a day alone means 09:00 local that day.
        case reminder
    }

    /// The injected now, floored to whole seconds so that every result is whole seconds too.
    private let now: Date
    private let calendar: Calendar

    /// Creates a parser that reads relative forms (`today`, `17:00`, `in 2h`) from `now`, with local
    /// times in `timeZone`.
    public init(now: Date, timeZone: TimeZone) {
        self.now = Date(timeIntervalSince1970: now.timeIntervalSince1970.rounded(.down))
        calendar = .gregorian(in: timeZone)
    }

    /// Returns the instant `text` names; see ``WhenParser`` for the grammar.
    ///
    /// Throws TaskWidgetError(.usage, ...) naming the accepted forms when the text is not understood.
    public func parse(_ text: String, for purpose: Purpose) throws(TaskWidgetError) -> Date {
        guard let date = resolve(Self.normalized(text), for: purpose) else {
            throw Self.error(reading: text, as: "date", forms: Self.whenForms)
        }
        return try Self.writable(date, reading: text)
    }

    /// Parses an ISO 8601 instant for `--now`: `2026-11-22T10:00`, `2026-11-22T10:00:30`, with
    /// optional fractional seconds, with `Z` or `±HH:MM`/`±HHMM` offset; without an offset it is local
    /// time in `timeZone`. A bare date `2026-11-22` means local midnight (start of that day).
    ///
    /// Unlike ``parse(_:for:)`` the result keeps the given fractional seconds.
    /// Throws TaskWidgetError(.usage, ...) naming the accepted forms when the text is not understood.
    public static func parseInstant(_ text: String, timeZone: TimeZone) throws(TaskWidgetError) -> Date {
        let calendar = Calendar.gregorian(in: timeZone)
        let normalizedText = normalized(text)
        if let timestamp = Cursor.read(normalizedText, with: { $0.scanTimestamp() }),
            let date = calendar.date(from: timestamp.components)
        {
            return try writable(date.addingTimeInterval(timestamp.fraction), reading: text)
        }
        if let day = Cursor.read(normalizedText, with: { $0.scanDate() }), let date = calendar.date(from: day) {
            return try writable(date, reading: text)
        }
        throw error(reading: text, as: "instant", forms: instantForms)
    }

    /// `date` if the store can keep it (``InstantFormat/isWritable(_:)``): `in 999999w`, or
    /// `9999-12-31T23:59-05:00`, is past the year 9999, which no export could carry.
    private static func writable(_ date: Date, reading text: String) throws(TaskWidgetError) -> Date {
        guard InstantFormat.isWritable(date) else {
            throw TaskWidgetError(
                .usage, "“\(quoted(text))” is outside the years 0000 to 9999 that taskwidget keeps: give a nearer date")
        }
        return date
    }

    private static let whenForms =
        "2026-11-23, 2026-11-23T17:00, today, tomorrow, tonight, fri, 17:00, 5pm, in 2h, +30m or tomorrow 5pm"
    private static let instantForms = "2026-11-22T10:00, 2026-11-22T10:00:30.5+01:00 or 2026-11-22"
}

// MARK: - Resolving

extension WhenParser {
    /// The instant `text` (normalized) names, or nil when it is not in the grammar.
    private func resolve(_ text: String, for purpose: Purpose) -> Date? {
        if text.hasPrefix("in ") {
            return date(movedBy: text.dropFirst(3))
        }
        if text.hasPrefix("+") {
            return date(movedBy: text.dropFirst())
        }
        if text == "tonight" {
            return day(daysFromToday: 0).flatMap { date(on: $0, at: TimeOfDay(hour: 20, minute: 0)) }
        }
        if let timestamp = Cursor.read(text, with: { $0.scanTimestamp() }) {
            return calendar.date(from: timestamp.components)
        }
        let words = text.split(separator: " ")
        switch words.count {
        case 1:
            if let day = day(named: words[0]) {
                return date(on: day, at: Self.time(forDayAlone: purpose))
            }
            return Self.time(named: words[0]).flatMap(nextOccurrence(of:))
        case 2:
            guard let day = day(named: words[0]), let time = Self.time(named: words[1]) else { return nil }
            return date(on: day, at: time)
        default:
            return nil
        }
    }

    /// Now moved by an amount such as `2h`, `30 min` or `3 days`.
    private func date(movedBy amount: Substring) -> Date? {
        guard let amount = Cursor.read(amount, with: { $0.scanAmount() }) else { return nil }
        switch amount.unit {
        case .minute: return now.addingTimeInterval(TimeInterval(amount.count * 60))
        case .hour: return now.addingTimeInterval(TimeInterval(amount.count * 3600))
        case .day: return calendar.date(byAdding: .day, value: amount.count, to: now)
        case .week: return calendar.date(byAdding: .day, value: 7 * amount.count, to: now)
        }
    }

    /// The calendar day `word` names: `today`, `tomorrow`, a weekday or an ISO 8601 date.
    private func day(named word: Substring) -> DateComponents? {
        switch word {
        case "today":
            return day(daysFromToday: 0)
        case "tomorrow":
            return day(daysFromToday: 1)
        default:
            if let weekday = Self.weekday(named: word) {
                let today = calendar.component(.weekday, from: now)
                return day(daysFromToday: (weekday - today + 6) % 7 + 1)
            }
            return Cursor.read(word, with: { $0.scanDate() })
        }
    }

    /// The year, month and day of the calendar day `count` days after today.
    private func day(daysFromToday count: Int) -> DateComponents? {
        calendar.date(byAdding: .day, value: count, to: now).map {
            calendar.dateComponents([.year, .month, .day], from: $0)
        }
    }

    /// The first instant after now at `time`: today if it is still ahead, else tomorrow.
    private func nextOccurrence(of time: TimeOfDay) -> Date? {
        if let today = day(daysFromToday: 0), let date = date(on: today, at: time), date > now {
            return date
        }
        return day(daysFromToday: 1).flatMap { date(on: $0, at: time) }
    }

    /// The instant of a local wall-clock time; skipped times move forward by the length of the gap,
    /// repeated times take their first occurrence (the behaviour of `Calendar.date(from:)`).
    private func date(on day: DateComponents, at time: TimeOfDay) -> Date? {
        calendar.date(from: time.components(on: day))
    }

    /// The time of day a day given without one means.
    private static func time(forDayAlone purpose: Purpose) -> TimeOfDay {
        switch purpose {
        case .due: TimeOfDay(hour: 23, minute: 59)
        case .reminder: TimeOfDay(hour: 9, minute: 0)
        }
    }

    /// The time of day `word` names: `noon`, a 24-hour time (`17:00`, `9:05:30`) or a 12-hour time
    /// (`5pm`, `5:30pm`, `12am`).
    private static func time(named word: Substring) -> TimeOfDay? {
        if word == "noon" {
            return TimeOfDay(hour: 12, minute: 0)
        }
        return Cursor.read(word, with: { $0.scanTime() }) ?? Cursor.read(word, with: { $0.scanTwelveHourTime() })
    }

    private static let weekdayNames = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"]

    /// The Gregorian weekday number (1 is Sunday) of a weekday name or of its first three or more letters.
    private static func weekday(named word: Substring) -> Int? {
        guard word.count >= 3, let index = weekdayNames.firstIndex(where: { $0.hasPrefix(word) }) else { return nil }
        return index + 1
    }

    /// `text` lowercased, with each run of whitespace as one space and none at the ends.
    private static func normalized(_ text: String) -> String {
        text.lowercased().split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// The one-line usage error for unreadable `text`, quoted without control characters or line
    /// breaks and cut to 40 characters.
    private static func error(reading text: String, as noun: String, forms: String) -> TaskWidgetError {
        TaskWidgetError(.usage, "cannot read \(noun) “\(quoted(text))”: use \(forms)")
    }

    /// `text` without control characters or line breaks, cut to 40 characters (and 160 bytes): to
    /// quote in an error.
    private static func quoted(_ text: String) -> String {
        text.removingControlCharacters.shortened(to: 40, ellipsis: false)
    }
}

// MARK: - Grammar pieces

extension WhenParser {
    /// A local wall-clock time of day.
    private struct TimeOfDay {
        var hour: Int
        var minute: Int
        /// Nil when the time was written without seconds, which then are zero.
        var second: Int?

        /// `day` (year, month and day) at this time.
        func components(on day: DateComponents) -> DateComponents {
            var components = day
            components.hour = hour
            components.minute = minute
            components.second = second ?? 0
            return components
        }
    }

    /// An ISO 8601 date and time, with a time zone in `components` when the text gave an offset.
    private struct Timestamp {
        var components: DateComponents
        /// The fractional seconds, in [0, 1).
        var fraction: TimeInterval = 0
    }

    /// The unit of a relative amount such as `2h` or `3 days`.
    private enum Unit {
        case minute, hour, day, week

        init?(_ name: Substring) {
            switch name {
            case "m", "min", "mins", "minute", "minutes": self = .minute
            case "h", "hr", "hrs", "hour", "hours": self = .hour
            case "d", "day", "days": self = .day
            case "w", "week", "weeks": self = .week
            default: return nil
            }
        }
    }

    /// Reads normalized text from the front, one piece of the grammar at a time.
    ///
    /// The `scan` methods return nil when the text does not continue with their piece; the cursor
    /// may then have moved, so a failed scan ends the attempt (see ``read(_:with:)``).
    private struct Cursor {
        private var rest: Substring

        /// Reads all of `text` with `scan`, or returns nil when `scan` fails or leaves text unread.
        static func read<Value>(_ text: some StringProtocol, with scan: (inout Cursor) -> Value?) -> Value? {
            var cursor = Cursor(rest: Substring(text))
            guard let value = scan(&cursor), cursor.rest.isEmpty else { return nil }
            return value
        }

        /// Skips `literal` if the text continues with it, and tells whether it did.
        @discardableResult
        mutating func skip(_ literal: String) -> Bool {
            guard rest.hasPrefix(literal) else { return false }
            rest = rest.dropFirst(literal.count)
            return true
        }

        /// At least `lengths.lowerBound` and at most `lengths.upperBound` ASCII digits.
        mutating func scanDigits(_ lengths: ClosedRange<Int>) -> Substring? {
            let digits = rest.prefix(lengths.upperBound).prefix { $0.isASCII && $0.isNumber }
            guard digits.count >= lengths.lowerBound else { return nil }
            rest = rest.dropFirst(digits.count)
            return digits
        }

        /// A number written with a count of digits within `lengths`, and valid only within `range`.
        mutating func scanNumber(digits lengths: ClosedRange<Int>, in range: ClosedRange<Int>) -> Int? {
            guard let number = scanDigits(lengths).flatMap({ Int($0) }), range.contains(number) else { return nil }
            return number
        }

        /// `2026-11-23`: a valid Gregorian date, as year, month and day.
        mutating func scanDate() -> DateComponents? {
            guard let year = scanNumber(digits: 4...4, in: 1...9999), skip("-"),
                let month = scanNumber(digits: 2...2, in: 1...12), skip("-"),
                let day = scanNumber(digits: 2...2, in: 1...Self.dayCount(ofMonth: month, in: year))
            else { return nil }
            return DateComponents(year: year, month: month, day: day)
        }

        /// `17:00`, `9:05` or `17:00:30`: a 24-hour time.
        mutating func scanTime() -> TimeOfDay? {
            guard let hour = scanNumber(digits: 1...2, in: 0...23), skip(":"),
                let minute = scanNumber(digits: 2...2, in: 0...59)
            else { return nil }
            guard skip(":") else { return TimeOfDay(hour: hour, minute: minute) }
            return scanNumber(digits: 2...2, in: 0...59).map { TimeOfDay(hour: hour, minute: minute, second: $0) }
        }

        /// `5pm`, `5:30pm`, `12am` (midnight) or `12pm` (noon): a 12-hour time.
        mutating func scanTwelveHourTime() -> TimeOfDay? {
            guard let hour = scanNumber(digits: 1...2, in: 1...12) else { return nil }
            var minute = 0
            if skip(":") {
                guard let minutes = scanNumber(digits: 2...2, in: 0...59) else { return nil }
                minute = minutes
            }
            if skip("am") { return TimeOfDay(hour: hour % 12, minute: minute) }
            if skip("pm") { return TimeOfDay(hour: hour % 12 + 12, minute: minute) }
            return nil
        }

        /// `2026-11-23t17:00`, `2026-11-23 17:00:30.25z`, `2026-11-23t17:00+01:00`: an ISO 8601 date
        /// and time with optional seconds, fractional seconds and offset.
        mutating func scanTimestamp() -> Timestamp? {
            guard let day = scanDate(), skip("t") || skip(" "), let time = scanTime() else { return nil }
            var timestamp = Timestamp(components: time.components(on: day))
            if time.second != nil, skip(".") || skip(",") {
                guard let digits = scanDigits(1...9), let fraction = TimeInterval("0." + digits) else { return nil }
                timestamp.fraction = fraction
            }
            if !rest.isEmpty {
                guard let offset = scanUTCOffset() else { return nil }
                timestamp.components.timeZone = offset
            }
            return timestamp
        }

        /// `z`, `+01:00` or `-0530`: a fixed offset from UTC.
        mutating func scanUTCOffset() -> TimeZone? {
            if skip("z") { return .gmt }
            let sign: Int
            if skip("+") {
                sign = 1
            } else if skip("-") {
                sign = -1
            } else {
                return nil
            }
            guard let hours = scanNumber(digits: 2...2, in: 0...23) else { return nil }
            skip(":")
            guard let minutes = scanNumber(digits: 2...2, in: 0...59) else { return nil }
            return TimeZone(secondsFromGMT: sign * (hours * 3600 + minutes * 60))
        }

        /// `2h`, `30 min`, `3 days`: a count and its unit.
        mutating func scanAmount() -> (count: Int, unit: Unit)? {
            guard let count = scanNumber(digits: 1...6, in: 0...999_999) else { return nil }
            skip(" ")
            let name = rest.prefix(while: \.isLetter)
            rest = rest.dropFirst(name.count)
            return Unit(name).map { (count, $0) }
        }

        /// The number of days of `month` in the Gregorian `year`.
        private static func dayCount(ofMonth month: Int, in year: Int) -> Int {
            let isLeapYear = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
            return [31, isLeapYear ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
        }
    }
}
