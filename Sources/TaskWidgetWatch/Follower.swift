public import SwiftGlibc
public import TaskWidgetCore

/// What a ``FollowLoop`` drives: watch's status lines, serve's cache, notify's reminders. It gets
/// the clock's readings and says when it next needs to wake.
public protocol Follower {
    /// The first look, right after the loop is set up.
    mutating func start(at now: WatchInstant) throws
    /// Does what is due at `now` after waking for `wake` (empty for a timer).
    mutating func handle(_ wake: FollowWake, at now: WatchInstant) throws
    /// The wall-clock instant of the next change (an entry, a reminder); `nil` when none is known.
    var entryDeadline: Instant? { get }
    /// The monotonic instant (ns) of the next follow-up (a debounced check, a paced line).
    var followUpDeadline: Int64? { get }
}

/// More descriptors for a ``FollowLoop`` to sleep on, such as notify's D-Bus connection. The loop
/// asks before each sleep and hands back what happened after it, on its own thread.
public protocol EventSource: AnyObject {
    /// The descriptors to wait on, and the longest wait in milliseconds (-1: no limit).
    func prepare() -> (descriptors: [pollfd], timeout: Int32)
    /// What the descriptors of the last ``prepare()`` reported (their `revents`).
    func dispatch(_ descriptors: [pollfd])
}
