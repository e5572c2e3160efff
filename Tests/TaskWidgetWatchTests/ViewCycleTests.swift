import Foundation
import Glibc
import Logging
import TaskWidgetCore
import TaskWidgetFormats
import TaskWidgetTestSupport
import TaskWidgetWatch
import Testing

/// Watch's views: SIGUSR2 (``FollowWake/nextView``) and the scroll wheel move through them in a
/// cycle, and i3bar's click events are read from a descriptor as the loop reports it readable.
@Suite struct ViewCycleTests {
    static let start: Int64 = 1_795_361_460
    let lines = Lines()

    func at(_ seconds: Int64) -> WatchInstant {
        .reading(Double(seconds), after: Self.start)
    }

    /// Three views: one task due today, nothing open, two open undated.
    func session(showing index: Int = 0, logger: Logger = Logger(label: "test")) throws -> (WatchSession<FakeSource>, [FakeStore]) {
        let stores = [FakeStore(), FakeStore(), FakeStore()]
        stores[0].dueDates = [Instant(secondsSince1970: Self.start + 3600)]
        stores[1].openCount = 0
        stores[2].openCount = 2
        let renderer = try StatusRenderer(format: .text, template: .init(text: countsTemplate, source: "the counts template"))
        let session = WatchSession(
            views: stores.map { FakeSource(store: $0) }, showing: index, renderer: renderer, sink: lines, logger: logger)
        return (session, stores)
    }

    /// The log names a failing view by its place in the cycle (never by its name or list, which
    /// the message may quote): it did not say which view failed.
    @Test func aFailingViewIsNamedInTheLogByItsPlace() throws {
        let log = LogRecorder()
        var (session, stores) = try session(logger: log.logger)
        stores[1].failure = TaskWidgetError(.notFound, "no list is named “Secret”: the lists are Home", context: "list not found")
        try session.start(at: at(0))
        try session.handle(.nextView, at: at(2))
        #expect(lines.written.last?.contains("no list is named") == true)
        #expect(log.logged.count == 1)
        #expect(log.logged.first?.hasPrefix("view 2 of 3: ") == true && log.logged.first?.hasSuffix("[notFound] (list not found)") == true)
        #expect(log.logged.first?.contains("Secret") == false)
        // The next view failing the same way is logged too, by its own place.
        stores[2].failure = stores[1].failure
        try session.handle(.nextView, at: at(4))
        #expect(log.logged.count == 2 && log.logged.last?.hasPrefix("view 3 of 3: ") == true)
    }

    @Test func sigusr2ShowsTheNextViewAndWrapsAround() throws {
        var (session, stores) = try session(showing: 1)
        try session.start(at: at(0))
        #expect(lines.written == ["All done\n"] && session.viewIndex == 1)
        try session.handle(.nextView, at: at(2))
        try session.handle(.nextView, at: at(4))
        #expect(session.viewIndex == 0)
        #expect(lines.written == ["All done\n", "0 today\n", "1 today\n"])
        // A view shown again is read again (a refresh), whatever its store says.
        #expect(stores[0].timelines == 1 && stores[1].timelines == 1)
        try session.handle(.nextView, at: at(6))
        #expect(stores[1].timelines == 2 && lines.written.last == "All done\n")
    }

    @Test func theWheelMovesBothWaysAndALoneViewStays() throws {
        var (session, _) = try session()
        try session.start(at: at(0))
        try session.showView(offset: -1, at: at(2))
        #expect(session.viewIndex == 2 && lines.written.last == "0 today\n")
        try session.showView(offset: 4, at: at(4))
        #expect(session.viewIndex == 0 && lines.written.last == "1 today\n")

        let alone = FakeStore()
        let renderer = try StatusRenderer(format: .text, template: .init(text: countsTemplate, source: "the counts template"))
        let own = Lines()
        var single = WatchSession(views: [FakeSource(store: alone)], renderer: renderer, sink: own, logger: Logger(label: "test"))
        try single.start(at: at(0))
        try single.handle(.nextView, at: at(2))
        try single.showView(offset: 1, at: at(4))
        #expect(single.viewIndex == 0 && own.written == ["0 today\n"] && alone.timelines == 1)
    }

    @Test func i3barHeaderAsksForClickEvents() {
        #expect(LineFraming(format: .i3bar).header == "{\"version\":1,\"click_events\":true}\n[\n")
    }

    @Test func clickEventsAreReadWhenThePipeIsReadableAndEndWithIt() throws {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        // Close-on-exec: a program another test starts meanwhile must not keep the write end
        // open, or closing ours below does not end the input (it did not, in a full run).
        setCloseOnExec(ends)
        defer { close(ends[0]) }
        let input = BarClickInput(descriptor: ends[0])
        func deliver(_ text: String) {
            _ = Array(text.utf8).withUnsafeBytes { write(ends[1], $0.baseAddress, $0.count) }
            var (descriptors, timeout) = input.prepare()
            #expect(descriptors.count == 1 && timeout == -1)
            #expect(poll(&descriptors, 1, 1000) == 1)
            input.dispatch(descriptors)
        }
        deliver("[\n{\"name\":\"taskwidget\",\"instance\":\"all\",\"button\":1,\"x\":1,\"y\":2,\"modifiers\":[\"Shift\"]}\n,{\"button\":")
        #expect(input.takeClicks() == [BarClick(button: 1)])
        #expect(input.takeClicks() == [])
        // The rest of a line, a line that is no click, and two clicks in one read.
        deliver("5}\nnot json\n, {\"button\": 4}\n,{\"name\":\"x\"}\n,{\"button\":3}\n")
        #expect(input.takeClicks() == [BarClick(button: 5), BarClick(button: 4), BarClick(button: 3)])
        // The writer goes: the input ends, and the loop stops waiting on it (no spinning on EOF).
        close(ends[1])
        var (descriptors, _) = input.prepare()
        #expect(poll(&descriptors, 1, 1000) == 1)
        input.dispatch(descriptors)
        #expect(input.prepare().descriptors.isEmpty && input.takeClicks().isEmpty)
    }
}
