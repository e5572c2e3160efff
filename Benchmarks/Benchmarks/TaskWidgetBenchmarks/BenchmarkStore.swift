import Foundation
import Logging
import TaskWidgetKit

/// The fixed clock and zone of every benchmark: compare.sh's `--now`, in UTC.
enum Fixed {
    static let now = Date(timeIntervalSince1970: 1_795_348_800)  // 2026-11-22T12:00:00Z
    static let timeZone = TimeZone(identifier: "UTC")!
    static let logger = Logger(label: "taskwidget-benchmarks")
}

/// Store files made in a benchmark's setup, in a folder of this process's own (the benchmark tool
/// runs each benchmark in a process of its own) that ``removeAll()`` deletes in the teardown.
enum BenchmarkStore {
    private static let folder = FileManager.default.temporaryDirectory
        .appendingPathComponent("taskwidget-benchmarks-\(ProcessInfo.processInfo.processIdentifier)")

    /// A store with `taskCount` generated tasks, the same shape as scripts/bench/generate_tasks.py's:
    /// 6 lists plus the Inbox, about 20 % completed, 70 % with a due date from 30 days before
    /// ``Fixed/now`` to 60 days after it. The same count gives the same tasks.
    static func generated(taskCount: Int) throws -> StoreLocation {
        var random = SplitMix64(seed: UInt64(taskCount))
        let names = ["Work", "Home", "Errands", "Health", "Reading", "Side project"]
        let colors = ["007AFF", "34C759", "FF9500", "FF2D55", "AF52DE", "5AC8FA"]
        let lists = zip(names, colors).enumerated().map { index, list in
            TaskList(
                id: random.uuid(), name: list.0, colorHex: list.1, createdAt: Fixed.now.addingTimeInterval(-200 * 86_400),
                sortOrder: index)
        }
        let verbs = "call write review buy fix plan send book pay clean read draft check update prepare".split(separator: " ")
        let things = "report invoice dentist groceries slides budget car tickets rent garden notes code taxes".split(separator: " ")
        let tasks = (0..<taskCount).map { index in
            let created = Fixed.now.addingTimeInterval(-random.uniform(86_400...120 * 86_400).rounded())
            let isCompleted = random.uniform(0...1) < 0.2
            let due = random.uniform(0...1) < 0.7 ? Fixed.now.addingTimeInterval(60 * random.uniform(-30 * 1440...60 * 1440).rounded()) : nil
            let list = random.element(of: [nil] + lists)
            var task = TaskItem(
                id: random.uuid(), title: "\(random.element(of: verbs).capitalized) \(random.element(of: things)) \(index)",
                dueDate: due, listID: list?.id, sortOrder: index, createdAt: created)
            if isCompleted { task.complete(at: created.addingTimeInterval(86_400)) }
            return task
        }
        return try make(named: "tasks-\(taskCount)") { try $0.importing(StoreExport(lists: lists, tasks: tasks), source: "generated tasks") }
    }

    /// A store holding `taskwidget demo`'s data at ``Fixed/now``: what the C baseline draws.
    static func demo() throws -> StoreLocation {
        try make(named: "demo") { try $0.fillWithDemoData(now: Fixed.now, timeZone: Fixed.timeZone) }
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

/// A small seeded random generator (SplitMix64), so that generated stores are the same every run.
struct SplitMix64 {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }

    /// A value in `range`, uniformly.
    mutating func uniform(_ range: ClosedRange<Double>) -> Double {
        range.lowerBound + Double(next() >> 11) / Double(1 << 53) * (range.upperBound - range.lowerBound)
    }

    mutating func element<T>(of array: [T]) -> T {
        array[Int(next() % UInt64(array.count))]
    }

    mutating func uuid() -> UUID {
        let (high, low) = (next(), next())
        var bytes = withUnsafeBytes(of: high.bigEndian) { Array($0) } + withUnsafeBytes(of: low.bigEndian) { Array($0) }
        bytes[6] = bytes[6] & 0x0F | 0x40  // version 4
        bytes[8] = bytes[8] & 0x3F | 0x80  // RFC 4122 variant
        return UUID(uuid: (
            bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
            bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
    }
}
