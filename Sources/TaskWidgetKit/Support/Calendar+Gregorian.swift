import Foundation

extension Calendar {
    /// The Gregorian calendar in `timeZone`: the one calendar taskwidget computes days with.
    static func gregorian(in timeZone: TimeZone) -> Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        return calendar
    }
}
