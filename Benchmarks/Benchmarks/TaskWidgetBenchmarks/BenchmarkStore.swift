import Foundation
import Logging
import TaskWidgetCore
import TaskWidgetStore

/// The fixed clock and zone of every benchmark: compare.sh's `--now`, in UTC.
enum Fixed {
    static let now = Instant(secondsSince1970: 1_795_348_800)  // 2026-11-22T12:00:00Z
    static let calendar = LocalCalendar(timeZone: TimeZone(identifier: "UTC")!)
    static let logger = Logger(label: "taskwidget-benchmarks")
}

/// Store files made in a benchmark's setup, in a folder of this process's own (the benchmark tool
/// runs each benchmark in a process of its own) that ``removeAll()`` deletes in the teardown.
enum BenchmarkStore {
    private static let folder = FileManager.default.temporaryDirectory
        .appendingPathComponent("taskwidget-benchmarks-\(ProcessInfo.processInfo.processIdentifier)")

    /// A store with the `taskCount` tasks that scripts/bench/generate_tasks.py makes for
    /// scripts/compare.sh (6 lists plus the Inbox, about 20 % completed, 70 % with a due date around
    /// ``Fixed/now``): the same tasks the whole-process timings read.
    static func generated(taskCount: Int) throws -> StoreLocation {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../../scripts/bench/generate_tasks.py").standardized
        let python = Process()
        python.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        python.arguments = ["python3", script.path, "\(taskCount)", InstantFormat.utc(Fixed.now), folder.path]
        try python.run()
        python.waitUntilExit()
        guard python.terminationStatus == 0 else { throw TaskWidgetError(.ioFailure, "\(script.path) failed: see its error above") }
        let file = folder.appendingPathComponent("taskwidget-\(taskCount).json")
        let export = try StoreExport.decode(Data(contentsOf: file), source: file.path)
        return try make(named: "tasks-\(taskCount)") { try $0.importing(export, source: file.path) }
    }

    /// A store holding `taskwidget demo`'s data at ``Fixed/now``: what the C baseline draws.
    static func demo() throws -> StoreLocation {
        try make(named: "demo") { try $0.fillWithDemoData(now: Fixed.now, calendar: Fixed.calendar) }
    }

    /// Opens `location` read-only, as the display commands do.
    static func open(_ location: StoreLocation) throws -> TaskStore {
        try TaskStore.open(at: location, mode: .readOnly, logger: Fixed.logger)
    }

    static func removeAll() {
        try? FileManager.default.removeItem(at: folder)
    }

    private static func make(named name: String, fill: (TaskStore) throws -> Void) throws -> StoreLocation {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let location = StoreLocation(path: folder.appendingPathComponent("\(name).sqlite").path, isDefault: false)
        try fill(TaskStore.open(at: location, mode: .readWrite, logger: Fixed.logger))
        return location
    }
}
