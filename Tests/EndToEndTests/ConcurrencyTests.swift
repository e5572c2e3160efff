import Foundation
import Glibc
import Testing

@testable import TaskWidgetTestSupport

@Suite struct ConcurrencyTests {
    /// 50 `add` processes started at once against one new store: all succeed, all 50 tasks are there.
    @Test func fiftyConcurrentAddsAllLand() throws {
        let sandbox = try Sandbox()
        let processes = try (0..<50).map { index in
            let process = Process()
            process.executableURL = Sandbox.binary
            process.arguments = ["add", "Task \(index)", "--store", sandbox.storePath, "--new-list", "--list", index.isMultiple(of: 2) ? "Even" : "Odd"]
            process.environment = ["TZ": "UTC", "HOME": sandbox.folder.path]
            process.standardOutput = FileHandle.nullDevice
            let errors = Pipe.closedOnExec()
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

    // MARK: - Load

    /// How much load: the suite's by default; the issue's (8 writers × 200, 4 status loops) with
    /// `TASKWIDGET_LOAD=full`, which scripts/reliability/run.sh sets.
    struct LoadScale {
        var writers = 4
        var operationsPerWriter = 25
        var statusLoops = 2

        static var current: LoadScale {
            ProcessInfo.processInfo.environment["TASKWIDGET_LOAD"] == "full"
                ? LoadScale(writers: 8, operationsPerWriter: 200, statusLoops: 4) : LoadScale()
        }
    }

    /// Writers add, complete and edit their own tasks while `status` runs in loops (every format in
    /// turn) and one `watch` follows: every acknowledged write is in the store afterwards, the store
    /// is intact, every line any reader printed is valid for its format, and watch ends on the
    /// final state.
    @Test(.timeLimit(.minutes(30))) func writersStatusLoopsAndAWatchUnderLoad() throws {
        let scale = LoadScale.current
        let seed = SplitMix64.seed(default: 20_261_122)
        let sandbox = try Sandbox()
        try sandbox.succeed(["add", "Seed task"])
        let launcher = Launcher(suffix: sandbox.arguments([]), environment: sandbox.environment)
        let tally = Tally()
        let watch = try StreamingProcess(sandbox.arguments(["watch", "--format", "json"]), environment: sandbox.environment)
        var watchLines = 0
        var lastWatchLine: [String: Any]?
        func readWatch(within timeout: Duration) -> Bool {
            guard let line = watch.nextLine(within: timeout) else { return false }
            watchLines += 1
            if let problem = StatusLineCheck.problem(line, format: "json") { tally.problem("watch: \(problem): \(line)") }
            lastWatchLine = StatusLineCheck.jsonObject(line)
            return true
        }
        #expect(readWatch(within: .seconds(10)), "watch printed nothing: \(watch.stderrText)")

        let writers = DispatchGroup()
        let base = SplitMix64(seed: seed)
        for writer in 0..<scale.writers {
            writers.enter()
            Thread {
                defer { writers.leave() }
                var random = base.forWorker(writer)
                var writes = WriterExpectations()
                for index in 0..<scale.operationsPerWriter {
                    let operation = writes.nextOperation(writer: writer, index: index, using: &random)
                    let result = try? launcher.run(operation.arguments)
                    let acknowledged = result.map { $0.status == 0 && operation.isAcknowledged(by: $0.stdout) } ?? false
                    if !acknowledged { tally.problem("writer \(writer) \(operation.arguments): \(result?.status ?? -1) \(result?.stderr ?? "")") }
                    writes.record(operation, acknowledged: acknowledged, stdout: result?.stdout ?? "")
                }
                tally.add(writes)
            }.start()
        }
        let stop = Flag()
        let readers = DispatchGroup()
        for reader in 0..<scale.statusLoops {
            readers.enter()
            Thread {
                defer { readers.leave() }
                var round = reader
                while !stop.isSet {
                    let format = StatusLineCheck.formats[round % StatusLineCheck.formats.count]
                    round += 1
                    guard let result = try? launcher.run(["status", "--format", format]) else {
                        tally.problem("status --format \(format) did not start")
                        continue
                    }
                    let lines = result.stdoutLines
                    if result.status != 0 || !result.stderr.isEmpty || lines.count != 1 || !result.stdout.hasSuffix("\n") {
                        tally.problem("status --format \(format): \(result.status) \(result.stdout) \(result.stderr)")
                    } else if let problem = StatusLineCheck.problem(lines[0], format: format) {
                        tally.problem("status --format \(format): \(problem): \(lines[0])")
                    }
                    tally.countStatusLine()
                }
            }.start()
        }
        while writers.wait(timeout: .now()) == .timedOut {
            _ = readWatch(within: .milliseconds(200))
        }
        stop.set()
        readers.wait()

        let export = try StoreContents(sandbox)
        // watch prints at most one line a second: give it time to show the last writes.
        let open = export.tasks.filter { !$0.isCompleted }.count
        while (lastWatchLine?["counts"] as? [String: Any])?["open"] as? Int != open, readWatch(within: .seconds(5)) {}
        #expect((lastWatchLine?["counts"] as? [String: Any])?["open"] as? Int == open, "seed \(seed): watch did not end on \(open) open tasks")
        watch.send(SIGTERM)
        #expect(watch.waitForExit() == 0, "seed \(seed)")

        let writes = tally.writes
        let checks = writes.map { $0.check(in: export) }
        let missing = checks.flatMap(\.problems)
        #expect(try sandbox.integrity() == "ok", "seed \(seed)")
        #expect(tally.problems.isEmpty, "seed \(seed): \(tally.problems.prefix(10)) (\(tally.problems.count) in all)")
        #expect(missing.isEmpty, "seed \(seed): \(missing.prefix(10)) (\(missing.count) in all)")
        let added = writes.map(\.acknowledgedAdds).reduce(0, +)
        #expect(export.tasks.count == added + 1, "seed \(seed): \(export.tasks.count) tasks for \(added) acknowledged adds and the seed task")
        // The readers read: status lines were validated, and watch printed more than its first line.
        #expect(tally.statusLines > 0, "seed \(seed): no status line was validated")
        #expect(watchLines > 1, "seed \(seed): watch printed \(watchLines) line(s) under load")
        print("""
            load (seed \(seed)): \(scale.writers) writers × \(scale.operationsPerWriter): \(writes.map(\.attempted).reduce(0, +)) writes attempted, \
            \(writes.map(\.acknowledged).reduce(0, +)) acknowledged, \(writes.map(\.acknowledged).reduce(0, +) - checks.map(\.lost).reduce(0, +)) present; \
            \(tally.statusLines) status lines and \(watchLines) watch lines validated; \(tally.problems.count) problems
            """)
    }

    // MARK: - Kills

    /// Writers (add, done, edit, and a 300-task import) killed with SIGKILL at random moments of
    /// their run: the store stays intact, every write that printed its acknowledgement is there,
    /// an import is all or nothing, and the next writer works.
    @Test func killedWritersLoseNoAcknowledgedWrite() throws {
        let seed = SplitMix64.seed(default: 20_261_122)
        var random = SplitMix64(seed: seed)
        let kills = Int(ProcessInfo.processInfo.environment["TASKWIDGET_KILLS"] ?? "") ?? 20
        let sandbox = try Sandbox.demo()
        // How long a write lasts here, to spread the kills over the whole of one: measured once,
        // then shortened each time a write ends before its kill and lengthened when the kill lands,
        // since the machine's load (the rest of the suite) changes it as the test runs.
        let started = ContinuousClock.now
        let timing = try StreamingProcess(sandbox.arguments(["add", "Timing"]), environment: sandbox.environment)
        #expect(timing.waitForExit() == 0)
        let measured = ContinuousClock.now - started
        var span = Double(measured.components.seconds) * 1e6 + Double(measured.components.attoseconds) / 1e12
        // An import of 300 tasks lasts longer, and learns its own span: on the adds' one, every
        // import was killed, and none was checked once acknowledged.
        var importSpan = span * 3

        var writes = WriterExpectations()
        var killedRunning = 0
        // How each write ended, for a failure to show the order of events.
        var history: [String] = []
        for index in 0..<kills {
            var operation = writes.nextOperation(writer: 0, index: index, using: &random)
            if index % 5 == 4 {
                let file = sandbox.folder.appendingPathComponent("import-\(index).json")
                operation = try .importing(300, into: file, using: &random)
            }
            let process = try StreamingProcess(sandbox.arguments(operation.arguments), environment: sandbox.environment)
            // From a fifth of a write (the process starting takes about that) to a fifth past its end.
            let isImport = operation.kind == .importing
            let current = isImport ? importSpan : span
            usleep(UInt32(Double.random(in: current * 0.2..<current * 1.2, using: &random)))
            process.send(SIGKILL)
            let status = process.waitForExit()
            let stdout = process.remainingLines()
            let factor = status == 128 + SIGKILL ? 1.15 : 0.7
            if status == 128 + SIGKILL { killedRunning += 1 }
            if isImport { importSpan *= factor } else { span *= factor }
            let acknowledged = operation.isAcknowledged(by: stdout)
            #expect(status == 128 + SIGKILL || (status == 0 && acknowledged), "seed \(seed): \(operation.arguments) ended with \(status ?? -1): \(stdout) \(process.stderrText)")
            writes.record(operation, acknowledged: acknowledged, stdout: stdout)
            history.append("\(index) \(operation.kind) \(status == 128 + SIGKILL ? "killed" : "exit \(status ?? -1)")\(acknowledged ? " acknowledged" : "")")
        }
        // Kills that all came after the write would test nothing.
        #expect(killedRunning >= kills / 4, "seed \(seed): only \(killedRunning) of \(kills) kills came while the writer ran")
        #expect(try sandbox.integrity() == "ok", "seed \(seed)")
        let export = try StoreContents(sandbox)
        let check = writes.check(in: export)
        #expect(check.problems.isEmpty, "seed \(seed): \(check.problems); the writes: \(history.joined(separator: ", "))")
        try sandbox.succeed(["add", "After the kills"])
        print("""
            kills (seed \(seed)): \(kills) writers killed at random moments (a write took \(measured) at first): \(killedRunning) while running; \
            \(writes.attempted) writes attempted, \(writes.acknowledged) acknowledged (\(writes.acknowledgedImports) of them imports), \
            \(writes.acknowledged - check.lost) present; \
            \(writes.landedWithoutAcknowledgement(in: export)) adds killed between their commit and their id
            """)
    }
}

// MARK: - Writers and what they expect

/// A write one writer sends, and how its output acknowledges it.
struct WriterOperation: Sendable {
    enum Kind: Sendable { case add, done, edit, importing }
    var kind: Kind
    var arguments: [String]
    /// The task completed or edited.
    var id: String?
    /// The title added or set.
    var title: String?
    /// The ids in an imported file.
    var importedIDs: [String] = []

    /// add prints the new id; done and edit name the task; import says what it imported.
    func isAcknowledged(by stdout: String) -> Bool {
        switch kind {
        case .add: stdout.wholeMatch(of: /[0-9a-f]{8}\n/) != nil
        case .done: stdout.hasPrefix("Completed \(id ?? "")") || stdout.hasPrefix("Already completed \(id ?? "")")
        case .edit: stdout.hasPrefix("Edited \(id ?? "")") || stdout.hasPrefix("Unchanged \(id ?? "")")
        case .importing: stdout.hasPrefix("Imported 0 lists, \(importedIDs.count) tasks")
        }
    }

    /// An import of `count` new tasks with ids from `random`, written to `file`.
    static func importing(_ count: Int, into file: URL, using random: inout SplitMix64) throws -> WriterOperation {
        let ids = (0..<count).map { _ in
            let bits = random.next()
            return String(format: "%08X-%04X-4%03X-8%03X-%012llX", UInt32(truncatingIfNeeded: bits >> 32), UInt16(truncatingIfNeeded: bits >> 16),
                UInt16(truncatingIfNeeded: bits) & 0xFFF, UInt16(truncatingIfNeeded: bits >> 4) & 0xFFF, random.next() & 0xFFFF_FFFF_FFFF)
        }
        let tasks = ids.enumerated().map { index, id in
            #"{"id": "\#(id)", "title": "Imported \#(index)", "isCompleted": false, "state": "notStarted", "createdAt": "2026-11-20T10:00:00Z", "modifiedAt": "2026-11-20T10:00:00Z", "sortOrder": \#(index)}"#
        }
        try Data((#"{"schema": "taskwidget.export/1", "lists": [], "habits": [], "tasks": ["# + tasks.joined(separator: ",") + "]}").utf8).write(to: file)
        return WriterOperation(kind: .importing, arguments: ["import", file.path], importedIDs: ids)
    }
}

/// One writer's own tasks: what each acknowledged write promises the store holds.
struct WriterExpectations: Sendable {
    /// The titles a task may have (more than one after an edit that was not acknowledged), by short id.
    private(set) var titles: [String: Set<String>] = [:]
    private var completed: Set<String> = []
    /// Each import's ids, whether it was acknowledged, and what it was: the write's number, its
    /// file and what it printed, for a failure to name.
    private var imports: [(ids: [String], acknowledged: Bool, description: String)] = []
    /// The imports that printed their summary.
    var acknowledgedImports: Int { imports.count(where: \.acknowledged) }
    private var order: [String] = []
    private(set) var attempted = 0
    private(set) var acknowledged = 0
    private(set) var acknowledgedAdds = 0
    private var unacknowledgedAdds: [String] = []

    /// Adds half of the time (always while it has no task), else completes or edits one of its tasks.
    /// Titles carry what each host escapes (`& < > " % #`).
    func nextOperation(writer: Int, index: Int, using random: inout SplitMix64) -> WriterOperation {
        let title = "w\(writer)-\(index) R&D <\(index)> \"q\" 50% #\(index)"
        let open = order.filter { !completed.contains($0) }
        switch open.isEmpty ? 0 : random.next() % 4 {
        case 0, 1:
            let due = ["2026-11-22T12:00:00+01:00", "2026-11-22T18:00:00+01:00", "2026-11-24T09:00:00+01:00", "none"][Int(random.next() % 4)]
            return WriterOperation(
                kind: .add, arguments: ["add", title, "--new-list", "--list", "List \(random.next() % 3)"] + (due == "none" ? [] : ["--due", due]), title: title)
        case 2:
            let id = open[Int(random.next() % UInt64(open.count))]
            return WriterOperation(kind: .done, arguments: ["done", id], id: id)
        default:
            let id = open[Int(random.next() % UInt64(open.count))]
            return WriterOperation(kind: .edit, arguments: ["edit", id, "--title", title + " edited"], id: id, title: title + " edited")
        }
    }

    mutating func record(_ operation: WriterOperation, acknowledged isAcknowledged: Bool, stdout: String) {
        attempted += 1
        if isAcknowledged { acknowledged += 1 }
        switch operation.kind {
        case .add:
            // An add that was not acknowledged has no id to check: it may or may not have landed.
            if !isAcknowledged, let title = operation.title { unacknowledgedAdds.append(title) }
            guard isAcknowledged, let title = operation.title else { return }
            let id = String(stdout.prefix(8))
            titles[id] = [title]
            order.append(id)
            acknowledgedAdds += 1
        case .done:
            if isAcknowledged, let id = operation.id { completed.insert(id) }
        case .edit:
            guard let id = operation.id, let title = operation.title else { return }
            if isAcknowledged { titles[id] = [title] } else { titles[id, default: []].insert(title) }
        case .importing:
            let file = operation.arguments.last.map { URL(fileURLWithPath: $0).lastPathComponent } ?? "?"
            imports.append((operation.importedIDs, isAcknowledged, "write \(attempted) (\(file)), which printed “\(stdout.trimmingCharacters(in: .newlines))”"))
            if isAcknowledged { acknowledgedAdds += operation.importedIDs.count }
        }
    }

    /// Adds killed after their commit, before they printed the id (the title is in the store).
    func landedWithoutAcknowledgement(in store: StoreContents) -> Int {
        let titles = Set(store.tasks.map(\.title))
        return unacknowledgedAdds.filter(titles.contains).count
    }

    /// What the store does not show of the acknowledged writes (and any import found in part),
    /// and how many acknowledged writes that loses: each task's title and completion is the last
    /// acknowledged write's, or a later write's that was not acknowledged.
    func check(in store: StoreContents) -> (problems: [String], lost: Int) {
        var problems: [String] = []
        var lost = 0
        for (id, possible) in titles.sorted(by: { $0.key < $1.key }) {
            guard let task = store.tasks(withShortID: id) else {
                problems.append("\(id) is missing")
                lost += 1 + (completed.contains(id) ? 1 : 0)
                continue
            }
            if !possible.contains(task.title) {
                problems.append("\(id) is titled \(task.title), expected one of \(possible)")
                lost += 1
            }
            if completed.contains(id) && !task.isCompleted {
                problems.append("\(id) was completed but is open")
                lost += 1
            }
        }
        for (ids, isAcknowledged, description) in imports {
            let present = ids.filter { store.ids.contains($0.lowercased()) }.count
            if present != 0 && present != ids.count { problems.append("an import is in part: \(present) of \(ids.count) tasks of \(description)") }
            if isAcknowledged && present != ids.count {
                problems.append("the acknowledged import \(description) is missing: \(present) of its \(ids.count) tasks are in the store of \(store.tasks.count)")
                lost += 1
            }
        }
        return (problems, lost)
    }
}

/// The tasks of a store, read through `taskwidget export`.
struct StoreContents {
    struct Task: Decodable {
        var id: String
        var title: String
        var isCompleted: Bool
    }

    let tasks: [Task]
    let ids: Set<String>
    private let byShortID: [String: Task]

    init(_ sandbox: borrowing Sandbox) throws {
        struct Export: Decodable { var tasks: [Task] }
        tasks = try JSONDecoder().decode(Export.self, from: Data(try sandbox.succeed(["export"]).utf8)).tasks
        // As the store writes them: an import's upper-case ids read as lower case.
        ids = Set(tasks.map { $0.id.lowercased() })
        byShortID = Dictionary(tasks.map { (String($0.id.prefix(8)).lowercased(), $0) }, uniquingKeysWith: { first, _ in first })
    }

    func tasks(withShortID id: String) -> Task? {
        byShortID[id]
    }
}

/// What the threads of a load test report, under a lock.
final class Tally: @unchecked Sendable {
    private let lock = NSLock()
    private var storedProblems: [String] = []
    private var storedWrites: [WriterExpectations] = []
    private var storedStatusLines = 0

    var problems: [String] { lock.withLock { storedProblems } }
    var writes: [WriterExpectations] { lock.withLock { storedWrites } }
    var statusLines: Int { lock.withLock { storedStatusLines } }

    func problem(_ text: String) { lock.withLock { storedProblems.append(text) } }
    func add(_ writes: WriterExpectations) { lock.withLock { storedWrites.append(writes) } }
    func countStatusLine() { lock.withLock { storedStatusLines += 1 } }
}

final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false

    var isSet: Bool { lock.withLock { value } }
    func set() { lock.withLock { value = true } }
}
