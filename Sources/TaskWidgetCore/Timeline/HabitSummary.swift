/// The habits of an entry's day: how many are done, and each with its status.
public struct HabitSummary: Sendable, Equatable, Hashable {
    /// One habit on the entry's day.
    public struct Item: Sendable, Equatable, Hashable {
        public var name: String
        public var icon: String
        public var colorHex: String
        /// What was recorded for the entry's day, `nil` if nothing.
        public var status: HabitStatus?

        public init(name: String, icon: String, colorHex: String, status: HabitStatus?) {
            self.name = name
            self.icon = icon
            self.colorHex = colorHex
            self.status = status
        }
    }

    public var done: Int
    public var total: Int
    public var items: [Item]

    public init(done: Int, total: Int, items: [Item]) {
        self.done = done
        self.total = total
        self.items = items
    }
}
