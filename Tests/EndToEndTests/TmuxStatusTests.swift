import Foundation
import Testing

@testable import TaskWidgetTestSupport

/// A real tmux server runs `taskwidget status --format tmux` from `status-right`, and a real tmux
/// client draws it: the status line, read back from the screen, shows the titles as typed (every
/// `#` and run of `#`s, no style, format or command taken from a title) and our own red style on
/// the count.
///
/// The client is attached inside a second tmux server's pane, so that `capture-pane` on that one
/// reads the drawn status line of the first (tmux runs `#()` jobs for clients, and draws them).
/// A pane of tmux also shows that `ls` lines its columns up as tmux draws them.
@Suite(.serialized, .runsPrograms(onThreadNamed: "tmux status")) struct TmuxStatusTests {
    static let tmux = "/usr/bin/tmux"

    /// Closes every descriptor above 2, then runs the command (bash: dash cannot close fd ≥ 10).
    static let closeDescriptors = #"for f in /proc/$$/fd/*; do n=${f##*/}; if [ "$n" -gt 2 ]; then eval "exec $n>&-"; fi; done 2>/dev/null; exec "$@""#

    /// Runs a program with its output in files and no descriptor but 0–2. A tmux server started by
    /// `new-session` keeps what the client had: a pipe would never reach its end, and Foundation's
    /// `Process`, which learns that a child exited when a socket it inherited closes, would wait
    /// for the server to exit.
    static func execute(_ executable: String, _ arguments: [String], environment: [String: String], folder: URL) throws -> RunResult {
        let stdoutURL = folder.appendingPathComponent("tmux-\(UUID().uuidString).out")
        let stderrURL = folder.appendingPathComponent("tmux-\(UUID().uuidString).err")
        defer {
            try? FileManager.default.removeItem(at: stdoutURL)
            try? FileManager.default.removeItem(at: stderrURL)
        }
        for url in [stdoutURL, stderrURL] { _ = FileManager.default.createFile(atPath: url.path, contents: nil) }
        let stdout = try FileHandle(forWritingTo: stdoutURL)
        let stderr = try FileHandle(forWritingTo: stderrURL)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", closeDescriptors, "bash", executable] + arguments
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        process.waitUntilExit()
        try stdout.close()
        try stderr.close()
        return RunResult(
            status: process.terminationStatus, stdout: try String(contentsOf: stdoutURL, encoding: .utf8),
            stderr: try String(contentsOf: stderrURL, encoding: .utf8))
    }

    @Test(.timeLimit(.minutes(1)))
    func theStatusLineShowsTitlesWithHashesIntact() throws {
        guard FileManager.default.isExecutableFile(atPath: Self.tmux) else {
            Issue.record("tmux is not installed at \(Self.tmux): run scripts/test.sh, which installs it (Debian package tmux)")
            return
        }
        let sandbox = try Sandbox()
        let marker = sandbox.folder.appendingPathComponent("PWNED").path
        let title = "Issue #42 #{pane_id} #(touch \(marker)) #[fg=red] 100% C## ###x ##[b]"
        try sandbox.succeed(["add", title, "--due", "2026-11-22T15:00:00+01:00"])
        try sandbox.succeed(["add", "Call Bob", "--due", "2026-11-22T16:00:00+01:00"])
        try sandbox.succeed(["add", "Later", "--due", "2026-11-22T18:00:00+01:00"])
        let arguments = ["status", "--format", "tmux", "--max-width", "200", "--store", sandbox.storePath, "--now", sandbox.now, "--tz", sandbox.timeZone]
        let direct = try sandbox.run(arguments)
        try #require(direct.status == 0 && direct.stdoutLines.count == 1, "\(direct.stderr)")
        #expect(direct.stdout.hasPrefix("#[fg=red,bold]2 overdue#[default] · 1 today · Issue ####42 "))
        // What tmux should draw: our styles applied (so gone from the text), the title as typed.
        let visible = "2 overdue · 1 today · " + title

        // taskwidget on the PATH, and the sandbox's store, for the `prefix T` binding.
        let environment = [
            "PATH": Sandbox.binary.deletingLastPathComponent().path + ":/usr/bin:/bin", "LC_ALL": "C.UTF-8", "TZ": sandbox.timeZone,
            "HOME": sandbox.folder.path, "TERM": "screen", "TASKWIDGET_STORE": sandbox.storePath,
        ]
        // The sockets and outputs live in a folder of their own, removed only after both servers.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("taskwidget-tmux-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
        let inner = folder.appendingPathComponent("inner.sock").path
        let outer = folder.appendingPathComponent("outer.sock").path
        func tmux(_ socket: String, _ arguments: [String]) throws -> RunResult {
            try Self.execute(Self.tmux, ["-u", "-S", socket, "-f", "/dev/null"] + arguments, environment: environment, folder: folder)
        }
        var serverIDs: [pid_t] = []
        defer {
            _ = try? tmux(outer, ["kill-server"])
            _ = try? tmux(inner, ["kill-server"])
            // A server that is still there (a failure half-way) is ended by its own id.
            for id in serverIDs where kill(id, 0) == 0 { kill(id, SIGKILL) }
            try? FileManager.default.removeItem(at: folder)
        }
        func serverID(_ socket: String) -> pid_t? {
            (try? tmux(socket, ["display", "-p", "#{pid}"])).flatMap { pid_t($0.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) }
        }
        let command = ([Sandbox.binary.path] + arguments).map(\.shellQuoted).joined(separator: " ")
        for setup in [
            ["new-session", "-d", "-s", "bar", "-x", "200", "-y", "5"],
            ["set", "-g", "status-left", ""],
            ["set", "-g", "status-right-length", "400"],
            ["set", "-g", "status-interval", "1"],
            ["set", "-g", "status-right", "#(\(command))"],
        ] {
            let result = try tmux(inner, setup)
            if setup[0] == "new-session", let id = serverID(inner) { serverIDs.append(id) }
            try #require(result.status == 0, "tmux \(setup): \(result.stderr)")
        }
        let client = "env -u TMUX TERM=screen \(Self.tmux) -u -S \(inner.shellQuoted) attach -t bar"
        let started = try tmux(outer, ["new-session", "-d", "-s", "view", "-x", "220", "-y", "12", client])
        if let id = serverID(outer) { serverIDs.append(id) }
        try #require(started.status == 0, "outer tmux: \(started.stderr)")
        try #require(serverIDs.count == 2, "cannot find the two tmux servers' ids")

        // `#()` runs asynchronously: read the drawn screen until the status line arrives (≤ 10 s).
        var statusLine = ""
        _ = waitUntil(within: .seconds(10), every: .milliseconds(100)) {
            let screen = try? tmux(outer, ["capture-pane", "-p", "-t", "view"])
            statusLine = screen?.stdoutLines.last { !$0.trimmingCharacters(in: .whitespaces).isEmpty } ?? ""
            return statusLine.contains("overdue")
        }
        try #require(statusLine.contains("overdue"), "no status line from taskwidget within 10 s; last screen line: \(statusLine)")
        let drawn = statusLine.trimmingCharacters(in: .whitespaces)
        #expect(drawn.hasSuffix(visible), "drawn: \(drawn)\nwanted: \(visible)")
        // Runs of `#` too: doubled only, `C##` was drawn as `C#`.
        #expect(drawn.contains("Issue #42 #{pane_id} #(touch ") && drawn.contains(" C## ###x ##[b]"))
        // No command from the title ran, no format was expanded (#{pane_id} would be %0).
        #expect(!FileManager.default.fileExists(atPath: marker))
        #expect(!drawn.contains("%0"))
        // Our own style did apply: the count is drawn red (SGR 31), the title's `#[fg=red]` is text.
        let styled = try tmux(outer, ["capture-pane", "-p", "-e", "-t", "view"]).stdoutLines.last { $0.contains("overdue") } ?? ""
        #expect(styled.contains("\u{1B}[31m2 overdue"), "\(styled.debugDescription)")

        // docs/status-bars.md's `prefix T`, pressed in the client: a popup says what was completed,
        // its title as typed. The recipe showed it with `display-message`, which reads its text as
        // a tmux format: the title's `#[fg=red]` was a style, `#{pane_id}` expanded, and its
        // `#(touch …)` ran (helper-69).
        // (Held open until the test has read it, where the docs' recipe waits 2 s: on a loaded
        // machine the screen reads could miss 2 s, and a popup still open held the servers' end.)
        let close = folder.appendingPathComponent("close-popup").path
        defer { FileManager.default.createFile(atPath: close, contents: nil) }
        let binding = "bind-key T display-popup -E -w 90% -h 6 'taskwidget done --top 2>&1; tmux refresh-client -S; "
            + "while [ ! -e \(close) ]; do sleep 0.1; done'"
        let configuration = folder.appendingPathComponent("binding.conf")
        try Data((binding + "\nset -g display-time 20000\n").utf8).write(to: configuration)
        try #require(try tmux(inner, ["source-file", configuration.path]).status == 0)
        try #require(try tmux(outer, ["send-keys", "-t", "view", "C-b", "T"]).status == 0)
        var message = ""
        _ = waitUntil(within: .seconds(20), every: .milliseconds(100)) {
            message = (try? tmux(outer, ["capture-pane", "-p", "-t", "view"]))?.stdoutLines.last { $0.contains("Completed") } ?? ""
            return !message.isEmpty
        }
        #expect(message.contains("Completed ") && message.contains(title), "message line: \(message)")
        #expect(!FileManager.default.fileExists(atPath: marker))
        // The popup ends once the file is there, before the servers are stopped.
        FileManager.default.createFile(atPath: close, contents: nil)
        #expect(waitUntil(within: .seconds(10), every: .milliseconds(100)) {
            (try? tmux(outer, ["capture-pane", "-p", "-t", "view"]))?.stdout.contains("Completed") == false
        })
    }

    /// `ls` counts columns as tmux draws them: each row's LIST cell starts in the column of the
    /// header's `LIST`, whatever the title before it (Devanagari's spacing marks, emoji with a
    /// joiner, a skin tone or U+FE0F, a flag, CJK). Each row is printed in a tmux pane, then the
    /// cursor is moved to the header's LIST column and a `|` written there: the drawn row shows it
    /// on the list name's first letter only if the row was laid out in the same columns.
    @Test(.timeLimit(.minutes(1)))
    func theListingLinesUpInTmux() throws {
        guard FileManager.default.isExecutableFile(atPath: Self.tmux) else {
            Issue.record("tmux is not installed at \(Self.tmux): run scripts/test.sh, which installs it (Debian package tmux)")
            return
        }
        let sandbox = try Sandbox()
        try sandbox.succeed(["list", "add", "Errands"])
        let titles = [
            "Plain title", "क्षितिज से मिलना", "नमस्ते कहना", "Run 🏃‍♀️ 5k", "Trip 🇩🇪 Berlin", "Review 👍🏽 notes",
            "Call mum ❤️", "Sun ☀️ cream", "田中さんへの贈り物", "Café au lait", "مَرحَبًا يا صديق", "Tag 🇺 alone",
        ]
        for title in titles { try sandbox.succeed(["add", title, "--list", "Errands"]) }
        let rows = try sandbox.succeed(["ls"]).split(separator: "\n").map(String.init)
        try #require(rows.count == titles.count + 1 && rows[0].contains("  LIST"), "\(rows)")
        let listColumn = try #require(rows[0].range(of: "LIST")).lowerBound.utf16Offset(in: rows[0])

        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("taskwidget-tmux-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
        let socket = folder.appendingPathComponent("tmux.sock").path
        let environment = ["PATH": "/usr/bin:/bin", "LC_ALL": "C.UTF-8", "HOME": folder.path, "TERM": "screen"]
        func tmux(_ arguments: [String]) throws -> RunResult {
            try Self.execute(Self.tmux, ["-u", "-S", socket, "-f", "/dev/null"] + arguments, environment: environment, folder: folder)
        }
        var serverID: pid_t?
        defer {
            _ = try? tmux(["kill-server"])
            if let serverID, kill(serverID, 0) == 0 { kill(serverID, SIGKILL) }
            try? FileManager.default.removeItem(at: folder)
        }
        // Each row, then the cursor to the header's LIST column (CHA counts from 1) and a `|` there.
        let screen = rows.map { $0 + "\u{1B}[\(listColumn + 1)G|" }.joined(separator: "\r\n") + "\r\nend-of-rows\r\n"
        let file = folder.appendingPathComponent("rows.txt")
        try Data(screen.utf8).write(to: file)
        let started = try tmux(["new-session", "-d", "-x", "120", "-y", "\(rows.count + 4)", "cat \(file.path.shellQuoted); exec cat"])
        try #require(started.status == 0, "tmux: \(started.stderr)")
        serverID = (try? tmux(["display", "-p", "#{pid}"])).flatMap { pid_t($0.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) }

        var drawn: [String] = []
        _ = waitUntil(within: .seconds(10), every: .milliseconds(50)) {
            drawn = (try? tmux(["capture-pane", "-p"]))?.stdoutLines ?? []
            return drawn.contains("end-of-rows")
        }
        try #require(drawn.contains("end-of-rows"), "tmux never drew the rows: \(drawn)")
        #expect(drawn[0].contains("  |IST"), "header: \(drawn[0])")
        for (row, line) in zip(rows.dropFirst(), drawn.dropFirst()) {
            #expect(line.contains("  |rrands"), "out of line in tmux: \(line) (printed: \(row))")
        }
    }
}
