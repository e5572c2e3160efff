import Foundation
import Testing

@Suite struct ConcurrencyTests {
    /// 50 `add` processes started at once against one new store: all succeed, all 50 tasks are there.
    @Test func fiftyConcurrentAddsAllLand() throws {
        let sandbox = try Sandbox()
        let processes = try (0..<50).map { index in
            let process = Process()
            process.executableURL = Sandbox.binary
            process.arguments = ["add", "Task \(index)", "--store", sandbox.storePath, "--list", index.isMultiple(of: 2) ? "Even" : "Odd"]
            process.environment = ["TZ": "UTC", "HOME": sandbox.folder.path]
            process.standardOutput = FileHandle.nullDevice
            let errors = Pipe()
            process.standardError = errors
            try process.run()
            return (process, errors)
        }
        var failures: [String] = []
        for (process, errors) in processes {
            let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            if process.terminationStatus != 0 { failures.append(message) }
        }
        #expect(failures.isEmpty, "failed adds: \(failures)")

        struct Row: Decodable { var title: String; var list: String? }
        let output = try sandbox.succeed(["ls", "--format", "json"])
        let rows = try JSONDecoder().decode([Row].self, from: Data(output.utf8))
        #expect(Set(rows.map(\.title)) == Set((0..<50).map { "Task \($0)" }))
        #expect(rows.count == 50)
        // Both lists were created exactly once, however the processes raced.
        #expect(try sandbox.succeed(["list", "ls"]).split(separator: "\n").count == 3)
        #expect(rows.filter { $0.list == "Even" }.count == 25)
    }
}
