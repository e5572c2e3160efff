import Foundation
import Testing

@testable import TaskWidgetTestSupport

/// docs/status-bars.md's waybar module with its `on-click`, in a real waybar on a real (headless)
/// sway (``WaybarSession``), clicked as a user clicks it: the click completes the task the line
/// names, and `watch`'s next line, which waybar shows, names the next one.
@Suite(.serialized, .runsPrograms(onThreadNamed: "waybar clicks")) struct WaybarClickTests {
    /// The task titles of `ls --all --format json`, each with whether it is completed.
    static func completion(_ sandbox: borrowing Sandbox) throws -> [String: Bool] {
        let listed = try sandbox.succeed(["ls", "--all", "--format", "json"])
        let tasks = try JSONSerialization.jsonObject(with: Data(listed.utf8)) as? [[String: Any]] ?? []
        return Dictionary(uniqueKeysWithValues: tasks.compactMap { task in
            (task["title"] as? String).map { ($0, task["isCompleted"] as? Bool ?? false) }
        })
    }

    /// The line's text and tooltip (a `--format waybar` line), if it is a valid one.
    static func shown(_ line: String?) -> (text: String, tooltip: String)? {
        guard let line, StatusLineCheck.problem(line, format: "waybar") == nil, let object = StatusLineCheck.jsonObject(line) else { return nil }
        return (object["text"] as? String ?? "", object["tooltip"] as? String ?? "")
    }

    /// `taskwidget ARGUMENTS` on the sandbox's store, zone and clock, as one line for `/bin/sh -c`.
    static func command(_ sandbox: borrowing Sandbox, _ arguments: [String]) -> String {
        sandbox.shellCommand(arguments + ["--tz", sandbox.timeZone])
    }

    @Test(.timeLimit(.minutes(2)))
    func clickingTheModuleCompletesTheTopTaskAndWatchShowsTheNext() throws {
        if let missing = WaybarSession.missingPrograms {
            Issue.record("\(missing)")
            return
        }
        let sandbox = try Sandbox()
        // Due later today (the sandbox's clock is 16:27): none falls due while the test runs.
        try sandbox.succeed(["add", "Pay rent", "--due", "2026-11-22T18:00:00+01:00"])
        try sandbox.succeed(["add", "Call Bob", "--due", "2026-11-22T19:00:00+01:00"])
        try sandbox.succeed(["add", "Water the plants", "--due", "2026-11-22T20:00:00+01:00"])

        let session = try WaybarSession()
        // waybar runs `exec` and `on-click` with `/bin/sh -c`, as in the docs, with the sandbox's
        // store, zone and clock (watch's clock starts at --now and runs at real speed). What watch
        // prints goes to waybar and, through tee, to a file the test reads.
        let shownLines = session.folder.appendingPathComponent("watch.log")
        try session.startWaybar(
            module: [
                "exec": Self.command(sandbox, ["watch", "--format", "waybar"]) + " | tee -a " + shownLines.path.shellQuoted,
                "return-type": "json",
                "format": "{}",
                "on-click": Self.command(sandbox, ["done", "--top"]),
            ], environment: sandbox.environment)
        defer { session.stopWaybar() }

        let first = WaybarSession.lines(of: shownLines, atLeast: 1).first
        let before = try #require(Self.shown(first), "watch's first line: \(first ?? "none"); waybar: \(session.log("waybar.log"))")
        #expect(before.text == "3 today · Pay rent", "\(before)")
        try #require(try session.waitUntilTheBarTakesClicks(), "the bar took no click within 30 s; waybar: \(session.log("waybar.log"))")

        try session.click(at: WaybarSession.moduleCenter)
        // What `on-click` printed reaches waybar's output.
        let completed = session.waybarOutput(containing: "Completed ")
        #expect(completed?.wholeMatch(of: /Completed [0-9a-f]{8} Pay rent/) != nil, "\(completed ?? "nothing"); waybar: \(session.log("waybar.log"))")
        let lines = WaybarSession.lines(of: shownLines, atLeast: 2)
        let after = try #require(Self.shown(lines.count > 1 ? lines[1] : nil), "watch's lines after the click: \(lines)")
        #expect(after.text == "2 today · Call Bob", "\(after)")
        #expect(!after.tooltip.contains("Pay rent") && after.tooltip.contains("1 done"), "\(after.tooltip)")
        // One click, one task completed: the one the line named.
        #expect(try Self.completion(sandbox) == ["Pay rent": true, "Call Bob": false, "Water the plants": false])
    }
    /// docs/status-bars.md's module that cycles views on the wheel, with the clicks sent to watch as
    /// signals, in a real waybar: a scroll shows the next view, and a click then completes the top
    /// task of that view, not the top task of all (as `on-click: taskwidget done --top` would).
    @Test(.timeLimit(.minutes(2)))
    func aClickAfterAScrollCompletesTheTopTaskOfTheViewShown() throws {
        if let missing = WaybarSession.missingPrograms {
            Issue.record("\(missing)")
            return
        }
        let sandbox = try Sandbox()
        try sandbox.writeConfig("[views.work]\nlist = \"Work\"\n")
        try sandbox.succeed(["add", "Pay rent", "--due", "2026-11-22T18:00:00+01:00"])
        try sandbox.succeed(["add", "Send the report", "--list", "Work", "--new-list", "--due", "2026-11-22T19:00:00+01:00"])

        let session = try WaybarSession()
        let shownLines = session.folder.appendingPathComponent("watch.log")
        // As in the docs, `^` keeps pkill to watch itself, not the shell that runs it with tee; and
        // the store, to this test's watch: the click killed another test's watch, started at the
        // same moment and not yet handling clicks (fresh151: exit 163, SIGRTMIN+1).
        let watch = "^" + Sandbox.binary.path + " watch --format waybar --tz " + sandbox.timeZone + " --store " + sandbox.storePath
        let signal = { (button: Int) in "pkill -RTMIN+\(button) -f " + watch.shellQuoted }
        try session.startWaybar(
            module: [
                "exec": Self.command(sandbox, ["watch", "--format", "waybar"]) + " | tee -a " + shownLines.path.shellQuoted,
                "return-type": "json",
                "format": "{}",
                "on-click": signal(1),
                "on-scroll-up": signal(4),
                "on-scroll-down": signal(5),
            ], environment: sandbox.environment)
        defer { session.stopWaybar() }

        let first = WaybarSession.lines(of: shownLines, atLeast: 1).first
        #expect(Self.shown(first)?.text == "2 today · Pay rent", "watch's first line: \(first ?? "none"); waybar: \(session.log("waybar.log"))")
        try #require(try session.waitUntilTheBarTakesClicks(), "the bar took no click within 30 s; waybar: \(session.log("waybar.log"))")

        try session.scroll(at: WaybarSession.moduleCenter)
        let scrolled = WaybarSession.lines(of: shownLines, atLeast: 2)
        #expect(Self.shown(scrolled.count > 1 ? scrolled[1] : nil)?.text == "1 today · Send the report", "watch's lines: \(scrolled)")
        try session.click(at: WaybarSession.moduleCenter)
        let clicked = WaybarSession.lines(of: shownLines, atLeast: 3)
        #expect(Self.shown(clicked.count > 2 ? clicked[2] : nil)?.text == "✓ All done", "watch's lines: \(clicked)")
        #expect(try Self.completion(sandbox) == ["Pay rent": false, "Send the report": true])
    }
}
