import Foundation
public import Logging
public import TaskWidgetCore
public import TaskWidgetFormats

/// Something besides the status line that follows the current entry, such as the PNGs of
/// `--render-dir`: it is shown each entry that becomes current (at its date, after a store change,
/// a refresh or a clock jump), never the same entry twice in a row.
public protocol EntryOutput {
    mutating func show(_ entry: TimelineEntry) throws
    /// Shows that there is no entry to show, and why: the store cannot be read.
    mutating func showUnavailable(_ message: String) throws
}

/// Where the lines go (standard output, or an array in tests). Throws when the reader is gone.
public protocol LineSink {
    mutating func write(_ text: String) throws
}

/// What watch mode does on each wake-up, as pure logic over the clock readings it is given: it
/// follows the timeline (``StoreFollowing``) of one of its views, paces lines and prints only
/// changes; SIGUSR2 (``FollowWake/nextView``) and ``showView(offset:at:)`` move through the views.
/// The ``FollowLoop`` arms its timers at ``entryDeadline`` and ``followUpDeadline`` after each call.
///
/// ```swift
/// var session = WatchSession(views: [all, work], renderer: renderer, sink: output, logger: logger)
/// try session.start(at: clock.now())
/// try session.handle([.storeActivity], at: clock.now())
/// ```
public struct WatchSession<Source: FollowedSource>: Follower where Source.Value == Timeline {
    /// At most one line per second; a line after a quiet second (or after the first line) prints at once.
    public static var lineInterval: Int64 { 1_000_000_000 }

    private var following: StoreFollowing<Source>
    /// The views' sources; the one shown is in ``following``, its slot here holds an old copy.
    private var views: [Source]
    /// Which of the views is shown.
    public private(set) var viewIndex: Int
    private let renderer: StatusRenderer
    private let framing: LineFraming
    private let maxWidth: Int
    private var sink: any LineSink
    private var outputs: [any EntryOutput]
    private let logger: Logger

    private var currentEntry: TimelineEntry?
    private var pendingLine: String?
    private var lastLine: String?
    private var lastLineTime: Int64?
    private var reportedFailure: String?

    /// Shows `views[viewIndex]` first. `clockSpeed` is the speed of the clock the instants come
    /// from (``WatchClock/speed``).
    public init(
        views: [Source], showing viewIndex: Int = 0, renderer: StatusRenderer, maxWidth: Int = StatusRenderer.defaultMaxWidth, sink: any LineSink,
        outputs: [any EntryOutput] = [], clockSpeed: Int64 = 1, logger: Logger
    ) {
        precondition(views.indices.contains(viewIndex), "no view \(viewIndex) among \(views.count)")
        self.following = StoreFollowing(source: views[viewIndex], clockSpeed: clockSpeed, logger: logger)
        self.views = views
        self.viewIndex = viewIndex
        self.renderer = renderer
        self.framing = LineFraming(format: renderer.format)
        self.maxWidth = maxWidth
        self.sink = sink
        self.outputs = outputs
        self.logger = logger
    }

    /// The instant of the next entry, when the line may change on its own, or the timeline's
    /// ``Timeline/rereadDeadline`` when it comes first, as serve's: a view's `due_within` horizon
    /// moves with the clock, and a task that came within it waited for the next entry, 13 minutes
    /// after it was overdue (helper-116).
    public var entryDeadline: Instant? {
        guard let nextChange = currentEntry?.nextChange else { return nil }
        return min(nextChange, following.value?.rereadDeadline ?? nextChange)
    }

    /// The entry the line shows (the last one worked out), `nil` while the store cannot be read.
    public var shownEntry: TimelineEntry? { currentEntry }

    /// Whether a newer line waits for its second (``lineInterval``): the bar shows an older one
    /// than ``shownEntry``.
    public var holdsNewerLine: Bool { pendingLine != nil }

    /// When (monotonic ns) the last line was printed.
    public private(set) var lineWrittenAt: Int64?

    /// The monotonic instant (ns) of the next store check or paced line.
    public var followUpDeadline: Int64? {
        let lineDeadline = pendingLine == nil ? nil : lastLineTime.map { $0 + Self.lineInterval }
        return [following.followUpDeadline, lineDeadline].compactMap { $0 }.min()
    }

    /// Prints the stream's header, if its format has one, and the first line.
    public mutating func start(at now: WatchInstant) throws {
        if let header = framing.header { try sink.write(header) }
        try handle(.refresh, at: now)
    }

    /// Does what is due at `now` after waking for `wake` (empty for a timer).
    public mutating func handle(_ wake: FollowWake, at now: WatchInstant) throws {
        var wake = wake
        if wake.contains(.nextView) {
            wake.remove(.nextView)
            if switchView(offset: 1) { wake.insert(.refresh) }
        }
        _ = following.handle(wake, at: now)
        try show(at: now)
    }

    /// Shows the view `offset` places after the one shown, in a cycle (before it when negative).
    public mutating func showView(offset: Int, at now: WatchInstant) throws {
        if switchView(offset: offset) { try handle(.refresh, at: now) }
    }

    /// Follows the view `offset` places on; false when there is no other view.
    private mutating func switchView(offset: Int) -> Bool {
        let next = ((viewIndex + offset) % views.count + views.count) % views.count
        guard next != viewIndex else { return false }
        views[viewIndex] = following.replaceSource(with: views[next])
        viewIndex = next
        logger.debug("showing view \(next + 1) of \(views.count)")
        return true
    }

    private mutating func show(at now: WatchInstant) throws {
        let timeline = following.value
        let entry = timeline?.entry(at: now.wallInstant)
        if entry != currentEntry || (entry == nil && following.failure != nil) {
            for index in outputs.indices {
                do {
                    if let entry {
                        try outputs[index].show(entry)
                    } else if let failure = following.failure {
                        // A dashboard must not go on showing the tasks of a store that is gone.
                        try outputs[index].showUnavailable(failure.message)
                    }
                } catch {
                    logger.warning("an entry output failed: \((error as? TaskWidgetError)?.logDescription ?? "\(type(of: error))")")
                }
            }
        }
        currentEntry = entry
        var failure = following.failure
        var line: String?
        if let entry, let timeline {
            do {
                line = try renderer.line(for: entry, timeZone: timeline.timeZone, now: nil, maxWidth: maxWidth)
            } catch {
                failure = error as? TaskWidgetError ?? TaskWidgetError(.badTemplate, "the status line cannot be rendered")
            }
        }
        if let failure {
            // Logs name the failure by its code, never by its message, which may quote a list's
            // name; a cycle of views says which one failed by its place in the cycle.
            let description = (views.count > 1 ? "view \(viewIndex + 1) of \(views.count): " : "") + failure.logDescription
            if description != reportedFailure { logger.error("\(description)") }
            reportedFailure = description
            line = StatusFallback.line(format: renderer.format, message: failure.message)
        } else {
            reportedFailure = nil
        }
        if let line { try offer(line, at: now) }
    }

    /// Prints `line` unless it is the last one printed; within a second of that one, it waits for
    /// the second to end (and a newer line replaces it meanwhile).
    private mutating func offer(_ line: String, at now: WatchInstant) throws {
        pendingLine = line == lastLine ? nil : line
        guard let line = pendingLine else { return }
        if let lastLineTime, now.monotonic < lastLineTime + Self.lineInterval { return }
        try sink.write(framing.frame(line, isFirst: lastLine == nil))
        lineWrittenAt = now.monotonic
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

    /// What comes before the first line. i3bar and swaybar are asked for click events, which
    /// watch reads from standard input (``BarClickInput``).
    public var header: String? {
        format == .i3bar ? "{\"version\":1,\"click_events\":true}\n[\n" : nil
    }

    /// The text that carries `line` (i3bar: an array holding the one block).
    public func frame(_ line: String, isFirst: Bool) -> String {
        guard format == .i3bar else { return line + "\n" }
        return (isFirst ? "[" : ",[") + line + "]\n"
    }
}
