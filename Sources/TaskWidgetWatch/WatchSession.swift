import Foundation
public import Logging
public import TaskWidgetCore
public import TaskWidgetFormats

/// What the store looks like since the previous look.
public enum StoreCheck: Sendable {
    /// Same file, and no other connection committed (`PRAGMA data_version` is the same).
    case unchanged
    /// Opened, reopened (the file was replaced or created) or written by another process.
    case changed
    /// Missing, locked, damaged or too new: the error says which.
    case failed(TaskWidgetError)
}

/// Where watch mode reads its timelines: the store (``StoreFollower``), or a fake in tests.
public protocol TimelineSource {
    /// Looks at the store again, reopening it when its file was replaced or created.
    mutating func check() -> StoreCheck
    /// The timeline from `now` on, read from the store as of the last ``check()``.
    func timeline(at now: Instant) throws -> Timeline
}

/// Something besides the status line that follows the current entry, such as the PNGs of
/// `--render-dir`: it is shown each entry that becomes current (at its date, after a store change,
/// a refresh or a clock jump), never the same entry twice in a row.
public protocol EntryOutput {
    mutating func show(_ entry: TimelineEntry) throws
}

/// Where the lines go (standard output, or an array in tests). Throws when the reader is gone.
public protocol LineSink {
    mutating func write(_ text: String) throws
}

/// What watch mode does on each wake-up, as pure logic over the clock readings it is given: it
/// follows the timeline, checks the store after a debounce, paces lines and prints only changes.
/// The event loop arms its timers at ``entryDeadline`` and ``followUpDeadline`` after each call.
///
/// ```swift
/// var session = WatchSession(source: follower, renderer: renderer, sink: output, logger: logger)
/// try session.start(at: clock.now())
/// try session.handle([.storeActivity], at: clock.now())
/// ```
public struct WatchSession {
    /// Why the loop woke up, besides a timer (timers only move time on).
    public struct Wake: OptionSet, Sendable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }

        /// A file event on the store, its `-wal` or `-journal`, or its folder.
        public static let storeActivity = Wake(rawValue: 1)
        /// The wall clock was set (a `CLOCK_REALTIME` timer was cancelled).
        public static let clockSet = Wake(rawValue: 2)
        /// SIGUSR1: look at the store and recompute now.
        public static let refresh = Wake(rawValue: 4)
    }

    /// File events are checked this long after the first one, so that one write is one check.
    public static let debounce: Int64 = 100_000_000
    /// At most one line per second; a line after a quiet second (or after the first line) prints at once.
    public static let lineInterval: Int64 = 1_000_000_000

    private var source: any TimelineSource
    private let renderer: StatusRenderer
    private let framing: LineFraming
    private let maxWidth: Int
    private var sink: any LineSink
    private var outputs: [any EntryOutput]
    private let logger: Logger

    private var storeFailure: TaskWidgetError?
    private var timelineFailure: TaskWidgetError?
    private var timeline: Timeline?
    private var currentEntry: TimelineEntry?
    private var clockJumps: ClockJumpDetector
    private var checkDeadline: Int64?
    private var pendingLine: String?
    private var lastLine: String?
    private var lastLineTime: Int64?
    private var reportedFailure: String?

    /// `clockSpeed` is the speed of the clock the instants come from (``WatchClock/speed``).
    public init(
        source: any TimelineSource, renderer: StatusRenderer, maxWidth: Int = 40, sink: any LineSink,
        outputs: [any EntryOutput] = [], clockSpeed: Int64 = 1, logger: Logger
    ) {
        self.clockJumps = ClockJumpDetector(speed: clockSpeed)
        self.source = source
        self.renderer = renderer
        self.framing = LineFraming(format: renderer.format)
        self.maxWidth = maxWidth
        self.sink = sink
        self.outputs = outputs
        self.logger = logger
    }

    /// The instant of the next entry, when the line may change on its own.
    public var entryDeadline: Instant? { currentEntry?.nextChange }

    /// The monotonic instant (ns) of the next store check or paced line.
    public var followUpDeadline: Int64? {
        let lineDeadline = pendingLine == nil ? nil : lastLineTime.map { $0 + Self.lineInterval }
        return [checkDeadline, lineDeadline].compactMap { $0 }.min()
    }

    /// Prints the stream's header, if its format has one, and the first line.
    public mutating func start(at now: WatchInstant) throws {
        if let header = framing.header { try sink.write(header) }
        try handle(.refresh, at: now)
    }

    /// Does what is due at `now` after waking for `wake` (empty for a timer).
    public mutating func handle(_ wake: Wake, at now: WatchInstant) throws {
        var recompute = !wake.isDisjoint(with: [.clockSet, .refresh])
        if clockJumps.hasJumped(at: now) || wake.contains(.clockSet) {
            logger.debug("the wall clock jumped: recomputing the timeline")
            recompute = true
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
                recompute = true
            case .failed(let error):
                storeFailure = error
                recompute = true
            }
        }
        if let timeline, now.wallInstant >= timeline.reloadAfter || now.wallInstant < timeline.generatedAt {
            recompute = true
        }
        if recompute || timeline == nil { computeTimeline(at: now) }
        try show(at: now)
    }

    private mutating func computeTimeline(at now: WatchInstant) {
        timeline = nil
        guard storeFailure == nil else { return }
        do {
            timeline = try source.timeline(at: now.wallInstant)
            timelineFailure = nil
        } catch {
            timelineFailure = error as? TaskWidgetError ?? TaskWidgetError(.ioFailure, "cannot compute the timeline")
        }
    }

    private mutating func show(at now: WatchInstant) throws {
        let entry = timeline?.entry(at: now.wallInstant)
        if entry != currentEntry, let entry {
            for index in outputs.indices {
                do {
                    try outputs[index].show(entry)
                } catch {
                    logger.warning("an entry output failed: \((error as? TaskWidgetError)?.logDescription ?? "\(type(of: error))")")
                }
            }
        }
        currentEntry = entry
        var failure = storeFailure ?? timelineFailure
        var line: String?
        if let entry, let timeline {
            do {
                line = try renderer.line(for: entry, timeZone: timeline.timeZone, now: nil, maxWidth: maxWidth)
            } catch {
                failure = error as? TaskWidgetError ?? TaskWidgetError(.badTemplate, "the status line cannot be rendered")
            }
        }
        if let failure {
            // Logs name the failure by its code, never by its message, which may quote a list's name.
            if failure.logDescription != reportedFailure { logger.error("\(failure.logDescription)") }
            line = StatusFallback.line(format: renderer.format, message: failure.message)
        }
        reportedFailure = failure?.logDescription
        if let line { try offer(line, at: now) }
    }

    /// Prints `line` unless it is the last one printed; within a second of that one, it waits for
    /// the second to end (and a newer line replaces it meanwhile).
    private mutating func offer(_ line: String, at now: WatchInstant) throws {
        pendingLine = line == lastLine ? nil : line
        guard let line = pendingLine else { return }
        if let lastLineTime, now.monotonic < lastLineTime + Self.lineInterval { return }
        try sink.write(framing.frame(line, isFirst: lastLine == nil))
        // The first line starts no interval: a change right after it is not a burst.
        if lastLine != nil { lastLineTime = now.monotonic }
        lastLine = line
        pendingLine = nil
    }
}

/// How lines are framed on the stream: one per line, or for i3bar the protocol's header and one
/// element of an endless JSON array per line.
public struct LineFraming: Sendable {
    public let format: StatusFormat

    public init(format: StatusFormat) {
        self.format = format
    }

    /// What comes before the first line.
    public var header: String? {
        format == .i3bar ? "{\"version\":1}\n[\n" : nil
    }

    /// The text that carries `line` (i3bar: an array holding the one block).
    public func frame(_ line: String, isFirst: Bool) -> String {
        guard format == .i3bar else { return line + "\n" }
        return (isFirst ? "[" : ",[") + line + "]\n"
    }
}
