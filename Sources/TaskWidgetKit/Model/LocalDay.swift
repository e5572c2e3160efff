public import Foundation

/// A calendar day in the user's time zone, written `YYYY-MM-DD`. Habits are checked per local day.
public struct LocalDay: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    public let year: Int
    public let month: Int
    public let day: Int

    /// Parses `YYYY-MM-DD`; `nil` when the text is not a real calendar date.
    public init?(_ text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            parts.allSatisfy({ $0.allSatisfy { ("0"..."9").contains($0) } }),
            let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2])
        else { return nil }
        guard (1...12).contains(month), (1...InstantFormat.daysInMonth(year: year, month: month)).contains(day) else {
            return nil
        }
        self.year = year
        self.month = month
        self.day = day
    }

    /// The local day that contains `instant` in `timeZone`.
    public init(containing instant: Date, in timeZone: TimeZone) {
        let calendar = Calendar.gregorian(in: timeZone)
        let components = calendar.dateComponents([.year, .month, .day], from: instant)
        year = components.year!
        month = components.month!
        day = components.day!
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
    /// Reads the day a habit is checked for: `today`, `yesterday` or `YYYY-MM-DD`, not in the future.
    public static func habitDay(_ text: String?, now: Date, timeZone: TimeZone) throws -> LocalDay {
        let today = LocalDay(containing: now, in: timeZone)
        guard let text = text?.trimmingWhitespace.lowercased(), text != "today" else { return today }
        let day: LocalDay?
        if text == "yesterday" {
            let calendar = Calendar.gregorian(in: timeZone)
            day = calendar.date(byAdding: .day, value: -1, to: now).map { LocalDay(containing: $0, in: timeZone) }
        } else {
            day = LocalDay(text)
        }
        guard let day else {
            throw TaskWidgetError(.usage, "cannot read the day “\(text.sanitizedForMessage)”: use today, yesterday or YYYY-MM-DD")
        }
        guard day <= today else {
            throw TaskWidgetError(.usage, "\(day) is in the future: habits are checked for today or earlier days")
        }
        return day
    }
}
