import Foundation
import Testing

/// A store appears whole: a status bar that reads while the first `add` creates the store sees
/// either no store or the new one, never a store whose schema is half made ("empty", "needs an
/// upgrade", as it did when GRDB committed each migration into the store's own file).
@Suite struct StoreCreationTests {
    @Test func readersDuringTheFirstAddSeeNoStoreOrTheWholeStore() throws {
        var readsDuringCreation = 0
        for round in 0..<8 {
            let sandbox = try Sandbox()
            let add = Process()
            add.executableURL = Sandbox.binary
            add.arguments = sandbox.arguments(["add", "First task", "--list", "Work"])
            add.environment = sandbox.environment
            add.standardOutput = FileHandle.nullDevice
            try add.run()
            var lines: [String] = []
            repeat {
                let result = try sandbox.run(["status", "--format", "text"])
                lines.append(result.status == 0 ? result.stdout : result.stderr)
                readsDuringCreation += 1
            } while add.isRunning
            add.waitUntilExit()
            #expect(add.terminationStatus == 0)
            // No store yet, the new store before its first task, or with it.
            let unexpected = lines.filter { !$0.contains("there is no store") && $0 != "All done\n" && !$0.contains("First task") }
            #expect(unexpected.isEmpty, "round \(round): \(unexpected)")
            let leftovers = try FileManager.default.contentsOfDirectory(atPath: sandbox.folder.path).filter { $0.contains(".new-") }
            #expect(leftovers.isEmpty, "round \(round)")
        }
        #expect(readsDuringCreation >= 8)
    }
}
