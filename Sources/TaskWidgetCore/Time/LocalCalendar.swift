public import Foundation

/// Local calendar days and wall-clock times of one time zone: the one place where taskwidget turns
/// instants into days and back. Days may last 23 or 25 hours, or start at 01:00 where a
/// daylight-saving change skips midnight; all of that is decided here, with Foundation's Gregorian
/// calendar.
///
/// ```swift
/// let calendar = LocalCalendar(timeZone: TimeZone(identifier: "Europe/Berlin")!)
/// let today = calendar.day(containing: now)  // today.start ..< today.end, today.localDay
/// ```
public struct LocalCalendar: Sendable {
    /// One local calendar day: its date and the instants it starts and ends at.
    public struct Day: Sendable, Equatable {
        public var localDay: LocalDay
        public var start: Instant
        /// The start of the next day.
        public var end: Instant
    }

    /// A local wall-clock reading of an instant.
    public struct WallClock: Sendable, Equatable {
        public var day: LocalDay
        public var hour: Int
        public var minute: Int
        public var second: Int
        /// 1 is Sunday, 7 is Saturday.
        public var weekday: Int
    }

    public let timeZone: TimeZone
    private let calendar: Calendar

    public init(timeZone: TimeZone) {
        self.timeZone = timeZone
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        self.calendar = calendar
    }

    /// The local day that contains `instant`.
    public func day(containing instant: Instant) -> Day {
        let interval = calendar.dateInterval(of: .day, for: instant.date)!
        return Day(localDay: localDay(containing: instant), start: Instant(interval.start), end: Instant(interval.end))
    }

    /// The local date of `instant`.
    public func localDay(containing instant: Instant) -> LocalDay {
        wallClock(of: instant).day
    }

    /// What a clock on the wall shows at `instant`.
    public func wallClock(of instant: Instant) -> WallClock {
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second, .weekday], from: instant.date)
        return WallClock(
            day: LocalDay(year: parts.year!, month: parts.month!, day: parts.day!), hour: parts.hour!, minute: parts.minute!,
            second: parts.second!, weekday: parts.weekday!)
    }

    /// The instant the wall clock reads `hour:minute:second` on `day`. A time skipped by a
    /// daylight-saving change moves forward by the length of the gap (02:30 on a day that springs
    /// forward from 02:00 to 03:00 is 03:30); a time that occurs twice means its first occurrence.
    public func instant(on day: LocalDay, hour: Int, minute: Int, second: Int = 0) -> Instant? {
        let components = DateComponents(year: day.year, month: day.month, day: day.day, hour: hour, minute: minute, second: second)
        return calendar.date(from: components).map(Instant.init)
    }

    /// The later instant the wall clock shows what it shows at `first`, when the clocks go back
    /// over it (02:30 on the day Berlin goes from 03:00 back to 02:00); `nil` for a time shown once.
    public func secondOccurrence(of first: Instant) -> Instant? {
        let zone = calendar.timeZone
        let shift = zone.secondsFromGMT(for: first.date) - zone.secondsFromGMT(for: first.date.addingTimeInterval(12 * 3600))
        guard shift > 0 else { return nil }
        let second = Instant(first.date.addingTimeInterval(TimeInterval(shift)))
        return wallClock(of: second) == wallClock(of: first) ? second : nil
    }

    /// The instant a due date given as `day` alone is kept at: 23:59 local (SPEC §4; the store
    /// keeps no all-day flag). ``DueLabeler/isDayOnly(_:in:)`` tells such a date.
    /// Where the clocks go back at midnight (America/Santiago: 24:00 → 23:00), 23:59 occurs twice:
    /// the second one, so that a task due that day is not overdue during the day's last hour.
    public func dayAlone(_ day: LocalDay) -> Instant? {
        guard let first = instant(on: day, hour: Self.dayAloneTime.hour, minute: Self.dayAloneTime.minute) else { return nil }
        let lastMinute = Instant(millisecondsSince1970: self.day(containing: first).end.millisecondsSince1970 - 60_000)
        let clock = wallClock(of: lastMinute)
        let isDayAloneTime = clock.day == day && clock.hour == Self.dayAloneTime.hour && clock.minute == Self.dayAloneTime.minute
        return isDayAloneTime && lastMinute > first ? lastMinute : first
    }

    /// The wall-clock time of ``dayAlone(_:)``.
    public static let dayAloneTime = (hour: 23, minute: 59)

    /// The wall-clock time a reminder given as a day alone is set at, and a due date given as a
    /// day alone is notified at (`notify --at-due`): the start of a working day.
    public static let dayAloneReminderTime = (hour: 9, minute: 0)

    /// `instant` moved by `days` calendar days, keeping its wall-clock time where it exists.
    public func adding(days: Int, to instant: Instant) -> Instant? {
        calendar.date(byAdding: .day, value: days, to: instant.date).map(Instant.init)
    }
}
