public import Logging
public import TaskWidgetCore

/// Following a store and the clock, as pure logic over the clock readings it is given: file events
/// are debounced into one store check, and the value is read again when the store changed, the
/// wall clock jumped or was set, on a refresh, or when the value is stale. Watch, serve and notify
/// each keep one.
public struct StoreFollowing<Source: FollowedSource> {
    /// File events are checked this long after the first one, so that one write is one check.
    public static var debounce: Int64 { 100_000_000 }

    private var source: Source
    private var clockJumps: ClockJumpDetector
    private var checkDeadline: Int64?
    private var storeFailure: TaskWidgetError?
    private var readFailure: TaskWidgetError?
    private let logger: Logger

    /// The value as last read; `nil` before the first read and while the store fails.
    public private(set) var value: Source.Value?

    /// Why there is no value: the store's failure, else the read's.
    public var failure: TaskWidgetError? { storeFailure ?? readFailure }

    /// The monotonic instant (ns) of the next store check.
    public var followUpDeadline: Int64? { checkDeadline }

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
        if wake.contains(.storeActivity), checkDeadline == nil { checkDeadline = now.monotonic + Self.debounce }
        var check = wake.contains(.refresh)
        if let deadline = checkDeadline, now.monotonic >= deadline {
            checkDeadline = nil
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
