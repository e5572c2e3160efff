import Foundation

/// A task executor with threads of its own. Everything a test runs in process that must answer in
/// time (an HTTP server under test) runs on one, through `withTaskExecutorPreference`, because the
/// test process shares Swift's cooperative pool with every other test: it has one thread per core
/// (two here), and end-to-end tests block those threads while they wait for the programs they
/// run. Two such tests at once stalled a server's handlers for more than ten seconds.
final class DedicatedExecutor: TaskExecutor, @unchecked Sendable {
    /// One for the whole test process: its threads live as long as it does.
    static let shared = DedicatedExecutor(threads: 4, name: "test server")

    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []

    init(threads: Int, name: String) {
        for index in 0..<threads {
            let thread = Thread { [unowned self] in runJobs() }
            thread.name = "\(name) \(index + 1)"
            thread.start()
        }
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    private func runJobs() -> Never {
        while true {
            condition.lock()
            while jobs.isEmpty { condition.wait() }
            let job = jobs.removeFirst()
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
