public import Foundation

/// The record of one habit on one local calendar day.
public struct HabitCompletion: Codable, Sendable, Equatable {
    public var habitID: UUID
    public var day: LocalDay
    public var status: HabitStatus

    public init(habitID: UUID, day: LocalDay, status: HabitStatus) {
        self.habitID = habitID
        self.day = day
        self.status = status
    }
}
