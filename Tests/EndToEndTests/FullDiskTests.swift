import Foundation
import Testing

@testable import TaskWidgetTestSupport

/// A full disk, for the store and for the files standard output and error go to: one clear line,
/// exit 74, never a crash, and a store that is exactly as it was (or has the whole write, when the
/// command said it succeeded). A real full disk needs a small file system (see
/// scripts/reliability/run.sh); here the kernel refuses writes past a file size limit instead
/// (RLIMIT_FSIZE, with SIGXFSZ ignored so that the write fails rather than the process dying).
@Suite struct FullDiskTests {
    /// `sh -c SCRIPT` where `"$@"` in the script is `taskwidget ARGUMENTS` on the sandbox's store.
    func runInShell(_ sandbox: borrowing Sandbox, _ script: String, _ arguments: [String]) throws -> RunResult {
        try ProcessRunner.run(
            "/bin/sh", ["-c", script, "sh", Sandbox.binary.path] + sandbox.arguments(arguments), environment: sandbox.environment)
    }

    /// `taskwidget ARGUMENTS` unable to make any file grow past `bytes`.
    func runWithFileSizeLimit(_ sandbox: borrowing Sandbox, _ bytes: Int, _ arguments: [String]) throws -> RunResult {
        // SIGXFSZ as a shell has it, neither ignored nor blocked (the test runner's children may
        // inherit either): taskwidget ignores it itself. It died of it, exit 153.
        let defaultDisposition =
            "import os, signal, sys; signal.signal(signal.SIGXFSZ, signal.SIG_DFL); "
            + "signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGXFSZ]); os.execvp(sys.argv[1], sys.argv[1:])"
        return try runInShell(sandbox, "exec /usr/bin/python3 -c '\(defaultDisposition)' prlimit --fsize=\(bytes) \"$@\"", arguments)
    }

    /// A write that cannot grow the store's files fails with one line and exit 74 and changes
    /// nothing; given room, it succeeds whole. Limits from nothing at all to more than it needs.
    @Test(arguments: [
        ["add", "Limited", "--new-list", "--list", "Home", "--due", "tomorrow 9am"],
        ["import", "{big}"],
        ["list", "add", "Garden"],
        ["habit", "check", "Meditate"],
    ])
    func aWriteThatCannotGrowTheStoreFailsCleanly(command: [String]) throws {
        let sandbox = try Sandbox.demo()
        let big = sandbox.folder.appendingPathComponent("big.json")
        try Data(Self.exportDocument(tasks: 400).utf8).write(to: big)
        let arguments = command.map { $0 == "{big}" ? big.path : $0 }
        // The -wal starts from the beginning after a checkpoint: the write has to grow it.
        try sandbox.succeed(["add", "Before"])
        let before = try sandbox.succeed(["export"])
        var failures = 0
        var succeeded = false
        for limit in [0, 1, 4096, 16_384, 65_536, 262_144, 1_048_576, 8_388_608] {
            let result = try runWithFileSizeLimit(sandbox, limit, arguments)
            let after = try sandbox.succeed(["export"])
            #expect(try sandbox.integrity() == "ok", "\(command) within \(limit) bytes")
            if result.status == 0 {
                #expect(after != before, "\(command) within \(limit) bytes said it succeeded but changed nothing")
                succeeded = true
                break
            }
            failures += 1
            #expect(result.status == 74, "\(command) within \(limit) bytes: \(result.status) \(result.stderr)")
            #expect(result.stderrLines.count == 1 && result.stderr.hasPrefix("taskwidget: "), "\(command): \(result.stderr)")
            #expect(result.stderr.contains(sandbox.storePath) && result.stderr.contains("disk"), "\(result.stderr)")
            #expect(result.stdout.isEmpty, "\(command) within \(limit) bytes printed \(result.stdout)")
            #expect(after == before, "\(command) within \(limit) bytes failed but changed the store")
        }
        #expect(failures > 0, "no limit made \(command) fail")
        #expect(succeeded, "\(command) failed even with 8 MB of room")
        // The store is still usable.
        try sandbox.succeed(["add", "After"])
    }

    @Test func aNewStoreThatCannotBeWrittenIsAnErrorAndTheNextWriterStartsAfresh() throws {
        let sandbox = try Sandbox()
        let result = try runWithFileSizeLimit(sandbox, 1024, ["add", "First"])
        #expect(result.status == 74, "\(result.stderr)")
        #expect(result.stderrLines.count == 1 && result.stderr.hasPrefix("taskwidget: "), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
        let id = try sandbox.succeed(["add", "Second"]).trimmingCharacters(in: .newlines)
        #expect(try sandbox.succeed(["ls"]).contains("Second") && id.count == 8)
        #expect(try sandbox.integrity() == "ok")
    }

    /// Whether this machine lets a test mount a small file system of its own (a tmpfs in a private
    /// mount namespace: as root, or where user namespaces are allowed).
    static let canMountADisk: Bool = {
        let namespace = getuid() == 0 ? ["--mount"] : ["--map-root-user", "--mount"]
        return (try? ProcessRunner.run("/usr/bin/unshare", namespace + ["/bin/sh", "-c", "mount -t tmpfs -o size=64k tmpfs /mnt"]))?.status == 0
    }()

    /// The first write of a new store on a real disk too small for it: exit 74 with one line, and
    /// no store nor anything else left on the disk. The import's `-wal` fitted but its checkpoint
    /// did not; the file was linked as the store anyway and the `-wal` removed, so every later
    /// command called the store damaged (exit 65); with less room, the -shm failed and the
    /// store was called another program's database (helper-135).
    @Test(.enabled(if: canMountADisk, "needs a private mount namespace for a 2 MiB tmpfs"), arguments: [
        ("import 3000", 0), ("import 5000", 0), ("add", 1_700), ("add", 2_018), ("add", 2_030),
    ])
    func aNewStoreOnADiskTooSmallLeavesNothing(command: String, filledKiB: Int) throws {
        let sandbox = try Sandbox()
        let disk = sandbox.folder.appendingPathComponent("disk")
        try FileManager.default.createDirectory(at: disk, withIntermediateDirectories: true)
        let words = command.split(separator: " ").map(String.init)
        var arguments = words.first == "import" ? ["import", sandbox.folder.appendingPathComponent("tasks.json").path] : ["add", "First"]
        if let count = words.dropFirst().first.flatMap(Int.init) {
            try Data(Self.exportDocument(tasks: count).utf8).write(to: URL(fileURLWithPath: arguments[1]))
        }
        arguments += ["--store", disk.appendingPathComponent("tasks.sqlite").path]
        let script = """
            mount -t tmpfs -o size=2m tmpfs "$1" || exit 99
            [ "$2" -eq 0 ] || dd if=/dev/zero of="$1/filler" bs=1k count="$2" 2>/dev/null
            disk=$1; shift 2
            "$@"; status=$?
            rm -f "$disk/filler"; ls -A "$disk"; exit $status
            """
        let namespace = getuid() == 0 ? ["--mount"] : ["--map-root-user", "--mount"]
        let result = try ProcessRunner.run(
            "/usr/bin/unshare", namespace + ["/bin/sh", "-c", script, "sh", disk.path, String(filledKiB), Sandbox.binary.path] + sandbox.arguments(arguments),
            environment: sandbox.environment)
        #expect(result.status == 74, "\(command) with \(filledKiB) KiB filled: \(result.status) \(result.stderr)")
        #expect(result.stderrLines.count == 1 && result.stderr.contains("disk"), "\(result.stderr)")
        #expect(result.stdout.isEmpty, "left on the disk: \(result.stdout)")
    }

    /// `taskwidget export > backup.json` on a full disk must not look like a backup.
    @Test(arguments: [["export"], ["ls", "--all", "--format", "json"], ["timeline"], ["status", "--format", "waybar"]])
    func outputToAFullDiskIsAnIOError(command: [String]) throws {
        let sandbox = try Sandbox.demo()
        let result = try runInShell(sandbox, "exec \"$@\" > /dev/full", command)
        #expect(result.status == 74, "\(command): \(result.status) \(result.stderr)")
        #expect(result.stderrLines.count == 1, "\(command): \(result.stderr)")
        #expect(result.stderr.hasPrefix("taskwidget: cannot write to standard output: "), "\(command): \(result.stderr)")
        // A short output is written at the end, so the system's reason is at hand.
        if command.first == "status" { #expect(result.stderr.hasSuffix(": no space left on device\n"), "\(result.stderr)") }
        #expect(!result.stderr.contains("Fatal error"))
    }

    /// Help and the version are output like any other: to a full disk they exited 0 (helper-74).
    @Test(arguments: [["--help"], ["help", "add"], ["add", "--help"], ["--version"]])
    func helpToAFullDiskIsAnIOError(arguments: [String]) throws {
        let result = try ProcessRunner.run("/bin/sh", ["-c", "exec \"$@\" > /dev/full", "sh", Sandbox.binary.path] + arguments)
        #expect(result.status == 74, "\(arguments): \(result.status) \(result.stderr)")
        #expect(result.stderr == "taskwidget: cannot write to standard output: no space left on device\n", "\(arguments): \(result.stderr)")
    }

    /// A change whose confirmation cannot be written stays made, and the error says so: the README
    /// said `undo` took it back, which only reopens a completed task.
    @Test func aChangeWhoseConfirmationCannotBeWrittenSaysItWasMade() throws {
        let sandbox = try Sandbox()
        let added = try runInShell(sandbox, "exec \"$@\" > /dev/full", ["add", "Pay rent"])
        #expect(added.status == 74)
        #expect(added.stderr == "taskwidget: cannot write to standard output: no space left on device: the change itself was made (taskwidget ls shows it)\n")
        #expect(try sandbox.succeed(["ls"]).contains("Pay rent"))
        // A habit or a list is seen with its own ls (it said `taskwidget ls`, helper-79).
        let habit = try runInShell(sandbox, "exec \"$@\" > /dev/full", ["habit", "add", "Walk"])
        #expect(habit.stderr.hasSuffix(": the change itself was made (taskwidget habit ls shows it)\n"), "\(habit.stderr)")
        let list = try runInShell(sandbox, "exec \"$@\" > /dev/full", ["list", "add", "Home"])
        #expect(list.stderr.hasSuffix(": the change itself was made (taskwidget list ls shows it)\n"), "\(list.stderr)")
        // So are a device and an account, written to files of their own: the change was not
        // told (helper-82).
        let toFullDisk = { (arguments: [String]) in
            try ProcessRunner.run("/bin/sh", ["-c", "exec \"$@\" > /dev/full", "sh", Sandbox.binary.path] + arguments, environment: sandbox.environment)
        }
        let device = try toFullDisk(["serve", "device", "add", "AA:BB:CC:DD:EE:FF"])
        #expect(device.stderr.hasSuffix(": the change itself was made (taskwidget serve device ls shows it)\n"), "\(device.stderr)")
        let account = try toFullDisk(["sync", "account", "add", "home", "--url", "http://127.0.0.1:1/"])
        #expect(account.stderr.hasSuffix(": the change itself was made (taskwidget sync account ls shows it)\n"), "\(account.stderr)")
        // A command that changes nothing does not say so.
        let listed = try runInShell(sandbox, "exec \"$@\" > /dev/full", ["ls"])
        #expect(listed.status == 74 && listed.stderr == "taskwidget: cannot write to standard output: no space left on device\n")
    }

    /// When the error message itself cannot be written, the exit status still says what happened.
    @Test(arguments: ["2>/dev/full", "2>&-"])
    func anUnwritableStandardErrorKeepsTheExitStatus(redirection: String) throws {
        let sandbox = try Sandbox.demo()
        for (command, status) in [(["done", "zzzz"], 64), (["ls", "--store", sandbox.folder.appendingPathComponent("missing").path], 74)] {
            let result = try runInShell(sandbox, "exec \"$@\" \(redirection)", command)
            #expect(result.status == Int32(status), "\(command) \(redirection): \(result.status)")
        }
        let status = try runInShell(sandbox, "exec \"$@\" \(redirection)", ["status", "--format", "waybar", "--list", "Nope"])
        #expect(status.status == 0 && status.stdout.contains("\"class\":\"error\""), "\(status.status) \(status.stdout)")
    }

    @Test func importFromAnUnreadableStandardInputIsAnIOError() throws {
        let sandbox = try Sandbox.demo()
        let before = try sandbox.succeed(["export"])
        for redirection in ["< /", "<&-"] {
            let result = try runInShell(sandbox, "exec \"$@\" \(redirection)", ["import", "-"])
            #expect(result.status == 74, "\(redirection): \(result.status) \(result.stderr)")
            #expect(result.stderrLines.count == 1 && result.stderr.hasPrefix("taskwidget: cannot read"), "\(result.stderr)")
        }
        // A closed one says so (it was "input/output error: check the file", and `add -` took it
        // for an empty title: helper-104).
        for command in [["import", "-"], ["add", "-"]] {
            let closed = try runInShell(sandbox, "exec \"$@\" <&-", command)
            #expect(closed.status == 74, "\(command)")
            #expect(closed.stderr == "taskwidget: cannot read standard input: bad file descriptor: it is closed: run the command with something piped in\n")
        }
        #expect(try sandbox.succeed(["export"]) == before)
    }

    /// A closed standard output keeps its number, so writing it fails as on a closed one: watch's
    /// signal descriptor took it, and its write error said "invalid argument" (helper-104); in the
    /// asynchronous programs (sync, serve), libdispatch's descriptors took it before main (helper-110).
    @Test func aClosedStandardOutputIsNamedAsSuch() throws {
        let sandbox = try Sandbox.demo()
        for command in [["watch", "--format", "waybar"], ["export"], ["status", "--format", "tmux"], ["sync", "account", "ls"], ["timeline"]] {
            let result = try runInShell(sandbox, "exec \"$@\" >&-", command)
            #expect(result.status == 74, "\(command)")
            #expect(result.stderr == "taskwidget: cannot write to standard output: bad file descriptor\n", "\(command)")
        }
    }

    /// An export document with `tasks` new tasks (fixed ids, so the same file every run).
    static func exportDocument(tasks: Int) -> String {
        let items = (0..<tasks).map { index in
            let id = String(format: "B16F%04X-0000-4000-8000-%012X", index, index)
            return #"{"id": "\#(id)", "title": "Imported task \#(index) with a title long enough to fill pages", "isCompleted": false, "state": "notStarted", "createdAt": "2026-11-20T10:00:00Z", "modifiedAt": "2026-11-20T10:00:00Z", "sortOrder": \#(index)}"#
        }
        return #"{"schema": "taskwidget.export/1", "lists": [], "habits": [], "tasks": ["# + items.joined(separator: ",\n") + "]}"
    }
}
