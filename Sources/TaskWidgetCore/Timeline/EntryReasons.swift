/// Why a timeline has an entry at an instant; an instant keeps the union of its reasons.
public struct EntryReasons: OptionSet, Sendable, Hashable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    public static let now = EntryReasons(rawValue: 1)
    public static let cadence = EntryReasons(rawValue: 2)
    public static let due = EntryReasons(rawValue: 4)
    public static let midnight = EntryReasons(rawValue: 8)

    private static let named: [(EntryReasons, String)] = [(.now, "now"), (.cadence, "cadence"), (.due, "due"), (.midnight, "midnight")]

    /// The reasons' names in a fixed order: `now`, `cadence`, `due`, `midnight`.
    public var names: [String] {
        Self.named.filter { contains($0.0) }.map(\.1)
    }

    /// The reasons named (unknown names are ignored).
    public init(names: [String]) {
        self = Self.named.filter { names.contains($0.1) }.reduce(into: []) { $0.insert($1.0) }
    }
}
