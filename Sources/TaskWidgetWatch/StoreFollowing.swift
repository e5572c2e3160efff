public import Logging
public import TaskWidgetCore

/// Following a store and the clock, as pure logic over the clock readings it is given: file events
/// are debounced into one store check, and the value is read again when the store changed, the
/// wall clock jumped or was set, on a refresh, or when the value is stale. Watch, serve and notify
/// each keep one.
///
/// One check after file events may come too early. SQLite commits in WAL mode by writing its frames
/// to the `-wal` file (the event), syncing them (`synchronous = FULL`), and only then marking them
/// committed in the `-shm` index, which it changes through `mmap`, unseen by inotify. A sync slower
/// than the debounce (a busy disk) made that check find nothing new, and the change went unseen
/// until the next entry. So the store is checked ``checksAfterActivity`` times after file events.
public struct StoreFollowing<Source: FollowedSource> {
    /// File events are checked this long after the first one, so that one write is one check.
    public static var debounce: Int64 { 100_000_000 }
    /// How many times the store is checked after file events: at 0.1, 0.3, 0.7 … 25.5 s after the
    /// first (each interval twice the one before), whatever each check finds. A commit whose sync
    /// takes up to about 13 s is seen within twice its time, and a commit that follows one already
    /// seen is not missed.
    public static var checksAfterActivity: Int { 8 }

    /// The checks that follow file events: when the next is due, the interval before it, and how
    /// many are left after it.
    private struct FollowUp {
        var deadline: Int64
        var interval: Int64
        var remaining: Int
    }

    private var source: Source
    private var clockJumps: ClockJumpDetector
    private var followUp: FollowUp?
    private var storeFailure: TaskWidgetError?
    private var readFailure: TaskWidgetError?
    private let logger: Logger

    /// The value as last read; `nil` before the first read and while the store fails.
    public private(set) var value: Source.Value?

    /// Why there is no value: the store's failure, else the read's.
    public var failure: TaskWidgetError? { storeFailure ?? readFailure }

    /// The monotonic instant (ns) of the next store check.
    public var followUpDeadline: Int64? { followUp?.deadline }

    /// `clockSpeed` is the speed of the clock the instants come from (``WatchClock/speed``).
    public init(source: Source, clockSpeed: Int64 = 1, logger: Logger) {
        self.source = source
        self.clockJumps = ClockJumpDetector(speed: clockSpeed)
        self.logger = logger
    }

    /// Follows `source` instead from now on, and returns the one it followed; the next
    /// ``handle(_:at:)`` should be a refresh, which reads the new source.
    public mutating func replaceSource(with source: Source) -> Source {
        defer { self.source = source }
        return self.source
    }

    /// Does what is due at `now` after waking for `wake` (empty for a timer); true when the value
    /// was read again (or its read failed), which may change what the follower shows.
    public mutating func handle(_ wake: FollowWake, at now: WatchInstant) -> Bool {
        var reread = !wake.isDisjoint(with: [.clockSet, .refresh])
        if clockJumps.hasJumped(at: now) || wake.contains(.clockSet) {
            logger.debug("the wall clock jumped: reading again")
            reread = true
        }
        if wake.contains(.storeActivity), followUp?.interval != Self.debounce {
            // New events start the checks again, unless their first check is still to come.
            let deadline = min(followUp?.deadline ?? .max, now.monotonic + Self.debounce)
            followUp = FollowUp(deadline: deadline, interval: Self.debounce, remaining: Self.checksAfterActivity - 1)
        }
        if wake.contains(.reopen) { source.reopen() }
        var check = wake.contains(.refresh)
        if var due = followUp, now.monotonic >= due.deadline {
            due.interval *= 2
            due.deadline = now.monotonic + due.interval
            due.remaining -= 1
            followUp = due.remaining >= 0 ? due : nil
            check = true
        }
        if check {
            switch source.check() {
            case .unchanged: break
            case .changed:
                storeFailure = nil
                reread = true
            case .failed(let error):
                storeFailure = error
                reread = true
            }
        }
        if let value, source.isStale(value, at: now.wallInstant) { reread = true }
        guard reread || (value == nil && storeFailure == nil) else { return false }
        read(at: now)
        return true
    }

    private mutating func read(at now: WatchInstant) {
        value = nil
        guard storeFailure == nil else { return }
        do {
            value = try source.read(at: now.wallInstant)
            readFailure = nil
        } catch {
            readFailure = error as? TaskWidgetError ?? TaskWidgetError(.ioFailure, "cannot read the store")
        }
    }
}
