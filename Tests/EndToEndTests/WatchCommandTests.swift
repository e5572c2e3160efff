import Foundation
import Glibc
import Testing

@testable import TaskWidgetTestSupport

/// `taskwidget watch` as a bar runs it: a long-running process whose lines are read as they come.
@Suite(.serialized, .runsPrograms(onThreadNamed: "watch end-to-end")) struct WatchCommandTests {
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
        // The very next line is the flip: nothing was printed at a quarter hour or any other time before.
        let flip = Self.object(watch.nextLine())
        #expect(flip?["date"] as? String == "2026-11-22T16:37:23+01:00")
        #expect(flip?["reasons"] as? [String] == ["due"])
        #expect(Self.overdue(flip) == 1)
    }

    /// More due dates in the next 24 hours than a timeline keeps crossings for (96): watch reads
    /// the store again at the first one left out, where it showed 96 overdue until the next
    /// quarter hour (helper-132).
    @Test(.timeLimit(.minutes(1)))
    func aBusyHourPastTheCapOnCrossingsStillFlipsEachTaskOnTime() throws {
        let sandbox = try Sandbox()
        // 110 tasks due one second apart from 16:31:01 (all before the 16:45 quarter hour).
        let tasks = (1...110).map { index in
            let due = String(format: "2026-11-22T15:%02d:%02dZ", 31 + index / 60, index % 60)
            return #"{"id":"\#(UUID().uuidString)","title":"Task \#(index)","state":"notStarted","isCompleted":false,"sortOrder":\#(index),"dueDate":"\#(due)","createdAt":"2026-11-22T10:00:00Z","modifiedAt":"2026-11-22T10:00:00Z"}"#
        }
        let file = sandbox.folder.appendingPathComponent("busy.json")
        try Data((#"{"schema":"taskwidget.export/1","lists":[],"habits":[],"tasks":["# + tasks.joined(separator: ",") + "]}").utf8).write(to: file)
        try sandbox.succeed(["import", file.path])
        // 110 virtual seconds at 20 times real time: about 5.5 s; the quarter hour would be 42 s.
        let watch = try watch(sandbox, ["--format", "json", "--now", "2026-11-22T16:31:00+01:00", "--clock-speed", "20"])
        var last: [String: Any]?
        while let line = watch.nextLine(within: .seconds(5)), let entry = Self.object(line) {
            last = entry
            if Self.overdue(entry) == 110 { break }
        }
        #expect(Self.overdue(last) == 110)
        #expect(last?["date"] as? String == "2026-11-22T16:32:50+01:00")
    }

    /// (How fast it shows is measured by scripts/compare.sh, not asserted here.)
    @Test(.timeLimit(.minutes(1)))
    func anAddFromAnotherProcessShowsWithoutARestart() throws {
        let sandbox = try Sandbox()
        try sandbox.succeed(["add", "Pay rent", "--due", "2026-11-22T18:00:00+01:00"])
        let watch = try watch(sandbox, ["--format", "text"])
        #expect(watch.nextLine() == "1 today · next: Pay rent (18:00)")
        try sandbox.succeed(["add", "Call Bob", "--due", "2026-11-22T17:00:00+01:00"])
        #expect(watch.nextLine(within: .seconds(5)) == "2 today · next: Call Bob (17:00)")
    }

    /// Another program commits while the disk is slow: SQLite writes the commit's frames to the
    /// WAL (the file event), syncs them, and only then marks them committed, in shared memory that
    /// inotify does not see. strace holds every sync for half a second, five times the debounce, and
    /// the writer keeps its connection open (closing it would checkpoint, another file event).
    /// Watch used to check once, find nothing new, and show the change only at the next entry.
    @Test(.timeLimit(.minutes(1)))
    func aCommitWhoseSyncIsSlowShowsAllTheSame() throws {
        let sandbox = try Sandbox()
        try sandbox.succeed(["add", "Pay rent", "--due", "2026-11-22T18:00:00+01:00"])
        let watch = try watch(sandbox, ["--format", "text"])
        #expect(watch.nextLine() == "1 today · next: Pay rent (18:00)")
        let writer = """
            import sqlite3, sys
            store = sqlite3.connect(sys.argv[1], isolation_level=None)
            store.execute("PRAGMA synchronous = FULL")
            store.execute("UPDATE task SET title = 'Call Bob'")
            print("committed", flush=True)
            sys.stdin.read()
            """
        let slowSync = try StreamingProcess(
            ["-f", "-qq", "-e", "trace=fsync,fdatasync", "-e", "inject=fsync,fdatasync:delay_enter=500000", "-o", "/dev/null",
             "/usr/bin/python3", "-c", writer, sandbox.storePath],
            environment: ProcessInfo.processInfo.environment, executable: "/usr/bin/strace", writableInput: true)
        #expect(slowSync.nextLine() == "committed", "\(slowSync.stderrText)")
        #expect(watch.nextLine(within: .seconds(5)) == "1 today · next: Call Bob (18:00)")
        slowSync.closeInput()
        #expect(slowSync.waitForExit() == 0)
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
        // Its folder is missing too: a first `add` would not make it, so the line says to.
        let missing = "⚠ taskwidget: there is no store at \(store) yet: check the path (--store, TASKWIDGET_STORE, config.toml's store), "
            + "or create its folder (mkdir -p \(folder.path)) and then the store with a first `taskwidget add --store \(store) TITLE`"
        #expect(watch.nextLine() == missing)
        // `add` links the new store into place whole, then writes its task: watch may catch the
        // store empty in between, and then shows "No open tasks" first. Once the folder is made,
        // and before the add, it may show that the store is still to be made.
        let lineAfterAdd = {
            var line = watch.nextLine(within: .seconds(3))
            while line == "No open tasks" || line?.hasPrefix("⚠ taskwidget: there is no store") == true { line = watch.nextLine(within: .seconds(3)) }
            return line
        }
        // The folder does not exist yet either: watch waits on its nearest existing parent.
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try sandbox.succeed(["add", "Pay rent", "--due", "2026-11-22T18:00:00+01:00", "--store", store])
        #expect(lineAfterAdd() == "1 today · next: Pay rent (18:00)")
        for suffix in ["", "-wal", "-shm"] { try FileManager.default.removeItem(atPath: store + suffix) }
        #expect(watch.nextLine(within: .seconds(3)) == Self.gone(store))
        try sandbox.succeed(["add", "Call Bob", "--due", "2026-11-22T17:00:00+01:00", "--store", store])
        #expect(lineAfterAdd() == "1 today · next: Call Bob (17:00)")
        watch.closeStdout()
        #expect(watch.waitForExit() == 0)
        // Each line of a missing store is logged once; one more when the line for the folder once
        // made showed.
        #expect((3...4).contains(watch.stderrText.components(separatedBy: "there is no store").count), "\(watch.stderrText)")
    }

    /// Writes the bytes of the file at `source` over the file at `path`, in place, as `cp` does:
    /// the same file (inode), new bytes.
    static func writeOver(_ path: String, withBytesOf source: String) throws {
        let file = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try file.truncate(atOffset: 0)
        try file.write(contentsOf: try Data(contentsOf: URL(fileURLWithPath: source)))
        try file.close()
    }

    /// A store written over in place (`cp backup.sqlite tasks.sqlite`: same file, new bytes) is
    /// read again: watch, serve and notify kept showing the old tasks, through SIGUSR1 too, until
    /// the next write, as neither the file's identity nor SQLite's data_version changed.
    @Test(.timeLimit(.minutes(1)))
    func aStoreWrittenOverInPlaceIsReadAgain() throws {
        let sandbox = try Sandbox()
        try sandbox.succeed(["add", "Pay rent", "--due", "2026-11-22T18:00:00+01:00"])
        let backup = sandbox.folder.appendingPathComponent("backup.sqlite").path
        try sandbox.succeed(["add", "Call Bob", "--due", "2026-11-22T17:00:00+01:00", "--store", backup])
        let watch = try watch(sandbox, ["--format", "text"])
        #expect(watch.nextLine() == "1 today · next: Pay rent (18:00)")
        try Self.writeOver(sandbox.storePath, withBytesOf: backup)
        #expect(watch.nextLine(within: .seconds(3)) == "1 today · next: Call Bob (17:00)")
    }

    /// A copy in rollback mode (SQLite's `VACUUM INTO`, a `.dump` read back) written over the
    /// store in place while watch follows it: watch's connection, still in WAL mode, kept its lock,
    /// and every write waited 15 s and failed as "locked by another program" until watch was
    /// restarted (helper-166). Watch shows the copy, and the next write goes through.
    @Test(.timeLimit(.minutes(1)))
    func aRollbackModeCopyWrittenOverTheStoreLetsTheNextWriteThrough() throws {
        let sandbox = try Sandbox()
        try sandbox.succeed(["add", "Pay rent", "--due", "2026-11-22T18:00:00+01:00"])
        let other = sandbox.folder.appendingPathComponent("other.sqlite").path
        try sandbox.succeed(["add", "Call Bob", "--due", "2026-11-22T17:00:00+01:00", "--store", other])
        let copy = sandbox.folder.appendingPathComponent("vacuumed.sqlite").path
        let vacuum = "import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.execute(\"VACUUM INTO '\" + sys.argv[2] + \"'\"); c.close()"
        #expect(try ProcessRunner.run("/usr/bin/python3", ["-c", vacuum, other, copy]).status == 0)
        let watch = try watch(sandbox, ["--format", "text"])
        #expect(watch.nextLine() == "1 today · next: Pay rent (18:00)")
        try Self.writeOver(sandbox.storePath, withBytesOf: copy)
        #expect(watch.nextLine(within: .seconds(3)) == "1 today · next: Call Bob (17:00)")
        let started = ContinuousClock.now
        let added = try sandbox.run(["add", "Feed cat", "--due", "2026-11-22T20:00:00+01:00"])
        #expect(added.status == 0 && ContinuousClock.now - started < .seconds(10), "\(added.stderr)")
        #expect(watch.nextLine(within: .seconds(3)) == "2 today · next: Call Bob (17:00)")
    }

    /// A copy renamed over the store while watch holds it (`mv restored.sqlite tasks.sqlite`): the
    /// write before it left its frames in the `-wal` (the writer could not checkpoint while watch
    /// had the store open), and the restored file was read with them on top. Watch kept the old
    /// line, and the next `add` wrote the old tasks back over the restored ones, for good.
    @Test(.timeLimit(.minutes(1)))
    func aCopyRenamedOverTheStoreIsReadWithoutTheOldWrites() throws {
        let sandbox = try Sandbox()
        try sandbox.succeed(["add", "Pay rent", "--due", "2026-11-22T18:00:00+01:00"])
        let restored = sandbox.folder.appendingPathComponent("restored.sqlite").path
        try sandbox.succeed(["add", "Water plants", "--due", "2026-11-22T19:00:00+01:00", "--store", restored])
        let watch = try watch(sandbox, ["--format", "text"])
        #expect(watch.nextLine() == "1 today · next: Pay rent (18:00)")
        try sandbox.succeed(["add", "Call Bob", "--due", "2026-11-22T17:00:00+01:00"])
        #expect(watch.nextLine(within: .seconds(3)) == "2 today · next: Call Bob (17:00)")
        #expect(rename(restored, sandbox.storePath) == 0)
        #expect(watch.nextLine(within: .seconds(3)) == "1 today · next: Water plants (19:00)")
        try sandbox.succeed(["add", "Feed cat", "--due", "2026-11-22T20:00:00+01:00"])
        #expect(watch.nextLine(within: .seconds(3)) == "2 today · next: Water plants (19:00)")
        let titles = try sandbox.succeed(["ls", "--format", "json"])
        #expect(titles.contains("Water plants") && titles.contains("Feed cat") && !titles.contains("Call Bob"), "\(titles)")
    }

    /// `backup` and `restore` while watch follows the store: the restore is one write watch shows,
    /// and what comes after it reaches the store's file (a copy of the file has it), where a copy
    /// put over the store mixed it with the store's pending writes (helper-125).
    @Test(.timeLimit(.minutes(1)))
    func aBackupRestoredWhileWatchedIsShownAndKept() throws {
        let sandbox = try Sandbox()
        try sandbox.succeed(["add", "Pay rent", "--due", "2026-11-22T18:00:00+01:00"])
        let backup = sandbox.folder.appendingPathComponent("backup.sqlite").path
        #expect(try sandbox.succeed(["backup", backup]) == "Backed up 1 task, 0 lists and 0 habits into \(backup)\n")
        let mode = try FileManager.default.attributesOfItem(atPath: backup)[.posixPermissions] as? Int
        #expect(mode.map { $0 & 0o777 } == 0o600)
        let watch = try watch(sandbox, ["--format", "text"])
        #expect(watch.nextLine() == "1 today · next: Pay rent (18:00)")
        try sandbox.succeed(["add", "Call Bob", "--due", "2026-11-22T17:00:00+01:00"])
        #expect(watch.nextLine(within: .seconds(3)) == "2 today · next: Call Bob (17:00)")

        let unconfirmed = try sandbox.run(["restore", backup])
        #expect(unconfirmed.status == 64)
        #expect(unconfirmed.stderr.contains("restoring replaces the store's 2 tasks, 0 lists and 0 habits: add --yes to confirm"))
        #expect(try sandbox.succeed(["restore", backup, "--yes"]) == "Restored 1 task, 0 lists and 0 habits from \(backup)\n")
        #expect(watch.nextLine(within: .seconds(3)) == "1 today · next: Pay rent (18:00)")
        try sandbox.succeed(["add", "Feed cat", "--due", "2026-11-22T20:00:00+01:00"])
        #expect(watch.nextLine(within: .seconds(3)) == "2 today · next: Pay rent (18:00)")

        // The store's file alone holds it all: nothing is left only in its -wal.
        let copy = sandbox.folder.appendingPathComponent("copy.sqlite").path
        try FileManager.default.copyItem(atPath: sandbox.storePath, toPath: copy)
        let copied = try sandbox.succeed(["ls", "--format", "json", "--store", copy])
        #expect(copied.contains("Pay rent") && copied.contains("Feed cat") && !copied.contains("Call Bob"), "\(copied)")

        let junk = sandbox.folder.appendingPathComponent("notes.txt")
        try Data("not a store\n".utf8).write(to: junk)
        let refused = try sandbox.run(["restore", junk.path, "--yes"])
        #expect(refused.status == 65)
        #expect(refused.stderr == "taskwidget: \(junk.path) is no taskwidget store, or is damaged: give a file `taskwidget backup` wrote\n")
    }

    /// A restore that cannot be finished changes nothing: the backup is upgraded in a copy first,
    /// where it replaced the store before its upgrade failed, which left a store nothing could
    /// open, `restore` included (helper-127). And what is no backup is said so.
    @Test func aRestoreThatFailsLeavesTheStoreAsItWas() throws {
        let sandbox = try Sandbox()
        try sandbox.succeed(["add", "Pay rent"])
        let backup = sandbox.folder.appendingPathComponent("backup.sqlite").path
        try sandbox.succeed(["backup", backup])
        // A store whose record of one upgrade is gone, the upgrade's column still there.
        let sqlite = "import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.execute(\"DELETE FROM grdb_migrations WHERE identifier = 'v8-left-alone-objects'\"); c.commit()"
        #expect(try ProcessRunner.run("/usr/bin/python3", ["-c", sqlite, backup]).status == 0)
        try sandbox.succeed(["add", "Call Bob"])
        let failed = try sandbox.run(["restore", backup, "--yes"])
        #expect(failed.status == 65, "\(failed.stderr)")
        let titles = try sandbox.succeed(["ls", "--format", "json"])
        #expect(titles.contains("Pay rent") && titles.contains("Call Bob"), "\(titles)")

        let export = sandbox.folder.appendingPathComponent("export.json").path
        try Data(try sandbox.succeed(["export"]).utf8).write(to: URL(fileURLWithPath: export))
        try sandbox.expectRefused(["restore", export, "--yes"], status: 65, message: "is an export (JSON), not a backup: add what it holds with `taskwidget import`")
        try sandbox.expectRefused(["restore", sandbox.folder.path, "--yes"], status: 74, message: "is no file: give the file `taskwidget backup` wrote")
        try sandbox.expectRefused(["backup", "-"], status: 64, message: "backup writes a file, not standard output: give its path")
        try sandbox.expectRefused(["backup", sandbox.storePath], status: 64, message: "is the store itself: give the backup another path")
        // Its -wal and -shm were "backed up" and emptied by the next write, and the store put
        // back over itself made sync forget the servers (helper-142).
        for part in ["-wal", "-shm"] {
            try sandbox.expectRefused(["backup", sandbox.storePath + part], status: 64, message: "is the store's \(part) file: give the backup another path")
            try sandbox.expectRefused(["restore", sandbox.storePath + part, "--yes"], status: 64, message: "is the store's \(part) file, not a backup of it")
        }
        try sandbox.expectRefused(["restore", sandbox.storePath, "--yes"], status: 64, message: "is the store itself, not a backup of it: give a file `taskwidget backup` wrote")
    }

    /// A backup holding a trigger taskwidget never makes is refused before anything is replaced:
    /// restored, it ran at every write (one `done` retitled every task, helper-153). A backup of
    /// an older version, whose triggers an upgrade makes, is restored.
    @Test func aBackupWithATriggerNotOursIsRefused() throws {
        let sandbox = try Sandbox()
        try sandbox.succeed(["add", "Pay rent"])
        let backup = sandbox.folder.appendingPathComponent("evil.sqlite").path
        try sandbox.succeed(["backup", backup])
        let sqlite = "import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.execute(\"CREATE TRIGGER evil AFTER UPDATE ON task BEGIN UPDATE task SET title = 'PWNED'; END\"); c.commit()"
        #expect(try ProcessRunner.run("/usr/bin/python3", ["-c", sqlite, backup]).status == 0)
        try sandbox.succeed(["add", "Call Bob"])
        try sandbox.expectRefused(
            ["restore", backup, "--yes"], status: 65,
            message: "\(backup) holds a trigger or view that taskwidget never makes: nothing was restored; give a file `taskwidget backup` wrote")
        let titles = try sandbox.succeed(["ls", "--format", "json"])
        #expect(titles.contains("Pay rent") && titles.contains("Call Bob") && !titles.contains("PWNED"), "\(titles)")
    }

    /// `backup` replaces an older backup and nothing else: typed for `restore`, it replaced the
    /// store taskwidget uses without --store (even one watch followed), and an export or any other
    /// file went too (helper-152).
    @Test func aBackupReplacesAnOlderBackupAndNothingElse() throws {
        let sandbox = try Sandbox()
        try sandbox.succeed(["add", "Pay rent"])
        let backup = sandbox.folder.appendingPathComponent("backup.sqlite").path
        try sandbox.succeed(["backup", backup])
        try sandbox.succeed(["add", "Call Bob"])
        #expect(try sandbox.succeed(["backup", backup]) == "Backed up 2 tasks, 0 lists and 0 habits into \(backup)\n")
        let advice = "give the backup another path, or remove the file first"
        // Not "remove the file first" for a database: it may hold the user's tasks (helper-168).
        func shows(_ path: String) -> String { "give the backup another path (`taskwidget ls --store \(path)` shows what it holds)" }
        // Into a folder not made yet, as the README's line on a new machine (helper-166).
        let newFolder = sandbox.folder.appendingPathComponent("backups").path
        try sandbox.expectRefused(
            ["backup", newFolder + "/tasks.sqlite"], status: 74,
            message: "the folder \(newFolder) for the backup does not exist: create it first (mkdir -p \(newFolder))")

        let usual = sandbox.folder.appendingPathComponent("data/taskwidget/tasks.sqlite").path
        #expect(try sandbox.run(["add", "My own task"], global: false).status == 0)  // made where taskwidget keeps it
        try sandbox.expectRefused(["backup", usual], status: 64, message: "\(usual) is the store taskwidget uses without --store, not a backup: \(shows(usual))")
        #expect(try sandbox.succeed(["ls", "--format", "json", "--store", usual]).contains("My own task"))
        // A backup copied over a store by hand (cp, mv) keeps a backup's mark: the usual store is
        // refused by any name, a hard link's too, and any store is no backup once written to
        // (`backup` replaced them, helper-166).
        for part in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: usual + part) }
        try FileManager.default.copyItem(atPath: backup, toPath: usual)
        try sandbox.expectRefused(["backup", usual], status: 64, message: "\(usual) is the store taskwidget uses without --store, not a backup: \(shows(usual))")
        let hardLink = sandbox.folder.appendingPathComponent("hard-link.sqlite").path
        #expect(link(usual, hardLink) == 0)
        try sandbox.expectRefused(["backup", hardLink], status: 64, message: "\(hardLink) is the store taskwidget uses without --store, not a backup: \(shows(hardLink))")
        let copied = sandbox.folder.appendingPathComponent("copied.sqlite").path
        try FileManager.default.copyItem(atPath: backup, toPath: copied)
        try sandbox.succeed(["add", "Written after the copy", "--store", copied])
        try sandbox.expectRefused(
            ["backup", copied], status: 64,
            message: "\(copied) holds a store or another program's database (or a backup of an older taskwidget, which looks the same), not a backup: \(shows(copied))")
        #expect(try sandbox.succeed(["ls", "--format", "json", "--store", copied]).contains("Written after the copy"))

        // Another store; and a backup looked at (its -wal and -shm beside it) is still one.
        try sandbox.succeed(["ls", "--store", backup])
        #expect(FileManager.default.fileExists(atPath: backup + "-shm"))
        try sandbox.succeed(["backup", backup])
        let other = sandbox.folder.appendingPathComponent("work.sqlite").path
        try sandbox.succeed(["restore", backup, "--store", other])
        let store = "holds a store or another program's database (or a backup of an older taskwidget, which looks the same), not a backup"
        try sandbox.expectRefused(["backup", other], status: 64, message: "\(other) \(store): \(shows(other))")
        // Also once nothing has it open (no -wal or -shm beside it), and another program's database.
        for part in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: other + part) }
        try sandbox.expectRefused(["backup", other], status: 64, message: "\(other) \(store): \(shows(other))")
        let database = sandbox.folder.appendingPathComponent("notes.db").path
        #expect(try ProcessRunner.run("/usr/bin/python3", ["-c", "import sqlite3, sys; sqlite3.connect(sys.argv[1]).execute('CREATE TABLE notes(x)')", database]).status == 0)
        try sandbox.expectRefused(["backup", database], status: 64, message: "\(database) \(store): \(shows(database))")

        // An older backup's -wal, left by a program that wrote to it and ended without closing it,
        // was read over the new backup: its old tasks came back (helper-156).
        let write = "import sqlite3, os, signal, sys; c = sqlite3.connect(sys.argv[1]); c.execute('PRAGMA wal_autocheckpoint = 0'); c.execute(\"UPDATE task SET title = 'STALE'\"); c.commit(); os.kill(os.getpid(), signal.SIGKILL)"
        _ = try ProcessRunner.run("/usr/bin/python3", ["-c", write, backup])
        #expect((try? FileManager.default.attributesOfItem(atPath: backup + "-wal")[.size] as? Int) ?? 0 > 0)
        try sandbox.succeed(["backup", backup])
        let listed = try sandbox.succeed(["ls", "--format", "json", "--store", backup])
        #expect(listed.contains("Call Bob") && !listed.contains("STALE"), "\(listed)")

        let export = sandbox.folder.appendingPathComponent("tasks.json")
        let exported = Data(try sandbox.succeed(["export"]).utf8)
        try exported.write(to: export)
        try sandbox.expectRefused(["backup", export.path], status: 64, message: "\(export.path) is not an older backup (not an SQLite file): \(advice)")
        #expect(try Data(contentsOf: export) == exported)
    }

    /// A damaged backup is refused before anything is replaced, and a damaged store is not backed
    /// up: SQLite's backup copies pages as they are, so `backup` said it saved every task, and
    /// `restore` then put the damaged copy over a good store (helper-135).
    @Test func aDamagedBackupIsRefusedAndADamagedStoreIsNotBackedUp() throws {
        let sandbox = try Sandbox()
        let big = sandbox.folder.appendingPathComponent("big.json")
        try Data(FullDiskTests.exportDocument(tasks: 2000).utf8).write(to: big)
        try sandbox.succeed(["import", big.path])
        let backup = sandbox.folder.appendingPathComponent("backup.sqlite").path
        try sandbox.succeed(["backup", backup])
        // A page of the task table's b-tree, its header overwritten.
        let damage = "import os, sys; f = open(sys.argv[1], 'r+b'); f.seek(os.path.getsize(sys.argv[1]) // 4096 // 2 * 4096); f.write(b'\\xff' * 64)"
        #expect(try ProcessRunner.run("/usr/bin/python3", ["-c", damage, backup]).status == 0)

        let other = try Sandbox()
        try other.succeed(["add", "Keep me"])
        try other.expectRefused(["restore", backup, "--yes"], status: 65, message: "\(backup) is damaged (Page ")
        #expect(try other.succeed(["ls"]).contains("Keep me"))

        let copy = sandbox.folder.appendingPathComponent("copy.sqlite").path
        try sandbox.expectRefused(["backup", copy, "--store", backup], status: 65, message: "the store \(backup) is damaged (Page ")
        #expect(!FileManager.default.fileExists(atPath: copy))
        #expect(try FileManager.default.contentsOfDirectory(atPath: sandbox.folder.path).allSatisfy { !$0.hasPrefix("copy.sqlite") })
    }

    /// The line of a store deleted while watched.
    static func gone(_ store: String) -> String {
        "⚠ taskwidget: the store \(store) is gone: restore it, or add a task to start a new one there"
    }

    /// A default store that does not exist yet is an empty one, but one deleted while watched is
    /// not: its tasks are gone, not done.
    @Test(.timeLimit(.minutes(1)))
    func theDefaultStoreDeletedWhileWatchedIsAFailureUntilItIsBack() throws {
        let sandbox = try Sandbox()
        let store = sandbox.folder.appendingPathComponent("data/taskwidget/tasks.sqlite").path
        let atDefault = { (arguments: [String]) in arguments + ["--now", sandbox.now] }
        let watch = try StreamingProcess(
            atDefault(["watch", "--format", "text"]), environment: sandbox.environment)
        #expect(watch.nextLine() == "No open tasks")
        let lineAfterAdd = {
            let line = watch.nextLine(within: .seconds(3))
            return line == "No open tasks" ? watch.nextLine(within: .seconds(3)) : line
        }
        try sandbox.succeed(atDefault(["add", "Pay rent", "--due", "2026-11-22T18:00:00+01:00"]), global: false)
        #expect(lineAfterAdd() == "1 today · next: Pay rent (18:00)")
        for suffix in ["", "-wal", "-shm"] { try FileManager.default.removeItem(atPath: store + suffix) }
        #expect(watch.nextLine(within: .seconds(3)) == Self.gone(store))
        try sandbox.succeed(atDefault(["add", "Call Bob", "--due", "2026-11-22T17:00:00+01:00"]), global: false)
        #expect(lineAfterAdd() == "1 today · next: Call Bob (17:00)")
        // With its folder gone too, the advice makes the folder first: `add` alone refused (helper-116).
        let folder = sandbox.folder.appendingPathComponent("data/taskwidget").path
        try FileManager.default.removeItem(atPath: folder)
        #expect(
            watch.nextLine(within: .seconds(3))
                == "⚠ taskwidget: the store \(store) is gone: restore it, or create its folder (mkdir -p \(folder)) and add a task to start a new one there")
        watch.closeStdout()
        #expect(watch.waitForExit() == 0)
    }

    @Test(.timeLimit(.minutes(1)), arguments: [SIGTERM, SIGINT])
    func aTerminatingSignalExitsZero(signal: Int32) throws {
        let sandbox = try Sandbox()
        let watch = try watch(sandbox, ["--format", "waybar"])
        #expect(watch.nextLine()?.contains("\"class\":\"error\"") == true)
        watch.send(signal)
        #expect(watch.waitForExit() == 0)
    }

    /// A bar that stops reading (frozen) fills watch's pipe, and watch waits to write its line: a
    /// SIGTERM then waited too, for good, blocked for the signalfd that watch was not reading
    /// (helper-71). It now ends the wait, and watch exits 0.
    @Test(.timeLimit(.minutes(1)))
    func aTerminatingSignalStopsAWatchWaitingForAReaderThatStoppedReading() throws {
        let sandbox = try Sandbox()
        // A line of about 10 KB, into a pipe of 4 KB that is never read.
        for number in 1...12 { try sandbox.succeed(["add", "\(number) " + String(repeating: "a", count: 990)]) }
        let watch = try StreamingProcess(
            sandbox.arguments(["watch", "--format", "json", "--verbose", "--store", sandbox.storePath]), environment: sandbox.environment,
            stdoutCapacity: 4096)
        watch.readsStdout = false
        // Logged as it starts its first line (sent now, SIGTERM would find it waiting just as well).
        #expect(watch.waitForStderr(containing: "opened store"), "\(watch.stderrText)")
        watch.send(SIGTERM)
        #expect(watch.waitForExit() == 0)
        #expect(watch.stderrText.contains("stopping on a signal while waiting for the reader"), "\(watch.stderrText)")
    }

    /// With its standard input closed (`<&-`), the signal descriptor took number 0, and i3bar's
    /// click reader read the signals: SIGTERM did not stop it.
    @Test(.timeLimit(.minutes(1)))
    func aTerminatingSignalExitsZeroWithStandardInputClosed() throws {
        let sandbox = try Sandbox()
        let watch = try StreamingProcess(
            sandbox.arguments(["watch", "--format", "i3bar", "--store", sandbox.storePath]), environment: sandbox.environment, closesInput: true)
        #expect(watch.nextLine() != nil)
        watch.send(SIGTERM)
        #expect(watch.waitForExit() == 0)
    }

    @Test(.timeLimit(.minutes(1)))
    func sigusr1RecomputesNow() throws {
        let sandbox = try Sandbox()
        try sandbox.succeed(["add", "Pay rent", "--due", "2026-11-22T18:00:00+01:00"])
        // The virtual clock runs 60 times faster: the 14 minutes to the next entry (16:45) are 14 s.
        let watch = try watch(sandbox, ["--format", "json", "--now", "2026-11-22T16:31:00+01:00", "--clock-speed", "60"])
        let first = Self.object(watch.nextLine())
        #expect(first?["date"] as? String == "2026-11-22T16:31:00+01:00")
        // A line is printed only when it changed: a signal within the first virtual second gives
        // the same line, and none. Signal again until the clock has moved and a line comes.
        var refreshed: [String: Any]?
        for _ in 0..<20 where refreshed == nil {
            watch.send(SIGUSR1)
            refreshed = Self.object(watch.nextLine(within: .milliseconds(500)))
        }
        #expect(refreshed?["reasons"] as? [String] == ["now"])
        #expect((refreshed?["date"] as? String).map { $0 > "2026-11-22T16:31:00+01:00" && $0 < "2026-11-22T16:45:00+01:00" } == true)
    }

    @Test(.timeLimit(.minutes(1)))
    func i3barGetsTheProtocolHeaderThenOneArrayPerUpdate() throws {
        let sandbox = try Sandbox()
        let watch = try watch(sandbox, ["--format", "i3bar"])
        #expect(watch.nextLine() == #"{"version":1,"click_events":true}"#)
        #expect(watch.nextLine() == "[")
        let first = try #require(watch.nextLine())
        #expect(first.hasPrefix("[{\"full_text\"") && first.hasSuffix("}]"))
        try sandbox.succeed(["add", "Pay rent", "--due", "2026-11-22T18:00:00+01:00"])
        // `add` links the new store into place whole, then writes its task: watch may catch the
        // store empty in between, and then shows "No open tasks" first.
        var updates = [first]
        while let line = watch.nextLine(within: .seconds(3)), updates.count < 3 {
            updates.append(line)
            if line.contains("Pay rent") { break }
        }
        #expect(updates.dropFirst().allSatisfy { $0.hasPrefix(",[{\"full_text\"") && $0.hasSuffix("}]") })
        #expect(updates.last?.contains("Pay rent") == true && (updates.count == 2 || updates[1].contains("No open tasks")), "\(updates)")
        let stream = "[" + updates.joined() + "]"
        let arrays = try JSONSerialization.jsonObject(with: Data(stream.utf8)) as? [[[String: Any]]]
        #expect(arrays?.allSatisfy { $0.count == 1 } == true)
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
        let second = try Data(contentsOf: png)
        #expect(second != first)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["small.png"])

        // The store gone, the widget says so, as serve's does: it went on showing the tasks (helper-76).
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: sandbox.storePath + suffix) }
        #expect(watch.nextLine(within: .seconds(3))?.hasPrefix("⚠ taskwidget: the store") == true)
        let notice = try Data(contentsOf: png)
        #expect(notice != second && notice != first && notice[16..<24] == Data([0, 0, 1, 84, 0, 0, 1, 84]))
        try sandbox.succeed(["add", "Water the plants", "--due", "2026-11-22T17:30:00+01:00"])
        #expect(watch.nextLine(within: .seconds(3)) == "1 today · next: Water the plants (17:30)")
        #expect(try Data(contentsOf: png) != notice)
    }

    /// The drawing helper sleeps between frames: its PNGs were compressed on libdispatch's pool,
    /// whose monitor then woke it once a second for good (helper-116). Its threads are its own.
    @Test(.timeLimit(.minutes(1)))
    func theDrawingHelperKeepsNoThreadPool() throws {
        let sandbox = try Sandbox()
        try sandbox.succeed(["add", "Pay rent", "--due", "2026-11-22T18:00:00+01:00"])
        let folder = sandbox.folder.appendingPathComponent("dashboard")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        // Large at 3×: an image big enough to be compressed in two parts at once.
        let watch = try watch(sandbox, ["--format", "text", "--render-dir", folder.path, "--family", "large", "--scale", "3"])
        #expect(watch.nextLine() == "1 today · next: Pay rent (18:00)")
        let children = try String(contentsOfFile: "/proc/\(watch.pid)/task/\(watch.pid)/children", encoding: .utf8)
        let helper = try #require(children.split(separator: " ").first.map(String.init))
        let threads = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(helper)/task").map {
            try String(contentsOfFile: "/proc/\(helper)/task/\($0)/comm", encoding: .utf8).trimmingCharacters(in: .newlines)
        }
        #expect(try String(contentsOfFile: "/proc/\(helper)/comm", encoding: .utf8).hasPrefix("taskwidget-rend"))
        #expect(!threads.contains { $0.contains("qos") }, "\(threads)")
        watch.closeStdout()
        #expect(watch.waitForExit() == 0)
    }

    /// A store that is no database, met while watched, leaves watch without libdispatch's
    /// pool: GRDB released the connection that failed to open, and the pool's monitor then woke
    /// watch every second for good (helper-116).
    @Test(.timeLimit(.minutes(1)))
    func aDamagedStoreMetWhileWatchedLeavesNoThreadPool() throws {
        let sandbox = try Sandbox()
        try sandbox.succeed(["add", "Pay rent", "--due", "2026-11-22T18:00:00+01:00"])
        let watch = try watch(sandbox, ["--format", "text"])
        #expect(watch.nextLine() == "1 today · next: Pay rent (18:00)")
        let good = try Data(contentsOf: URL(fileURLWithPath: sandbox.storePath))
        let junk = sandbox.folder.appendingPathComponent("junk")
        try Data((0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 7919) }).write(to: junk)
        _ = rename(junk.path, sandbox.storePath)
        #expect(watch.nextLine(within: .seconds(3))?.contains("is not a taskwidget store or is damaged") == true)
        let threads = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(watch.pid)/task").map {
            try String(contentsOfFile: "/proc/\(watch.pid)/task/\($0)/comm", encoding: .utf8).trimmingCharacters(in: .newlines)
        }
        #expect(!threads.contains { $0.contains("qos") }, "\(threads)")
        try good.write(to: URL(fileURLWithPath: sandbox.storePath))
        #expect(watch.nextLine(within: .seconds(3)) == "1 today · next: Pay rent (18:00)")
        watch.closeStdout()
        #expect(watch.waitForExit() == 0)
    }

    @Test func renderDirMustExist() throws {
        let sandbox = try Sandbox()
        let result = try sandbox.run(["watch", "--render-dir", sandbox.folder.appendingPathComponent("missing").path])
        #expect(result.status == 74)
        #expect(result.stderrLines.count == 1 && result.stderr.contains("does not exist: create it first"))
        #expect(result.stdout.hasPrefix("⚠ taskwidget: the folder ") && result.stdout.hasSuffix("does not exist: create it first\n"))
        // A file there is no folder to create (helper-94).
        let file = sandbox.folder.appendingPathComponent("file").path
        FileManager.default.createFile(atPath: file, contents: Data())
        let onFile = try sandbox.run(["watch", "--render-dir", file])
        #expect(onFile.status == 74 && onFile.stderr == "taskwidget: \(file) for --render-dir is a file, not a folder: give the path of a folder\n", "\(onFile.stderr)")
    }

    /// A PNG widget option without --render-dir is an error: watch ignored it.
    @Test(.timeLimit(.minutes(1))) func widgetOptionsNeedARenderDir() throws {
        let sandbox = try Sandbox()
        for option in [["--size", "800x480"], ["--theme", "dark"], ["--family", "small"]] {
            let result = try sandbox.run(["watch"] + option)
            #expect(result.status == 64, "\(option)")
            #expect(result.stderr.hasPrefix("taskwidget: the PNG widget options shape the image of --render-dir"), "\(result.stderr)")
        }
    }

    /// A watch that cannot start (here a mistake in config.toml, which `status` does not read, or
    /// in its command line) leaves the bar one line of its format that says so, as `status` does: it printed nothing,
    /// and the bar's module vanished. The line stays up while the bar reads it: waybar hid a module
    /// whose watch had ended at once, and swaybar said it could not read it. Once the bar goes,
    /// watch ends with the error's status.
    @Test(.timeLimit(.minutes(1)), arguments: [
        ("waybar", #"{"text":"⚠ taskwidget","tooltip":""#, 1),
        ("i3bar", "{\"version\":1,\"click_events\":true}\n[\n[{\"full_text\":\"⚠ taskwidget\"", 3),
    ])
    func aWatchThatCannotStartShowsWhyInItsFormat(format: String, start: String, lines: Int) throws {
        let sandbox = try Sandbox()
        let config = sandbox.folder.appendingPathComponent(".config/taskwidget/config.toml")
        try FileManager.default.createDirectory(at: config.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("[watch]\nleft_click = 5\n".utf8).write(to: config)
        // The config's mistake, then a command line that does not parse (a mistyped option in the bar's config).
        for (arguments, error) in [([String](), "watch.left_click: expected text in quotes"), (["--max-widht", "20"], "unknown option '--max-widht'")] {
            let watch = try StreamingProcess(sandbox.arguments(["watch", "--format", format] + arguments), environment: sandbox.environment)
            let shown = (0..<lines).compactMap { _ in watch.nextLine() }.joined(separator: "\n")
            #expect(shown.hasPrefix(start), "\(shown)")
            // waybar's tooltip says why; an i3bar block has no room for it, stderr always does.
            #expect(shown.contains(error.replacingOccurrences(of: "'", with: "&#39;")) == (format == "waybar"), "\(shown)")
            #expect(watch.waitForStderr(containing: error))
            #expect(watch.waitUntilBlockedInPoll(), "the line stays up")
            watch.closeStdout()
            #expect(watch.waitForExit() == 64)
        }
        // The bar stops it: it ends with the error's status too, as documented (SIGTERM killed it,
        // 143, helper-76).
        for signal in [SIGTERM, SIGHUP] {
            let stopped = try StreamingProcess(sandbox.arguments(["watch", "--format", format]), environment: sandbox.environment)
            #expect(stopped.waitForStderr(containing: "watch.left_click"))
            #expect(stopped.waitUntilBlockedInPoll(), "the line stays up")
            stopped.send(signal)
            #expect(stopped.waitForExit() == 64)
        }
        // Into a file (or on a terminal), where no bar reads it, watch ends at once.
        let file = sandbox.folder.appendingPathComponent("line").path
        let typed = try ProcessRunner.run(
            "/bin/sh", ["-c", sandbox.shellCommand(["watch", "--format", format, "--max-widht", "20"]) + " > " + file.shellQuoted],
            environment: sandbox.environment)
        let written = try String(contentsOfFile: file, encoding: .utf8)
        #expect(typed.status == 64 && written.hasPrefix(start), "\(typed.stderr)")
    }

    /// A store path that is a link to a file elsewhere (`~/.local/share/taskwidget/tasks.sqlite`
    /// → `~/Sync/tasks.sqlite`): SQLite writes beside the file, so the link's folder saw no commit,
    /// and watch, serve and notify showed the old tasks until SIGUSR1 (helper-85). Changes through
    /// either path are followed, and so is the link pointed at another store.
    @Test(.timeLimit(.minutes(1)))
    func aStoreReachedThroughALinkIsFollowed() throws {
        let sandbox = try Sandbox()
        let synced = sandbox.folder.appendingPathComponent("Sync")
        let linkFolder = sandbox.folder.appendingPathComponent("share/taskwidget")
        for folder in [synced, linkFolder] { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
        let real = synced.appendingPathComponent("tasks.sqlite").path
        let other = synced.appendingPathComponent("other.sqlite").path
        let link = linkFolder.appendingPathComponent("tasks.sqlite").path
        try sandbox.succeed(["add", "Pay rent", "--store", real])
        try sandbox.succeed(["add", "Water plants", "--store", other])
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: real)
        let watch = try watch(sandbox, ["--format", "text"], store: link)
        #expect(watch.nextLine() == "next: Pay rent")
        try sandbox.succeed(["add", "Call Bob", "--due", "2026-11-22T17:00:00+01:00", "--store", real])
        #expect(watch.nextLine(within: .seconds(3)) == "1 today · next: Call Bob (17:00)")
        try sandbox.succeed(["add", "Buy milk", "--due", "2026-11-22T18:00:00+01:00", "--store", link])
        #expect(watch.nextLine(within: .seconds(3)) == "2 today · next: Call Bob (17:00)")
        // The store moved away and back: the line does not advise an `add`, which refuses a
        // dangling link, and the folder watched is the store's, for its return (helper-89).
        let away = synced.appendingPathComponent("away.sqlite").path
        #expect(rename(real, away) == 0)
        #expect(watch.nextLine(within: .seconds(5)) == "⚠ taskwidget: the store \(link) is gone: restore it, or point the link at another store")
        #expect(rename(away, real) == 0)
        #expect(watch.nextLine(within: .seconds(5)) == "2 today · next: Call Bob (17:00)")
        // The link pointed at another store, as a sync tool or a user replaces it.
        let newLink = linkFolder.appendingPathComponent("tasks.sqlite.new").path
        try FileManager.default.createSymbolicLink(atPath: newLink, withDestinationPath: other)
        #expect(rename(newLink, link) == 0)
        #expect(watch.nextLine(within: .seconds(3)) == "next: Water plants")
        try sandbox.succeed(["add", "Feed cat", "--due", "2026-11-22T19:00:00+01:00", "--store", other])
        #expect(watch.nextLine(within: .seconds(3)) == "1 today · next: Feed cat (19:00)")
    }

    /// Text, watch's default format, says why it cannot start as `status` does: its error line
    /// into a file or pipe, and on a terminal the error alone, once (helper-86).
    @Test func aTextWatchThatCannotStartSaysWhyOnce() throws {
        let sandbox = try Sandbox()
        let error = "unknown option '--max-widht'"
        let piped = try sandbox.run(["watch", "--max-widht", "20"])
        let message = String(piped.stderr.dropFirst("taskwidget: ".count).dropLast())
        #expect(piped.status == 64 && piped.stdout == "⚠ taskwidget: \(message)\n" && message.hasPrefix(error), "\(piped)")
        let onTerminal = try sandbox.runOnTerminal(["watch", "--max-widht", "20"])
        #expect(onTerminal.status == 64 && onTerminal.shown.components(separatedBy: error).count == 2, "\(onTerminal)")
    }

    /// A backup restored over the store (`rm tasks.sqlite-wal tasks.sqlite-shm; cp backup/* .`)
    /// after the bar's wheel showed another view: the view left kept its connection, which held
    /// SQLite's state of the file (its deleted `-shm`), and the view shown read that state for
    /// good, SIGUSR1 or not (helper-69). The views now share one connection.
    @Test(.timeLimit(.minutes(1)))
    func aBackupRestoredAfterTheViewChangedIsFollowed() throws {
        let sandbox = try Sandbox()
        try sandbox.writeConfig("[watch]\nviews = [\"all\", \"inbox\"]\n\n[views.inbox]\ninbox = true\n")
        try sandbox.succeed(["add", "Pay rent", "--due", "2026-11-23T09:00:00+01:00"])
        let files = ["", "-wal", "-shm"].map { sandbox.storePath + $0 }
        let backup = try files.map { try Data(contentsOf: URL(fileURLWithPath: $0)) }
        let watch = try watch(sandbox, ["--format", "json"])
        #expect(Self.object(watch.nextLine())?["scope"] as? String == nil)
        watch.send(SIGUSR2)
        #expect(Self.object(watch.nextLine(within: .seconds(5)))?["scope"] as? String == "inbox")
        // One connection for both views: closing one per view released a GRDB queue, and
        // libdispatch's threads then woke watch every second for good.
        #expect(watch.threadCount == 1)
        try sandbox.succeed(["add", "Call Bob", "--due", "2026-11-23T08:00:00+01:00"])
        #expect(watch.nextLine(within: .seconds(5))?.contains("Call Bob") == true)
        for file in files.dropFirst() { try FileManager.default.removeItem(atPath: file) }
        for (file, bytes) in zip(files, backup) { try bytes.write(to: URL(fileURLWithPath: file)) }
        let restored = watch.nextLine(within: .seconds(5)) ?? ""
        #expect(restored.contains("Pay rent") && !restored.contains("Call Bob") && !restored.contains("error"), "the backup: \(restored)")
        try sandbox.succeed(["add", "Water the plants", "--due", "2026-11-22T18:00:00+01:00"])
        #expect(watch.nextLine(within: .seconds(5))?.contains("Water the plants") == true, "the line after the restore")
        // The files removed are not held open: what reads them sees no other process's commits.
        #expect(watch.deletedFilesHeld(under: sandbox.storePath).isEmpty, "\(watch.deletedFilesHeld(under: sandbox.storePath))")
        watch.send(SIGTERM)
        #expect(watch.waitForExit() == 0)
    }

    /// A folder above the store moved away and back (`mv ~/.local/share …`) sent the store's
    /// folder no event: watch went on watching that folder where it went, said the store was gone
    /// for good once it was back, and never saw a new store made in its place (helper-76).
    @Test(.timeLimit(.minutes(1)))
    func aFolderAboveTheStoreMovedAwayAndBackIsFollowed() throws {
        let sandbox = try Sandbox()
        let (data, away) = (sandbox.folder.appendingPathComponent("data"), sandbox.folder.appendingPathComponent("data-away"))
        let store = data.appendingPathComponent("taskwidget/tasks.sqlite")
        try FileManager.default.createDirectory(at: store.deletingLastPathComponent(), withIntermediateDirectories: true)
        try sandbox.succeed(["add", "Pay rent", "--due", "2026-11-22T18:00:00+01:00", "--store", store.path])
        let watch = try watch(sandbox, ["--format", "json"], store: store.path)
        #expect(watch.nextLine()?.contains("Pay rent") == true)
        try FileManager.default.moveItem(at: data, to: away)
        #expect(watch.nextLine(within: .seconds(5))?.contains("is gone") == true)
        try FileManager.default.moveItem(at: away, to: data)
        #expect(watch.nextLine(within: .seconds(5))?.contains("Pay rent") == true)
        // Moved away again, and a new store made where it was.
        try FileManager.default.moveItem(at: data, to: away)
        #expect(watch.nextLine(within: .seconds(5))?.contains("is gone") == true)
        try FileManager.default.createDirectory(at: store.deletingLastPathComponent(), withIntermediateDirectories: true)
        try sandbox.succeed(["add", "Water the plants", "--due", "2026-11-22T17:00:00+01:00", "--store", store.path])
        let fresh = watch.nextLine(within: .seconds(5)) ?? ""
        #expect(fresh.contains("Water the plants") && !fresh.contains("Pay rent"), "\(fresh)")
        watch.send(SIGTERM)
        #expect(watch.waitForExit() == 0)
    }

    /// Before a new user's first `add`, file events near the store's path (other programs' files)
    /// made watch look at the missing store, which read as changed each time: a JSON line was
    /// printed again, with a new time and nothing else new (helper-76).
    @Test(.timeLimit(.minutes(1)))
    func otherFilesBeforeTheStoreExistsPrintNoLine() throws {
        let sandbox = try Sandbox()
        // The default store, $XDG_DATA_HOME/taskwidget/tasks.sqlite, which reads as empty while missing.
        let data = sandbox.folder.appendingPathComponent("data")
        let watch = try StreamingProcess(["watch", "--format", "json", "--now", sandbox.now], environment: sandbox.environment)
        #expect(Self.object(watch.nextLine())?["counts"] != nil)
        try FileManager.default.createDirectory(at: data.appendingPathComponent("other-app"), withIntermediateDirectories: true)
        try Data("x".utf8).write(to: data.appendingPathComponent("other-app.conf"))
        // The checks the events set off come within a quarter of a second, then over 25 s.
        #expect(watch.nextLine(within: .seconds(3)) == nil)
        watch.send(SIGTERM)
        #expect(watch.waitForExit() == 0)
    }

    /// The `-wal` and `-shm` deleted under a running watch: the next write made new ones, which
    /// watch's connection never read (the main file did not change), and it showed the old line
    /// for good (helper-71). It now opens the store again when they are other files.
    @Test(.timeLimit(.minutes(1)))
    func deletedWriteAheadFilesAreFollowed() throws {
        let sandbox = try Sandbox()
        try sandbox.succeed(["add", "Pay rent", "--due", "2026-11-22T18:00:00+01:00"])
        let watch = try watch(sandbox, ["--format", "json"])
        #expect(watch.nextLine()?.contains("Pay rent") == true)
        for suffix in ["-wal", "-shm"] { try FileManager.default.removeItem(atPath: sandbox.storePath + suffix) }
        try sandbox.succeed(["add", "Call Bob", "--due", "2026-11-22T17:00:00+01:00"])
        #expect(watch.nextLine(within: .seconds(5))?.contains("Call Bob") == true)
        #expect(watch.deletedFilesHeld(under: sandbox.storePath).isEmpty, "\(watch.deletedFilesHeld(under: sandbox.storePath))")
        watch.send(SIGTERM)
        #expect(watch.waitForExit() == 0)
    }

    /// SIGUSR1 opens the store again, whatever its files' events said: the way out of a state the
    /// events did not show (it only looked at the open store again). The connection it closes
    /// starts no thread: released, a GRDB queue started libdispatch's pool monitor, which woke
    /// watch every second for good after a reopen, or after the first `add` of a new user whose
    /// bar started first (helper-71).
    @Test(.timeLimit(.minutes(1)))
    func sigusr1OpensTheStoreAgainAndStartsNoThread() throws {
        let sandbox = try Sandbox()
        try sandbox.succeed(["add", "Pay rent", "--due", "2026-11-22T18:00:00+01:00"])
        let watch = try watch(sandbox, ["--format", "json", "--verbose"])
        #expect(watch.nextLine() != nil)
        #expect(watch.occurrences(of: "opened store") == 1)
        watch.send(SIGUSR1)
        #expect(watch.waitForStderr(containing: "opened store", count: 2), "\(watch.stderrText)")
        #expect(watch.threadCount == 1)
        watch.send(SIGTERM)
        #expect(watch.waitForExit() == 0)
    }

    /// A program that only reads the store (a bar's `status`, tmux's, `ls`) opens the `-wal` for
    /// writing and closes it unwritten: that woke every watch, which then checked the store eight
    /// times over 25 s (57 wake-ups in 30 s under a status every 3 s). Its follow-up timer now
    /// stays unset after readers, and is set after a write.
    @Test(.timeLimit(.minutes(1)))
    func aProgramThatOnlyReadsTheStoreWakesNoWatch() throws {
        let sandbox = try Sandbox()
        try sandbox.writeConfig("[watch]\nviews = [\"all\", \"work\"]\n\n[views.work]\nlist = \"Work\"\n")
        try sandbox.succeed(["add", "Send the report", "--list", "Work", "--new-list"])
        let watch = try watch(sandbox, ["--format", "json"])
        #expect(watch.nextLine() != nil)
        // FollowLoop's two timers, the entry's and then the follow-up's, are all watch has.
        let timers = watch.timerDescriptors
        try #require(timers.count == 2, "\(timers)")
        let followUpIsSet = { watch.timerIsSet(timers[1]) }
        // Watch's own first open of the store may have made its `-wal`, an event it checks after.
        #expect(waitUntil(within: .seconds(40), every: .milliseconds(100)) { followUpIsSet() == false })
        for arguments in [["status"], ["status", "--format", "waybar"], ["ls"], ["timeline"]] { try sandbox.succeed(arguments) }
        // A line after the readers' events were read: the next view, asked by a signal in the same poll.
        watch.send(SIGUSR2)
        #expect(watch.nextLine(within: .seconds(5)) != nil)
        #expect(watch.waitUntilBlockedInPoll())
        #expect(followUpIsSet() == false, "the readers set watch's follow-up checks")
        try sandbox.succeed(["add", "Call Bob", "--list", "Work"])
        #expect(watch.nextLine(within: .seconds(5)) != nil)
        // Set between its checks (a one-shot timer reads unset from its expiry to its next arming).
        #expect(waitUntil(within: .seconds(5), every: .milliseconds(10)) { followUpIsSet() == true }, "a write sets them")
        watch.send(SIGTERM)
        #expect(watch.waitForExit() == 0)
    }

    /// Idle means asleep: between entries watch waits in poll with no timeout (its timers are
    /// file descriptors set to the next entry), so nothing wakes it but an event. (The wake-ups
    /// over a quiet stretch are counted by scripts/compare.sh.)
    @Test(.timeLimit(.minutes(1)))
    func anIdleWatchWaitsInPollWithoutATimeout() throws {
        let sandbox = try Sandbox()
        try sandbox.succeed(["add", "Pay rent", "--due", "2026-11-22T18:00:00+01:00"])
        let watch = try watch(sandbox, ["--format", "waybar", "--now", "2026-11-22T16:31:00+01:00"])
        #expect(watch.nextLine() != nil)
        guard watch.waitUntilBlockedInPoll() else {
            Issue.record("watch never blocked in poll after its first line (/proc/\(watch.pid)/syscall)")
            return
        }
        #expect(watch.pollTimeout() == -1, "watch waits in poll with a timeout: it would wake up on its own")
    }
}
