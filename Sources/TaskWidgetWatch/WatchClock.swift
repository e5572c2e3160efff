import CLinuxEvents
import Glibc
public import TaskWidgetCore

/// One moment as watch mode sees it: the wall clock (real, or virtual for previews and tests) and
/// the monotonic clock, both in nanoseconds.
public struct WatchInstant: Sendable, Equatable {
    /// Nanoseconds since 1970 (Unix time).
    public var wall: Int64
    /// Nanoseconds of `CLOCK_MONOTONIC`: never set, so it measures intervals.
    public var monotonic: Int64

    public init(wall: Int64, monotonic: Int64) {
        self.wall = wall
        self.monotonic = monotonic
    }

    /// The wall clock to the millisecond (floored), as the store and the timeline count time.
    public var wallInstant: Instant {
        Instant(nanosecondsSince1970: wall)
    }
}

/// The clock watch mode follows: the real one, or a virtual one that starts at `--now` and runs
/// `speed` times faster than real time (a hidden option, so that tests see hours pass in seconds).
public struct WatchClock: Sendable {
    /// The clock a timer for an entry date is set on.
    public enum TimerClock: Sendable, Equatable {
        /// `CLOCK_REALTIME`: the timer fires at the wall-clock instant, across a suspend, and is
        /// cancelled when someone sets the clock.
        case realtime
        case monotonic
    }

    private struct VirtualStart: Sendable {
        var wall: Int64
        var monotonic: Int64
        var speed: Int64
    }

    /// `nil` for the real clock.
    private let virtualStart: VirtualStart?

    /// The real clock.
    public static let real = WatchClock(virtualStart: nil)

    /// A clock that reads `instant` now and runs `speed` times faster than real time (0: stands still).
    public static func virtual(from instant: Instant, speed: Int) -> WatchClock {
        virtual(start: instant.millisecondsSince1970 * 1_000_000, monotonicStart: real.now().monotonic, speed: speed)
    }

    /// A clock that reads `start` (ns since 1970) at `monotonicStart` and runs `speed` times faster;
    /// at speed 0 it stands still (serve's tests look at one moment).
    public static func virtual(start: Int64, monotonicStart: Int64, speed: Int) -> WatchClock {
        WatchClock(virtualStart: VirtualStart(wall: start, monotonic: monotonicStart, speed: Int64(max(0, speed))))
    }

    /// The clock of a command run: the real one, or, when the run was given `--now` or a speed
    /// (`virtual`), a virtual one that starts at `now` and runs `speed` times faster.
    public static func forRun(now: Instant, virtual: Bool, speed: Int?) throws(TaskWidgetError) -> WatchClock {
        guard virtual || speed != nil else { return .real }
        guard virtualStarts.contains(now) else {
            throw TaskWidgetError(
                .invalidInput, "--now must be from 1678 to 2261 for a command that keeps running (its clock counts nanoseconds): give a nearer date")
        }
        return .virtual(from: now, speed: speed ?? 1)
    }

    /// Where a virtual clock may start: its readings are nanoseconds since 1970 in an `Int64`,
    /// which reach from 1677-09-21 to 2262-04-11 (`--now 1600-01-01` crashed watch and notify).
    /// It stops at the end of that range, however fast it runs.
    static let virtualStarts = Instant(secondsSince1970: -9_214_560_000)...Instant(secondsSince1970: 9_214_646_400)

    /// The fastest a virtual clock may run (`--clock-speed`): a day in a tenth of a second.
    public static let maxSpeed = 1_000_000

    public var timerClock: TimerClock { virtualStart == nil ? .realtime : .monotonic }

    /// Wall-clock nanoseconds per monotonic nanosecond: 1 for the real clock.
    public var speed: Int64 { virtualStart?.speed ?? 1 }

    /// The instant for the clocks' readings (`realWall` is ignored by a virtual clock).
    public func instant(realWall: Int64, monotonic: Int64) -> WatchInstant {
        guard let start = virtualStart else { return WatchInstant(wall: realWall, monotonic: monotonic) }
        let (elapsed, isTooFar) = start.speed.multipliedReportingOverflow(by: monotonic - start.monotonic)
        let (wall, isPastTheEnd) = start.wall.addingReportingOverflow(elapsed)
        return WatchInstant(wall: isTooFar || isPastTheEnd ? Int64.max : wall, monotonic: monotonic)
    }

    /// The reading of ``timerClock`` (ns) at which the wall clock reaches `instant`: never
    /// early, so that the entry of that date is current when the timer fires. One past the
    /// clock's nanoseconds (after 2262) is never reached.
    public func timerDeadline(for instant: Instant) -> Int64 {
        let (wall, isPastTheEnd) = instant.millisecondsSince1970.multipliedReportingOverflow(by: 1_000_000)
        guard !isPastTheEnd else { return instant.millisecondsSince1970 < 0 ? 0 : Int64.max }
        guard let start = virtualStart else { return wall }
        let (elapsed, isTooFar) = wall.subtractingReportingOverflow(start.wall)
        guard !isTooFar else { return Int64.max }
        // A clock that stands still reaches nothing later.
        guard start.speed > 0 else { return elapsed <= 0 ? start.monotonic : Int64.max }
        // Rounded up: the virtual wall clock at the deadline is at or after `wall`.
        let (later, isAfterTheEnd) = start.monotonic.addingReportingOverflow(elapsed / start.speed + (elapsed % start.speed > 0 ? 1 : 0))
        return isAfterTheEnd ? Int64.max : later
    }

    /// The first reading of a run: a virtual clock's start, `--now` itself however long the
    /// set-up took since (at 120 times real time, 8 ms of it under load made a first line say
    /// 16:31:01 for `--now 16:31:00`); the real clock's reading now.
    public func firstReading() -> WatchInstant {
        guard let start = virtualStart else { return now() }
        return WatchInstant(wall: start.wall, monotonic: start.monotonic)
    }

    /// Reads the clocks now.
    public func now() -> WatchInstant {
        instant(realWall: Self.read(CLOCK_REALTIME), monotonic: Self.read(CLOCK_MONOTONIC))
    }

    /// A clock's reading in nanoseconds.
    private static func read(_ clock: clockid_t) -> Int64 {
        var time = timespec()
        clock_gettime(clock, &time)
        return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
    }
}

/// Notices that the wall clock was set or that the machine slept: the wall clock moved more than a
/// minute away from what the monotonic clock predicts since the last look.
public struct ClockJumpDetector: Sendable {
    public static let tolerance: Int64 = 60 * 1_000_000_000
    private let speed: Int64
    private var reference: WatchInstant?

    /// A detector for a clock that runs `speed` times faster than the monotonic one.
    public init(speed: Int64 = 1) {
        self.speed = speed
    }

    /// Whether the clock jumped since the previous call; `now` becomes the new reference.
    public mutating func hasJumped(at now: WatchInstant) -> Bool {
        defer { reference = now }
        guard let reference else { return false }
        let drift = (now.wall - reference.wall) - speed * (now.monotonic - reference.monotonic)
        return abs(drift) > Self.tolerance
    }
}
