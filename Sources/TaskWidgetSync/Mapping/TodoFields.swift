public import Foundation
public import TaskWidgetCore

/// The task fields that sync maps to and from a VTODO (SPEC §12), as iCalendar has them: the UID as
/// written and the due date's form beside Core's ``TaskFields``, in Foundation dates.
///
/// Dates are instants; iCalendar carries whole seconds, so compare fields through
/// ``normalized()`` (the mapping and the merge do).
///
/// ```swift
/// let fields = TodoFields(uid: task.id.uuidString, title: task.title, dueDate: task.dueDate,
///                         dueIsDateOnly: TodoFields.isDayWithoutTime(task.dueDate, in: zone),
///                         state: .active, modifiedAt: task.modifiedAt)
/// ```
public struct TodoFields: Sendable, Hashable {
    /// The VTODO's UID as written: a UUID for taskwidget's own tasks, anything for other clients'
    /// (see ``uuid``).
    public var uid: String
    /// SUMMARY.
    public var title: String
    /// DUE as an instant; a DATE reads as 23:59:00 local that day (taskwidget's "day without a time").
    public var dueDate: Date?
    /// Whether the due date means a whole day. Read: the server wrote DUE as a DATE. Write: a
    /// changed due date that is 23:59:00 local is written as a DATE when this is set. It is a hint
    /// about the form only: two fields with the same ``dueDate`` have the same due date.
    public var dueIsDateOnly: Bool
    /// STATUS (with PERCENT-COMPLETE and COMPLETED when STATUS is missing).
    public var state: TaskState
    /// COMPLETED.
    public var completedAt: Date?
    /// CREATED.
    public var createdAt: Date?
    /// LAST-MODIFIED, else DTSTAMP.
    public var modifiedAt: Date?
    /// X-APPLE-SORT-ORDER.
    public var sortOrder: Int?
    /// The instant of the task's reminder VALARM (absolute, or relative to DUE or DTSTART).
    public var reminderDate: Date?

    public init(
        uid: String, title: String, dueDate: Date? = nil, dueIsDateOnly: Bool = false,
        state: TaskState = .notStarted, completedAt: Date? = nil, createdAt: Date? = nil,
        modifiedAt: Date? = nil, sortOrder: Int? = nil, reminderDate: Date? = nil
    ) {
        self.uid = uid
        self.title = title
        self.dueDate = dueDate
        self.dueIsDateOnly = dueIsDateOnly
        self.state = state
        self.completedAt = completedAt
        self.createdAt = createdAt
        self.modifiedAt = modifiedAt
        self.sortOrder = sortOrder
        self.reminderDate = reminderDate
    }

    /// The UID as a UUID (taskwidget's task id) when it is one; `nil` for other clients' UIDs,
    /// which the engine keeps beside the task instead.
    public var uuid: UUID? { UUID(uuidString: uid) }

    /// Whether the task is done (CANCELLED counts, see ``TodoMapping``).
    public var isCompleted: Bool { state == .completed }

    /// The same fields with every date cut to whole seconds, as iCalendar carries them.
    public func normalized() -> TodoFields {
        var copy = self
        copy.dueDate = dueDate.map(Self.wholeSeconds)
        copy.completedAt = completedAt.map(Self.wholeSeconds)
        copy.createdAt = createdAt.map(Self.wholeSeconds)
        copy.modifiedAt = modifiedAt.map(Self.wholeSeconds)
        copy.reminderDate = reminderDate.map(Self.wholeSeconds)
        return copy
    }

    /// Whether `date` is 23:59:00 local in `timeZone`: taskwidget's convention for a due day
    /// without a time (WhenParser's `due` purpose), so the engine sets ``dueIsDateOnly`` with it.
    public static func isDayWithoutTime(_ date: Date?, in timeZone: TimeZone) -> Bool {
        guard let date else { return false }
        // A store may keep dates as milliseconds or doubles: within a millisecond of the minute.
        let seconds = date.timeIntervalSince1970.rounded()
        guard abs(seconds - date.timeIntervalSince1970) < 0.001 else { return false }
        let parts = Calendar.iCalGregorian(in: timeZone).dateComponents(
            [.hour, .minute, .second], from: Date(timeIntervalSince1970: seconds))
        return parts.hour == 23 && parts.minute == 59 && parts.second == 0
    }

    /// Core's fields of this VTODO, for the merge; `listID` is the list of the collection it is in.
    public func taskFields(listID: UUID?) -> TaskFields {
        TaskFields(
            title: title, dueDate: dueDate.map(Instant.init), reminderDate: reminderDate.map(Instant.init), state: state,
            completedAt: completedAt.map(Instant.init), createdAt: createdAt.map(Instant.init),
            modifiedAt: modifiedAt.map(Instant.init), sortOrder: sortOrder, listID: listID)
    }

    /// The VTODO fields of a merged task with this UID. A due date at 23:59 local (taskwidget's
    /// day without a time) is written as a DATE, so that phones show an all-day task.
    public init(uid: String, fields: TaskFields, timeZone: TimeZone) {
        let dueDate = fields.dueDate?.date
        self.init(
            uid: uid, title: fields.title, dueDate: dueDate, dueIsDateOnly: Self.isDayWithoutTime(dueDate, in: timeZone),
            state: fields.state, completedAt: fields.completedAt?.date, createdAt: fields.createdAt?.date,
            modifiedAt: fields.modifiedAt?.date, sortOrder: fields.sortOrder, reminderDate: fields.reminderDate?.date)
    }

    /// `date` cut to the second below (iCalendar has no fractions).
    static func wholeSeconds(_ date: Date) -> Date {
        Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down))
    }
}
