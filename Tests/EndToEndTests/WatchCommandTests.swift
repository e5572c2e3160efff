import Foundation
import Glibc
import Testing

/// `taskwidget watch` as a bar runs it: a long-running process whose lines are read as they come.
@Suite struct WatchCommandTests {
    /// Starts `taskwidget watch ARGUMENTS` on the sandbox's store and zone (and `--now` unless given).
    func watch(_ sandbox: borrowing Sandbox, _ arguments: [String], store: String? = nil) throws -> StreamingProcess {
        try StreamingProcess(
            sandbox.arguments(["watch"] + arguments + ["--store", store ?? sandbox.storePath]), environment: sandbox.environment)
    }

    static func object(_ line: String?) -> [String: Any]? {
        line.flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    static func overdue(_ entry: [String: Any]?) -> Int? {
        (entry?["counts"] as? [String: Any])?["overdue"] as? Int
    }

    @Test(.timeLimit(.minutes(1)))
    func aTaskFlipsToOverdueAtItsDueInstantNotAtTheNextQuarterHour() throws {
        let sandbox = try Sandbox()
        try sandbox.succeed(["add", "Pay rent", "--due", "2026-11-22T16:37:23+01:00"])
        // 383 virtual seconds at 120 times real time: about 3.2 s.
        let watch = try watch(sandbox, ["--format", "json", "--now", "2026-11-22T16:31:00+01:00", "--clock-speed", "120"])
        let first = Self.object(watch.nextLine())
        #expect(first?["date"] as? String == "2026-11-22T16:31:00+01:00")
        #expect(Self.overdue(first) == 0)
        let started = ContinuousClock.now
        // The very next line is the flip: nothing was printed at a quarter hour or any other time before.
        let flip = Self.object(watch.nextLine())
        let elapsed = ContinuousClock.now - started
        #expect(flip?["date"] as? String == "2026-11-22T16:37:23+01:00")
        #expect(flip?["reasons"] as? [String] == ["due"])
        #expect(Self.overdue(flip) == 1)
        #expect(elapsed > .milliseconds(3000) && elapsed < .milliseconds(4500), "the flip came after \(elapsed)")
    }

    @Test(.timeLimit(.minutes(1)))
    func anotherProcesssAddShowsWithin250Milliseconds() throws {
        let sandbox = try Sandbox()
        try sandbox.succeed(["add", "Pay rent", "--due", "2026-11-22T18:00:00+01:00"])
        let watch = try watch(sandbox, ["--format", "text"])
        #expect(watch.nextLine() == "1 today · next: Pay rent (18:00)")
        try sandbox.succeed(["add", "Call Bob", "--due", "2026-11-22T17:00:00+01:00"])
        let added = ContinuousClock.now
        let line = watch.nextLine(within: .seconds(2))
        let latency = ContinuousClock.now - added
        #expect(line == "2 today · next: Call Bob (17:00)")
        #expect(latency < .milliseconds(250), "the line came \(latency) after the add ended")
    }

    @Test(.timeLimit(.minutes(1)))
    func aWriteThatLeavesTheLineAsItWasPrintsNothing() throws {
        let sandbox = try Sandbox()
        try sandbox.succeed(["add", "Pay rent", "--due", "2026-11-22T18:00:00+01:00"])
        let watch = try watch(sandbox, ["--format", "text"])
        #expect(watch.nextLine() == "1 today · next: Pay rent (18:00)")
        try sandbox.succeed(["list", "add", "Work"])
        try sandbox.succeed(["habit", "add", "Walk"])
        try sandbox.succeed(["add", "Call Bob", "--due", "2026-11-22T17:00:00+01:00"])
        #expect(watch.nextLine(within: .seconds(3)) == "2 today · next: Call Bob (17:00)")
    }

    @Test(.timeLimit(.minutes(1)))
    func itStartsWithoutAStoreSurvivesItsDeletionAndExitsWhenTheReaderGoes() throws {
        let sandbox = try Sandbox()
        let folder = sandbox.folder.appendingPathComponent("not/yet")
        let store = folder.appendingPathComponent("tasks.sqlite").path
        let watch = try watch(sandbox, ["--format", "text"], store: store)
        let missing = "⚠ taskwidget: there is no store at \(store) yet: add a task with `taskwidget add TITLE` or try `taskwidget demo`"
        #expect(watch.nextLine() == missing)
        // `add` links the new store into place whole, then writes its task: watch may catch the
        // store empty in between, and then shows "All done" first.
        let lineAfterAdd = {
            let line = watch.nextLine(within: .seconds(3))
            return line == "All done" ? watch.nextLine(within: .seconds(3)) : line
        }
        // The folder does not exist yet either: watch waits on its nearest existing parent.
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try sandbox.succeed(["add", "Pay rent", "--due", "2026-11-22T18:00:00+01:00", "--store", store])
        #expect(lineAfterAdd() == "1 today · next: Pay rent (18:00)")
        for suffix in ["", "-wal", "-shm"] { try FileManager.default.removeItem(atPath: store + suffix) }
        #expect(watch.nextLine(within: .seconds(3)) == missing)
        try sandbox.succeed(["add", "Call Bob", "--due", "2026-11-22T17:00:00+01:00", "--store", store])
        #expect(lineAfterAdd() == "1 today · next: Call Bob (17:00)")
        watch.closeStdout()
        #expect(watch.waitForExit() == 0)
        #expect(watch.stderrText.components(separatedBy: "there is no store").count == 3, "\(watch.stderrText)")
    }

    @Test(.timeLimit(.minutes(1)), arguments: [SIGTERM, SIGINT])
    func aTerminatingSignalExitsZero(signal: Int32) throws {
        let sandbox = try Sandbox()
        let watch = try watch(sandbox, ["--format", "waybar"])
        #expect(watch.nextLine()?.contains("\"class\":\"error\"") == true)
        watch.send(signal)
        #expect(watch.waitForExit() == 0)
    }

    @Test(.timeLimit(.minutes(1)))
    func sigusr1RecomputesNow() throws {
        let sandbox = try Sandbox()
        try sandbox.succeed(["add", "Pay rent", "--due", "2026-11-22T18:00:00+01:00"])
        let watch = try watch(sandbox, ["--format", "json", "--now", "2026-11-22T16:31:00+01:00"])
        let first = Self.object(watch.nextLine())
        #expect(first?["date"] as? String == "2026-11-22T16:31:00+01:00")
        // Let a second of the clock pass (nothing is due before 16:45), so that a new anchor differs.
        Thread.sleep(forTimeInterval: 1.2)
        watch.send(SIGUSR1)
        let refreshed = Self.object(watch.nextLine(within: .seconds(2)))
        #expect(refreshed?["reasons"] as? [String] == ["now"])
        #expect((refreshed?["date"] as? String).map { $0 > "2026-11-22T16:31:00+01:00" && $0 < "2026-11-22T16:31:05+01:00" } == true)
    }

    @Test(.timeLimit(.minutes(1)))
    func i3barGetsTheProtocolHeaderThenOneArrayPerUpdate() throws {
        let sandbox = try Sandbox()
        let watch = try watch(sandbox, ["--format", "i3bar"])
        #expect(watch.nextLine() == #"{"version":1}"#)
        #expect(watch.nextLine() == "[")
        let first = try #require(watch.nextLine())
        #expect(first.hasPrefix("[{\"full_text\"") && first.hasSuffix("}]"))
        try sandbox.succeed(["add", "Pay rent", "--due", "2026-11-22T18:00:00+01:00"])
        let second = try #require(watch.nextLine(within: .seconds(3)))
        #expect(second.hasPrefix(",[{\"full_text\"") && second.contains("Pay rent"))
        let stream = "[" + first + second + "]"
        let updates = try JSONSerialization.jsonObject(with: Data(stream.utf8)) as? [[[String: Any]]]
        #expect(updates?.map(\.count) == [1, 1])
    }

    @Test(.timeLimit(.minutes(1)))
    func renderDirKeepsThePNGCurrent() throws {
        let sandbox = try Sandbox()
        try sandbox.succeed(["add", "Pay rent", "--due", "2026-11-22T18:00:00+01:00"])
        let folder = sandbox.folder.appendingPathComponent("dashboard")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let png = folder.appendingPathComponent("small.png")
        let watch = try watch(sandbox, ["--format", "text", "--render-dir", folder.path, "--family", "small", "--scale", "2"])
        // The PNG is written before its line is printed.
        #expect(watch.nextLine() == "1 today · next: Pay rent (18:00)")
        let first = try Data(contentsOf: png)
        #expect(first.prefix(8) == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
        #expect(first[16..<24] == Data([0, 0, 1, 84, 0, 0, 1, 84]), "340 × 340 pixels")

        try sandbox.succeed(["add", "Call Bob", "--due", "2026-11-22T17:00:00+01:00"])
        #expect(watch.nextLine(within: .seconds(3)) == "2 today · next: Call Bob (17:00)")
        #expect(try Data(contentsOf: png) != first)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["small.png"])
    }

    @Test func renderDirMustExist() throws {
        let sandbox = try Sandbox()
        let result = try sandbox.run(["watch", "--render-dir", sandbox.folder.appendingPathComponent("missing").path])
        #expect(result.status == 74)
        #expect(result.stderrLines.count == 1 && result.stderr.contains("does not exist: create it first"))
        #expect(result.stdout.isEmpty)
    }

    /// Idle means asleep: over a few seconds with no entry due, the process is not scheduled at all
    /// (a busy or polling loop would switch context at least once per poll).
    @Test(.timeLimit(.minutes(1)))
    func anIdleWatchDoesNotWakeUp() throws {
        let sandbox = try Sandbox()
        try sandbox.succeed(["add", "Pay rent", "--due", "2026-11-22T18:00:00+01:00"])
        let watch = try watch(sandbox, ["--format", "waybar", "--now", "2026-11-22T16:31:00+01:00"])
        #expect(watch.nextLine() != nil)
        // The line is out before watch is back in poll: the count starts once it waits there.
        guard watch.waitUntilBlockedInPoll() else {
            Issue.record("watch never blocked in poll after its first line (/proc/\(watch.pid)/syscall)")
            return
        }
        let before = try watch.contextSwitches()
        // The window measured, not a wait for something: a busy loop would show in it.
        Thread.sleep(forTimeInterval: 3)
        let after = try watch.contextSwitches()
        #expect(after - before <= 1, "\(after - before) context switches in 3 s")
        #expect(watch.isBlockedInPoll(), "watch is no longer waiting in poll")
    }
}
