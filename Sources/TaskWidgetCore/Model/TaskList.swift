public import Foundation

/// A named, colored list of tasks. The Inbox is not a list: it is the tasks without one.
public struct TaskList: Codable, Sendable, Equatable, Identifiable {
    public var id: UUID
    /// Unique, compared case-insensitively.
    public var name: String
    /// Six uppercase hex digits, without `#`.
    public var colorHex: String
    public var createdAt: Instant
    public var sortOrder: Int

    /// The seeds' default list color (system blue).
    public static let defaultColorHex = "007AFF"

    public init(
        id: UUID = UUID(), name: String, colorHex: String = TaskList.defaultColorHex,
        createdAt: Instant, sortOrder: Int = 0
    ) {
        self.id = id
        self.name = name
        self.colorHex = colorHex
        self.createdAt = createdAt
        self.sortOrder = sortOrder
    }

    /// The stored fields that order lists everywhere, compared in turn: sortOrder, createdAt, id.
    public static let orderFields = ["sortOrder", "createdAt", "id"]

    /// The order of ``orderFields``.
    public static func precedes(_ lhs: TaskList, _ rhs: TaskList) -> Bool {
        (lhs.sortOrder, lhs.createdAt.millisecondsSince1970, lhs.id.uuidString)
            < (rhs.sortOrder, rhs.createdAt.millisecondsSince1970, rhs.id.uuidString)
    }
}
