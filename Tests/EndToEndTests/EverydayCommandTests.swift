import Foundation
import Testing

@testable import TaskWidgetTestSupport

/// The everyday commands of issue 17 run as a new user runs them: a demo that keeps away from
/// the user's tasks.
@Suite struct EverydayCommandTests {
    // MARK: - Demo

    @Test func demoWithoutStoreFillsAStoreOfItsOwn() throws {
        let sandbox = try Sandbox()
        let data = sandbox.folder.appendingPathComponent("data/taskwidget")
        let demoStore = data.appendingPathComponent("demo.sqlite").path
        // TASKWIDGET_STORE names the user's own tasks: the demo never goes there.
        let environment = ["TASKWIDGET_STORE": sandbox.storePath]
        let first = try sandbox.run(["demo", "--now", sandbox.now], global: false, environment: environment)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdoutLines == [
            "Filled \(demoStore) with sample lists, tasks and habits.",
            "Look at them with --store or TASKWIDGET_STORE, e.g.:",
            "  taskwidget ls --store \(demoStore)",
            "  TASKWIDGET_STORE=\(demoStore) taskwidget status --format waybar",
        ])
        #expect(!FileManager.default.fileExists(atPath: sandbox.storePath), "the user's store is untouched")
        #expect(!FileManager.default.fileExists(atPath: data.appendingPathComponent("tasks.sqlite").path))
        #expect(try sandbox.succeed(["ls", "--store", demoStore]).split(separator: "\n").count > 10)

        let again = try sandbox.run(["demo", "--now", sandbox.now], global: false)
        #expect(again.status == 64)
        #expect(again.stderrLines == ["taskwidget: the store \(demoStore) already has data: pass `--store PATH` with a new file for the demo"])
        #expect(again.stdout.isEmpty)
    }

    @Test func demoWithStoreFillsThatStoreOnlyWhenEmpty() throws {
        let sandbox = try Sandbox()
        try sandbox.succeed(["add", "My own task"])
        try sandbox.expectRefused(["demo"], status: 64, message: "already has data")
        let other = sandbox.folder.appendingPathComponent("it's a demo.sqlite").path
        let output = try sandbox.succeed(["demo", "--store", other])
        #expect(output.contains("taskwidget ls --store '\(sandbox.folder.path)/it'\\''s a demo.sqlite'"), "\(output)")
        #expect(try sandbox.succeed(["ls", "--format", "json"]).contains("My own task"))
    }
}
