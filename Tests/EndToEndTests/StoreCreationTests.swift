import Foundation
import Testing

@testable import TaskWidgetTestSupport

/// A store appears whole: a status bar that reads while the first `add` creates the store sees
/// either no store or the new one, never a store whose schema is half made ("empty", "needs an
/// upgrade", as it did when GRDB committed each migration into the store's own file).
@Suite struct StoreCreationTests {
    @Test func readersDuringTheFirstAddSeeNoStoreOrTheWholeStore() throws {
        var readsPerRound: [Int] = []
        var roundsThatSawTheStoreAppear = 0
        for round in 0..<8 {
            let sandbox = try Sandbox()
            let add = try StreamingProcess(sandbox.arguments(["add", "First task", "--new-list", "--list", "Work"]), environment: sandbox.environment)
            // Every read starts while add still runs (the last may end after it).
            var lines: [String] = []
            repeat {
                let result = try sandbox.run(["status", "--format", "text"])
                lines.append(result.status == 0 ? result.stdout : result.stderr)
            } while add.isRunning
            #expect(add.waitForExit() == 0, "round \(round): \(add.stderrText)")
            // No store yet, the new store before its first task, or with it.
            let unexpected = lines.filter { !$0.contains("there is no store") && $0 != "No open tasks\n" && !$0.contains("First task") }
            #expect(unexpected.isEmpty, "round \(round): \(unexpected)")
            let leftovers = try FileManager.default.contentsOfDirectory(atPath: sandbox.folder.path).filter { $0.contains(".new-") }
            #expect(leftovers.isEmpty, "round \(round)")
            readsPerRound.append(lines.count)
            // A read that found no store and a later one that found it: reads ran while add made it.
            if let none = lines.firstIndex(where: { $0.contains("there is no store") }),
                lines[(none + 1)...].contains(where: { !$0.contains("there is no store") })
            {
                roundsThatSawTheStoreAppear += 1
            }
        }
        #expect(roundsThatSawTheStoreAppear > 0, "no round read both before and after the store appeared (reads per round: \(readsPerRound))")
        print("StoreCreationTests: \(roundsThatSawTheStoreAppear) of 8 rounds saw the store appear (reads per round: \(readsPerRound))")
    }

    /// A new store and its -wal and -shm are readable by their user alone, under a umask that
    /// lets others read (SQLite's own files are 0644): every user of the machine could read the
    /// tasks (helper-121). The default folder is private too.
    @Test func aNewStoreIsItsUsersAlone() throws {
        let sandbox = try Sandbox()
        let previous = umask(0o022)
        defer { umask(previous) }
        let named = sandbox.folder.appendingPathComponent("named.sqlite").path
        try sandbox.succeed(["add", "Private thing", "--store", named])
        let dataHome = sandbox.folder.appendingPathComponent("data").path  // the sandbox's XDG_DATA_HOME
        let result = try sandbox.run(["add", "Private thing"], global: false)
        #expect(result.status == 0, "\(result.stderr)")
        let defaultStore = dataHome + "/taskwidget/tasks.sqlite"
        for file in [named, named + "-wal", named + "-shm", defaultStore, defaultStore + "-wal", defaultStore + "-shm"] {
            let attributes = try FileManager.default.attributesOfItem(atPath: file)
            #expect((attributes[.posixPermissions] as? Int).map { $0 & 0o777 } == 0o600, "\(file)")
        }
        let folder = try FileManager.default.attributesOfItem(atPath: dataHome + "/taskwidget")
        #expect((folder[.posixPermissions] as? Int).map { $0 & 0o777 } == 0o700)
    }

    /// `restore` on a new machine, whose default folder is not there yet, makes it as a first add
    /// does: it failed, "cannot write beside …: no such file or directory" (helper-147). A restore
    /// that fails leaves no folder behind.
    @Test func aRestoreOnANewMachineMakesTheDefaultFolder() throws {
        let sandbox = try Sandbox()
        let backup = sandbox.folder.appendingPathComponent("laptop.sqlite").path
        try sandbox.succeed(["add", "From the other laptop"])
        try sandbox.succeed(["backup", backup])
        let dataHome = sandbox.folder.appendingPathComponent("new-data").path
        let notABackup = sandbox.folder.appendingPathComponent("notes.txt")
        try Data("not a store".utf8).write(to: notABackup)
        let refused = try sandbox.run(["restore", notABackup.path, "--yes"], global: false, environment: ["XDG_DATA_HOME": dataHome])
        #expect(refused.status != 0 && !FileManager.default.fileExists(atPath: dataHome + "/taskwidget"), "\(refused.stderr)")
        let restored = try sandbox.run(["restore", backup, "--yes"], global: false, environment: ["XDG_DATA_HOME": dataHome])
        #expect(restored.status == 0 && restored.stdout.hasPrefix("Restored 1 task"), "\(restored.stderr)")
        let listed = try sandbox.run(["ls"], global: false, environment: ["XDG_DATA_HOME": dataHome])
        #expect(listed.stdout.contains("From the other laptop"), "\(listed.stdout)")
        let folder = try FileManager.default.attributesOfItem(atPath: dataHome + "/taskwidget")
        #expect((folder[.posixPermissions] as? Int).map { $0 & 0o777 } == 0o700)
    }

    /// What an interrupted first write, backup or restore left (Ctrl-C, SIGTERM or SIGKILL stop it
    /// before it removes its files) is removed by the next scratch file made in its folder, and by
    /// any write to a store there; the file of one still at work, which holds it, is not, nor is a
    /// file that only looks like one. They stayed for good, beside a dated backup's name too
    /// (helpers 135, 137).
    @Test func leftoversOfInterruptedWholeStoreWritesAreRemoved() throws {
        let sandbox = try Sandbox()
        let folder = sandbox.folder.path
        let backups = folder + "/backups"
        try FileManager.default.createDirectory(atPath: backups, withIntermediateDirectories: true)
        let leftover = { (target: String, kind: String) in
            let path = "\(target).\(kind)-\(UUID().uuidString)"
            for suffix in ["", "-wal", "-shm", "-journal"] {
                #expect(FileManager.default.createFile(atPath: path + suffix, contents: Data("left".utf8)))
                try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -60)], ofItemAtPath: path + suffix)
            }
            return path
        }
        let exists = { (path: String) in FileManager.default.fileExists(atPath: path) }
        let gone = { (path: String) in ["", "-wal", "-shm", "-journal"].allSatisfy { !exists(path + $0) } }
        let interruptedImport = try leftover(sandbox.storePath, "new")
        let atWork = try leftover(sandbox.storePath, "new")
        let held = open(atWork, O_RDWR | O_CLOEXEC)
        #expect(held >= 0 && flock(held, LOCK_EX) == 0)
        defer { close(held) }
        let lookalike = folder + "/notes.new-draft"
        #expect(FileManager.default.createFile(atPath: lookalike, contents: nil))
        let dated = try leftover(backups + "/tasks-2026-11-21.sqlite", "new")

        let first = try sandbox.succeed(["add", "First"]).trimmingCharacters(in: .newlines)
        #expect(gone(interruptedImport))
        #expect(exists(atWork) && exists(atWork + "-wal") && exists(lookalike))
        // A write to the store that exists now removes what was left since.
        let interruptedRestore = try leftover(sandbox.storePath, "restore")
        try sandbox.succeed(["done", first])
        #expect(gone(interruptedRestore))
        // Another day's backup in the same folder.
        #expect(exists(dated))
        try sandbox.succeed(["backup", backups + "/tasks-2026-11-22.sqlite"])
        #expect(gone(dated))
        #expect(exists(atWork))
    }

    /// A store path that SQLite would not take as a file's, relative to the current folder:
    /// `file:…` (a URI to SQLite) and `:memory:`. The first failed after writing elsewhere and
    /// left its temporary files; the second said the store could not be used, yet wrote it.
    @Test(arguments: ["file:uri.sqlite", ":memory:"])
    func aRelativeStorePathIsAFileEvenWhenSQLiteWouldReadItOtherwise(path: String) throws {
        let sandbox = try Sandbox()
        let folder = sandbox.folder.appendingPathComponent("here")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let run = { (arguments: [String]) in
            try ProcessRunner.run(
                "/bin/sh", ["-c", "cd \"$1\" && shift && exec \"$@\"", "sh", folder.path, Sandbox.binary.path] + arguments + ["--store", path, "--now", sandbox.now],
                environment: sandbox.environment)
        }
        let added = try run(["add", "Pay rent"])
        #expect(added.status == 0, "\(added.stderr)")
        #expect(try run(["ls"]).stdout.contains("Pay rent"))
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { !$0.hasSuffix("-wal") && !$0.hasSuffix("-shm") }
        #expect(files == [path])
    }

    /// A store path of one character, relative to the current folder: Foundation's path methods
    /// trap on it, and every command crashed with SIGILL, a bar's `status` without its line
    /// (helper-92).
    @Test(arguments: ["a", "é"])
    func aStorePathOfOneCharacterIsAFileInTheCurrentFolder(path: String) throws {
        let sandbox = try Sandbox()
        let run = { (arguments: [String]) in
            try ProcessRunner.run(
                "/bin/sh", ["-c", "cd \"$1\" && shift && exec \"$@\"", "sh", sandbox.folder.path, Sandbox.binary.path] + arguments
                    + ["--store", path, "--now", sandbox.now],
                environment: sandbox.environment)
        }
        let missing = try run(["ls"])
        #expect(missing.status == 74 && missing.stderr.hasPrefix("taskwidget: there is no store at \(path) yet"), "\(missing)")
        let bar = try run(["status", "--format", "waybar"])
        #expect(bar.status == 0 && bar.stdout.contains("\"class\":\"error\""), "\(bar)")
        #expect(try run(["add", "Pay rent"]).status == 0)
        #expect(try run(["ls"]).stdout.contains("Pay rent"))
        #expect(FileManager.default.fileExists(atPath: sandbox.folder.appendingPathComponent(path).path))
    }
}
