/// The fields `edit` changes; `nil` leaves a field as it is.
public struct TaskChanges: Sendable {
    /// A change to one optional field: set it to a value, or clear it.
    public enum Change<Value: Sendable>: Sendable {
        case set(Value)
        case clear

        public var value: Value? {
            if case .set(let value) = self { value } else { nil }
        }
    }

    public var title: String?
    public var dueDate: Change<Instant>?
    public var reminderDate: Change<Instant>?
    /// `.set(name)` moves the task to that list, `.clear` to the Inbox.
    public var list: Change<String>?

    public init(
        title: String? = nil, dueDate: Change<Instant>? = nil, reminderDate: Change<Instant>? = nil,
        list: Change<String>? = nil
    ) {
        self.title = title
        self.dueDate = dueDate
        self.reminderDate = reminderDate
        self.list = list
    }

    public var isEmpty: Bool { title == nil && dueDate == nil && reminderDate == nil && list == nil }
}
