/// A calendar day in the user's time zone, written `YYYY-MM-DD`. Habits are checked per local day,
/// and each timeline entry shows one. ``LocalCalendar`` finds the day of an instant.
public struct LocalDay: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    public let year: Int
    public let month: Int
    public let day: Int

    /// A day from its parts, which must form a real date (``init(_:)`` checks text).
    init(year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// Parses `YYYY-MM-DD`; `nil` when the text is not a real calendar date.
    public init?(_ text: String) {
        guard let date = InstantFormat.Scanner.read(text, with: { $0.date() }) else { return nil }
        self.init(year: date.year, month: date.month, day: date.day)
    }

    /// Days since 1970-01-01 in the proleptic Gregorian calendar: `b.ordinal - a.ordinal` counts the
    /// days from `a` to `b`, however long each lasts in a time zone.
    public var ordinal: Int64 { InstantFormat.daysSinceEpoch(year: Int64(year), month: month, day: day) }

    /// The day `count` days later (earlier when negative).
    public func adding(days count: Int) -> LocalDay {
        let (year, month, day) = InstantFormat.civilDate(daysSinceEpoch: ordinal + Int64(count))
        return LocalDay(year: Int(year), month: month, day: day)
    }

    /// 1 is Sunday, 7 is Saturday.
    public var weekday: Int {
        // 1970-01-01 was a Thursday.
        Int(InstantFormat.floorDivision(ordinal + 4, 7).remainder) + 1
    }

    public var description: String {
        "\(InstantFormat.pad(year, 4))-\(InstantFormat.pad(month, 2))-\(InstantFormat.pad(day, 2))"
    }

    public static func < (lhs: LocalDay, rhs: LocalDay) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let day = LocalDay(text) else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "expected a day as YYYY-MM-DD, found “\(text)”")
        }
        self = day
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}

extension LocalDay {
    /// Reads the day a habit is checked for: `today`, `yesterday` or `YYYY-MM-DD`, not in the future
    /// (`tomorrow` is read, to be refused as such) unless `allowingFuture`: a day checked in a zone
    /// ahead of this one is still to come here, and `habit ls` and `uncheck` must reach it
    /// (helper-105).
    public static func habitDay(_ text: String?, now: Instant, calendar: LocalCalendar, allowingFuture: Bool = false) throws -> LocalDay {
        let today = calendar.localDay(containing: now)
        guard let text = text?.trimmingWhitespace, text.lowercased() != "today" else { return today }
        let day: LocalDay? =
            switch text.lowercased() {
            case "yesterday": today.adding(days: -1)
            case "tomorrow": today.adding(days: 1)
            case let word: LocalDay(word)
            }
        guard let day else {
            throw TaskWidgetError(
                .invalidInput,
                "cannot read the day “\(text.sanitizedForMessage)”: \(WhenParser.impossibleDate(in: text) ?? "use today, yesterday or YYYY-MM-DD")")
        }
        // The years dates are kept in (README): 0000 was checked and exported (helper-159).
        guard day.year >= 1 else {
            throw TaskWidgetError(.invalidInput, "\(day) is outside the years 0001 to 9999: give a later day")
        }
        guard day <= today || allowingFuture else {
            throw TaskWidgetError(.invalidInput, "\(day) is in the future: give today or an earlier day")
        }
        return day
    }
}
