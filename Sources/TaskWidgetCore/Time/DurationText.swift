/// A length of time as config.toml and options such as `snooze --by` take it: a whole number and
/// a unit (``TimeUnit``, a day being 24 h), without a space: `30m`, `90min`, `24h`, `2d`, `1w`.
public enum DurationText {
    /// The forms, for messages.
    public static let examples = "30m, 1h30m, 24h, 2d or 1w"

    /// The amount `text` says, or `nil` when it is not a duration (or more than a million units).
    /// As in `WHEN`'s `in 90 min`, the unit may follow a space and be in any case, but for a
    /// capital `M` alone, which may mean months. Hours, minutes and seconds may come together,
    /// larger first (`1h30m`, `2h 15m`: they were refused, helper-119); days and weeks, which keep
    /// the time of day, come alone.
    ///
    /// ```swift
    /// DurationText.amount("90m")?.seconds  // 5400
    /// DurationText.amount("1h30m")?.seconds  // 5400
    /// DurationText.amount("2 Days")  // TimeAmount(count: 2, unit: .day)
    /// ```
    public static func amount(_ text: String) -> TimeAmount? {
        var rest = Substring(text.trimmingWhitespace)
        var parts: [TimeAmount] = []
        while !rest.isEmpty {
            let digits = rest.prefix { $0.isASCII && $0.isNumber }
            rest = rest.dropFirst(digits.count).drop { $0 == " " }
            let name = rest.prefix { $0.isLetter }
            rest = rest.dropFirst(name.count).drop { $0 == " " }
            guard let count = Int64(digits), count <= 1_000_000, name != "M", let unit = TimeUnit(Substring(name.lowercased())),
                parts.last.map({ $0.unit.seconds > unit.seconds && unit.seconds < TimeUnit.day.seconds }) ?? true
            else { return nil }
            parts.append(TimeAmount(count: count, unit: unit))
        }
        guard let first = parts.first else { return nil }
        guard parts.count > 1, first.unit.seconds < TimeUnit.day.seconds else { return parts.count == 1 ? first : nil }
        return TimeAmount(count: parts.reduce(0) { $0 + $1.seconds }, unit: .second)
    }

    /// What to write for a duration that combines days or weeks with a smaller unit (`1d12h`),
    /// which ``amount(_:)`` refuses (a day there is a calendar day): the same length in hours, or
    /// minutes (`36h`); `nil` for any other text. “expected a duration such as 1h30m” did not say
    /// why (helper-170).
    public static func hoursInstead(of text: String) -> String? {
        let trimmed = Substring(text.trimmingWhitespace)
        let digits = trimmed.prefix { $0.isASCII && $0.isNumber }
        let afterDigits = trimmed.dropFirst(digits.count).drop { $0 == " " }
        let name = afterDigits.prefix { $0.isLetter }
        let rest = String(afterDigits.dropFirst(name.count))
        guard let count = Int64(digits), count <= 1_000_000, let unit = TimeUnit(Substring(name.lowercased())),
            unit.seconds >= TimeUnit.day.seconds, let smaller = amount(rest), smaller.unit.seconds < TimeUnit.day.seconds
        else { return nil }
        let total = count * unit.seconds + smaller.seconds
        return total % 3600 == 0 ? "\(total / 3600)h" : "\(total / 60)m"
    }

    /// The seconds `text` says (``amount(_:)``, a day being 24 hours).
    public static func seconds(_ text: String) -> Int64? {
        amount(text)?.seconds
    }
}

/// An amount of time as a user gives it: `2d` is two calendar days, which keep the wall-clock
/// time across a change of clocks (as `in 2d` does), `48h` is 172 800 seconds.
public struct TimeAmount: Sendable, Equatable {
    public var count: Int64
    public var unit: TimeUnit

    public init(count: Int64, unit: TimeUnit) {
        self.count = count
        self.unit = unit
    }

    /// Its length, a day being 24 hours.
    public var seconds: Int64 { count * unit.seconds }

    /// `instant` moved later by this amount: by calendar days in `calendar` for days and weeks,
    /// else by seconds.
    public func moving(_ instant: Instant, in calendar: LocalCalendar) -> Instant {
        let days =
            switch unit {
            case .second, .minute, .hour: Int64(0)
            case .day: count
            case .week: 7 * count
            }
        guard days > 0, let moved = calendar.adding(days: Int(days), to: instant) else { return instant.adding(seconds: seconds) }
        return moved
    }
}

/// The unit of an amount of time, by any of the names the `WHEN` grammar (`in 90 min`) and the
/// durations (`snooze --by 30min`) take, in lower case: a capital `M` may mean months.
public enum TimeUnit: Sendable {
    case second, minute, hour, day, week

    public init?(_ name: Substring) {
        switch name {
        case "s", "sec", "secs", "second", "seconds": self = .second
        case "m", "min", "mins", "minute", "minutes": self = .minute
        case "h", "hr", "hrs", "hour", "hours": self = .hour
        case "d", "day", "days": self = .day
        case "w", "week", "weeks": self = .week
        default: return nil
        }
    }

    /// Its length, a day being 24 hours (a date moved by days keeps its wall-clock time instead).
    public var seconds: Int64 {
        switch self {
        case .second: 1
        case .minute: 60
        case .hour: 3600
        case .day: 86_400
        case .week: 604_800
        }
    }
}
