public import Foundation

/// The fields of a task that sync and `import` merge one by one, neutral between the store's
/// ``TaskItem``, an export file and a CalDAV server's VTODO (whose fields may be missing: a phone's
/// task has no sort order, a foreign one no creation time).
///
/// Instants compare to the whole second (``normalized()``), because iCalendar carries no fractions.
///
/// ```swift
/// var fields = TaskFields(task)
/// fields.title = "Buy oat milk"
/// ```
public struct TaskFields: Codable, Sendable, Hashable {
    public var title: String
    public var dueDate: Instant?
    public var reminderDate: Instant?
    public var state: TaskState
    public var completedAt: Instant?
    /// `nil` when the other side does not say (a VTODO without CREATED).
    public var createdAt: Instant?
    /// `nil` when the other side does not say (a VTODO without LAST-MODIFIED or DTSTAMP).
    public var modifiedAt: Instant?
    /// `nil` when the other side does not say (no X-APPLE-SORT-ORDER).
    public var sortOrder: Int?
    /// The task's list; `nil` is the Inbox.
    public var listID: UUID?

    public init(
        title: String, dueDate: Instant? = nil, reminderDate: Instant? = nil, state: TaskState = .notStarted,
        completedAt: Instant? = nil, createdAt: Instant? = nil, modifiedAt: Instant? = nil, sortOrder: Int? = nil,
        listID: UUID? = nil
    ) {
        self.title = title
        self.dueDate = dueDate
        self.reminderDate = reminderDate
        self.state = state
        self.completedAt = completedAt
        self.createdAt = createdAt
        self.modifiedAt = modifiedAt
        self.sortOrder = sortOrder
        self.listID = listID
    }

    /// The fields of a stored task.
    public init(_ task: TaskItem) {
        self.init(
            title: task.title, dueDate: task.dueDate, reminderDate: task.reminderDate, state: task.state,
            completedAt: task.completedAt, createdAt: task.createdAt, modifiedAt: task.modifiedAt, sortOrder: task.sortOrder,
            listID: task.listID)
    }

    /// Whether the task is done.
    public var isCompleted: Bool { state == .completed }

    /// The same fields with every instant cut to the whole second below, as iCalendar carries them.
    public func normalized() -> TaskFields {
        var copy = self
        copy.dueDate = dueDate?.flooredToSecond
        copy.reminderDate = reminderDate?.flooredToSecond
        copy.completedAt = completedAt?.flooredToSecond
        copy.createdAt = createdAt?.flooredToSecond
        copy.modifiedAt = modifiedAt?.flooredToSecond
        return copy
    }

    /// Equal in everything a side stores: all fields but `modifiedAt`, instants to the second.
    public func hasSameContent(as other: TaskFields) -> Bool {
        var (lhs, rhs) = (normalized(), other.normalized())
        lhs.modifiedAt = nil
        rhs.modifiedAt = nil
        return lhs == rhs
    }
}

extension TaskItem {
    /// This task with `fields` applied; the fields a side did not give (`nil` creation time, sort
    /// order or modification time) keep the task's own values.
    public func applying(_ fields: TaskFields) -> TaskItem {
        var task = self
        task.title = fields.title
        task.dueDate = fields.dueDate
        task.reminderDate = fields.reminderDate
        task.state = fields.state
        task.isCompleted = fields.state == .completed
        task.completedAt = task.isCompleted ? (fields.completedAt ?? completedAt ?? fields.modifiedAt ?? modifiedAt) : nil
        task.createdAt = fields.createdAt ?? createdAt
        task.modifiedAt = fields.modifiedAt ?? modifiedAt
        task.sortOrder = fields.sortOrder ?? sortOrder
        task.listID = fields.listID
        return task
    }
}

/// One side's copy of a task at merge time.
public enum TaskVersion: Sendable, Hashable {
    /// The side has the task with these fields.
    case present(TaskFields)
    /// The side deleted the task: a tombstone with the time of the deletion, `nil` when it is not
    /// known (a CalDAV server only says that the resource is gone).
    case deleted(at: Instant?)
    /// The side has never had the task, or it is gone without a tombstone. With a base (the task
    /// was in sync before) this counts as a deletion at an unknown time.
    case absent
}

/// What one side must do to reach the merged state.
public enum MergeAction: Sendable, Hashable {
    /// Nothing: the side already has the merged state.
    case none
    /// Create or update the task with these fields.
    case write(TaskFields)
    /// Delete the task.
    case delete
}

/// The fields that merge one by one.
public enum TaskField: String, Sendable, Hashable, CaseIterable, Comparable {
    case title
    case due
    /// `state` with `completedAt`, which change together.
    case completion
    case reminder
    case sortOrder
    case list
    case createdAt

    public static func < (lhs: TaskField, rhs: TaskField) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}

/// A merge's outcome: the agreed state (the next base) and what each side must do.
public struct MergeResult: Sendable, Hashable {
    /// The agreed state: `.present` (the next base), `.deleted` (the tombstone has done its work
    /// once both actions ran) or `.absent`.
    public var merged: TaskVersion
    /// What to do on the local side (the store).
    public var local: MergeAction
    /// What to do on the remote side (the server, or the file being imported).
    public var remote: MergeAction
    /// The fields that both sides changed to different values (names only, for plans and logs).
    public var conflicts: Set<TaskField>

    public init(merged: TaskVersion, local: MergeAction, remote: MergeAction, conflicts: Set<TaskField> = []) {
        self.merged = merged
        self.local = local
        self.remote = remote
        self.conflicts = conflicts
    }
}

/// The conflict rules of the seeds (SPEC §12), pure: base, local and remote in, result out. Sync
/// merges each task with it, and `import` merges an export file's copy of a task with the
/// store's (``merge(stored:incoming:)``), so both follow one set of rules:
///
/// - **Fields** merge one by one (``TaskField``). A field changed on one side since the base takes
///   that side's value. Changed on both sides to different values (or no base to tell), the side
///   with the later `modifiedAt` wins (record-level times: iCalendar has no per-field ones); on a
///   tie, to the second, **the remote copy wins**, so that every device converges on the same
///   value whichever syncs first. `createdAt` takes the earliest.
/// - **Completion is additive.** If a side completed the task since the base (or there is no
///   base), the result is completed, whatever the other side did, earlier or later; when both did,
///   `completedAt` is the earliest (as completing twice keeps the first time). Reopening (`undo`)
///   on one side while the other side left completion alone is an explicit user action and carries
///   over: sync never reopens a task, only `undo` does.
/// - **Deletion is a tombstone.** It deletes the other side's copy unless that copy was edited
///   since the base at or after the deletion (`modifiedAt` ≥ deletion time, to the second: a tie
///   goes to the edit, losing nothing, seed NFR6); then the edit brings the task back. A deletion
///   at an unknown time loses to any edit since the base. Deleted on both sides: nothing to do.
/// - **New on one side** is created on the other; **new on both** (the same id) merges into one
///   task by the rules above without a base.
///
/// `modifiedAt` of the result is the later of the two; a side is written only when a field other
/// than `modifiedAt` differs.
///
/// ```swift
/// let result = TaskMerge.merge(base: lastSynced, local: .present(mine), remote: .deleted(at: nil))
/// if case .write(let fields) = result.local { task = task.applying(fields) }
/// ```
public enum TaskMerge {
    /// Merges one task's local and remote versions against `base`, the fields both sides agreed
    /// on at the last sync (`nil` when the task was never in sync).
    public static func merge(base: TaskFields?, local: TaskVersion, remote: TaskVersion) -> MergeResult {
        let base = base?.normalized()
        switch (Side(local), Side(remote)) {
        case (.present(let local), .present(let remote)):
            return mergePresent(base: base, local: local, remote: remote)

        case (.present(let local), .absent) where base == nil:
            return MergeResult(merged: .present(local), local: .none, remote: .write(local))
        case (.absent, .present(let remote)) where base == nil:
            return MergeResult(merged: .present(remote), local: .write(remote), remote: .none)

        case (.present(let local), .deleted(let at)), (.present(let local), .absent(let at)):
            return editSurvivesDeletion(local, deletedAt: at, base: base)
                ? MergeResult(merged: .present(local), local: .none, remote: .write(local))
                : MergeResult(merged: .deleted(at: at), local: .delete, remote: .none)
        case (.deleted(let at), .present(let remote)), (.absent(let at), .present(let remote)):
            return editSurvivesDeletion(remote, deletedAt: at, base: base)
                ? MergeResult(merged: .present(remote), local: .write(remote), remote: .none)
                : MergeResult(merged: .deleted(at: at), local: .none, remote: .delete)

        case (.deleted(let localAt), .deleted(let remoteAt)):
            return MergeResult(merged: .deleted(at: earliest(localAt, remoteAt)), local: .none, remote: .none)
        case (.deleted(let at), .absent), (.absent, .deleted(let at)):
            return MergeResult(merged: .deleted(at: at), local: .none, remote: .none)
        case (.absent, .absent):
            return MergeResult(merged: .absent, local: .none, remote: .none)
        }
    }

    /// The two-way form `import` uses: the store's task and an export file's copy of it, merged
    /// without a base (so completion stays, and each field goes to the later edit; on a tie, the
    /// file's, but for the place in its list: `move` renumbers a list's tasks without editing them,
    /// and an older copy must not take a task's old place back). Returns the task to store, or
    /// `nil` when the store already has it. The merge
    /// compares whole seconds; each instant it gives keeps the milliseconds of the copy it came
    /// from (the store's, when both have that second), which an updated task lost (helper-101).
    public static func merge(stored: TaskItem, incoming: TaskItem) -> TaskItem? {
        let result = merge(base: nil, local: .present(TaskFields(stored)), remote: .present(TaskFields(incoming)))
        guard case .write(var fields) = result.local else { return nil }
        if stored.modifiedAt.flooredToSecond == incoming.modifiedAt.flooredToSecond { fields.sortOrder = stored.sortOrder }
        func precise(_ merged: Instant?, _ ours: Instant?, _ theirs: Instant?) -> Instant? {
            guard let merged else { return nil }
            return [ours, theirs].compactMap { $0 }.first { $0.flooredToSecond == merged } ?? merged
        }
        fields.dueDate = precise(fields.dueDate, stored.dueDate, incoming.dueDate)
        fields.reminderDate = precise(fields.reminderDate, stored.reminderDate, incoming.reminderDate)
        fields.completedAt = precise(fields.completedAt, stored.completedAt, incoming.completedAt)
        fields.createdAt = precise(fields.createdAt, stored.createdAt, incoming.createdAt)
        // The later one: the store's copy is never made to look older than it was.
        fields.modifiedAt = precise(fields.modifiedAt, max(stored.modifiedAt, incoming.modifiedAt), min(stored.modifiedAt, incoming.modifiedAt))
        return stored.applying(fields)
    }

    /// Whether `edited` (present on one side while the other deleted the task) was edited since
    /// the base at or after the deletion.
    private static func editSurvivesDeletion(_ edited: TaskFields, deletedAt: Instant?, base: TaskFields?) -> Bool {
        if let base, edited.hasSameContent(as: base) { return false }
        guard let deletedAt else { return true }
        guard let modifiedAt = edited.modifiedAt else { return false }
        return modifiedAt >= deletedAt
    }

    private static func mergePresent(base: TaskFields?, local: TaskFields, remote: TaskFields) -> MergeResult {
        // The side that wins a field both sides changed: strictly later, else the remote one.
        let localIsLater = (local.modifiedAt ?? .distantPast) > (remote.modifiedAt ?? .distantPast)
        var merged = remote
        var conflicts: Set<TaskField> = []

        func pick<Value: Equatable>(_ field: TaskField, _ value: (TaskFields) -> Value) -> TaskFields {
            let localValue = value(local)
            let remoteValue = value(remote)
            if localValue == remoteValue { return local }
            if let base {
                let localChanged = value(base) != localValue
                let remoteChanged = value(base) != remoteValue
                if localChanged && !remoteChanged { return local }
                if remoteChanged && !localChanged { return remote }
            }
            conflicts.insert(field)
            return localIsLater ? local : remote
        }

        merged.title = pick(.title, \.title).title
        merged.dueDate = pick(.due, \.dueDate).dueDate
        merged.reminderDate = pick(.reminder, \.reminderDate).reminderDate
        merged.sortOrder = pick(.sortOrder, \.sortOrder).sortOrder
        merged.listID = pick(.list, \.listID).listID
        merged.createdAt = earliest(local.createdAt, remote.createdAt)
        let ordinary = pick(.completion) { Completion($0) }
        (merged.state, merged.completedAt) = completion(base: base, local: local, remote: remote, ordinary: ordinary)
        merged.modifiedAt = latest(local.modifiedAt, remote.modifiedAt)

        return MergeResult(
            merged: .present(merged),
            local: merged.hasSameContent(as: local) ? .none : .write(merged),
            remote: merged.hasSameContent(as: remote) ? .none : .write(merged),
            conflicts: conflicts)
    }

    /// State and completion time, which change together.
    private struct Completion: Equatable {
        var state: TaskState
        var completedAt: Instant?
        init(_ fields: TaskFields) {
            state = fields.state
            completedAt = fields.completedAt
        }
    }

    /// Additive completion: a side that completed the task since the base wins; else `ordinary`,
    /// the side the ordinary field rule picked.
    private static func completion(
        base: TaskFields?, local: TaskFields, remote: TaskFields, ordinary: TaskFields
    ) -> (TaskState, Instant?) {
        func completedIt(_ side: TaskFields) -> Bool {
            side.isCompleted && base.map { Completion($0) != Completion(side) } ?? true
        }
        switch (completedIt(local), completedIt(remote)) {
        case (true, true):
            let (local, remote) = (Completion(local), Completion(remote))
            guard local != remote else { return (local.state, local.completedAt) }
            return (.completed, earliest(local.completedAt, remote.completedAt))
        case (true, false): return (local.state, local.completedAt)
        case (false, true): return (remote.state, remote.completedAt)
        case (false, false): return (ordinary.state, ordinary.completedAt)
        }
    }

    private static func earliest(_ lhs: Instant?, _ rhs: Instant?) -> Instant? {
        guard let lhs, let rhs else { return lhs ?? rhs }
        return min(lhs, rhs)
    }

    private static func latest(_ lhs: Instant?, _ rhs: Instant?) -> Instant? {
        guard let lhs, let rhs else { return lhs ?? rhs }
        return max(lhs, rhs)
    }

    /// A version with instants to the second, and `.absent` as a deletion at an unknown time.
    private enum Side {
        case present(TaskFields)
        case deleted(Instant?)
        case absent(Instant?)

        init(_ version: TaskVersion) {
            switch version {
            case .present(let fields): self = .present(fields.normalized())
            case .deleted(let at): self = .deleted(at?.flooredToSecond)
            case .absent: self = .absent(nil)
            }
        }
    }
}

extension Instant {
    /// Earlier than any instant a task can hold.
    static let distantPast = Instant(millisecondsSince1970: .min)
}
