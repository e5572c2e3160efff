import Foundation
import Testing

@testable import TaskWidgetTestSupport

/// The dashboard page of `taskwidget serve` in a real browser: Debian's Chromium, headless, driven
/// over the DevTools protocol by `dashboard_page.py` (the system Python, standard library only).
@Suite(.serialized, .runsPrograms(onThreadNamed: "dashboard page"), .timeLimit(.minutes(5))) struct DashboardPageTests {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("dashboard_page.py").path

    /// Opens the page of `server` with the token in headless Chromium, runs an `add` from another
    /// process, and returns `dashboard_page.py`'s report (its exit status under `status`).
    static func followAnAdd(_ sandbox: borrowing Sandbox, _ server: ServeProcess, token: String, _ options: [String]) throws -> [String: Any] {
        let add = sandbox.shellCommand(["add", "Call the plumber", "--due", "2026-11-22T15:00:00+01:00"])
        let result = try ProcessRunner.run(
            "/usr/bin/python3", [Self.script, "http://127.0.0.1:\(server.port)/?token=\(token)", "--trigger", add, "--timeout", "5"] + options,
            environment: sandbox.environment.merging(ProcessRunner.systemPython) { $1 })
        var report = try #require(
            (try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8))) as? [String: Any], "\(result.stdout) \(result.stderr)")
        report["status"] = result.status
        return report
    }

    /// The page shows the widget and the status line (a screenshot of both, the image loaded with
    /// the page's token); another process's `add` shows within a second, without a reload.
    @Test func thePageShowsTheWidgetAndFollowsAnAddWithinASecond() throws {
        let sandbox = try Sandbox.demo()
        let token = try sandbox.run(["serve", "token"], global: false).stdout.trimmingCharacters(in: .newlines)
        let server = try ServeProcess(sandbox)
        let screenshot = sandbox.folder.appendingPathComponent("dashboard.png").path
        let report = try Self.followAnAdd(sandbox, server, token: token, ["--screenshot", screenshot])
        #expect(report["status"] as? Int32 == 0, "\(report)")
        #expect((report["before"] as? String)?.contains("overdue") == true, "\(report)")
        #expect((report["visible"] as? [Bool]).map { $0.count == 2 && !$0.contains(false) } == true, "the widget and the line are in view")
        #expect((report["image_widths"] as? [Int])?.allSatisfy { $0 > 0 } == true, "the widget loaded with the token")
        #expect((report["image_sources"] as? [String])?.allSatisfy { !$0.contains("theme=") } == true, "\(report)")
        #expect(report["reloaded"] as? Bool == false)
        let milliseconds = try #require(report["ms"] as? Double)
        #expect(milliseconds < 1000, "the change showed after \(milliseconds) ms")
        #expect(report["after"] as? String != report["before"] as? String)
        #expect(PNGHeader(try Data(contentsOf: URL(fileURLWithPath: screenshot))) == PNGHeader(width: 800, height: 600, bitDepth: 8, colorType: 2))
        #expect(server.terminate() == 0)
    }

    /// On a phone's width the widget shrinks to fit beside nothing: it was 364 points wide whatever
    /// the screen, cut off on the right of a 375-point one, with a scroll bar under it.
    @Test func thePageFitsAPhone() throws {
        let sandbox = try Sandbox.demo()
        let token = try sandbox.run(["serve", "token"], global: false).stdout.trimmingCharacters(in: .newlines)
        let server = try ServeProcess(sandbox)
        let report = try Self.followAnAdd(sandbox, server, token: token, ["--window", "320x700"])
        #expect(report["status"] as? Int32 == 0, "\(report)")
        #expect((report["visible"] as? [Bool]).map { $0.count == 2 && !$0.contains(false) } == true, "the widget and the line are in view: \(report)")
        #expect(server.terminate() == 0)
    }

    /// A page whose event stream is refused (503: the server's 64 streams are taken) follows again
    /// by itself once one is free. `EventSource` gives up on an HTTP error, and the page stayed
    /// still until it was reloaded.
    @Test func aPageWhoseStreamWasRefusedFollowsOnceOneIsFree() throws {
        let sandbox = try Sandbox.demo()
        let token = try sandbox.run(["serve", "token"], global: false).stdout.trimmingCharacters(in: .newlines)
        let server = try ServeProcess(sandbox)
        let report = try Self.followAnAdd(sandbox, server, token: token, ["--hold-streams", "64"])
        #expect(report["status"] as? Int32 == 0, "\(report)")
        #expect(report["refused"] as? Bool == true, "\(report)")
        // The first retry comes a second after the refusal, the next two seconds later.
        let milliseconds = try #require(report["reconnect_ms"] as? Double, "\(report)")
        #expect(milliseconds < 3500, "the page followed again after \(milliseconds) ms")
        // Meanwhile it said so, and once live again it says nothing (helper-131: it looked live).
        #expect((report["notice_refused"] as? String)?.hasPrefix("Not updating since ") == true, "\(report)")
        #expect(report["notice_live"] is NSNull, "\(report)")
        #expect(server.terminate() == 0)
    }

    /// A browser that runs scripts but lacks `EventSource` (an old Kindle's) reloads the page when
    /// the line next changes, as one without scripts does: it stayed on its first status for good
    /// (helper-164). The store's next change is 6 s away.
    @Test func aBrowserWithoutEventSourceReloadsWhenTheLineNextChanges() throws {
        let sandbox = try Sandbox.demo()
        try sandbox.succeed(["add", "Soon", "--due", "in 6s"])
        let token = try sandbox.run(["serve", "token"], global: false).stdout.trimmingCharacters(in: .newlines)
        let server = try ServeProcess(sandbox)
        let result = try ProcessRunner.run(
            "/usr/bin/python3", [Self.script, "http://127.0.0.1:\(server.port)/?token=\(token)", "--without", "EventSource", "--timeout", "12"],
            environment: sandbox.environment.merging(ProcessRunner.systemPython) { $1 })
        let report = try #require((try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8))) as? [String: Any], "\(result.stdout) \(result.stderr)")
        #expect(result.status == 0, "\(report)")
        let milliseconds = try #require(report["reloaded_ms"] as? Double, "\(report)")
        #expect(milliseconds > 3000 && milliseconds < 8000, "reloaded after \(milliseconds) ms")
        #expect(server.terminate() == 0)
    }

    /// A browser in dark mode loads the dark widget, and the new one after a change, still dark.
    @Test func aBrowserInDarkModeGetsTheDarkWidget() throws {
        let sandbox = try Sandbox.demo()
        let token = try sandbox.run(["serve", "token"], global: false).stdout.trimmingCharacters(in: .newlines)
        let server = try ServeProcess(sandbox)
        let report = try Self.followAnAdd(sandbox, server, token: token, ["--color-scheme", "dark"])
        #expect(report["status"] as? Int32 == 0, "\(report)")
        let before = try #require((report["sources_before"] as? [String])?.first, "\(report)")
        let after = try #require((report["image_sources"] as? [String])?.first, "\(report)")
        #expect(before.contains("theme=dark") && before.contains("token=\(token)"), "\(before)")
        #expect(after.contains("theme=dark") && after != before, "\(after)")
        #expect((report["image_widths"] as? [Int])?.allSatisfy { $0 > 0 } == true, "\(report)")
        #expect(server.terminate() == 0)
    }
}
