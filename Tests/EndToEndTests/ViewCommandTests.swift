import Foundation
import Testing

@testable import TaskWidgetTestSupport

/// Views of config.toml (`[views.NAME]`) as the display commands take them (`--view NAME`), its
/// `store`, and the errors of an unknown view and a bad config file.
@Suite struct ViewCommandTests {
    static let config = """
        # Two views: a list, and what is due within a day.
        [views.work]
        list = "Work"

        [views.soon]
        due_within = "1d"

        """

    /// A sandbox with the views above, the lists Work and Home, and a task in each place.
    static func sandbox(config: String = config) throws -> Sandbox {
        let sandbox = try Sandbox()
        try sandbox.writeConfig(config)
        try sandbox.succeed(["list", "add", "Work"])
        try sandbox.succeed(["list", "add", "Home"])
        try sandbox.succeed(["add", "Send the report", "--list", "Work", "--new-list", "--due", "2026-11-22T17:00"])
        try sandbox.succeed(["add", "Plan the offsite", "--list", "Work", "--new-list"])
        try sandbox.succeed(["add", "Pay rent", "--list", "Home", "--new-list", "--due", "2026-11-25T09:00"])
        try sandbox.succeed(["add", "Call mom", "--due", "2026-11-23T12:00"])
        return sandbox
    }

    /// The titles of the entry's top tasks and its scope, from `status --format json ARGUMENTS`.
    static func shown(_ sandbox: borrowing Sandbox, _ arguments: [String]) throws -> (titles: [String], scope: String?, open: Int?) {
        let line = try sandbox.succeed(["status", "--format", "json"] + arguments)
        let entry = try #require(StatusLineCheck.jsonObject(line))
        let titles = (entry["top"] as? [[String: Any]] ?? []).compactMap { $0["title"] as? String }
        return (titles, entry["scope"] as? String, (entry["counts"] as? [String: Any])?["open"] as? Int)
    }

    /// Renaming or removing a list a view shows says so: the view named no list, and every `ls
    /// --view` and bar of it failed from then on (helper-142).
    @Test func renamingOrRemovingAListAViewShowsSaysSo() throws {
        let sandbox = try Self.sandbox()
        let renamed = try sandbox.run(["list", "rename", "work", "Job"])
        #expect(renamed.status == 0 && renamed.stderr == "taskwidget: note: the view “work” of config.toml shows the list “Work”: change its list to Job there\n", "\(renamed.stderr)")
        #expect(try sandbox.run(["list", "rename", "Home", "House"]).stderr.isEmpty)
        try sandbox.succeed(["list", "add", "Work"])
        let removed = try sandbox.run(["list", "rm", "Work"])
        #expect(removed.status == 0 && removed.stderr == "taskwidget: note: the view “work” of config.toml shows the list “Work”: remove the view there, or make the list again\n", "\(removed.stderr)")
    }

    @Test func statusLsTimelineAndRenderShowAView() throws {
        let sandbox = try Self.sandbox()
        let work = try Self.shown(sandbox, ["--view", "work"])
        #expect(work.titles == ["Send the report", "Plan the offsite"] && work.scope == "work" && work.open == 2)
        // Due within a day of 16:27: today's 17:00 and tomorrow's 12:00, not the 25th, nor undated tasks.
        let soon = try Self.shown(sandbox, ["--view", "soon"])
        #expect(soon.titles == ["Send the report", "Call mom"] && soon.scope == "soon" && soon.open == 2)
        #expect(try Self.shown(sandbox, ["--view", "all"]).open == 4)
        // The text line names the view's next task, and the bars name the view.
        let text = try sandbox.succeed(["status", "--view", "work"])
        #expect(text.contains("next: Send the report") && !text.contains("Call mom"), "\(text)")
        let waybar = try #require(StatusLineCheck.jsonObject(try sandbox.succeed(["status", "--format", "waybar", "--view", "work"])))
        #expect((waybar["tooltip"] as? String)?.hasPrefix("<b>work</b>") == true)
        let i3bar = try #require(StatusLineCheck.jsonObject(try sandbox.succeed(["status", "--format", "i3bar", "--view", "soon"])))
        #expect(i3bar["instance"] as? String == "soon")

        let listed = try sandbox.succeed(["ls", "--view", "soon", "--format", "json"])
        let tasks = try JSONSerialization.jsonObject(with: Data(listed.utf8)) as? [[String: Any]] ?? []
        #expect(Set(tasks.compactMap { $0["title"] as? String }) == ["Send the report", "Call mom"], "\(listed)")

        let timeline = try #require(StatusLineCheck.jsonObject(try sandbox.succeed(["timeline", "--view", "work"])))
        let entries = timeline["entries"] as? [[String: Any]] ?? []
        #expect(entries.count > 90 && entries.allSatisfy { $0["scope"] as? String == "work" })

        let png = sandbox.folder.appendingPathComponent("work.png").path
        try sandbox.succeed(["render", "--view", "work", "-o", png])
        #expect(try Data(contentsOf: URL(fileURLWithPath: png)).prefix(4) == Data([0x89, 0x50, 0x4E, 0x47]))
    }

    @Test func anActiveViewKeepsTheActiveTasks() throws {
        let sandbox = try Self.sandbox(config: "[views.doing]\nactive = true\n")
        #expect(try Self.shown(sandbox, ["--view", "doing"]).open == 0)
        let id = try #require(try sandbox.succeed(["ls", "--list", "Home", "--format", "json"]).firstMatch(of: /"id" ?: ?"([0-9a-f]{8})/)?.1)
        try sandbox.succeed(["start", String(id)])
        let doing = try Self.shown(sandbox, ["--view", "doing"])
        #expect(doing.titles == ["Pay rent"] && doing.open == 1)
    }

    @Test func anUnknownViewListsTheViews() throws {
        let sandbox = try Self.sandbox()
        // `status` prints its format's error line too (and exits 0 for bar formats, below).
        let result = try sandbox.expectRefused(
            ["status", "--view", "wrok"], status: 64, message: "no view is named “wrok”: the views are work, soon, all", allowingStdout: true)
        #expect(result.stderr.contains(sandbox.configPath), "\(result.stderr)")
        try sandbox.expectRefused(["ls", "--view", "wrok"], status: 64, message: "no view is named “wrok”")
        // A bar still gets one valid line of its format, and the error on stderr.
        let bar = try sandbox.run(["status", "--format", "waybar", "--view", "wrok"])
        #expect(bar.status == 0 && bar.stdout.contains("\"class\":\"error\"") && bar.stderr.contains("no view is named"))
        // Without a config file there are no views to list.
        let bare = try Sandbox()
        try bare.succeed(["add", "Something"])
        // It names the file to make, not `$XDG_CONFIG_HOME/…`, whatever the variable says.
        try bare.expectRefused(
            ["ls", "--view", "work"], status: 64, message: "there are none yet (define one as a [views.NAME] table in \(bare.configPath))")
    }

    /// A view whose list is not in the store: the error says the name came from config.toml, which
    /// the user may not remember, in every command that takes the view.
    @Test func aViewOfAMissingListSaysWhereTheNameComesFrom() throws {
        let sandbox = try Self.sandbox(config: "[views.chores]\nlist = \"Chores\"\n")
        let advice = "no list is named “Chores”: the lists are Work, Home (the view “chores” in config.toml names it: fix the view, or create the list with `taskwidget list add Chores`)"
        try sandbox.expectRefused(["status", "--view", "chores"], status: 64, message: advice, allowingStdout: true)
        try sandbox.expectRefused(["ls", "--view", "chores"], status: 64, message: advice)
        try sandbox.expectRefused(["timeline", "--view", "chores"], status: 64, message: advice)
        try sandbox.expectRefused(["done", "--top", "--view", "chores"], status: 64, message: advice)
        let serve = try sandbox.run(["serve", "--view", "chores", "--listen", "127.0.0.1:0"])
        #expect(serve.status == 64 && serve.stderr.contains(advice), "\(serve.stderr)")
        // The same list named on the command line keeps the usual advice.
        try sandbox.expectRefused(["ls", "--list", "Chores"], status: 64, message: "(create one with `taskwidget list add NAME`)")
    }

    @Test func aViewExcludesTheScopeOptions() throws {
        let sandbox = try Self.sandbox()
        try sandbox.expectRefused(["status", "--view", "work", "--list", "Work"], status: 64, message: "--view and --list exclude each other", allowingStdout: true)
        try sandbox.expectRefused(["ls", "--view", "work", "--inbox"], status: 64, message: "--view and --inbox exclude each other")
        let serve = try sandbox.run(["serve", "--view", "work", "--list", "Work", "--listen", "127.0.0.1:0"])
        #expect(serve.status == 64 && serve.stderr.contains("--view and --list exclude each other"), "\(serve.stderr)")
        let unknown = try sandbox.run(["serve", "--view", "wrok", "--listen", "127.0.0.1:0"])
        #expect(unknown.status == 64 && unknown.stderrLines.count == 1 && unknown.stderr.contains("no view is named “wrok”"), "\(unknown.stderr)")
    }

    /// config.toml's `store` is where commands go when neither --store nor TASKWIDGET_STORE names
    /// one: it was read and checked, then ignored, so tasks went to the default store.
    @Test func theConfiguredStoreComesAfterTheOptionAndTheEnvironment() throws {
        let sandbox = try Sandbox()
        let configured = sandbox.folder.appendingPathComponent("configured.sqlite").path
        try sandbox.writeConfig("# my store\nstore = \"~/configured.sqlite\"\n")
        let add = try sandbox.run(["add", "Where do I go", "--now", sandbox.now], global: false)
        #expect(add.status == 0, "\(add.stderr)")
        #expect(try sandbox.succeed(["ls", "--store", configured]).contains("Where do I go"))
        #expect(!FileManager.default.fileExists(atPath: sandbox.folder.appendingPathComponent("data/taskwidget/tasks.sqlite").path))
        // TASKWIDGET_STORE comes before it, and --store before both.
        let named = sandbox.folder.appendingPathComponent("named.sqlite").path
        let fromEnvironment = try sandbox.run(["add", "Named", "--now", sandbox.now], global: false, environment: ["TASKWIDGET_STORE": named])
        #expect(fromEnvironment.status == 0)
        #expect(try sandbox.succeed(["ls", "--store", named]).contains("Named"))
        try sandbox.succeed(["add", "Given"])
        let listed = try sandbox.succeed(["ls", "--store", configured])
        #expect(!listed.contains("Given") && !listed.contains("Named"))
        // A relative path would depend on the folder the bar or timer starts in.
        try sandbox.writeConfig("\nstore = \"tasks.sqlite\"\n")
        let relative = try sandbox.run(["ls", "--now", sandbox.now], global: false)
        #expect(relative.status == 64 && relative.stderr.contains("config.toml:2: store: give the file as an absolute path"), "\(relative.stderr)")
    }

    /// A mistake in a table is the error of the commands that use it only: `ls` and `add` stopped
    /// on a typo in [serve] when config.toml named the store (helper-158). serve stops on it.
    @Test func aMistakeInATableIsTheErrorOfTheCommandsThatUseItOnly() throws {
        let sandbox = try Sandbox()
        try sandbox.writeConfig("store = \"~/configured.sqlite\"\n\n[serve]\nlisten = 8080\n")
        let add = try sandbox.run(["add", "Pay rent", "--now", sandbox.now], global: false)
        #expect(add.status == 0 && add.stderr.isEmpty, "\(add.stderr)")
        #expect(try sandbox.run(["ls", "--now", sandbox.now], global: false).stdout.contains("Pay rent"))
        let serve = try sandbox.run(["serve", "--now", sandbox.now, "--listen", "127.0.0.1:0"], global: false)
        #expect(serve.status == 64 && serve.stderr.contains("config.toml:4: serve.listen: expected text in quotes"), "\(serve.stderr)")
        // Nor is it sync's, which writes accounts into the same file (helper-161).
        let added = try sandbox.run(
            ["sync", "account", "add", "home", "--url", "http://127.0.0.1:1/", "--user", "u", "--password-command", "echo p"], global: false)
        #expect(added.status == 0, "\(added.stderr)")
        #expect(try sandbox.run(["sync", "account", "rm", "home"], global: false).status == 0)
        #expect(try String(contentsOfFile: sandbox.configPath, encoding: .utf8).contains("listen = 8080"))
    }

    @Test(arguments: [
        ("[views.work]\nlist = \"Work\"\n\n[views.soon]\ndue_within = \"soon\"\n", ":5: views.soon.due_within: expected a duration such as 30m"),
        // A duration, too long: it was "expected a duration" (helper-79).
        ("[views.soon]\ndue_within = \"99999999w\"\n", ":2: views.soon.due_within: the duration is too long: give at most 1000000 of its unit"),
        // A capital M, refused without a word of why (helper-106).
        ("[views.soon]\ndue_within = \"30M\"\n", ":2: views.soon.due_within: M may mean months or minutes: write minutes as m, e.g. 30m"),
        ("[views.work]\nlist = \"Work\"\nactive = \"yes\"\n", ":3: views.work.active: expected true or false"),
        ("[views.work]\nlst = \"Work\"\n", ":2: views.work.lst: unknown key: did you mean “list”? (the keys here are active, due_within, inbox, list)"),
        ("[views.work\nlist = \"Work\"\n", ":1:"),
        ("[watch]\nviews = [\"work\", \"home\"]\n[views.work]\nlist = \"Work\"\n", ":2: watch.views: item 2, “home”, is not a view"),
        ("[watch]\nleft_click = \"complete\"\n", ":2: watch.left_click: expected one of done, start, snooze, none"),
    ])
    func aBadConfigSaysWhereAndWhat(config: String, message: String) throws {
        let sandbox = try Self.sandbox(config: config)
        // A mistake in [watch] is watch's alone: ls does not read it (helper-158).
        if message.contains(" watch.") {
            #expect(!(try sandbox.run(["ls", "--view", "work"]).stderr.contains(message)))
        } else {
            try sandbox.expectRefused(["ls", "--view", "work"], status: 64, message: sandbox.configPath + message)
        }
        // watch reads the file whether or not a view is named: [watch] is its own.
        let watch = try sandbox.run(["watch", "--format", "text"])
        #expect(watch.status == 64 && watch.stderrLines.count == 1 && watch.stderr.contains(sandbox.configPath + message), "\(watch.stderr)")
        // And the format's error line, so that a bar shows why its module stopped.
        #expect(watch.stdout.hasPrefix("⚠ taskwidget: \(sandbox.configPath)\(message)"), "\(watch.stdout)")
    }
}

extension Sandbox {
    /// `$HOME/.config/taskwidget/config.toml` of the sandbox (HOME is its folder, XDG_CONFIG_HOME unset).
    var configPath: String { folder.appendingPathComponent(".config/taskwidget/config.toml").path }

    func writeConfig(_ text: String) throws {
        let url = URL(fileURLWithPath: configPath)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: url, atomically: true, encoding: .utf8)
    }
}
