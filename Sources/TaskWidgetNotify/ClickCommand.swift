public import CLinuxEvents
public import Glibc
public import Logging
import TaskWidgetCore
public import TaskWidgetWatch

/// Runs the `click_command` of the configuration when a notification's body is clicked:
/// ``ShellCommandLauncher``, or a fake in tests.
public protocol CommandLauncher: AnyObject {
    /// Starts `command` and returns without waiting for it.
    func launch(_ command: String) throws
    /// Reaps the commands that ended, so that none stays a zombie.
    func reapFinished()
}

/// Starts commands through `/bin/sh -c`, with standard input from `/dev/null`, notify's own
/// standard output and error (the journal, under systemd), its environment, and an empty signal
/// mask (``CleanSpawn``): notify blocks the signals its loop reads, and a command must not inherit
/// that. One that fails is logged when it is reaped, with its exit status (its own message, such as
/// the shell's "not found", goes to notify's standard error).
///
/// As an ``EventSource`` of notify's loop it wakes it when a command ends (a pidfd of each), and
/// reaps it then: it was reaped at the next wake-up only, a zombie meanwhile, and its failure
/// logged hours later or never (helper-111).
public final class ShellCommandLauncher: CommandLauncher, EventSource {
    /// The commands started and not reaped yet, with a pidfd of each (-1 where the kernel has none).
    private var running: [(pid: pid_t, descriptor: Int32)] = []
    private let logger: Logger

    public init(logger: Logger) {
        self.logger = logger
    }

    deinit {
        for command in running where command.descriptor >= 0 { close(command.descriptor) }
    }

    public func launch(_ command: String) throws {
        reapFinished()
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0)
        let pid: pid_t
        do {
            pid = try CleanSpawn.spawn("/bin/sh", ["-c", command], actions: &actions)
        } catch {
            throw TaskWidgetError.system(error.code, "cannot start the click command", advice: "check /bin/sh", context: "click_command")
        }
        running.append((pid, pidfd_open(pid, 0)))
    }

    public func reapFinished() {
        running.removeAll { command in
            var status: Int32 = 0
            guard waitpid(command.pid, &status, WNOHANG) == command.pid else { return false }
            if command.descriptor >= 0 { close(command.descriptor) }
            let (signal, exitStatus) = (status & 0x7f, (status >> 8) & 0xff)
            if signal != 0 || exitStatus != 0 {
                let how = signal != 0 ? "killed by signal \(signal)" : "exit \(exitStatus)"
                logger.warning("the click command failed (\(how)): check click_command in a shell")
            }
            return true
        }
    }

    /// The pidfds of the commands still running: each becomes readable when its command ends.
    public func prepare() -> (descriptors: [pollfd], timeout: Int32) {
        (running.filter { $0.descriptor >= 0 }.map { pollfd(fd: $0.descriptor, events: Int16(POLLIN), revents: 0) }, -1)
    }

    public func dispatch(_ descriptors: [pollfd]) {
        if descriptors.contains(where: { $0.revents != 0 }) { reapFinished() }
    }
}
