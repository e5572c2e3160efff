import Foundation

/// What the threads of this test process, and the processes of the machine, are doing, from
/// `/proc`: for a test that finds something late (a server that should have cut a connection a
/// second ago) to print who was busy and who was waiting meanwhile, without stopping anything.
struct CPUActivity {
    /// One thread or process at one moment.
    struct Sample {
        var name: String
        /// `R` running, `S` sleeping, `D` in the disk, …
        var state: String
        /// The kernel function it waits in (`ep_poll`, `futex_wait_queue`, …), `0` when running.
        var waitChannel: String
        /// User and system CPU time so far, in clock ticks.
        var cpuTicks: Int
    }

    /// The threads of this process.
    static let threads = "/proc/self/task"
    /// The processes of the machine (their CPU counts their threads').
    static let processes = "/proc"

    /// Every thread or process of `folder` now, by id.
    static func sample(_ folder: String) -> [Int: Sample] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        var samples: [Int: Sample] = [:]
        for entry in entries {
            guard let id = Int(entry), let stat = try? String(contentsOfFile: "\(folder)/\(entry)/stat", encoding: .utf8),
                let open = stat.firstIndex(of: "("), let close = stat.lastIndex(of: ")")
            else { continue }
            // After the name in parentheses: state, then 10 more fields, then utime and stime.
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard fields.count > 12 else { continue }
            let wait = (try? String(contentsOfFile: "\(folder)/\(entry)/wchan", encoding: .utf8)) ?? "?"
            samples[id] = Sample(
                name: String(stat[stat.index(after: open)..<close]), state: String(fields[0]), waitChannel: wait,
                cpuTicks: (Int(fields[11]) ?? 0) + (Int(fields[12]) ?? 0))
        }
        return samples
    }

    /// One line for each of the `limit` busiest alive at both samples, the busiest first: its
    /// name, the CPU it took between them (ms), and its state and wait at the second.
    static func report(from before: [Int: Sample], to after: [Int: Sample], limit: Int = .max) -> String {
        let tick = 1000 / max(1, Int(sysconf(Int32(_SC_CLK_TCK))))
        return after.compactMap { id, now -> (Int, String)? in
            guard let then = before[id] else { return nil }
            let busy = (now.cpuTicks - then.cpuTicks) * tick
            return (busy, "  \(now.name) [\(id)]: \(busy) ms of CPU, now \(now.state) in \(now.waitChannel)")
        }
        .sorted { $0.0 > $1.0 }.prefix(limit).map(\.1).joined(separator: "\n")
    }
}

/// Prints, once, what the process's threads and the machine's busiest processes did in the second
/// after `label`'s deadline passed: called on each turn of a loop that waits for something due by
/// then. The machine's part tells a stalled process from one that waits for the CPU.
final class LatenessReport {
    private let label: String
    private let deadline: Date
    private var first: (threads: [Int: CPUActivity.Sample], processes: [Int: CPUActivity.Sample])?
    private var printed = false

    init(_ label: String, dueBy deadline: Date) {
        self.label = label
        self.deadline = deadline
    }

    func check() {
        guard !printed, Date() > deadline else { return }
        guard let first else {
            first = (CPUActivity.sample(CPUActivity.threads), CPUActivity.sample(CPUActivity.processes))
            return
        }
        guard Date() > deadline.addingTimeInterval(1) else { return }
        printed = true
        let load = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "?"
        print(
            "\(label) is late; the test process's threads in the second after it was due:\n"
                + CPUActivity.report(from: first.threads, to: CPUActivity.sample(CPUActivity.threads))
                + "\nthe machine's busiest processes in that second (load \(load)):\n"
                + CPUActivity.report(from: first.processes, to: CPUActivity.sample(CPUActivity.processes), limit: 8))
    }
}
