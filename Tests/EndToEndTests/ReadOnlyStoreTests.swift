import Foundation
import Glibc
import Testing

@testable import TaskWidgetTestSupport

/// Display commands never change the store, and work on a store nobody may write.
@Suite(.serialized, .runsPrograms(onThreadNamed: "read-only store")) struct ReadOnlyStoreTests {
    /// Every display command of SPEC §3 but watch (see `watchFirstLine`). `{png}` stands for a
    /// new file in a folder outside the store's: what render writes is compared, not its stdout.
    static let displayCommands: [[String]] = [
        ["ls"], ["ls", "--all", "--format", "json"], ["export"], ["list", "ls"], ["habit", "ls"],
        ["timeline"], ["timeline", "--format", "text", "--list", "Home"],
        ["status", "--format", "waybar"], ["status", "--format", "tmux", "--inbox"],
        ["render", "--family", "small", "-o", "{png}"],
    ]

    /// How the store lies on disk when the display commands run.
    enum Layout: String, CaseIterable, Sendable {
        /// As taskwidget's writers leave it (`-wal` and `-shm` kept); the file 0444 in a 0555 folder.
        case readOnlyFileAfterAWriter
        /// The main file alone (a copy, or what another SQLite program leaves when it closes it);
        /// 0444 in a 0555 folder.
        case readOnlyFileAlone
        /// The file and the empty `-wal` a writer leaves, without the `-shm` (a backup tool that
        /// skipped it): SQLite would have to make it. 0444 in a 0555 folder (helper-125).
        case readOnlyFileWithAnEmptyWALAlone
        /// The main file alone and writable, but in a 0555 folder: SQLite cannot create the `-wal`
        /// and `-shm` it would share with writers.
        case writableFileAloneInAReadOnlyFolder
    }

    /// A sandbox whose store is `store/tasks.sqlite` (a folder that can be made read-only) and
    /// whose `out/` folder anyone may write (for render and watch --render-dir as `nobody`).
    struct Folders {
        let store: URL
        let out: URL
        var storePath: String { store.appendingPathComponent("tasks.sqlite").path }

        init(_ sandbox: borrowing Sandbox) throws {
            store = sandbox.folder.appendingPathComponent("store")
            out = sandbox.folder.appendingPathComponent("out")
            try FileManager.default.createDirectory(at: store, withIntermediateDirectories: false)
            try FileManager.default.createDirectory(at: out, withIntermediateDirectories: false)
            try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: out.path)
        }
    }

    @Test(arguments: Layout.allCases)
    func displayCommandsWorkWhenNothingMayBeWrittenAndChangeNothing(layout: Layout) throws {
        let sandbox = try Sandbox()
        let folders = try Folders(sandbox)
        try sandbox.succeed(["demo", "--store", folders.storePath])
        var runs = 0
        /// What a display command shows (stdout, or the PNG it wrote), as the current user or `nobody`.
        func shown(_ command: [String], unprivileged: Bool) throws -> Data {
            runs += 1
            let png = folders.out.appendingPathComponent("widget-\(runs).png").path
            let arguments = command.map { $0 == "{png}" ? png : $0 } + ["--store", folders.storePath]
            let result = unprivileged
                ? try Sandbox.asUnprivilegedUser(arguments + ["--now", sandbox.now, "--tz", sandbox.timeZone])
                : try sandbox.run(arguments)
            #expect(result.status == 0, "\(layout) \(command)\(unprivileged ? " as nobody" : ""): \(result.stderr)")
            return command.contains("{png}") ? (FileManager.default.contents(atPath: png) ?? Data()) : Data(result.stdout.utf8)
        }
        let expected = try Self.displayCommands.map { try shown($0, unprivileged: false) }
        let waybar = try sandbox.succeed(["status", "--format", "waybar", "--store", folders.storePath])

        switch layout {
        case .readOnlyFileAfterAWriter: try Sandbox.letNobodyReadTheSideFiles(of: folders.storePath)
        case .readOnlyFileWithAnEmptyWALAlone:
            try FileManager.default.removeItem(atPath: folders.storePath + "-shm")
            let wal = try FileManager.default.attributesOfItem(atPath: folders.storePath + "-wal")
            #expect(wal[.size] as? Int == 0, "a writer leaves the -wal empty")
        case .readOnlyFileAlone, .writableFileAloneInAReadOnlyFolder: try Sandbox.removeWALFiles(folders.storePath)
        }
        let fileMode = layout == .writableFileAloneInAReadOnlyFolder ? 0o666 : 0o444
        try FileManager.default.setAttributes([.posixPermissions: fileMode], ofItemAtPath: folders.storePath)
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: folders.store.path)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folders.store.path) }
        let before = try Self.fingerprint(folder: folders.store)

        // Root ignores permissions, so the commands run as `nobody` (as the current user when that
        // is not root). A 0444 file binds root too: there the current user runs them as well.
        let asCurrentUserToo = layout != .writableFileAloneInAReadOnlyFolder
        for (command, output) in zip(Self.displayCommands, expected) {
            #expect(try shown(command, unprivileged: true) == output, "\(layout) \(command) as nobody")
            if asCurrentUserToo { #expect(try shown(command, unprivileged: false) == output, "\(layout) \(command)") }
        }
        for unprivileged in asCurrentUserToo ? [true, false] : [true] {
            let renderDir = folders.out.appendingPathComponent("watch-\(unprivileged)")
            try FileManager.default.createDirectory(at: renderDir, withIntermediateDirectories: false)
            try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: renderDir.path)
            let arguments = [
                "watch", "--format", "waybar", "--render-dir", renderDir.path, "--family", "small",
                "--store", folders.storePath, "--now", sandbox.now, "--tz", sandbox.timeZone,
            ]
            let watch = unprivileged
                ? try Sandbox.streamingAsUnprivilegedUser(arguments)
                : try StreamingProcess(arguments, environment: sandbox.environment)
            #expect(watch.nextLine().map { $0 + "\n" } == waybar, "\(layout) watch: \(watch.stderrText)")
            #expect(FileManager.default.fileExists(atPath: renderDir.appendingPathComponent("small.png").path))
            watch.send(SIGTERM)
            #expect(watch.waitForExit() == 0)
        }
        #expect(try Self.fingerprint(folder: folders.store) == before, "\(layout)")
    }

    /// `render -o` over a file its user made read-only refuses, as `cp` does, and keeps it: it was
    /// replaced, as the folder allowed (helper-157). A writable one is replaced.
    @Test func renderOverAFileItsUserMadeReadOnlyRefusesAndKeepsIt() throws {
        let sandbox = try Sandbox()
        let folders = try Folders(sandbox)
        try sandbox.succeed(["demo", "--store", folders.storePath])
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: sandbox.folder.path)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: folders.storePath)
        try Sandbox.letNobodyReadTheSideFiles(of: folders.storePath)
        let image = folders.out.appendingPathComponent("widget.png").path
        try Data("mine".utf8).write(to: URL(fileURLWithPath: image))
        try #require(chown(image, 65534, 65534) == 0 || getuid() != 0)
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: image)
        let render = ["render", "--family", "small", "-o", image, "--store", folders.storePath, "--now", sandbox.now]
        let refused = try Sandbox.asUnprivilegedUser(render)
        #expect(refused.status == 74 && refused.stdout.isEmpty, "\(refused.stderr)")
        #expect(refused.stderr == "taskwidget: cannot write \(image), which is read-only: permission denied: make it writable (chmod u+w) or write another file\n")
        #expect(FileManager.default.contents(atPath: image) == Data("mine".utf8))
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: image)
        let written = try Sandbox.asUnprivilegedUser(render)
        #expect(written.status == 0, "\(written.stderr)")
        #expect(FileManager.default.contents(atPath: image)?.starts(with: [0x89, 0x50, 0x4E, 0x47]) == true)
    }

    /// A writable store alone in a folder its user may not write, where SQLite cannot make its
    /// `-wal` and `-shm`: the error names the folder (it blamed the file's permissions: helper-85).
    @Test func aChangeToAStoreInAFolderItsUserMayNotWriteNamesTheFolder() throws {
        let sandbox = try Sandbox()
        let folders = try Folders(sandbox)
        try sandbox.succeed(["add", "Pay rent", "--store", folders.storePath])
        try Sandbox.removeWALFiles(folders.storePath)
        try FileManager.default.setAttributes([.posixPermissions: 0o666], ofItemAtPath: folders.storePath)
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: folders.store.path)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folders.store.path) }
        let result = try Sandbox.asUnprivilegedUser(["add", "Call Bob", "--store", folders.storePath, "--now", sandbox.now])
        #expect(result.status == 74)
        #expect(
            result.stderr == "taskwidget: the store \(folders.storePath) cannot be changed: its folder is read-only to you, and SQLite writes the store's -wal and -shm files there: fix the folder's permissions\n")
    }

    /// A store made writable again is written at once: a read while it was read-only left its
    /// `-wal` read-only too (SQLite gives it the store's mode), and the first write after
    /// `chmod u+w` said the store was still read-only (helper-108).
    @Test func aStoreMadeWritableAgainIsWrittenAtOnce() throws {
        let sandbox = try Sandbox()
        let folders = try Folders(sandbox)
        try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: folders.store.path)
        let store = ["--store", folders.storePath, "--now", sandbox.now]
        #expect(try Sandbox.asUnprivilegedUser(["add", "First"] + store).status == 0)
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: folders.storePath)
        #expect(try Sandbox.asUnprivilegedUser(["ls"] + store).status == 0)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: folders.storePath)
        let second = try Sandbox.asUnprivilegedUser(["add", "Second"] + store)
        #expect(second.status == 0, "\(second.stderr)")
        #expect(try sandbox.succeed(["ls", "--store", folders.storePath]).contains("Second"))
    }

    /// `sync --dry-run` changes nothing anywhere, so it reads a store its user may not write: it
    /// was refused as one it could not change (helper-108). With no server there, it gets as far
    /// as connecting (75).
    @Test func aDryRunSyncReadsAStoreItsUserMayNotWrite() throws {
        let sandbox = try Sandbox()
        let folders = try Folders(sandbox)
        try sandbox.succeed(["add", "Pay rent", "--store", folders.storePath])
        let config = sandbox.folder.appendingPathComponent("config.toml")
        try Data("[sync.accounts.down]\nurl = \"http://127.0.0.1:1/\"\nuser = \"a\"\npassword_command = \"echo x\"\ninbox = \"Tasks\"\n".utf8).write(to: config)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: config.path)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: sandbox.folder.path)
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: folders.storePath)
        try Sandbox.letNobodyReadTheSideFiles(of: folders.storePath)
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: folders.store.path)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folders.store.path) }
        let before = try Self.fingerprint(folder: folders.store)
        let result = try Sandbox.asUnprivilegedUser(["sync", "--dry-run", "--store", folders.storePath, "--config", config.path])
        #expect(result.status == 75, "\(result.stderr)")
        #expect(result.stderr.hasPrefix("taskwidget: sync of “down”: cannot connect to 127.0.0.1:1"), "\(result.stderr)")
        #expect(try Self.fingerprint(folder: folders.store) == before)
    }

    /// After a writer the `-wal` and `-shm` are kept, so readers find them and create nothing.
    @Test func readingAfterAWriterCreatesNoFileAndChangesNone() throws {
        let sandbox = try Sandbox()
        let folders = try Folders(sandbox)
        try sandbox.succeed(["demo", "--store", folders.storePath])
        try sandbox.succeed(["add", "Pay rent", "--store", folders.storePath])
        let before = try Self.fingerprint(folder: folders.store)
        #expect(before.keys.sorted() == ["tasks.sqlite", "tasks.sqlite-shm", "tasks.sqlite-wal"])
        for command in Self.displayCommands {
            let png = folders.out.appendingPathComponent("widget.png").path
            try sandbox.succeed(command.map { $0 == "{png}" ? png : $0 } + ["--store", folders.storePath])
        }
        let watch = try StreamingProcess(
            sandbox.arguments(["watch", "--format", "json", "--store", folders.storePath]), environment: sandbox.environment)
        #expect(watch.nextLine() != nil)
        watch.send(SIGTERM)
        #expect(watch.waitForExit() == 0)
        #expect(try Self.fingerprint(folder: folders.store) == before)
    }

    /// A copied store (the main file alone) in a folder readers may write: SQLite's readers create
    /// the empty `-wal` and the `-shm` they share with writers, as a writer would; the store itself
    /// (its bytes and modification time) is never touched.
    @Test func aCopiedStoreKeepsItsBytesAndGetsOnlyAnEmptyWAL() throws {
        let sandbox = try Sandbox()
        let folders = try Folders(sandbox)
        try sandbox.succeed(["demo", "--store", folders.storePath])
        try Sandbox.removeWALFiles(folders.storePath)
        let before = try Self.fingerprint(folder: folders.store)
        for command in Self.displayCommands where !command.contains("{png}") {
            try sandbox.succeed(command + ["--store", folders.storePath])
        }
        var after = try Self.fingerprint(folder: folders.store)
        #expect(after.removeValue(forKey: "tasks.sqlite-wal")?.hasPrefix("0 ") == true)
        #expect(after.removeValue(forKey: "tasks.sqlite-shm") != nil)
        #expect(after == before)
    }

    @Test func exportThenImportIntoAnEmptyStoreGivesTheSameExport() throws {
        let source = try Sandbox()
        try source.succeed(["demo"])
        try source.succeed(["add", "Quote \" backslash \\ tab-free ✓", "--due", "in 90m"])
        let firstID = try source.succeed(["ls", "--format", "json"]).split(separator: "\"shortId\" : \"")[1].prefix(8)
        try source.succeed(["done", String(firstID)])
        let exported = try source.succeed(["export"])

        let target = try Sandbox()
        let file = target.folder.appendingPathComponent("backup.json")
        try Data(exported.utf8).write(to: file)
        #expect(try target.succeed(["import", file.path]).hasPrefix("Imported 3 lists, 15 tasks and 4 habits"))
        #expect(try target.succeed(["export"]) == exported)

        // Importing the same file again replaces records by id: nothing is duplicated.
        try target.succeed(["import", file.path])
        #expect(try target.succeed(["export"]) == exported)

        // Standard input works too.
        let piped = try Sandbox()
        #expect(try piped.run(["import", "-"], input: Data(exported.utf8)).status == 0)
        #expect(try piped.succeed(["export"]) == exported)

        // And a process substitution, a pipe behind /dev/fd (it could not be read).
        let substituted = try Sandbox()
        let result = try ProcessRunner.run(
            "/bin/bash", ["-c", #"exec "$0" import <(cat "$1") --store "$2""#, Sandbox.binary.path, file.path, substituted.storePath],
            environment: substituted.environment)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try substituted.succeed(["export"]) == exported)
    }

    // MARK: - Helpers

    static func fingerprint(_ path: String) throws -> String {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        let modified = (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        return "\(data.count) \(data.hashValue) \(modified)"
    }

    /// Every file of the folder by name: its size, bytes and modification time. The `-shm` only
    /// counts as present: it is SQLite's shared memory, which every reader of a WAL database writes
    /// (its read mark, and the index rebuilt when the first connection opens).
    static func fingerprint(folder: URL) throws -> [String: String] {
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        return try Dictionary(uniqueKeysWithValues: names.map { name in
            let path = folder.appendingPathComponent(name).path
            return (name, name.hasSuffix("-shm") ? "present" : try fingerprint(path))
        })
    }

    /// A store its reader may not open (mode 000) is an error line, and watch shows the tasks
    /// again once the mode lets it read: a `chmod` changes neither bytes nor modification time,
    /// only the file's attributes, and that event alone must wake it (it waited for a write).
    @Test(.timeLimit(.minutes(1)))
    func watchRecoversWhenTheStoreMayBeReadAgain() throws {
        let sandbox = try Sandbox()
        let folders = try Folders(sandbox)
        try sandbox.succeed(["demo", "--store", folders.storePath])
        let waybar = try sandbox.succeed(["status", "--format", "waybar", "--store", folders.storePath])
        for path in [folders.storePath, folders.storePath + "-wal", folders.storePath + "-shm"] {
            try FileManager.default.setAttributes([.posixPermissions: 0o666], ofItemAtPath: path)
        }
        try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: folders.store.path)
        try FileManager.default.setAttributes([.posixPermissions: 0o000], ofItemAtPath: folders.storePath)
        let watch = try Sandbox.streamingAsUnprivilegedUser([
            "watch", "--format", "waybar", "--store", folders.storePath, "--now", sandbox.now, "--tz", sandbox.timeZone,
        ])
        #expect(watch.nextLine()?.contains("⚠ taskwidget") == true, "\(watch.stderrText)")
        try FileManager.default.setAttributes([.posixPermissions: 0o666], ofItemAtPath: folders.storePath)
        #expect(watch.nextLine(within: .seconds(5)).map { $0 + "\n" } == waybar, "\(watch.stderrText)")
        watch.send(SIGTERM)
        #expect(watch.waitForExit() == 0)
    }
}
