public import Foundation
import NIOCore
import NIOFoundationCompat
import Synchronization
public import TaskWidgetCore
public import TaskWidgetFormats

/// One published change: what `/events` sends.
public struct DashboardEvent: Sendable, Equatable {
    /// Increases by one with every change; the SSE `id:`.
    public var version: UInt64
    /// The SSE `data:` line (one line of JSON).
    public var json: String
}

/// The server's cache: what the store follower last published, and every representation made from
/// it, replaced as a whole when what a viewer sees changes. Reads take a lock for a dictionary
/// lookup; drawing and formatting happen outside it, at most once per publication and key.
public final class DashboardCache: Sendable {
    /// What is being served now.
    public struct Published: Sendable {
        public var version: UInt64
        /// `nil` while the store cannot be read (routes answer 503); `failure` says why.
        public var state: DashboardState?
        public var failure: TaskWidgetError?
        public var event: DashboardEvent
        /// The status line of the `text` format, for the page (the failure's message without a state).
        public var statusText: String
        /// The next changes of the status line, for the page.
        public var upcoming: [UpcomingLine]
        fileprivate var identity: String
        /// Increases with every publication, `version` only with those a viewer sees: a
        /// representation made from an earlier one is not kept.
        fileprivate var generation: UInt64 = 0
        fileprivate var widgets: [WidgetImageSpec: Representation] = [:]
        fileprivate var lines: [StatusFormat: Representation] = [:]
        fileprivate var timeline: Representation?
    }

    /// What an image shows: the current entry, or why there is none.
    public enum Picture: Sendable {
        case entry(TimelineEntry)
        case unavailable(message: String)
    }

    /// Draws an image (the renderer, or a stand-in in tests).
    public typealias Drawing = @Sendable (WidgetImageSpec, Picture) throws -> Data

    private let draw: Drawing
    /// Where images are drawn, one at a time (see ``widget(_:isSending:)``).
    private let drawer = DispatchQueue(label: "taskwidget-serve drawing")
    /// The images waiting for their turn on ``drawer``, in the order asked.
    private let waiting = Mutex<[DrawingJob]>([])
    private let renderers: [StatusFormat: StatusRenderer]
    private let now: @Sendable () -> Instant
    private let published: Mutex<Published>
    /// Who waits for the first publication, until it comes (`nil` after).
    private let firstWaiters = Mutex<[CheckedContinuation<Void, Never>]?>([])
    /// Bounds the memo: every distinct query is a distinct image.
    private let maximumWidgets = 64

    /// A cache with nothing published yet (routes answer 503 until the follower publishes).
    /// `renderers` gives each status format's renderer; `now` tells the time (the follower's
    /// clock: virtual with `--now`, fixed in tests).
    public init(draw: @escaping Drawing, renderers: [StatusFormat: StatusRenderer], now: @escaping @Sendable () -> Instant) {
        self.draw = draw
        self.renderers = renderers
        self.now = now
        // Versions start at the start time in milliseconds, so that an `EventSource` reconnecting
        // to a restarted server never presents a `Last-Event-ID` that means something else now.
        let first = UInt64(max(1, Instant(Date()).millisecondsSince1970))
        let starting = TaskWidgetError(.storeMissing, "the store has not been read yet")
        published = Mutex(Self.publication(version: first, state: nil, failure: starting, renderers: renderers))
    }

    /// The current publication.
    public var current: Published { published.withLock { $0 } }

    /// Publishes what the follower read: the state, or why there is none. Returns the event to
    /// broadcast when what a viewer sees has changed.
    @discardableResult
    public func publish(_ state: DashboardState?, failure: TaskWidgetError?) -> DashboardEvent? {
        defer {
            for waiter in firstWaiters.withLock({ waiters in defer { waiters = nil }; return waiters ?? [] }) { waiter.resume() }
        }
        return published.withLock { current -> DashboardEvent? in
            var next = Self.publication(version: current.version + 1, state: state, failure: failure, renderers: renderers)
            next.generation = current.generation + 1
            guard next.identity != current.identity else {
                // The same content: keep the images, take the newer entry and timeline, and make
                // the lines and the timeline document again, whose text carries their dates
                // (`date` and `nextChange` in the JSON line, `generatedAt` in the document).
                current.state = state
                current.generation = next.generation
                current.lines = [:]
                current.timeline = nil
                return nil
            }
            current = next
            return next.event
        }
    }

    /// Returns once the follower has published for the first time (its first look at the store,
    /// or why it could not look).
    public func waitForFirstPublication() async {
        await withCheckedContinuation { continuation in
            let published = firstWaiters.withLock { waiters in
                guard waiters != nil else { return true }
                waiters!.append(continuation)
                return false
            }
            if published { continuation.resume() }
        }
    }

    /// Seconds a client may keep a representation valid until `validUntil`: never more than 15
    /// minutes (seed NFR4's reload policy), never less than 0.
    public func maxAge(until validUntil: Instant?) -> Int {
        guard let validUntil else { return 0 }
        let seconds = validUntil.millisecondsSince1970 - now().millisecondsSince1970
        return Int(min(900, max(0, (seconds + 999) / 1000)))
    }

    /// The image for `spec`, drawn at most once per publication. While the store cannot be read it
    /// is an image of the failure, and `isAvailable` is false (the route answers 503 with it).
    ///
    /// Images are drawn one at a time on ``drawer``, a thread of its own: the renderer draws one
    /// image at a time in a process anyway, and a request that waits for a drawing suspends
    /// instead of holding one of Swift's cooperative threads (one per core), which accept
    /// connections and answer every other request meanwhile. Of the images waiting, those of
    /// clients still sending (`isSending`) come first: sixty requests for new sizes whose
    /// clients hung up at once were drawn first, and a viewer behind them waited 12 s
    /// (helper-165). A client that only closed its side (a half-close, which HTTP allows) is
    /// still answered, after the others.
    public func widget(
        _ spec: WidgetImageSpec, isSending: @escaping @Sendable () -> Bool = { true }
    ) async throws -> (representation: Representation, isAvailable: Bool) {
        let cached = published.withLock { current in current.widgets[spec].map { ($0, current.state != nil) } }
        if let cached { return cached }
        return try await withCheckedThrowingContinuation { continuation in
            waiting.withLock { $0.append(DrawingJob(spec: spec, isSending: isSending, continuation: continuation)) }
            drawer.async { self.drawNext() }
        }
    }

    /// On ``drawer``, once per image asked for: the first waiting image whose client still
    /// sends, else the first one.
    private func drawNext() {
        let jobs = waiting.withLock { $0 }
        let chosen = (jobs.first { $0.isSending() } ?? jobs.first).map(\.id)
        guard let job = waiting.withLock({ jobs in jobs.firstIndex { $0.id == chosen }.map { jobs.remove(at: $0) } }) else { return }
        job.continuation.resume(with: Result { try drawOnce(job.spec) })
    }

    /// How many images wait for their turn (for tests).
    var waitingImages: Int { waiting.withLock { $0.count } }

    /// An image waiting to be drawn.
    private struct DrawingJob: Sendable {
        let id = UUID()
        let spec: WidgetImageSpec
        let isSending: @Sendable () -> Bool
        let continuation: CheckedContinuation<(representation: Representation, isAvailable: Bool), any Error>
    }

    /// On ``drawer``: the image from the cache if another request drew it meanwhile, else drawn now.
    private func drawOnce(_ spec: WidgetImageSpec) throws -> (representation: Representation, isAvailable: Bool) {
        try representation(
            cached: { $0.widgets[spec] }, store: { $0.widgets.count < maximumWidgets ? $0.widgets[spec] = $1 : () }, keptAcrossEntries: true
        ) { state, failure in
            let picture = state.map { Picture.entry($0.entry) } ?? .unavailable(message: Self.imageMessage(of: failure))
            return Representation(body: ByteBuffer(data: try draw(spec, picture)), contentType: spec.format.mediaType)
        }
    }

    /// The images drawn ahead by ``warmUp()``: each family at @1x and @2x.
    private static let warmUpSpecs: [WidgetImageSpec] = WidgetFamily.allCases.flatMap { family in
        [1, 2].compactMap { try? WidgetImageSpec(family: family, scale: $0) }
    }

    /// Draws ``warmUpSpecs`` into the cache when there is an entry. The first drawing of a process
    /// sets up the fonts and rasterises glyphs at each size, several times a warm frame's time:
    /// done here, at start, no viewer waits for it, and the commonest images are ready.
    public func warmUp() async {
        guard current.state != nil else { return }
        for spec in Self.warmUpSpecs { _ = try? await widget(spec) }
    }

    /// The status line of `format` for the current entry.
    public func line(_ format: StatusFormat) throws -> Representation {
        try representation(cached: { $0.lines[format] }, store: { $0.lines[format] = $1 }) { state, failure in
            guard let state else { throw ServeHTTPError.unavailable(failure) }
            let line = try renderers[format]!.line(for: state.barEntry, timeZone: state.timeline.timeZone, now: nil)
            return Representation(text: line + "\n", contentType: format.mediaType)
        }.representation
    }

    /// `timeline --format json` of the current timeline.
    public func timelineDocument() throws -> Representation {
        try representation(cached: { $0.timeline }, store: { $0.timeline = $1 }) { state, failure in
            guard let state else { throw ServeHTTPError.unavailable(failure) }
            return Representation(text: TimelineJSON.document(state.timeline.limitingTop(to: TimelineRequest.defaultTopLimit)), contentType: "application/json")
        }.representation
    }

    /// The representation `cached` finds, else the one `make` makes, which `store` keeps unless a
    /// publication came meanwhile: any for lines and the timeline document, one that changes what
    /// a viewer sees for what is `keptAcrossEntries` (images).
    private func representation(
        cached: (Published) -> Representation?, store: (inout Published, Representation) -> Void, keptAcrossEntries: Bool = false,
        make: (DashboardState?, TaskWidgetError?) throws -> Representation
    ) throws -> (representation: Representation, isAvailable: Bool) {
        let stamp = { (published: Published) in keptAcrossEntries ? published.version : published.generation }
        let (readAt, state, failure, existing) = published.withLock { (stamp($0), $0.state, $0.failure, cached($0)) }
        if let existing { return (existing, state != nil) }
        let representation = try make(state, failure)
        published.withLock { current in
            if stamp(current) == readAt { store(&current, representation) }
        }
        return (representation, state != nil)
    }

    private static func publication(
        version: UInt64, state: DashboardState?, failure: TaskWidgetError?, renderers: [StatusFormat: StatusRenderer]
    ) -> Published {
        let text = { (entry: TimelineEntry, zone: TimeZone) in
            (try? renderers[.text]!.line(for: entry, timeZone: zone, now: nil)) ?? ""
        }
        guard let state else {
            let message = message(of: failure)
            return Published(
                version: version, state: nil, failure: failure,
                event: DashboardEvent(version: version, json: JSONValue.object([("version", .int(Int64(version))), ("error", .string(message))]).compactText),
                statusText: message, upcoming: [], identity: "failure " + message)
        }
        let zone = state.timeline.timeZone
        let statusText = text(state.barEntry, zone)
        // The next changes of the line: `17:07` today, `Tue 00:00` on another day.
        var upcoming: [UpcomingLine] = []
        var lastLine = statusText
        for entry in state.upcomingChanges where upcoming.count < 5 {
            let line = text(entry.limitingTop(to: TimelineRequest.defaultTopLimit), zone)
            guard line != lastLine else { continue }
            let time = String(InstantFormat.local(entry.date, in: zone).dropFirst(11).prefix(5))
            upcoming.append(UpcomingLine(time: entry.day == state.entry.day ? time : DueLabeler.weekdayText(of: entry.day) + " " + time, status: line))
            lastLine = line
        }
        let hash = state.entry.contentHash
        let event = JSONValue.object([
            ("version", .int(Int64(version))), ("hash", .string(hash)), ("status", .string(statusText)),
            ("upcoming", .array(upcoming.map { .object([("time", .string($0.time)), ("status", .string($0.status))]) })),
        ]).compactText
        // What a viewer sees: the widget (content and day), the line and what comes next.
        let identity = ([hash, String(state.entry.dayStart.millisecondsSince1970), statusText] + upcoming.map { $0.time + " " + $0.status })
            .joined(separator: "\n")
        return Published(
            version: version, state: state, failure: nil, event: DashboardEvent(version: version, json: event),
            statusText: statusText, upcoming: upcoming, identity: identity)
    }

    /// What a viewer is told while the store cannot be read.
    private static func message(of failure: TaskWidgetError?) -> String {
        failure?.message ?? "the store cannot be read"
    }

    /// ``message(of:)`` for an image, with the store named by its file's name alone: a device's
    /// key opens the image, and a wall display showed the user's home folder to anyone who came
    /// by (helper-136). The page and `/status`, which say the whole path, need the token.
    private static func imageMessage(of failure: TaskWidgetError?) -> String {
        let message = message(of: failure)
        guard let path = failure?.context, path.hasPrefix("/"), !path.hasSuffix("/") else { return message }
        return message.replacingOccurrences(of: path, with: URL(fileURLWithPath: path).lastPathComponent)
    }
}

/// A coming change of the status line: when, and the line from then on.
public struct UpcomingLine: Sendable, Equatable {
    /// `17:07` on the current entry's day, else `Tue 00:00`.
    public var time: String
    public var status: String
}

extension WidgetImageSpec.Format {
    /// The `Content-Type`.
    var mediaType: String { self == .png ? "image/png" : "image/bmp" }
}

extension StatusFormat {
    /// The `Content-Type` of a status line.
    var mediaType: String {
        switch self {
        case .json, .waybar, .i3bar: "application/json"
        case .text, .polybar, .tmux: "text/plain; charset=utf-8"
        }
    }
}
