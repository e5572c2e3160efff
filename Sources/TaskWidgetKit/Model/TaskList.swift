public import Foundation

/// A named, colored list of tasks. The Inbox is not a list: it is the tasks without one.
public struct TaskList: Codable, Sendable, Equatable, Identifiable {
    public var id: UUID
    /// Unique, compared case-insensitively.
    public var name: String
    /// Six uppercase hex digits, without `#`.
    public var colorHex: String
    public var createdAt: Date
    public var sortOrder: Int

    /// The seeds' default list color (system blue).
    public static let defaultColorHex = "007AFF"

    public init(
        id: UUID = UUID(), name: String, colorHex: String = TaskList.defaultColorHex,
        createdAt: Date, sortOrder: Int = 0
    ) {
        self.id = id
        self.name = name
        self.colorHex = colorHex
        self.createdAt = createdAt
        self.sortOrder = sortOrder
    }
}
