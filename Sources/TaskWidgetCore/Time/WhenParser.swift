
/// Parses the `WHEN` grammar of SPEC §4 relative to an injected `now` and time zone.
///
/// Accepted forms, case-insensitive, with any amount of space around and between words:
/// - ISO 8601: `2026-11-23`, `2026-11-23T17:00`, `2026-11-23 17:00:30`, `2026-11-23T17:00Z`,
///   `2026-11-23T17:00+01:00`. Without an offset the time is local in the time zone.
/// - Days: `today`, `tomorrow`, `yesterday` and weekday names (`fri`, `friday`, `next fri`), which mean the next
///   such day strictly after today, never today (on a Friday, `fri` and `next fri` are a week later).
/// - `tonight`: today at 20:00; from 20:00 on, the end of today (23:59, as `today` for a due date).
/// - Times: `17:00`, `9:05`, `5pm` (or `5 pm`), `5:30pm`, `12am` (the start of a day), `12pm`, `noon` and `eod`
///   (the end of the working day, 18:00). A time alone means its next occurrence: today if it is
///   still ahead of now, else tomorrow.
/// - `midnight`: the end of a day (alone, of today): a due date is the day alone, 23:59, so that the
///   task counts as due that day; a reminder or a moment is 00:00 of the day after. `fri midnight`
///   is the night from Friday to Saturday (where `fri 12am` starts Friday).
/// - A day and a time, in either order: `tomorrow 5pm`, `fri 09:30`, `next mon noon`, `2026-11-23 5pm`,
///   `5pm tomorrow`, `noon next fri`.
/// - Relative: `in 2h`, `+30m`, `in 90 min`, `in 3 days`, `+1w`, with the units of ``TimeUnit``
///   (`m`, `min`, `mins`, `minute(s)`; `h`, `hr`, `hrs`, `hour(s)`; `d`, `day(s)`; `w`, `week(s)`;
///   `s`, `sec(s)`, `second(s)`), and counts of up to six digits. Seconds, minutes and hours are
///   exact durations; days and weeks move the calendar date and keep the wall-clock time.
///
/// A day without a time means the end of that day, 23:59:00 local, for a ``Purpose/due`` date or a
/// ``Purpose/moment``, and 09:00 local for a ``Purpose/reminder``.
///
/// A local time skipped by a daylight-saving change moves forward by the length of the gap (02:30 on
/// a day that springs forward from 02:00 to 03:00 becomes 03:30), and a local time that occurs twice
/// means its first occurrence. Results are whole seconds.
///
/// ```swift
/// let parser = WhenParser(now: now, calendar: LocalCalendar(timeZone: TimeZone(identifier: "Europe/Berlin")!))
/// let due = try parser.parse("tomorrow 5pm", for: .due)
/// ```
public struct WhenParser: Sendable {
    /// What the parsed date is for; it decides the time of a day given without one.
    public enum Purpose: Sendable {
        /// A due date: a day alone means 23:59:00 local that day, and so does `midnight`.
        case due
        /// A reminder: a day alone means 09:00 local that day, `midnight` 00:00 of the day after.
        case reminder
        /// A moment to show (`render --at`): a day alone means 23:59:00 local, as for a due date,
        /// and `midnight` 00:00 of the day after, when the new day starts.
        case moment
    }

    /// The injected now, floored to whole seconds so that every result is whole seconds too.
    private let now: Instant
    private let calendar: LocalCalendar

    /// Creates a parser that reads relative forms (`today`, `17:00`, `in 2h`) from `now`, with local
    /// times in `calendar`'s time zone.
    public init(now: Instant, calendar: LocalCalendar) {
        self.now = now.flooredToSecond
        self.calendar = calendar
    }

    /// Returns the instant `text` names; see ``WhenParser`` for the grammar. Words and units are
    /// read in any case, except a capital `M` alone, which may mean months: it is refused.
    ///
    /// Throws an ``TaskWidgetError/Code/invalidInput`` error naming the accepted forms when the text
    /// is not understood.
    public func parse(_ text: String, for purpose: Purpose) throws(TaskWidgetError) -> Instant {
        // Units are read in any case, but a capital M alone may mean months, which are no unit.
        if text.wholeMatch(of: /\s*(?:[iI][nN]\s+|\+)\d{1,6}\s*M\s*/) != nil {
            throw TaskWidgetError(
                .invalidInput, "“\(Self.quoted(text))”: is M minutes or months? write m or min for minutes; for months give a date such as 2027-01-31")
        }
        guard let instant = resolve(Self.joiningMeridiem(Self.normalized(text)), for: purpose) else {
            throw Self.error(reading: text, as: "date", forms: whenForms)
        }
        return try Self.writable(instant, reading: text)
    }

    /// What ``read(_:for:)`` found in a text: its instant, and how that differs from what was
    /// written, for a command to say so where only `ls` showed it (helper-134, helper-138).
    public struct Reading: Sendable, Equatable {
        /// The instant, as ``parse(_:for:)`` returns it.
        public let instant: Instant
        /// Whether the text is a time alone (`06:00`, `5pm`, `noon`) that has passed today, and
        /// so means tomorrow.
        public let meansTomorrow: Bool
        /// Today's weekday (`Friday`) when the text names it without `next` (`fri` on a Friday),
        /// and so means the one a week later; with the text that means today instead (`5pm
        /// today` for `5pm fri`).
        public let todaysWeekday: TodaysWeekday?
        /// The local time the text names (`02:30`) and the one its instant shows (`03:30`), when
        /// the clocks skip the first on `day` (they go forward).
        public let skippedTime: SkippedTime?
    }

    /// Today's weekday named as a day, which means the one a week later.
    public struct TodaysWeekday: Sendable, Equatable {
        /// `Friday`.
        public let name: String
        /// The text with `today` for the weekday (`5pm today` for `5pm fri`).
        public let todayInstead: String
    }

    /// A local time the clocks skip, and the one shown instead.
    public struct SkippedTime: Sendable, Equatable {
        /// The time written, `02:30`.
        public let asked: String
        /// The time the instant shows, `03:30`.
        public let shown: String
        /// The day asked for, when the clocks go forward.
        public let day: LocalDay
    }

    /// Parses `text` as ``parse(_:for:)`` does, and says whether a time alone meant tomorrow or a
    /// time the clocks skip moved.
    public func read(_ text: String, for purpose: Purpose) throws(TaskWidgetError) -> Reading {
        let instant = try parse(text, for: purpose)
        let normalizedText = Self.joiningMeridiem(Self.normalized(text))
        return Reading(
            instant: instant, meansTomorrow: meansTomorrow(normalizedText), todaysWeekday: todaysWeekday(in: normalizedText),
            skippedTime: skippedTime(in: normalizedText, resolvedTo: instant))
    }

    private func todaysWeekday(in normalizedText: String) -> TodaysWeekday? {
        let words = normalizedText.split(separator: " ")
        guard !words.contains("next"), words.contains(where: { Self.weekday(named: $0) == today.weekday }) else { return nil }
        let name = Self.weekdayNames[today.weekday - 1]
        let todayInstead = words.map { Self.weekday(named: $0) == nil ? String($0) : "today" }.joined(separator: " ")
        return TodaysWeekday(name: name.prefix(1).uppercased() + name.dropFirst(), todayInstead: todayInstead)
    }

    private func meansTomorrow(_ normalizedText: String) -> Bool {
        let words = normalizedText.split(separator: " ")
        guard words.count == 1, let time = Self.time(named: words[0]) else { return false }
        // As ``nextOccurrence(of:)`` decides it: not by the day of the result, which a time the
        // clocks skip at midnight moves to the next one (helper-141).
        guard let first = instant(on: today, at: time) else { return false }
        return first <= now && !(calendar.secondOccurrence(of: first).map { $0 > now } ?? false)
    }

    private func skippedTime(in normalizedText: String, resolvedTo instant: Instant) -> SkippedTime? {
        let asked: WallTime
        if let timestamp = InstantFormat.Scanner.read(normalizedText, with: { $0.timestamp(hourDigits: 1...2) }) {
            guard timestamp.utcOffset == nil else { return nil }
            asked = timestamp.time
        } else if let time = normalizedText.split(separator: " ").lazy.compactMap(Self.time(named:)).first {
            asked = time
        } else {
            return nil
        }
        let shown = calendar.wallClock(of: instant)
        guard shown.hour != asked.hour || shown.minute != asked.minute else { return nil }
        // The day asked for: a gap at midnight (Asia/Pyongyang, 2018-05-04 23:30 → 00:00) moves
        // 23:45 onto the next day (helper-141). The wall clock moved back by the gap shows it;
        // the instant moved back did not, for a gap that starts at midnight (America/Havana,
        // 00:00 → 01:00: 00:30 was said to be skipped the day before, helper-150).
        let gap = ((shown.hour - asked.hour) * 60 + shown.minute - asked.minute + 1440) % 1440
        let shownDay = calendar.localDay(containing: instant)
        return SkippedTime(
            asked: InstantFormat.clock(hour: asked.hour, minute: asked.minute),
            shown: InstantFormat.clock(hour: shown.hour, minute: shown.minute),
            day: shown.hour * 60 + shown.minute < gap ? shownDay.adding(days: -1) : shownDay)
    }

    /// Parses an ISO 8601 instant for `--now`: `2026-11-22T10:00`, `2026-11-22T10:00:30`, with
    /// optional fractional seconds, with `Z` or `±HH:MM`/`±HHMM` offset; without an offset it is local
    /// time in `calendar`'s zone. A bare date `2026-11-22` means local midnight (start of that day).
    /// Unlike ``parse(_:for:)`` the result keeps the given milliseconds.
    public static func parseInstant(_ text: String, calendar: LocalCalendar) throws(TaskWidgetError) -> Instant {
        let normalizedText = normalized(text)
        if let timestamp = InstantFormat.Scanner.read(normalizedText, with: { $0.timestamp(hourDigits: 1...2) }),
            timestamp.date.year >= 1, let instant = instant(of: timestamp, in: calendar)
        {
            return try writable(instant, reading: text)
        }
        if let day = InstantFormat.Scanner.read(normalizedText, with: { $0.date() }), day.year >= 1,
            let instant = calendar.instant(on: LocalDay(day), hour: 0, minute: 0)
        {
            return try writable(calendar.day(containing: instant).start, reading: text)
        }
        throw error(reading: text, as: "instant", forms: instantForms)
    }

    /// `instant` if the store can keep it (``InstantFormat/writableRange``): `in 999999w`, or
    /// `9999-12-31T23:59-05:00`, is past the year 9999, which no export could carry.
    private static func writable(_ instant: Instant, reading text: String) throws(TaskWidgetError) -> Instant {
        guard InstantFormat.writableRange.contains(instant) else {
            throw TaskWidgetError(
                .invalidInput, "“\(quoted(text))” is outside the years 0001 to 9999 in UTC, which taskwidget keeps (its exports write UTC): give a nearer date")
        }
        return instant
    }

    /// The instant of an ISO 8601 timestamp: at its offset, else local in `calendar`'s zone.
    private static func instant(of timestamp: InstantFormat.Timestamp, in calendar: LocalCalendar) -> Instant? {
        if let offset = timestamp.utcOffset { return timestamp.instant(offsetSeconds: offset) }
        let time = timestamp.time
        return calendar.instant(on: LocalDay(timestamp.date), hour: time.hour, minute: time.minute, second: time.second ?? 0)
            .map { Instant(millisecondsSince1970: $0.millisecondsSince1970 + timestamp.milliseconds) }
    }

    /// The forms a date may take, dated tomorrow: a fixed date was in the past (helper-113).
    private var whenForms: String {
        let tomorrow = calendar.localDay(containing: now).adding(days: 1)
        return "\(tomorrow), \(tomorrow)T17:00, today, tomorrow, yesterday, tonight, fri, next fri, 17:00, 5pm, noon, eod, midnight, in 2h, "
            + "in 1w, +30m or tomorrow 5pm"
    }

    private static let instantForms = "2026-11-22T10:00, 2026-11-22T10:00:30.5+01:00 or 2026-11-22"
}

// MARK: - Resolving

extension WhenParser {
    /// The instant `text` (normalized) names, or nil when it is not in the grammar.
    private func resolve(_ text: String, for purpose: Purpose) -> Instant? {
        if text.hasPrefix("in ") {
            return instant(movedBy: text.dropFirst(3))
        }
        if text.hasPrefix("+") {
            return instant(movedBy: text.dropFirst())
        }
        if text == "tonight" {
            // From 20:00 on, tonight is what is left of it: a task added at 21:00 is not overdue.
            if let evening = instant(on: today, at: WallTime(hour: 20, minute: 0)), evening > now { return evening }
            return calendar.dayAlone(today)
        }
        if let timestamp = InstantFormat.Scanner.read(text, with: { $0.timestamp(hourDigits: 1...2) }), timestamp.date.year >= 1 {
            // Whole seconds: a WHEN keeps no fraction.
            var timestamp = timestamp
            timestamp.milliseconds = 0
            return Self.instant(of: timestamp, in: calendar)
        }
        var words = text.split(separator: " ")
        // `next fri` is `fri`: a weekday always names the next one.
        if let next = words.firstIndex(of: "next") {
            guard next + 1 < words.count, Self.weekday(named: words[next + 1]) != nil else { return nil }
            words.remove(at: next)
        }
        // A time before its day (`5pm tomorrow`, `noon next fri`) reads as the day first.
        if words.count == 2 && day(named: words[0]) == nil { words.reverse() }
        switch words.count {
        case 1:
            if let day = day(named: words[0]) {
                // A reminder at the start of a working day; a due date or a moment at the day's end.
                let morning = WallTime(hour: LocalCalendar.dayAloneReminderTime.hour, minute: LocalCalendar.dayAloneReminderTime.minute)
                return purpose == .reminder ? instant(on: day, at: morning) : calendar.dayAlone(day)
            }
            if words[0] == "midnight" {
                return midnight(ending: today, for: purpose)
            }
            return Self.time(named: words[0]).flatMap(nextOccurrence(of:))
        case 2:
            guard let day = day(named: words[0]) else { return nil }
            if words[1] == "midnight" {
                return midnight(ending: day, for: purpose)
            }
            return Self.time(named: words[1]).flatMap { instant(on: day, at: $0) }
        default:
            return nil
        }
    }

    private typealias WallTime = InstantFormat.WallTime

    private var today: LocalDay { calendar.localDay(containing: now) }

    /// Now moved by an amount such as `2h`, `30 min` or `3 days`.
    private func instant(movedBy amount: Substring) -> Instant? {
        // `+ 2h` is no amount: the sign goes with its number.
        amount.first == " " ? nil : DurationText.amount(String(amount))?.moving(now, in: calendar)
    }

    /// The calendar day `word` names: `today`, `tomorrow`, `yesterday`, a weekday or an ISO 8601 date.
    private func day(named word: Substring) -> LocalDay? {
        switch word {
        case "today":
            return today
        case "tomorrow":
            return today.adding(days: 1)
        case "yesterday":
            return today.adding(days: -1)
        default:
            if let weekday = Self.weekday(named: word) {
                return today.adding(days: (weekday - today.weekday + 6) % 7 + 1)
            }
            return InstantFormat.Scanner.read(word, with: { $0.date() }).flatMap { $0.year >= 1 ? LocalDay($0) : nil }
        }
    }

    /// The first instant after now at `time`: today if it is still ahead, else tomorrow. In the
    /// hour the clocks go back, a time shown twice may be ahead the second time round: 02:30
    /// typed at 02:10 then was due the next day (helper-123).
    private func nextOccurrence(of time: WallTime) -> Instant? {
        if let first = instant(on: today, at: time) {
            if first > now { return first }
            if let second = calendar.secondOccurrence(of: first), second > now { return second }
        }
        return instant(on: today.adding(days: 1), at: time)
    }

    /// The instant of a local wall-clock time (``LocalCalendar/instant(on:hour:minute:second:)``).
    private func instant(on day: LocalDay, at time: WallTime) -> Instant? {
        calendar.instant(on: day, hour: time.hour, minute: time.minute, second: time.second ?? 0)
    }

    /// The midnight that ends `day`: for a due date the day alone (a task due at 00:00 of the day
    /// after would count as due on that one), for a reminder or a moment 00:00 of the day after.
    private func midnight(ending day: LocalDay, for purpose: Purpose) -> Instant? {
        switch purpose {
        case .due: calendar.dayAlone(day)
        case .reminder, .moment: instant(on: day.adding(days: 1), at: WallTime(hour: 0, minute: 0))
        }
    }

    /// The time of day `word` names: `noon`, `eod` (18:00), a 24-hour time (`17:00`, `9:05:30`) or a
    /// 12-hour time (`5pm`, `5:30pm`, `12am`).
    private static func time(named word: Substring) -> WallTime? {
        switch word {
        case "noon": return WallTime(hour: 12, minute: 0)
        case "eod": return WallTime(hour: 18, minute: 0)
        default: break
        }
        return InstantFormat.Scanner.read(word, with: { $0.time(hourDigits: 1...2) })
            ?? InstantFormat.Scanner.read(word, with: twelveHourTime)
    }

    /// `5pm`, `5:30pm`, `12am` (midnight) or `12pm` (noon).
    private static func twelveHourTime(_ scanner: inout InstantFormat.Scanner) -> WallTime? {
        guard let hour = scanner.number(digits: 1...2, in: 1...12) else { return nil }
        var minute = 0
        if scanner.skip(":") {
            guard let minutes = scanner.number(digits: 2...2, in: 0...59) else { return nil }
            minute = minutes
        }
        if scanner.skip("am") { return WallTime(hour: hour % 12, minute: minute) }
        if scanner.skip("pm") { return WallTime(hour: hour % 12 + 12, minute: minute) }
        return nil
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

    /// Normalized `text` without the space between a digit and `am` or `pm` (`5 pm` is `5pm`).
    /// Not for `--now` (``parseInstant(_:calendar:)``), which every `status` in a test or a
    /// preview reads: a regular expression costs 0.7 M instructions there.
    private static func joiningMeridiem(_ text: String) -> String {
        guard text.contains(" am") || text.contains(" pm") else { return text }
        return text.replacing(/(\d) ([ap]m)\b/) { "\($0.output.1)\($0.output.2)" }
    }

    /// The one-line usage error for unreadable `text`, quoted without control characters or line
    /// breaks and cut to 40 characters.
    private static func error(reading text: String, as noun: String, forms: String) -> TaskWidgetError {
        let why = impossibleDate(in: text) ?? "use \(forms)"
        return TaskWidgetError(.invalidInput, "cannot read \(noun) “\(quoted(text))”: \(why)")
    }

    /// Why a text in the shape of an ISO 8601 date (and time) names none, such as
    /// `February 2027 has 28 days` for `2027-02-29`: the list of forms would not say it.
    static func impossibleDate(in text: String) -> String? {
        guard let match = text.firstMatch(of: /^\s*(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2}))?/),
            let year = Int(match.1), let month = Int(match.2), let day = Int(match.3)
        else { return nil }
        guard (1...12).contains(month) else { return "there is no month \(month): months go from 01 to 12" }
        let isLeap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let length = [31, isLeap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
        if day == 0 { return "there is no day 0: days start at 01" }
        if day > length { return "\(monthNames[month - 1]) \(match.1) has \(length) days" }
        if let hour = match.4.flatMap({ Int($0) }), hour > 23 { return "there is no hour \(hour): hours go from 00 to 23" }
        if let minute = match.5.flatMap({ Int($0) }), minute > 59 { return "there is no minute \(minute): minutes go from 00 to 59" }
        return nil
    }

    private static let monthNames = [
        "January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December",
    ]

    /// `text` without control characters or line breaks, cut to 40 characters (and 160 bytes): to
    /// quote in an error.
    private static func quoted(_ text: String) -> String {
        text.removingControlCharacters.truncated(to: 40, maxBytesPerUnit: 4, ellipsis: false)
    }
}

extension LocalDay {
    /// The day of an ISO 8601 date.
    init(_ date: InstantFormat.CivilDate) {
        self.init(year: date.year, month: date.month, day: date.day)
    }
}
