import Foundation
import Testing

/// Display commands never change the store, and work on a store nobody may write.
@Suite struct ReadOnlyStoreTests {
    static let displayCommands: [[String]] = [["ls"], ["ls", "--all", "--format", "json"], ["export"], ["list", "ls"], ["habit", "ls"]]

    @Test func displayCommandsWorkOnAReadOnlyFileAndLeaveItUntouched() throws {
        let sandbox = try Sandbox()
        try sandbox.succeed(["demo"])
        let expected = try Self.displayCommands.map { try sandbox.succeed($0) }
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: sandbox.storePath)
        let before = try Self.fingerprint(sandbox.storePath)
        let files = try FileManager.default.contentsOfDirectory(atPath: sandbox.folder.path).sorted()
        // As root permissions do not bind, so also run as `nobody` in a folder it cannot write.
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: sandbox.folder.path)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: sandbox.folder.path) }

        for (command, output) in zip(Self.displayCommands, expected) {
            #expect(try sandbox.succeed(command) == output)
            let unprivileged = try Sandbox.asUnprivilegedUser(command + ["--store", sandbox.storePath, "--now", sandbox.now, "--tz", sandbox.timeZone])
            #expect(unprivileged.status == 0, "\(command): \(unprivileged.stderr)")
            #expect(unprivileged.stdout == output)
        }
        #expect(try Self.fingerprint(sandbox.storePath) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: sandbox.folder.path).sorted() == files)
    }

    @Test func readingAfterAWriterCreatesNoFile() throws {
        let sandbox = try Sandbox()
        try sandbox.succeed(["add", "Pay rent"])
        let files = try FileManager.default.contentsOfDirectory(atPath: sandbox.folder.path).sorted()
        let before = try Self.fingerprint(sandbox.storePath)
        for command in Self.displayCommands { try sandbox.succeed(command) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: sandbox.folder.path).sorted() == files)
        #expect(try Self.fingerprint(sandbox.storePath) == before)
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
    }

    static func fingerprint(_ path: String) throws -> String {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        let modified = (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        return "\(data.count) \(data.hashValue) \(modified)"
    }
}
