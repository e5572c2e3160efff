public import Foundation

/// A habit checked off day by day (seed 002).
public struct Habit: Codable, Sendable, Equatable, Identifiable {
    public var id: UUID
    /// Unique, compared case-insensitively.
    public var name: String
    /// A short text or an emoji shown next to the name.
    public var icon: String
    public var colorHex: String
    public var createdAt: Date

    /// The icon of a habit created without one.
    public static let defaultIcon = "•"

    public init(id: UUID = UUID(), name: String, icon: String, colorHex: String, createdAt: Date) {
        self.id = id
        self.name = name
        self.icon = icon
        self.colorHex = colorHex
        self.createdAt = createdAt
    }
}

/// How a habit went on one day.
public enum HabitStatus: String, Codable, Sendable, CaseIterable {
    case done
    case missed
    case skipped
}

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

/// A habit with what happened on one day, as `habit ls` shows it.
public struct HabitDay: Codable, Sendable, Equatable {
    public var habit: Habit
    public var day: LocalDay
    /// `nil` when nothing was recorded that day.
    public var status: HabitStatus?

    /// "Done today" = a done completion on that day (seed 002).
    public var isDone: Bool { status == .done }
}
