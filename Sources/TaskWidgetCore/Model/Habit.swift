public import Foundation

/// A habit checked off day by day (seed 002).
public struct Habit: Codable, Sendable, Equatable, Identifiable {
    public var id: UUID
    /// Unique, compared case-insensitively.
    public var name: String
    /// A short text or an emoji shown next to the name.
    public var icon: String
    public var colorHex: String
    public var createdAt: Instant

    /// The icon of a habit created without one.
    public static let defaultIcon = "•"

    public init(id: UUID = .random(), name: String, icon: String, colorHex: String, createdAt: Instant) {
        self.id = id
        self.name = name
        self.icon = icon
        self.colorHex = colorHex
        self.createdAt = createdAt
    }

    /// The stored fields that order habits everywhere, compared in turn: createdAt, id.
    public static let orderFields = ["createdAt", "id"]

    /// The order of ``orderFields``.
    public static func precedes(_ lhs: Habit, _ rhs: Habit) -> Bool {
        (lhs.createdAt.millisecondsSince1970, lhs.id) < (rhs.createdAt.millisecondsSince1970, rhs.id)
    }
}
