import Foundation
import Logging
import TaskWidgetCore
import TaskWidgetFormats
@testable import TaskWidgetTestSupport
import TaskWidgetWatch
import Testing

/// A store held in memory: what `check()` reports next, and the due dates the timeline sees.
final class FakeStore {
    var nextCheck: StoreCheck = .changed
    var openCount = 1
    var dueDates: [Instant] = []
    var checks = 0
    var timelines = 0
    /// What reading the store throws, if it fails.
    var failure: TaskWidgetError?
}

struct FakeSource: FollowedSource {
    let store: FakeStore
    static let zone = TimeZone(identifier: "Europe/Berlin")!

    mutating func check() -> StoreCheck {
        store.checks += 1
        defer { store.nextCheck = .unchanged }
        return store.nextCheck
    }

    mutating func reopen() {}

    func read(at now: Instant) throws -> Timeline {
        store.timelines += 1
        if let failure = store.failure { throw failure }
        let request = TimelineRequest(now: now, calendar: LocalCalendar(timeZone: Self.zone))
        let snapshot = TimelineSnapshot(
            scopeTitle: nil, openCount: store.openCount, inboxCount: 0,
            overdueAtStart: store.dueDates.filter { $0 <= request.now }.count,
            upcomingDueDates: store.dueDates.filter { $0 > request.now }, completionDates: [], leadingTasks: [],
            habits: [], habitRecords: [:])
        return TimelineProvider().timeline(for: request, snapshot: snapshot)
    }

    func isStale(_ timeline: Timeline, at now: Instant) -> Bool {
        now >= timeline.reloadAfter || now < timeline.generatedAt
    }
}

final class Lines: LineSink {
    var written: [String] = []
    func write(_ text: String) throws { written.append(text) }
}

struct RecordingOutput: EntryOutput {
    let shown: Lines
    mutating func show(_ entry: TimelineEntry) throws { shown.written.append("\(entry.date.secondsSince1970)") }
    mutating func showUnavailable(_ message: String) throws { shown.written.append("unavailable: \(message)") }
}

/// The decisions of watch mode, driven with clock readings chosen by the test.
@Suite struct WatchSessionTests {
    /// Sunday 22 November 2026, 16:31:00 in Berlin (not a quarter hour).
    static let start: Int64 = 1_795_361_460
    let store = FakeStore()
    let lines = Lines()
    let shown = Lines()

    func session(format: StatusFormat = .text) throws -> WatchSession<FakeSource> {
        // Counts only: these tests are about when lines are printed, not the default wording.
        let template = format == .text
            ? StatusRenderer.Template(text: countsTemplate, source: "the counts template")
            : try .resolve(format: format, path: nil, environment: [:])
        let renderer = try StatusRenderer(format: format, template: template)
        return WatchSession(
            views: [FakeSource(store: store)], renderer: renderer, sink: lines, outputs: [RecordingOutput(shown: shown)],
            logger: Logger(label: "test"))
    }

    /// `seconds` after the start on both clocks, plus `drift` on the wall clock only.
    func at(_ seconds: Double, drift: Int64 = 0) -> WatchInstant {
        .reading(seconds, after: Self.start, drift: drift)
    }

    @Test func itPrintsAtOnceThenWakesAtTheDueInstantAndFlipsToOverdue() throws {
        store.dueDates = [Instant(secondsSince1970: Self.start + 383)]
        var session = try session()
        try session.start(at: at(0))
        #expect(lines.written == ["1 today\n"])
        #expect(session.entryDeadline?.secondsSince1970 == Self.start + 383)
        #expect(session.followUpDeadline == nil)
        try session.handle([], at: at(383.002))
        #expect(lines.written == ["1 today\n", "1 overdue · 0 today\n"])
        // The next entry is the quarter hour (16:45), and the timeline was not read again.
        #expect(session.entryDeadline?.secondsSince1970 == 1_795_362_300)
        #expect(store.timelines == 1)
        #expect(shown.written == ["\(Self.start)", "\(Self.start + 383)"])
    }

    /// The timeline is read again at its `reloadAfter` even when no entry comes before it: a
    /// view's `due_within` horizon moves with the clock, and a task that came within it was shown
    /// at the next entry only, 13 minutes after it was overdue (helper-116).
    @Test func itWakesToReadTheTimelineAgainAtItsReloadTime() throws {
        var session = try session()
        try session.start(at: at(0))
        #expect(session.entryDeadline?.secondsSince1970 == 1_795_362_300)  // the quarter hour, 16:45
        try session.handle([], at: at(840.001))
        // Then 16:46, the reload time, before the 17:00 entry: it waited for 17:00.
        #expect(session.entryDeadline?.secondsSince1970 == Self.start + 900)
        store.dueDates = [Instant(secondsSince1970: Self.start + 1000)]  // came within the view meanwhile
        try session.handle([], at: at(900.001))
        #expect(store.timelines == 2)
        #expect(lines.written == ["0 today\n", "1 today\n"])
    }

    @Test func aLineThatDidNotChangeIsNotPrintedAgain() throws {
        var session = try session()
        try session.start(at: at(0))
        try session.handle([], at: at(840))
        #expect(lines.written == ["0 today\n"])
        #expect(shown.written.count == 2)
    }

    /// One check after the debounce, then seven more at doubling intervals (a commit becomes
    /// visible only after its sync, with no file event of its own), and none after them.
    @Test func storeActivityIsCheckedAfterTheDebounceThenAtDoublingIntervalsAndUnchangedStoresAreNotReread() throws {
        var session = try session()
        try session.start(at: at(0))
        try session.handle(.storeActivity, at: at(5))
        try session.handle(.storeActivity, at: at(5.05))
        #expect(store.checks == 1)
        var deadlines: [Int64] = []
        while let deadline = session.followUpDeadline, deadlines.count < 20 {
            deadlines.append(deadline)
            try session.handle([], at: at(Double(deadline - at(0).monotonic) / 1e9))
        }
        #expect(deadlines == [5.1, 5.3, 5.7, 6.5, 8.1, 11.3, 17.7, 30.5].map { at($0).monotonic })
        #expect(store.checks == 9)
        #expect(store.timelines == 1)
    }

    /// The first check after the events finds nothing new (the commit's sync is still running);
    /// a later one finds the commit, and the line shows it.
    @Test func aCommitThatBecomesVisibleAfterTheFirstCheckIsRead() throws {
        var session = try session()
        try session.start(at: at(0))
        try session.handle(.storeActivity, at: at(5))
        try session.handle([], at: at(5.1))
        #expect(lines.written == ["0 today\n"])
        store.dueDates = [Instant(secondsSince1970: Self.start + 7200)]
        store.nextCheck = .changed
        try session.handle([], at: at(5.3))
        #expect(lines.written == ["0 today\n", "1 today\n"])
    }

    /// Events during the follow-up are checked after the debounce again, not at the follow-up's
    /// longer interval; events while the first check is still to come do not put it off.
    @Test func newEventsStartTheChecksAgain() throws {
        var session = try session()
        try session.start(at: at(0))
        try session.handle(.storeActivity, at: at(5))
        for time in [5.1, 5.3, 5.7] { try session.handle([], at: at(time)) }
        #expect(session.followUpDeadline == at(6.5).monotonic)
        try session.handle(.storeActivity, at: at(6))
        #expect(session.followUpDeadline == at(6.1).monotonic)
        try session.handle(.storeActivity, at: at(6.05))
        #expect(session.followUpDeadline == at(6.1).monotonic)
        try session.handle([], at: at(6.1))
        #expect(session.followUpDeadline == at(6.3).monotonic)
    }

    @Test func aChangeAfterAQuietSecondPrintsAtOnceAndABurstIsPacedToOneLineASecond() throws {
        var session = try session()
        try session.start(at: at(0))
        store.openCount = 2
        store.dueDates = [Instant(secondsSince1970: Self.start + 7200)]
        store.nextCheck = .changed
        try session.handle(.storeActivity, at: at(5))
        try session.handle([], at: at(5.1))
        #expect(lines.written == ["0 today\n", "1 today\n"])
        // Two more changes within the second: only the last one shows, one second after the previous line.
        store.dueDates = [Instant(secondsSince1970: Self.start + 7200), Instant(secondsSince1970: Self.start + 7300)]
        store.nextCheck = .changed
        try session.handle(.storeActivity, at: at(5.2))
        try session.handle([], at: at(5.3))
        store.dueDates = [Instant(secondsSince1970: Self.start + 7200), Instant(secondsSince1970: Self.start + 7300), Instant(secondsSince1970: Self.start + 7400)]
        store.nextCheck = .changed
        try session.handle(.storeActivity, at: at(5.4))
        try session.handle([], at: at(5.5))
        #expect(lines.written.count == 2)
        // The store's next check comes first; the line waits for 6.1.
        #expect(session.followUpDeadline == at(5.7).monotonic)
        try session.handle([], at: at(5.7))
        #expect(lines.written.count == 2)
        #expect(session.followUpDeadline == at(6.1).monotonic)
        try session.handle([], at: at(6.1))
        #expect(lines.written == ["0 today\n", "1 today\n", "3 today\n"])
    }

    /// Sets the store's due dates (seconds after the start) and reports a change at `time`.
    func change(dueIn offsets: [Int64], session: inout WatchSession<FakeSource>, at time: Double) throws {
        store.dueDates = offsets.map { Instant(secondsSince1970: Self.start + $0) }
        store.nextCheck = .changed
        try session.handle(.storeActivity, at: at(time))
        try session.handle([], at: at(time + 0.1))
    }

    @Test func theFirstChangeRightAfterTheFirstLinePrintsAtOnce() throws {
        var session = try session()
        try session.start(at: at(0))
        try change(dueIn: [7200], session: &session, at: 0.1)
        #expect(lines.written == ["0 today\n", "1 today\n"])
        try change(dueIn: [7200, 7300], session: &session, at: 0.3)
        #expect(lines.written.count == 2)
        // The store's next checks (0.6, 1.0) print nothing; the line waits for 1.2.
        for time in [0.6, 1.0] { try session.handle([], at: at(time)) }
        #expect(lines.written.count == 2)
        #expect(session.followUpDeadline == at(1.2).monotonic)
    }

    @Test func aPendingLineIsDroppedWhenTheStoreGoesBackToWhatWasPrinted() throws {
        var session = try session()
        try session.start(at: at(0))
        try change(dueIn: [7200], session: &session, at: 0.1)
        try change(dueIn: [7200, 7300], session: &session, at: 0.3)
        try change(dueIn: [7200], session: &session, at: 0.5)
        // Only the store's next check is to come: no line at 1.2.
        #expect(session.followUpDeadline == at(0.8).monotonic)
        try session.handle([], at: at(1.2))
        #expect(lines.written == ["0 today\n", "1 today\n"])
    }

    @Test func aFailingStorePrintsTheErrorLineOnceAndRecovers() throws {
        var session = try session(format: .polybar)
        try session.start(at: at(0))
        for time in [2.0, 4.0] {
            store.nextCheck = .failed(TaskWidgetError(.storeMissing, "there is no store"))
            try session.handle(.storeActivity, at: at(time))
            try session.handle([], at: at(time + 0.1))
        }
        #expect(lines.written.count == 2)
        #expect(lines.written[1] == StatusFallback.line(format: .polybar, message: "there is no store") + "\n")
        // Nothing to wake for while the store is gone.
        #expect(session.entryDeadline?.secondsSince1970 == nil)
        store.nextCheck = .changed
        try session.handle(.storeActivity, at: at(6))
        try session.handle([], at: at(6.1))
        #expect(lines.written.count == 3)
        #expect(lines.written[2] == lines.written[0])
    }

    @Test(arguments: [(90, true), (-90, true), (30, false)])
    func aWallClockThatMovesMoreThanAMinuteFromTheMonotonicOneRecomputes(drift: Int64, recomputes: Bool) throws {
        var session = try session()
        try session.start(at: at(0))
        try session.handle([], at: at(10, drift: drift))
        #expect(store.timelines == (recomputes ? 2 : 1))
    }

    @Test func aClockSetOrARefreshRecomputes() throws {
        var session = try session()
        try session.start(at: at(0))
        try session.handle(.clockSet, at: at(1))
        #expect(store.timelines == 2)
        try session.handle(.refresh, at: at(2))
        #expect((store.timelines, store.checks) == (3, 2))
    }

    @Test func theTimelineIsReadAgainAtTheFirstEntryAfterItsReloadDate() throws {
        var session = try session()
        try session.start(at: at(0))
        // 16:45 is before the reload date (16:46), 17:00 is after it.
        try session.handle([], at: at(840))
        #expect(store.timelines == 1)
        try session.handle([], at: at(1740))
        #expect(store.timelines == 2)
        #expect(session.entryDeadline?.secondsSince1970 == Self.start + 1740 + 900)
    }

    @Test func i3barGetsTheProtocolHeaderAndOneArrayElementPerLine() throws {
        var session = try session(format: .i3bar)
        try session.start(at: at(0))
        store.dueDates = [Instant(secondsSince1970: Self.start + 7200)]
        store.nextCheck = .changed
        try session.handle(.refresh, at: at(2))
        #expect(lines.written.count == 3)
        #expect(lines.written[0] == "{\"version\":1,\"click_events\":true}\n[\n")
        #expect(lines.written[1].hasPrefix("[{") && lines.written[1].hasSuffix("}]\n"))
        #expect(lines.written[2].hasPrefix(",[{") && lines.written[2].hasSuffix("}]\n"))
        // The endless array, closed here: two updates of one block each.
        let array = try JSONSerialization.jsonObject(with: Data(("[" + lines.written.dropFirst().joined() + "]").utf8))
        #expect((array as? [[Any]])?.map(\.count) == [1, 1])
    }
}

@Suite struct WatchClockTests {
    @Test(arguments: [1, 7, 60, 3600])
    func aVirtualClockTimerFiresNeverBeforeTheDateAndAtMostANanosecondAfter(speed: Int) {
        let clock = WatchClock.virtual(start: 1_795_361_460_123_000_000, monotonicStart: 5_000_000_000, speed: speed)
        for date in [Int64(1_795_361_461), 1_795_361_843, 1_795_447_860] {
            let deadline = clock.timerDeadline(for: Instant(secondsSince1970: date))
            #expect(clock.instant(realWall: 0, monotonic: deadline).wall >= date * 1_000_000_000)
            #expect(clock.instant(realWall: 0, monotonic: deadline - 1).wall < date * 1_000_000_000)
        }
    }

    /// A run's first reading of a virtual clock is its start, whenever it is taken: a first line
    /// said 16:31:01 for `--now 16:31:00` when the set-up took 8 ms at 120 times real time.
    @Test func aVirtualClocksFirstReadingIsItsStart() {
        let clock = WatchClock.virtual(start: 1_795_361_460_000_000_000, monotonicStart: 5_000_000_000, speed: 120)
        #expect(clock.firstReading() == WatchInstant(wall: 1_795_361_460_000_000_000, monotonic: 5_000_000_000))
        #expect(clock.now().wall > clock.firstReading().wall, "the clock runs on from there")
    }

    @Test func theRealClockSetsTimersOnTheWallClock() {
        #expect(WatchClock.real.timerClock == .realtime)
        #expect(WatchClock.real.timerDeadline(for: Instant(secondsSince1970: 1_795_361_460)) == 1_795_361_460_000_000_000)
        #expect(WatchClock.real.instant(realWall: 42, monotonic: 7) == WatchInstant(wall: 42, monotonic: 7))
    }

    @Test func aJumpIsMoreThanAMinuteOfDriftBetweenTwoLooks() {
        var detector = ClockJumpDetector()
        let hour: Int64 = 3_600_000_000_000
        let minute: Int64 = 60_000_000_000
        let looks = [
            detector.hasJumped(at: WatchInstant(wall: 0, monotonic: 0)),
            // Exactly a minute of drift is tolerated; the reference moves on with each look.
            detector.hasJumped(at: WatchInstant(wall: hour + minute, monotonic: hour)),
            detector.hasJumped(at: WatchInstant(wall: hour + minute + minute + 1, monotonic: hour)),
        ]
        #expect(looks == [false, false, true])
        // A virtual clock at 120 times real speed moves two minutes in a second without jumping.
        var virtual = ClockJumpDetector(speed: 120)
        let virtualLooks = [
            virtual.hasJumped(at: WatchInstant(wall: 0, monotonic: 0)),
            virtual.hasJumped(at: WatchInstant(wall: 2 * minute, monotonic: 1_000_000_000)),
            virtual.hasJumped(at: WatchInstant(wall: 5 * minute, monotonic: 1_000_000_000)),
        ]
        #expect(virtualLooks == [false, false, true])
    }

    /// The clocks count nanoseconds in an `Int64` (1677 to 2262): `--now 1600-01-01` made watch and
    /// notify crash on the overflow (helper-73). A run cannot start a virtual clock out there, and
    /// one that runs past the end, or a date beyond it, stops at the end instead of crashing.
    @Test func theClocksStopAtTheEndOfTheirNanosecondsInsteadOfCrashing() throws {
        for start in ["1600-01-01T00:00:00Z", "1677-12-31T00:00:00Z", "2262-01-02T00:00:00Z", "5000-01-01T00:00:00Z"] {
            let error = #expect(throws: TaskWidgetError.self) { try WatchClock.forRun(now: Fixed.instant(start), virtual: true, speed: nil) }
            #expect(error?.message.hasPrefix("--now must be from 1678 to 2261") == true, "\(start)")
        }
        let late = try WatchClock.forRun(now: Fixed.instant("2261-12-31T00:00:00Z"), virtual: true, speed: WatchClock.maxSpeed)
        #expect(late.instant(realWall: 0, monotonic: Int64.max / 2).wall == Int64.max)
        #expect(WatchClock.real.timerDeadline(for: Fixed.instant("9999-12-31T00:00:00Z")) == Int64.max)
        #expect(late.timerDeadline(for: Fixed.instant("9999-12-31T00:00:00Z")) == Int64.max)
        let early = try WatchClock.forRun(now: Fixed.instant("1678-01-02T00:00:00Z"), virtual: true, speed: 1)
        #expect(early.timerDeadline(for: Fixed.instant("2262-04-10T00:00:00Z")) == Int64.max)
        #expect(early.timerDeadline(for: Fixed.instant("0001-01-01T00:00:00Z")) == 0)
    }

    @Test func wholeMillisecondsAreFloored() {
        #expect(WatchInstant(wall: 1_999_999_999, monotonic: 0).wallInstant == Instant(millisecondsSince1970: 1999))
        #expect(WatchInstant(wall: -1, monotonic: 0).wallInstant == Instant(millisecondsSince1970: -1))
        #expect(WatchInstant(wall: -1_000_000, monotonic: 0).wallInstant == Instant(millisecondsSince1970: -1))
    }
}

/// A stand-in for the PNG renderer: the "image" is text made of what a widget shows of an entry
/// (its counts and its day), so that entries that draw the same give the same bytes.
struct StubDrawing: WidgetDrawing {
    /// Every entry drawn, by date (a class, so that copies of the drawing share it).
    final class Log {
        var dates: [Instant] = []
    }

    let spec: WidgetImageSpec
    let log = Log()

    init(family: WidgetFamily) throws {
        spec = try WidgetImageSpec(family: family)
    }

    func image(for entry: TimelineEntry) throws -> Data {
        log.dates.append(entry.date)
        return Self.bytes(for: entry)
    }

    func unavailableImage(message: String) throws -> Data {
        Data("unavailable: \(message)".utf8)
    }

    static func bytes(for entry: TimelineEntry) -> Data {
        let counts = entry.counts
        return Data(
            "day \(entry.dayStart.secondsSince1970) open \(counts.open) overdue \(counts.overdue) today \(counts.dueToday) soon \(counts.dueSoon) done \(counts.completedToday) inbox \(counts.inbox)"
                .utf8)
    }
}

@Suite struct WidgetFileOutputTests {
    @Test func theFileIsRewrittenOnlyWhenItsBytesChange() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("taskwidget-render-dir-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("medium.png")
        let store = FakeStore()
        let timeline = try FakeSource(store: store).read(at: Instant(secondsSince1970: WatchSessionTests.start))
        // Two entries that differ only in their date draw the same widget.
        let (first, second) = (timeline.entries[0], timeline.entries[1])
        #expect(first.contentHash == second.contentHash && first.date != second.date)
        let drawing = try StubDrawing(family: .medium)
        var output = WidgetFileOutput(drawing: drawing, file: file)

        try output.show(first)
        #expect(try Data(contentsOf: file) == StubDrawing.bytes(for: first))
        let inode = try FileManager.default.attributesOfItem(atPath: file.path)[.systemFileNumber] as? Int
        try output.show(second)
        #expect(drawing.log.dates == [first.date], "an entry that draws the same is not drawn again")
        #expect(try FileManager.default.attributesOfItem(atPath: file.path)[.systemFileNumber] as? Int == inode)
        // A new run finds the same bytes already there and leaves them.
        let rerunDrawing = try StubDrawing(family: .medium)
        var rerun = WidgetFileOutput(drawing: rerunDrawing, file: file)
        try rerun.show(second)
        #expect(rerunDrawing.log.dates == [second.date], "the new run draws, and finds the bytes there")
        #expect(try FileManager.default.attributesOfItem(atPath: file.path)[.systemFileNumber] as? Int == inode)

        // The medium widget's header counts the open tasks.
        var changed = second
        changed.counts.open += 1
        try output.show(changed)
        #expect(try FileManager.default.attributesOfItem(atPath: file.path)[.systemFileNumber] as? Int != inode)
        #expect(try Data(contentsOf: file) == StubDrawing.bytes(for: changed))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["medium.png"])
    }
}

/// A text template of the counts alone, `1 overdue · 0 today` or `All done`.
let countsTemplate = "{{#hasTasks}}{{#hasOverdue}}{{overdue}} overdue · {{/hasOverdue}}{{dueToday}} today{{/hasTasks}}{{^hasTasks}}All done{{/hasTasks}}"
