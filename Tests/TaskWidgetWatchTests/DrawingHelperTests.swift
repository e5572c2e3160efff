import Foundation
import Glibc
import TaskWidgetCore
import Testing

@testable import TaskWidgetTestSupport
@testable import TaskWidgetWatch

/// The drawing helper's life: `finish()` lets it exit while its drawing object lives on (so that
/// `render` writes its file while the helper exits), and it is still reaped when the object goes.
@Suite struct DrawingHelperTests {
    @Test func aFinishedHelperExitsAtOnceAndIsReapedWhenTheDrawingGoes() throws {
        let store = try TemporaryStore()
        let request = TL.request(now: TL.instant(TL.seconds("2026-11-23T10:00:00Z")), zone: .gmt)
        let entry = try #require(TL.timeline(for: request, from: store.store).entries.first)
        var drawing: DrawingHelper? = try DrawingHelper(spec: WidgetImageSpec(family: .small, scale: 1), timeZone: .gmt)
        let first = try #require(drawing).image(for: entry)
        let finished = try #require(drawing?.helperProcess)

        drawing?.finish()
        #expect(drawing?.helperProcess == nil)
        // It ends at the end of its input, while the drawing still exists: wait for that without
        // reaping it, on a thread of its own (a blocked Dispatch worker would be one less for the
        // tests that run beside), so that a helper still waiting for input fails the test.
        let exit = ExitStatus()
        Thread {
            var info = siginfo_t()
            if waitid(P_PID, id_t(finished), &info, WEXITED | WNOWAIT) == 0 { exit.status = info._sifields._sigchld.si_status }
            exit.done.signal()
        }.start()
        #expect(exit.done.wait(timeout: .now() + 60) == .success, "the helper did not end at the end of its input")
        #expect(exit.status == 0)

        // The next drawing starts a new helper, which draws the same.
        #expect(try #require(drawing).image(for: entry) == first)
        let second = try #require(drawing?.helperProcess)
        #expect(second != finished)

        drawing = nil
        for process in [finished, second] {
            #expect(waitpid(process, nil, WNOHANG) == -1 && errno == ECHILD, "process \(process) was not reaped")
        }
    }

    /// A helper killed between two drawings (by a user, or for memory) is replaced for the second:
    /// the drawing failed, and a watch's image stayed old until the next change.
    @Test func aHelperKilledSinceTheLastDrawingIsReplacedAtOnce() throws {
        let store = try TemporaryStore()
        let request = TL.request(now: TL.instant(TL.seconds("2026-11-23T10:00:00Z")), zone: .gmt)
        let entry = try #require(TL.timeline(for: request, from: store.store).entries.first)
        let drawing = try DrawingHelper(spec: WidgetImageSpec(family: .small, scale: 1), timeZone: .gmt)
        let first = try drawing.image(for: entry)
        let killed = try #require(drawing.helperProcess)
        #expect(kill(killed, SIGKILL) == 0)
        var info = siginfo_t()
        #expect(waitid(P_PID, id_t(killed), &info, WEXITED | WNOWAIT) == 0)

        #expect(try drawing.image(for: entry) == first)
        #expect(drawing.helperProcess != killed)
        #expect(waitpid(killed, nil, WNOHANG) == -1 && errno == ECHILD, "the killed helper was not reaped")
    }
}

/// What the waiting thread saw: set before `done` is signalled, read after.
private final class ExitStatus: @unchecked Sendable {
    let done = DispatchSemaphore(value: 0)
    var status: Int32?
}
