public import Foundation

/// The short text that says when a task is due, relative to an instant in the user's time zone:
/// `09:30`, `Today`, `Tomorrow 09:00`, `Mon 24 Nov`, `Overdue · 17:00`, `Overdue · Sat 21 Nov`.
/// English and independent of the locale, so that bars and golden files read the same everywhere.
public struct DueLabeler: Sendable {
    public let timeZone: TimeZone
    private let calendar: Calendar

    public init(timeZone: TimeZone) {
        self.timeZone = timeZone
        self.calendar = Calendar.gregorian(in: timeZone)
    }

    /// The label of a task's due date seen at `instant`, `nil` when it has none. It changes only
    /// when the instant crosses the due date or a local midnight.
    public func label(for task: TaskItem, at instant: Date) -> String? {
        task.dueDate.map { label(for: $0, isOverdue: task.isOverdue(at: instant), at: instant) }
    }

    /// The label for a due date, `isOverdue` as ``TaskItem/isOverdue(at:)`` decides it.
    public func label(for dueDate: Date, isOverdue: Bool, at instant: Date) -> String {
        let dueDay = LocalDay(containing: dueDate, in: timeZone)
        let today = LocalDay(containing: instant, in: timeZone)
        let parts = calendar.dateComponents([.hour, .minute, .weekday, .day, .month, .year], from: dueDate)
        let time = InstantFormat.pad(parts.hour!, 2) + ":" + InstantFormat.pad(parts.minute!, 2)
        // A due date given as a day only is stored as 23:59: show the day, not the minute.
        let isEndOfDay = parts.hour == 23 && parts.minute == 59
        let dayText = Self.dayText(parts) + (parts.year == calendar.component(.year, from: instant) ? "" : " \(parts.year!)")
        // Whole local days between the two dates, counted on the calendar (not in 24 h steps, which
        // miscount days that start at 01:00 or last 23 or 25 hours).
        let dayDistance = InstantFormat.daysSinceEpoch(year: Int64(dueDay.year), month: dueDay.month, day: dueDay.day)
            - InstantFormat.daysSinceEpoch(year: Int64(today.year), month: today.month, day: today.day)

        if isOverdue {
            switch dayDistance {
            case 0: return "Overdue · " + (isEndOfDay ? "Today" : time)
            case -1: return "Overdue · Yesterday" + (isEndOfDay ? "" : " " + time)
            default: return "Overdue · " + dayText
            }
        }
        switch dayDistance {
        case 0: return isEndOfDay ? "Today" : time
        case 1: return "Tomorrow" + (isEndOfDay ? "" : " " + time)
        default: return dayText
        }
    }

    /// The local day of `date` as `Sun 22 Nov` (what a widget's header shows).
    public func dayText(of date: Date) -> String {
        Self.dayText(calendar.dateComponents([.weekday, .day, .month], from: date))
    }

    private static func dayText(_ parts: DateComponents) -> String {
        weekdays[parts.weekday! - 1] + " \(parts.day!) " + months[parts.month! - 1]
    }

    private static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
}
