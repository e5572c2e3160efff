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
        id: UUID = .random(), name: String, colorHex: String = TaskList.defaultColorHex,
        createdAt: Instant, sortOrder: Int = 0
    ) {
        self.id = id
        self.name = name
        self.colorHex = colorHex
        self.createdAt = createdAt
        self.sortOrder = sortOrder
    }

    /// What users call the tasks without a list; no list may have this name.
    public static let inboxName = "Inbox"

    /// Whether `name` means the Inbox (`inbox` in any case, compared as ``NameLookup`` compares).
    public static func isInbox(_ name: String) -> Bool {
        NameLookup.isSame(name, inboxName)
    }

    /// The list called `name` among `lists` (in their order), found by ``NameLookup``. As the
    /// Inbox is not a list, `Inbox` is an error that points to `--inbox`.
    public static func named(_ name: String, in lists: [TaskList], creation: String? = nil, namingOthers: Bool = true) throws -> TaskList {
        guard !isInbox(name) else {
            throw TaskWidgetError(
                .notFound, "no list is named Inbox: the Inbox is `--inbox`, the tasks without a list", context: "list not found")
        }
        return try NameLookup.find(name, in: lists, named: \.name, kind: "list", creation: creation, namingOthers: namingOthers)
    }

    /// The stored fields that order lists everywhere, compared in turn: sortOrder, createdAt, id.
    public static let orderFields = ["sortOrder", "createdAt", "id"]

    /// The order of ``orderFields``.
    public static func precedes(_ lhs: TaskList, _ rhs: TaskList) -> Bool {
        (lhs.sortOrder, lhs.createdAt.millisecondsSince1970, lhs.id)
            < (rhs.sortOrder, rhs.createdAt.millisecondsSince1970, rhs.id)
    }
}
