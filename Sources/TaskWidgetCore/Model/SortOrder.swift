/// The user's order of the tasks in a list, and of the lists: whole numbers, lowest first.
public enum SortOrder {
    /// The order of an item put after `last` (`nil`: there is none yet, 0): one more, or the largest
    /// again when `last` is the largest, which an import or a sync server may give. Items at one
    /// order are told apart by their creation date, then their id, so nothing traps on an overflow.
    public static func after(_ last: Int?) -> Int {
        guard let last else { return 0 }
        return last == .max ? .max : last + 1
    }
}
