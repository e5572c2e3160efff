import Foundation

/// What the threads of this test process are doing, from `/proc/self/task`: for a test that finds
/// something late (a server that should have cut a connection a second ago) to print who was busy
/// and who was waiting meanwhile, without stopping the process.
struct ThreadActivity {
    /// One thread at one moment.
    struct Sample {
        var name: String
        /// `R` running, `S` sleeping, `D` in the disk, …
        var state: String
        /// The kernel function it waits in (`ep_poll`, `futex_wait_queue`, …), `0` when running.
        var waitChannel: String
        /// User and system CPU time so far, in clock ticks.
        var cpuTicks: Int
    }

    /// Every thread now, by thread id.
    static func sample() -> [Int: Sample] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        var samples: [Int: Sample] = [:]
        for task in tasks {
            guard let id = Int(task), let stat = try? String(contentsOfFile: "/proc/self/task/\(task)/stat", encoding: .utf8),
                let open = stat.firstIndex(of: "("), let close = stat.lastIndex(of: ")")
            else { continue }
            // After the name in parentheses: state, then 10 more fields, then utime and stime.
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard fields.count > 12 else { continue }
            let wait = (try? String(contentsOfFile: "/proc/self/task/\(task)/wchan", encoding: .utf8)) ?? "?"
            samples[id] = Sample(
                name: String(stat[stat.index(after: open)..<close]), state: String(fields[0]), waitChannel: wait,
                cpuTicks: (Int(fields[11]) ?? 0) + (Int(fields[12]) ?? 0))
        }
        return samples
    }

    /// One line per thread alive at both samples, the busiest first: its name, the CPU it took
    /// between them (ms), and its state and wait at the second.
    static func report(from before: [Int: Sample], to after: [Int: Sample]) -> String {
        let tick = 1000 / max(1, Int(sysconf(Int32(_SC_CLK_TCK))))
        return after.compactMap { id, now -> (Int, String)? in
            guard let then = before[id] else { return nil }
            let busy = (now.cpuTicks - then.cpuTicks) * tick
            return (busy, "  \(now.name) [\(id)]: \(busy) ms of CPU, now \(now.state) in \(now.waitChannel)")
        }
        .sorted { $0.0 > $1.0 }.map(\.1).joined(separator: "\n")
    }
}

/// Prints, once, what the process's threads did in the second after `label`'s deadline passed:
/// called on each turn of a loop that waits for something due by then.
final class LatenessReport {
    private let label: String
    private let deadline: Date
    private var first: [Int: ThreadActivity.Sample]?
    private var printed = false

    init(_ label: String, dueBy deadline: Date) {
        self.label = label
        self.deadline = deadline
    }

    func check() {
        guard !printed, Date() > deadline else { return }
        guard let first else {
            first = ThreadActivity.sample()
            return
        }
        guard Date() > deadline.addingTimeInterval(1) else { return }
        printed = true
        print("\(label) is late; the test process's threads in the second after it was due:\n"
            + ThreadActivity.report(from: first, to: ThreadActivity.sample()))
    }
}
