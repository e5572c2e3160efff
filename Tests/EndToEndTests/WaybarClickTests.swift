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
}
