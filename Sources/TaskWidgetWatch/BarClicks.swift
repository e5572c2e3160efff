import Foundation
public import Glibc
public import Logging
public import TaskWidgetCore

/// A click on the bar's block, as i3bar and swaybar report it: `button` 1 left, 2 middle, 3 right,
/// 4 and 5 the scroll wheel up and down.
public struct BarClick: Sendable, Equatable, Decodable {
    public var button: Int

    public init(button: Int) {
        self.button = button
    }
}

/// Where a ``ClickableWatch`` gets its clicks: one more source for the ``FollowLoop`` to sleep on.
public protocol ClickSource: EventSource {
    /// Takes the clicks received so far, oldest first.
    func takeClicks() -> [BarClick]
}

/// The click events that i3bar and swaybar write to watch's standard input once its header asks for
/// them (`"click_events": true`): an endless JSON array, one click object a line after a `[` or a
/// `,`. One more source for the ``FollowLoop`` to sleep on: it reads only when `poll` says there is
/// something to read (never blocking, never spinning), and is done at end of input.
///
/// ```swift
/// let clicks = BarClickInput()  // standard input
/// try FollowLoop.run(&follower, clock: clock, storePath: path, options: .init(sources: [clicks]), logger: logger)
/// ```
public final class BarClickInput: ClickSource {
    private let descriptor: Int32
    private var pending: [UInt8] = []
    private var clicks: [BarClick] = []
    private var ended = false
    /// A line longer than this is no click: it is dropped rather than kept growing.
    private static let longestLine = 64 * 1024

    public init(descriptor: Int32 = STDIN_FILENO) {
        self.descriptor = descriptor
    }

    public func prepare() -> (descriptors: [pollfd], timeout: Int32) {
        (ended ? [] : [pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)], -1)
    }

    /// One `read` per wake-up that `poll` reported (the descriptor is left blocking: it may be a
    /// terminal shared with a shell); what is left wakes the loop again at once.
    public func dispatch(_ descriptors: [pollfd]) {
        guard let reported = descriptors.first, reported.revents != 0 else { return }
        var chunk = [UInt8](repeating: 0, count: 4096)
        let count = read(descriptor, &chunk, chunk.count)
        if count < 0 && (errno == EINTR || errno == EAGAIN) { return }
        guard count > 0 else {
            ended = true
            return
        }
        receive(chunk[..<count])
    }

    public func takeClicks() -> [BarClick] {
        defer { clicks = [] }
        return clicks
    }

    /// Adds `bytes` of the stream and keeps the clicks of the lines they complete.
    func receive(_ bytes: some Collection<UInt8>) {
        pending += bytes
        while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
            if let click = Self.click(in: pending[..<newline]) { clicks.append(click) }
            pending.removeSubrange(...newline)
        }
        if pending.count > Self.longestLine { pending = [] }
    }

    /// The click of one line of the stream (`[`, `,{"name":…,"button":1,…}`), or `nil` for a line
    /// that holds none.
    static func click(in line: some Collection<UInt8>) -> BarClick? {
        let object = line.drop { $0 == UInt8(ascii: "[") || $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
        guard object.first == UInt8(ascii: "{") else { return nil }
        return try? JSONDecoder().decode(BarClick.self, from: Data(object))
    }
}

/// A ``WatchSession`` that the bar's clicks steer (from i3bar's stream, or sent as signals): the
/// scroll wheel moves through the views (up: the one before, down: the next), and the other
/// buttons run the command `command` gives for the button, the entry shown and the moment
/// (`taskwidget done ID` for the task the line names, say), which changes the store as the user's
/// own command would: watch itself stays a reader. The command's standard input and output are
/// /dev/null (they are the bar's stream).
public struct ClickableWatch<Source: FollowedSource>: Follower where Source.Value == Timeline {
    public private(set) var session: WatchSession<Source>
    private let inputs: [any ClickSource]
    private let command: (_ click: BarClick, _ shown: TimelineEntry?, _ now: Instant) -> [String]?
    private let logger: Logger
    /// Commands started and not yet waited for.
    private var running: [pid_t] = []
    /// The view shown, the task its line names, and since when (monotonic ns) when the store's
    /// change, not a new view, made it name that task (``settlingTime``).
    private var shown: (view: Int, task: UUID?, since: Int64?) = (0, nil, nil)

    /// A click within this time (ns) of a line naming another task after a change of the store,
    /// or while a newer line waits to be printed, is not run: it was aimed at the task before, as
    /// the second click of a double click, which completed a second task barely shown
    /// (helper-154). A view the user scrolled to counts at once.
    static var settlingTime: Int64 { 500_000_000 }

    public init(
        session: WatchSession<Source>, inputs: [any ClickSource], logger: Logger,
        command: @escaping (_ click: BarClick, _ shown: TimelineEntry?, _ now: Instant) -> [String]?
    ) {
        self.session = session
        self.inputs = inputs
        self.logger = logger
        self.command = command
    }

    public var entryDeadline: Instant? { session.entryDeadline }
    public var followUpDeadline: Int64? { session.followUpDeadline }

    public mutating func start(at now: WatchInstant) throws {
        try session.start(at: now)
        shown = (session.viewIndex, session.shownEntry?.next?.id, nil)
    }

    public mutating func handle(_ wake: FollowWake, at now: WatchInstant) throws {
        running.removeAll { waitpid($0, nil, WNOHANG) != 0 }
        for click in inputs.flatMap({ $0.takeClicks() }) {
            switch click.button {
            case 4: try session.showView(offset: -1, at: now)
            case 5: try session.showView(offset: 1, at: now)
            default:
                if session.holdsNewerLine || shown.since.map({ now.monotonic - $0 < Self.settlingTime }) == true {
                    logger.notice("button \(click.button): not run, the line named another task until less than 0.5 s ago")
                    continue
                }
                guard let arguments = command(click, session.shownEntry, now.wallInstant), let program = arguments.first else { continue }
                do {
                    running.append(try Self.spawn(program, Array(arguments.dropFirst())))
                    logger.debug("button \(click.button): started \(program)")
                } catch {
                    logger.error("cannot run \(program) for button \(click.button): \(error)")
                }
            }
            noteShown(at: now)
        }
        try session.handle(wake, at: now)
        noteShown(at: now)
    }

    /// Notes the task the printed line names: since it was printed when the store's change made
    /// it another.
    private mutating func noteShown(at now: WatchInstant) {
        guard !session.holdsNewerLine else { return }
        let task = session.shownEntry?.next?.id
        if session.viewIndex != shown.view {
            shown = (session.viewIndex, task, nil)
        } else if task != shown.task {
            shown = (shown.view, task, session.lineWrittenAt ?? now.monotonic)
        }
    }

    /// Starts `program` with standard input and output on /dev/null, standard error shared.
    private static func spawn(_ program: String, _ arguments: [String]) throws(SystemError) -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0)
        return try CleanSpawn.spawn(program, arguments, actions: &actions)
    }
}
