import Foundation
import GRDB
import Testing

/// Every bad input gives one `taskwidget: …` line on stderr, the documented exit status, no stack
/// trace, and leaves the store exactly as it was (same export, integrity ok).
@Suite struct BadInputTests {
    /// A store with two lists, a habit, and two tasks whose ids share the prefix `abcd`.
    static func populatedSandbox() throws -> Sandbox {
        let sandbox = try Sandbox()
        try sandbox.succeed(["list", "add", "Home"])
        try sandbox.succeed(["add", "Pay rent", "--list", "Home", "--due", "tomorrow"])
        try sandbox.succeed(["habit", "add", "Walk"])
        let twins = """
            {"schema": "taskwidget.export/1", "lists": [], "habits": [], "tasks": [
              {"id": "ABCD0000-0000-4000-8000-000000000001", "title": "Twin one", "isCompleted": false, "state": "notStarted",
               "createdAt": "2026-11-20T10:00:00Z", "modifiedAt": "2026-11-20T10:00:00Z", "sortOrder": 5},
              {"id": "ABCD1111-0000-4000-8000-000000000002", "title": "Twin two", "isCompleted": false, "state": "notStarted",
               "createdAt": "2026-11-20T10:00:00Z", "modifiedAt": "2026-11-20T10:00:00Z", "sortOrder": 6}]}
            """
        let file = sandbox.folder.appendingPathComponent("twins.json")
        try Data(twins.utf8).write(to: file)
        try sandbox.succeed(["import", file.path])
        return sandbox
    }

    static let usageCases: [[String]] = [
        ["add", ""],
        ["add", "   "],
        ["add", "bell\u{7}title"],
        ["add", "two\nlines"],
        ["add", String(repeating: "x", count: 1001)],
        ["add", "Due when?", "--due", "next blue moon"],
        ["add", "Due when?", "--due", "25:00"],
        ["add", "Remind when?", "--remind", "2026-02-30"],
        ["add", "Reserved", "--list", "inbox"],
        ["done", "ffff"],
        ["done", "abcd"],
        ["done", "xyz!"],
        ["done", "abc"],
        ["edit", "abcd0", "--list", "Nope"],
        ["edit", "abcd0"],
        ["ls", "--list", "Nope"],
        ["ls", "--list", "Home", "--inbox"],
        ["list", "add", "home"],
        ["list", "add", "Work", "--color", "12345G"],
        ["list", "color", "Home", "blue"],
        ["list", "rename", "Nope", "Other"],
        ["list", "rm", "Home"],
        ["habit", "add", "walk"],
        ["habit", "check", "Run"],
        ["habit", "check", "Walk", "--date", "2030-01-01"],
        ["habit", "check", "Walk", "--status", "maybe"],
        ["move", "abcd0", "--to", "0"],
        ["ls", "--tz", "Mars/Olympus"],
        ["ls", "--now", "yesterday-ish"],
        ["frobnicate"],
        ["add"],
    ]

    @Test(arguments: usageCases)
    func badUsageExits64AndChangesNothing(arguments: [String]) throws {
        try expectFailure(arguments, status: 64)
    }

    @Test func ambiguousPrefixListsTheCandidates() throws {
        let sandbox = try Self.populatedSandbox()
        let result = try sandbox.run(["done", "abcd"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("abcd0000 (Twin one)") && result.stderr.contains("abcd1111 (Twin two)"))
    }

    @Test func badImportFilesExit65AndChangeNothing() throws {
        let sandbox = try Self.populatedSandbox()
        let documents = [
            "not json",
            #"{"schema": "taskwidget.export/9", "lists": [], "tasks": [], "habits": []}"#,
            #"{"schema": "taskwidget.export/1", "lists": [], "tasks": [{"id": "x"}], "habits": []}"#,
            #"{"schema": "taskwidget.export/1", "lists": [{"id": "ABCD0000-0000-4000-8000-00000000000F", "name": "", "colorHex": "FFFFFF", "createdAt": "2026-11-20T10:00:00Z", "sortOrder": 0}], "tasks": [], "habits": []}"#,
            String(repeating: "[", count: 100_000),
        ]
        for (index, document) in documents.enumerated() {
            let file = sandbox.folder.appendingPathComponent("bad\(index).json")
            try Data(document.utf8).write(to: file)
            try expectFailure(["import", file.path], status: 65, in: sandbox)
        }
        try expectFailure(["import", sandbox.folder.appendingPathComponent("missing.json").path], status: 74, in: sandbox)
    }

    @Test func storeInAMissingFolderExits74() throws {
        let sandbox = try Sandbox()
        let path = sandbox.folder.appendingPathComponent("no/such/folder/tasks.sqlite").path
        let result = try sandbox.run(["add", "Pay rent", "--store", path])
        #expect(result.status == 74)
        #expect(result.stderrLines.count == 1 && result.stderr.hasPrefix("taskwidget: the folder"))
        #expect(!FileManager.default.fileExists(atPath: sandbox.folder.appendingPathComponent("no").path))
    }

    @Test func storeInAnUnwritableFolderExits74() throws {
        let sandbox = try Sandbox()
        let folder = sandbox.folder.appendingPathComponent("locked")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: folder.path)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder.path) }
        let store = folder.appendingPathComponent("tasks.sqlite").path
        // Root may write anywhere: run as `nobody` then, as a real user would be.
        let result = try Sandbox.asUnprivilegedUser(["add", "Pay rent", "--store", store, "--now", sandbox.now])
        #expect(result.status == 74)
        #expect(result.stderrLines.count == 1)
        #expect(result.stderr.contains("not writable"))
        #expect(!FileManager.default.fileExists(atPath: store))
    }

    @Test func missingStoreIsAnErrorForReadsAndIsNotCreated() throws {
        let sandbox = try Sandbox()
        for command in [["ls"], ["export"], ["list", "ls"], ["habit", "ls"]] {
            let result = try sandbox.run(command)
            #expect(result.status == 74)
            #expect(result.stderrLines.count == 1 && result.stderr.contains("taskwidget add"))
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: sandbox.folder.path).isEmpty)
    }

    @Test(arguments: ["garbage", "foreign", "newer", "folder", "empty"])
    func unusableStoreFilesAreRefusedAndLeftAlone(kind: String) throws {
        let sandbox = try Sandbox()
        let expectedStatus: Int32
        switch kind {
        case "garbage":
            try Data((0..<8192).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }).write(to: URL(fileURLWithPath: sandbox.storePath))
            expectedStatus = 65
        case "foreign":
            try DatabaseQueue(path: sandbox.storePath).write { try $0.execute(sql: "CREATE TABLE foo(x); INSERT INTO foo VALUES (1)") }
            expectedStatus = 65
        case "newer":
            try sandbox.succeed(["add", "Pay rent"])
            try DatabaseQueue(path: sandbox.storePath).write { try $0.execute(sql: "INSERT INTO grdb_migrations VALUES ('v99')") }
            expectedStatus = 65
        case "folder":
            try FileManager.default.createDirectory(atPath: sandbox.storePath, withIntermediateDirectories: false)
            expectedStatus = 74
        default:
            // A zero-byte file is a new store to a writer, and an empty one to a reader.
            #expect(FileManager.default.createFile(atPath: sandbox.storePath, contents: Data()))
            #expect(try sandbox.run(["ls"]).status == 65)
            try sandbox.succeed(["add", "Pay rent"])
            return
        }
        let before = Self.snapshot(sandbox.storePath)
        for command in [["add", "New"], ["ls"], ["export"], ["done", "abcd"], ["list", "add", "Work"]] {
            let result = try sandbox.run(command)
            #expect(result.status == expectedStatus, "\(command): \(result.stderr)")
            #expect(result.stderrLines.count == 1 && result.stderr.hasPrefix("taskwidget: "))
            #expect(!result.stderr.contains("Fatal error"))
        }
        #expect(Self.snapshot(sandbox.storePath) == before)
    }

    // MARK: - Helpers

    func expectFailure(_ arguments: [String], status: Int32, sourceLocation: SourceLocation = #_sourceLocation) throws {
        try expectFailure(arguments, status: status, in: Self.populatedSandbox(), sourceLocation: sourceLocation)
    }

    func expectFailure(
        _ arguments: [String], status: Int32, in sandbox: borrowing Sandbox, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let before = try sandbox.succeed(["export"])
        let result = try sandbox.run(arguments)
        #expect(result.status == status, "\(arguments): \(result.stderr)", sourceLocation: sourceLocation)
        #expect(result.stdout.isEmpty, sourceLocation: sourceLocation)
        #expect(result.stderrLines.count == 1, "\(arguments): \(result.stderr)", sourceLocation: sourceLocation)
        #expect(result.stderr.hasPrefix("taskwidget: "), sourceLocation: sourceLocation)
        #expect(try sandbox.succeed(["export"]) == before, sourceLocation: sourceLocation)
        let integrity = try DatabaseQueue(path: sandbox.storePath).read { try String.fetchOne($0, sql: "PRAGMA integrity_check") }
        #expect(integrity == "ok", sourceLocation: sourceLocation)
    }

    /// The file's bytes and modification time, or what is at the path if it is not a file.
    static func snapshot(_ path: String) -> String {
        let attributes = try? FileManager.default.attributesOfItem(atPath: path)
        let data = FileManager.default.contents(atPath: path) ?? Data()
        return "\(attributes?[.type] ?? "none") \(attributes?[.modificationDate] ?? "-") \(data.hashValue) \(data.count)"
    }
}
