public import Foundation

/// Instants as text: ISO 8601 in UTC with milliseconds when there are any
/// (`2026-11-23T08:00:00Z`, `2026-11-23T08:00:00.250Z`). Parsing the output gives the same instant.
public enum InstantFormat {
    public static func utc(_ date: Date) -> String {
        let milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded())
        let (seconds, fraction) = milliseconds.quotientAndRemainderFlooring(dividingBy: 1000)
        let utc = Self.utcCalendar.dateComponents(
            [.year, .month, .day, .hour, .minute, .second], from: Date(timeIntervalSince1970: Double(seconds)))
        var text = pad(utc.year!, 4) + "-" + pad(utc.month!, 2) + "-" + pad(utc.day!, 2) + "T"
            + pad(utc.hour!, 2) + ":" + pad(utc.minute!, 2) + ":" + pad(utc.second!, 2)
        if fraction != 0 { text += "." + pad(Int(fraction), 3) }
        return text + "Z"
    }

    /// Parses what ``utc(_:)`` writes, and any ISO 8601 instant with an explicit offset.
    public static func parse(_ text: String) -> Date? {
        let style = Date.ISO8601FormatStyle(includingFractionalSeconds: text.contains("."))
        return (try? style.parse(text)).map { date in
            Date(timeIntervalSince1970: (date.timeIntervalSince1970 * 1000).rounded() / 1000)
        }
    }

    static func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    private static let utcCalendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }()
}

extension Int64 {
    fileprivate func quotientAndRemainderFlooring(dividingBy divisor: Int64) -> (Int64, Int64) {
        let (quotient, remainder) = quotientAndRemainder(dividingBy: divisor)
        return remainder < 0 ? (quotient - 1, remainder + divisor) : (quotient, remainder)
    }
}
