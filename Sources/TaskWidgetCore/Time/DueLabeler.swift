public import Foundation

/// The short text that says when a task is due, relative to an instant in the user's time zone:
/// `09:30`, `Today`, `Tomorrow 09:00`, `Fri 27 Nov 14:30`, `Mon 30 Nov`, `Overdue · 17:00`,
/// `Overdue · Sat 21 Nov 14:30`, and for a completed task `Yesterday 17:00`. A time is shown
/// whenever one was given; a due date given as a day alone (stored as 23:59 local, SPEC §4) shows
/// the day only. English and independent of the locale, so that bars and golden files read the
/// same everywhere.
public struct DueLabeler: Sendable {
    public let calendar: LocalCalendar

    public init(calendar: LocalCalendar) {
        self.calendar = calendar
    }

    /// The label of a task's due date seen at `instant`, `nil` when it has none. It changes only
    /// when the instant crosses the due date or a local midnight.
    public func label(for task: TaskItem, at instant: Instant) -> String? {
        task.dueDate.map { label(for: $0, isOverdue: task.isOverdue(at: instant), at: instant) }
    }

    /// Whether `dueDate` was given as a day alone: such a date is stored as 23:59 local (SPEC §4;
    /// the store keeps no all-day flag, nor does the seeds' model), and shows the day, never the
    /// minute or the hours left.
    public static func isDayOnly(_ dueDate: Instant, in timeZone: TimeZone) -> Bool {
        let local = dueDate.secondsSince1970 + Int64(timeZone.secondsFromGMT(for: dueDate.date))
        let secondOfDay = (local % 86_400 + 86_400) % 86_400
        return secondOfDay / 60 == LocalCalendar.dayAloneTime.hour * 60 + LocalCalendar.dayAloneTime.minute
    }

    /// The label for a due date, `isOverdue` as ``TaskItem/isOverdue(at:)`` decides it.
    public func label(for dueDate: Instant, isOverdue: Bool, at instant: Instant) -> String {
        let due = calendar.wallClock(of: dueDate)
        let today = calendar.localDay(containing: instant)
        let time = InstantFormat.clock(hour: due.hour, minute: due.minute)
        let isEndOfDay = Self.isDayOnly(dueDate, in: calendar.timeZone)
        let timeSuffix = isEndOfDay ? "" : " " + time
        let dayText = Self.dayText(weekday: due.weekday, of: due.day) + (due.day.year == today.year ? "" : " \(due.day.year)")
        // Whole local days between the two dates, counted on the calendar (not in 24 h steps, which
        // miscount days that start at 01:00 or last 23 or 25 hours).
        let dayDistance = due.day.ordinal - today.ordinal

        if isOverdue {
            switch dayDistance {
            case 0: return "Overdue · " + (isEndOfDay ? "Today" : time)
            case -1: return "Overdue · Yesterday" + timeSuffix
            default: return "Overdue · " + dayText + timeSuffix
            }
        }
        // Past and not overdue: a completed task's.
        switch dayDistance {
        case 0: return isEndOfDay ? "Today" : time
        case 1: return "Tomorrow" + timeSuffix
        case -1: return "Yesterday" + timeSuffix
        default: return dayText + timeSuffix
        }
    }

    /// The label of an instant whose time of day matters, a reminder's, seen at `instant`: like a
    /// due date's but always with the time, and never "overdue": `16:30`, `Tomorrow 08:00`,
    /// `Yesterday 09:00`, `Fri 27 Nov 17:00`, `Mon 4 Jan 2027 09:00`.
    public func timeLabel(for date: Instant, at instant: Instant) -> String {
        let wall = calendar.wallClock(of: date)
        let today = calendar.localDay(containing: instant)
        let time = InstantFormat.clock(hour: wall.hour, minute: wall.minute)
        switch wall.day.ordinal - today.ordinal {
        case 0: return time
        case 1: return "Tomorrow " + time
        case -1: return "Yesterday " + time
        default: return Self.dayText(weekday: wall.weekday, of: wall.day) + (wall.day.year == today.year ? "" : " \(wall.day.year)") + " " + time
        }
    }

    /// Shorter forms of a label this type made, for a place too narrow for it, longest first:
    /// without its time of day, then without its weekday too (`Overdue · Tue 16 Dec 2025 09:00`,
    /// `Overdue · Tue 16 Dec 2025`, `Overdue · 16 Dec 2025`). The medium widget cut a far due
    /// date in the middle (helper-164).
    public static func shorterForms(of label: String) -> [String] {
        var words = label.split(separator: " ", omittingEmptySubsequences: false)
        var forms: [String] = []
        if let last = words.last, last.count == 5, last.dropFirst(2).first == ":", words.count > 1, words[words.count - 2] != "·" {
            words.removeLast()
            forms.append(words.joined(separator: " "))
        }
        if let weekday = words.firstIndex(where: { weekdays.contains(String($0)) }), weekday + 1 < words.count {
            words.remove(at: weekday)
            forms.append(words.joined(separator: " "))
        }
        return forms
    }

    /// A local day as `Sun 22 Nov` (what a widget's header shows).
    public static func dayText(of day: LocalDay) -> String {
        dayText(weekday: day.weekday, of: day)
    }

    /// `Sun`: the day's weekday, abbreviated.
    public static func weekdayText(of day: LocalDay) -> String {
        weekdays[day.weekday - 1]
    }

    private static func dayText(weekday: Int, of day: LocalDay) -> String {
        weekdays[weekday - 1] + " \(day.day) " + months[day.month - 1]
    }

    private static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
}
