import Foundation
import Glibc
import Testing

@testable import TaskWidgetTestSupport

/// Actions from a bar: `done --top`, `start --top`, `stop --top` and `snooze --top` act on the task the status
/// line names; `watch` cycles through views on SIGUSR2 and on i3bar's click events on its standard
/// input, and runs the click actions itself.
@Suite(.serialized, .runsPrograms(onThreadNamed: "bar actions")) struct BarActionTests {
    /// The task titles of the entry's `top` and its scope (a `--format json` line).
    static func entry(_ line: String?) -> (titles: [String], scope: String?)? {
        guard let entry = line.flatMap(StatusLineCheck.jsonObject) else { return nil }
        return ((entry["top"] as? [[String: Any]] ?? []).compactMap { $0["title"] as? String }, entry["scope"] as? String)
    }

    /// The i3bar block of a `watch --format i3bar` line (`[{…}]` or `,[{…}]`).
    static func block(_ line: String?) -> [String: Any]? {
        guard let line, let start = line.firstIndex(of: "{"), let end = line.lastIndex(of: "}") else { return nil }
        return StatusLineCheck.jsonObject(String(line[start...end]))
    }

    @Test func doneStartAndSnoozeTopActOnTheTaskTheStatusLineNames() throws {
        let sandbox = try Sandbox()
        try sandbox.succeed(["add", "Undated chore"])
        try sandbox.succeed(["add", "Call Bob", "--due", "2026-11-23T10:00"])
        try sandbox.succeed(["add", "Pay rent", "--due", "2026-11-22T09:00"])
        #expect(try sandbox.succeed(["status"]).contains("next: Pay rent"))
        #expect(try sandbox.succeed(["done", "--top"]).wholeMatch(of: /Completed [0-9a-f]{8} Pay rent\n/) != nil)
        #expect(try sandbox.succeed(["status"]).contains("next: Call Bob"))
        #expect(try sandbox.succeed(["start", "--top"]).wholeMatch(of: /Started [0-9a-f]{8} Call Bob\n/) != nil)
        // The next task by its due date, active or not.
        #expect(try sandbox.succeed(["stop", "--top"]).wholeMatch(of: /Stopped [0-9a-f]{8} Call Bob\n/) != nil)
        #expect(try sandbox.succeed(["stop", "--top"]).wholeMatch(of: /Not active [0-9a-f]{8} Call Bob\n/) != nil)
        try sandbox.succeed(["start", "--top"])
        // Due tomorrow 10:00, in the future: 30 minutes later. Its reminder-less neighbour is untouched.
        #expect(try sandbox.succeed(["snooze", "--top", "--by", "30m"]).wholeMatch(of: /Snoozed [0-9a-f]{8} Call Bob \(due Tomorrow 10:30\)\n/) != nil)
        let listed = try sandbox.succeed(["ls", "--format", "json"])
        let tasks = try JSONSerialization.jsonObject(with: Data(listed.utf8)) as? [[String: Any]] ?? []
        let bob = try #require(tasks.first { $0["title"] as? String == "Call Bob" })
        #expect(bob["dueDate"] as? String == "2026-11-23T09:30:00Z" && bob["state"] as? String == "active", "\(bob)")
    }

    @Test func snoozeMovesWhatHasPassedFromNow() throws {
        let sandbox = try Sandbox()
        // Overdue since 09:00, reminded at 08:00: both move to now (16:27) + 1 h.
        let id = try sandbox.succeed(["add", "Pay rent", "--due", "2026-11-22T09:00", "--remind", "2026-11-22T08:00"])
            .trimmingCharacters(in: .newlines)
        let undated = try sandbox.succeed(["add", "Undated chore"]).trimmingCharacters(in: .newlines)
        try sandbox.succeed(["snooze", id, undated])
        let listed = try sandbox.succeed(["ls", "--format", "json"])
        let tasks = try JSONSerialization.jsonObject(with: Data(listed.utf8)) as? [[String: Any]] ?? []
        let rent = try #require(tasks.first { $0["title"] as? String == "Pay rent" })
        #expect(rent["dueDate"] as? String == "2026-11-22T16:27:00Z" && rent["reminderDate"] as? String == "2026-11-22T16:27:00Z", "\(rent)")
        let chore = try #require(tasks.first { $0["title"] as? String == "Undated chore" })
        #expect(chore["dueDate"] == nil && chore["reminderDate"] as? String == "2026-11-22T16:27:00Z", "\(chore)")
    }

    /// A snooze that would move a date past the year 9999 is refused, for all the tasks: the store
    /// kept it, and its export was a file `import` refuses.
    @Test func aSnoozePastTheYear9999IsRefused() throws {
        let sandbox = try Sandbox()
        let early = try sandbox.succeed(["add", "Early", "--due", "in 1h"]).trimmingCharacters(in: .newlines)
        let undated = try sandbox.succeed(["add", "Undated"]).trimmingCharacters(in: .newlines)
        // A due date, then a reminder (an undated task gets one).
        for ids in [[early, undated], [undated]] {
            try sandbox.expectRefused(
                ["snooze"] + ids + ["--by", "1000000w"], status: 64,
                message: "snoozing \(ids[0]) by that much takes it past the year 9999, which taskwidget does not keep: snooze by less")
        }
        try sandbox.succeed(["snooze", early, undated, "--by", "520w"])
    }

    @Test func nothingToActOnIsOneLineAndExit64() throws {
        let sandbox = try Sandbox()
        let id = try sandbox.succeed(["add", "Pay rent"]).trimmingCharacters(in: .newlines)
        try sandbox.succeed(["done", id])
        try sandbox.expectRefused(["done", "--top"], status: 64, message: "nothing to complete: no task is open")
        try sandbox.expectRefused(["start", "--top", "--inbox"], status: 64, message: "nothing to start: no task is open in “Inbox”")
        try sandbox.expectRefused(["snooze", "--top"], status: 64, message: "nothing to snooze: no task is open")
        try sandbox.expectRefused(["done", id, "--top"], status: 64, message: "give task ids or --top, not both")
        try sandbox.expectRefused(["done"], status: 64, message: "give task ids, or --top for the task a bar shows")
        try sandbox.expectRefused(["start"], status: 64, message: "give a task id, or --top for the task a bar shows")
        try sandbox.expectRefused(["stop", "--top", "--list", "Nope"], status: 64, message: "no list is named “Nope”")
        try sandbox.expectRefused(["stop"], status: 64, message: "give a task id, or --top for the task a bar shows")
        try sandbox.expectRefused(["stop", id, "--top"], status: 64, message: "give a task id or --top, not both")
        try sandbox.expectRefused(["done", id, "--inbox"], status: 64, message: "--list, --inbox and --view go with --top")
        try sandbox.expectRefused(["snooze", id, "--by", "soon"], status: 64, message: "--by takes a duration such as 30m")
        // A duration where an id goes: it was "“1h” is not a task id" (helper-171).
        try sandbox.expectRefused(["snooze", id, "1h"], status: 64, message: "“1h” is a duration, not a task id: give it as --by 1h")
        try sandbox.expectRefused(["snooze", id, "in 1h"], status: 64, message: "“in 1h” is a duration, not a task id: give it as --by 1h")
        try sandbox.expectRefused(["snooze", id, "1d12h"], status: 64, message: "“1d12h” is a duration, not a task id: give it as --by 36h")
    }

    /// docs/status-bars.md's waybar module, run as waybar runs it (`/bin/sh -c` on `exec` and
    /// `on-click`): a click completes the task the line names, and watch's next line names the next.
    /// (No waybar here: its `on-click` command is run directly, against the store of the running watch.)
    @Test(.timeLimit(.minutes(1)))
    func waybarOnClickCompletesTheTopTaskAndWatchShowsTheNext() throws {
        let sandbox = try Sandbox()
        // Far ahead, so that the real clock (no --now in a bar's commands) orders them as written.
        try sandbox.succeed(["add", "Pay rent", "--due", "2099-01-01T09:00"])
        try sandbox.succeed(["add", "Call Bob", "--due", "2099-01-02T09:00"])
        var environment = sandbox.environment
        environment["PATH"] = Sandbox.binary.deletingLastPathComponent().path + ":/usr/bin:/bin"
        environment["TASKWIDGET_STORE"] = sandbox.storePath
        // `sh -c` execs its last command: the process is taskwidget itself, as under waybar.
        let watch = try StreamingProcess(["-c", "taskwidget watch --format waybar"], environment: environment, executable: "/bin/sh")
        let first = try #require(StatusLineCheck.jsonObject(watch.nextLine() ?? ""))
        #expect((first["text"] as? String)?.contains("Pay rent") == true, "\(first)")
        let click = try ProcessRunner.run("/bin/sh", ["-c", "taskwidget done --top"], environment: environment)
        #expect(click.status == 0 && click.stdout.contains("Completed") && click.stdout.contains("Pay rent"), "\(click.stderr)")
        let next = try #require(StatusLineCheck.jsonObject(watch.nextLine(within: .seconds(5)) ?? ""))
        #expect((next["text"] as? String)?.contains("Call Bob") == true, "\(next)")
        #expect((next["tooltip"] as? String)?.contains("Pay rent") == false)
    }

    @Test(.timeLimit(.minutes(1)))
    func sigusr2ShowsTheNextViewInTheConfiguredOrder() throws {
        let sandbox = try Sandbox()
        try sandbox.writeConfig("[watch]\nviews = [\"work\", \"home\", \"all\"]\n\n[views.home]\nlist = \"Home\"\n\n[views.work]\nlist = \"Work\"\n")
        try sandbox.succeed(["list", "add", "Work"])
        try sandbox.succeed(["list", "add", "Home"])
        try sandbox.succeed(["add", "Send the report", "--list", "Work", "--new-list"])
        try sandbox.succeed(["add", "Pay rent", "--list", "Home", "--new-list"])
        let watch = try StreamingProcess(sandbox.arguments(["watch", "--format", "json"]), environment: sandbox.environment)
        // No --view: the first of [watch] views.
        #expect(Self.entry(watch.nextLine())?.scope == "work")
        for expected in ["home", nil, "work"] {
            watch.send(SIGUSR2)
            let shown = Self.entry(watch.nextLine(within: .seconds(5)))
            #expect(shown != nil && shown?.scope == expected, "\(String(describing: shown))")
        }
        watch.send(SIGTERM)
        #expect(watch.waitForExit() == 0)
    }

    /// The second click of a double click, which comes right after the first one's change, is not
    /// run: it completed the task the next line named, barely shown (helper-154).
    @Test(.timeLimit(.minutes(1)))
    func aDoubleClickCompletesOneTask() throws {
        let sandbox = try Sandbox()
        try sandbox.succeed(["add", "Pay rent", "--due", "2026-11-22T17:00"])
        try sandbox.succeed(["add", "Water the plants", "--due", "2026-11-22T19:00"])
        let watch = try StreamingProcess(
            sandbox.arguments(["watch", "--format", "i3bar", "--verbose"]), environment: sandbox.environment, writableInput: true)
        #expect(watch.nextLine() == #"{"version":1,"click_events":true}"#)
        #expect(watch.nextLine() == "[")
        #expect((Self.block(watch.nextLine())?["full_text"] as? String)?.contains("Pay rent") == true)
        watch.writeInput("[\n{\"name\":\"taskwidget\",\"instance\":\"all\",\"button\":1}\n")
        #expect((Self.block(watch.nextLine(within: .seconds(5)))?["full_text"] as? String)?.contains("Water the plants") == true)
        watch.writeInput(",{\"name\":\"taskwidget\",\"instance\":\"all\",\"button\":1}\n")
        #expect(watch.waitForStderr(containing: "button 1: not run, the line named another task until less than 0.5 s ago"))
        watch.send(SIGTERM)
        #expect(watch.waitForExit() == 0)
        let listed = try sandbox.succeed(["ls", "--all", "--format", "json"])
        let tasks = try JSONSerialization.jsonObject(with: Data(listed.utf8)) as? [[String: Any]] ?? []
        #expect(tasks.filter { $0["state"] as? String == "completed" }.compactMap { $0["title"] as? String } == ["Pay rent"])
    }

    /// i3bar writes click events to watch's standard input: the wheel changes the view, and the left
    /// button completes the task the view shows, through `taskwidget done ID`.
    @Test(.timeLimit(.minutes(1)))
    func i3barClickEventsOnStandardInputCycleViewsAndCompleteTheTopTask() throws {
        let sandbox = try Sandbox()
        try sandbox.writeConfig("[views.work]\nlist = \"Work\"\n\n[views.home]\nlist = \"Home\"\n")
        try sandbox.succeed(["list", "add", "Work"])
        try sandbox.succeed(["list", "add", "Home"])
        try sandbox.succeed(["add", "Send the report", "--list", "Work", "--new-list", "--due", "2026-11-22T18:00"])
        try sandbox.succeed(["add", "Pay rent", "--list", "Home", "--new-list", "--due", "2026-11-22T17:00"])
        try sandbox.succeed(["add", "Water the plants", "--list", "Home", "--new-list", "--due", "2026-11-22T19:00"])
        let watch = try StreamingProcess(
            sandbox.arguments(["watch", "--format", "i3bar", "--view", "work"]), environment: sandbox.environment, writableInput: true)
        #expect(watch.nextLine() == #"{"version":1,"click_events":true}"#)
        #expect(watch.nextLine() == "[")
        #expect(Self.block(watch.nextLine())?["instance"] as? String == "work")
        // The cycle is all, work, home: the wheel down shows home, up goes back.
        watch.writeInput("[\n{\"name\":\"taskwidget\",\"instance\":\"work\",\"button\":5,\"x\":1700,\"y\":12,\"modifiers\":[]}\n")
        let home = Self.block(watch.nextLine(within: .seconds(5)))
        #expect(home?["instance"] as? String == "home" && (home?["full_text"] as? String)?.contains("Pay rent") == true, "\(String(describing: home))")
        watch.writeInput(",{\"name\":\"taskwidget\",\"instance\":\"home\",\"button\":1,\"x\":1700,\"y\":12,\"modifiers\":[]}\n")
        let after = Self.block(watch.nextLine(within: .seconds(5)))
        #expect(after?["instance"] as? String == "home" && (after?["full_text"] as? String)?.contains("Water the plants") == true, "\(String(describing: after))")
        watch.writeInput(",{\"name\":\"taskwidget\",\"instance\":\"home\",\"button\":4}\n")
        #expect(Self.block(watch.nextLine(within: .seconds(5)))?["instance"] as? String == "work")
        // The click's command changed the store as `done` does; Work's task is untouched.
        let listed = try sandbox.succeed(["ls", "--all", "--format", "json"])
        let tasks = try JSONSerialization.jsonObject(with: Data(listed.utf8)) as? [[String: Any]] ?? []
        #expect(tasks.filter { $0["state"] as? String == "completed" }.compactMap { $0["title"] as? String } == ["Pay rent"])
        watch.send(SIGTERM)
        #expect(watch.waitForExit() == 0)
        #expect(!watch.stderrText.contains("Pay rent"), "logs never carry titles: \(watch.stderrText)")
    }
    /// waybar and polybar run a click's command themselves: sent as a signal (`SIGRTMIN+N` for
    /// button N), the click reaches watch, which acts on the view it shows, as for i3bar.
    @Test(.timeLimit(.minutes(1)))
    func clicksSentAsSignalsCycleViewsAndCompleteTheTopTaskOfTheViewShown() throws {
        let sandbox = try Sandbox()
        try sandbox.writeConfig("[views.work]\nlist = \"Work\"\n\n[views.home]\nlist = \"Home\"\n")
        try sandbox.succeed(["add", "Send the report", "--list", "Work", "--new-list", "--due", "2026-11-22T18:00"])
        try sandbox.succeed(["add", "Pay rent", "--list", "Home", "--new-list", "--due", "2026-11-22T17:00"])
        try sandbox.succeed(["add", "Water the plants", "--list", "Home", "--new-list", "--due", "2026-11-22T19:00"])
        let watch = try StreamingProcess(sandbox.arguments(["watch", "--format", "waybar"]), environment: sandbox.environment)
        let click = { (button: Int32) in watch.send(__libc_current_sigrtmin() + button) }
        let text = { (line: String?) in StatusLineCheck.jsonObject(line ?? "")?["text"] as? String }
        #expect(text(watch.nextLine()) == "3 today · Pay rent")
        // The cycle is all, work, home: the wheel down twice shows home, and up goes back to work.
        click(5)
        #expect(text(watch.nextLine(within: .seconds(5))) == "1 today · Send the report")
        click(5)
        #expect(text(watch.nextLine(within: .seconds(5))) == "2 today · Pay rent")
        click(4)
        #expect(text(watch.nextLine(within: .seconds(5))) == "1 today · Send the report")
        // The left button completes the top task of work, the view shown, not Pay rent.
        click(1)
        let after = watch.nextLine(within: .seconds(5))
        #expect(text(after) == "✓ All done", "\(after ?? "none")")
        let listed = try sandbox.succeed(["ls", "--all", "--format", "json"])
        let tasks = try JSONSerialization.jsonObject(with: Data(listed.utf8)) as? [[String: Any]] ?? []
        #expect(tasks.filter { $0["state"] as? String == "completed" }.compactMap { $0["title"] as? String } == ["Send the report"])
        // Buttons 6 to 9 (the wheel sideways, back and forward) do nothing: +6 ended watch (helper-98).
        click(6)
        click(9)
        click(5)
        #expect(text(watch.nextLine(within: .seconds(5))) == "2 today · Pay rent")
        watch.send(SIGTERM)
        #expect(watch.waitForExit() == 0)
    }

    /// A click acts on the task the line names: with config.toml changed since watch read it,
    /// `done --top --view NAME` read the new definition and completed a task the bar did not show;
    /// and a view whose name starts with "-" was taken for an option (helper-98).
    @Test(.timeLimit(.minutes(1)))
    func aClickCompletesTheTaskTheLineNamesWhateverConfigSaysNow() throws {
        let sandbox = try Sandbox()
        try sandbox.writeConfig("[views.\"-w\"]\nlist = \"Work\"\n")
        try sandbox.succeed(["add", "Send the report", "--list", "Work", "--new-list", "--due", "2026-11-22T18:00"])
        try sandbox.succeed(["add", "Pay rent", "--list", "Home", "--new-list", "--due", "2026-11-22T17:00"])
        let watch = try StreamingProcess(sandbox.arguments(["watch", "--format", "waybar", "--view=-w"]), environment: sandbox.environment)
        let text = { (line: String?) in StatusLineCheck.jsonObject(line ?? "")?["text"] as? String }
        #expect(text(watch.nextLine()) == "1 today · Send the report")
        try sandbox.writeConfig("[views.\"-w\"]\nlist = \"Home\"\n")
        watch.send(__libc_current_sigrtmin() + 1)
        let after = watch.nextLine(within: .seconds(5))
        #expect(text(after) == "✓ All done", "\(after ?? "none")")
        let listed = try sandbox.succeed(["ls", "--all", "--format", "json"])
        let tasks = try JSONSerialization.jsonObject(with: Data(listed.utf8)) as? [[String: Any]] ?? []
        #expect(tasks.filter { $0["state"] as? String == "completed" }.compactMap { $0["title"] as? String } == ["Send the report"])
        watch.send(SIGTERM)
        #expect(watch.waitForExit() == 0)
        #expect(!watch.stderrText.contains("missing value"), "\(watch.stderrText)")
    }
}
