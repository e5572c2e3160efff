public import TaskWidgetCore

/// What the store looks like since the previous look.
public enum StoreCheck: Sendable {
    /// Same file, and no other connection committed (`PRAGMA data_version` is the same).
    case unchanged
    /// Opened, reopened (the file was replaced or created) or written by another process.
    case changed
    /// Missing, locked, damaged or too new: the error says which.
    case failed(TaskWidgetError)
}

/// Where a follower reads what it shows: a timeline (watch, serve) or the reminders (notify),
/// from the store (``StoreFollower``), or from a fake in tests.
public protocol FollowedSource {
    associatedtype Value

    /// Looks at the store again, reopening it when its file was replaced or created.
    mutating func check() -> StoreCheck
    /// Closes the store, so that the next ``check()`` opens it again.
    mutating func reopen()
    /// The value from `now` on, read from the store as of the last ``check()``.
    func read(at now: Instant) throws -> Value
    /// Whether `value`, read earlier, must be read again at `now` (a timeline past its reload date).
    func isStale(_ value: Value, at now: Instant) -> Bool
}

/// Why a follower woke up, besides a timer (timers only move time on).
public struct FollowWake: OptionSet, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// A file event on the store, its `-wal` or `-journal`, or its folder.
    public static let storeActivity = FollowWake(rawValue: 1)
    /// The wall clock was set (a `CLOCK_REALTIME` timer was cancelled).
    public static let clockSet = FollowWake(rawValue: 2)
    /// SIGUSR1, or a caller's request: look at the store and read again now.
    public static let refresh = FollowWake(rawValue: 4)
    /// SIGUSR2: show the next view (watch cycles through its views; the others ignore it).
    public static let nextView = FollowWake(rawValue: 8)
    /// SIGUSR1 too: open the store again before looking at it, whatever its files' events said.
    public static let reopen = FollowWake(rawValue: 16)
}
