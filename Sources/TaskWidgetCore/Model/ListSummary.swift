/// A list with how many tasks it holds, as `list ls` shows it.
public struct ListSummary: Sendable, Equatable {
    public var list: TaskList
    public var openCount: Int
    public var totalCount: Int

    public init(list: TaskList, openCount: Int, totalCount: Int) {
        self.list = list
        self.openCount = openCount
        self.totalCount = totalCount
    }
}
