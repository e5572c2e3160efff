import Glibc
public import Logging
import TaskWidgetCore
import TaskWidgetWatch

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
public final class ShellCommandLauncher: CommandLauncher {
    /// The commands started and not reaped yet.
    private var running: [pid_t] = []
    private let logger: Logger

    public init(logger: Logger) {
        self.logger = logger
    }

    public func launch(_ command: String) throws {
        reapFinished()
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0)
        do {
            running.append(try CleanSpawn.spawn("/bin/sh", ["-c", command], actions: &actions))
        } catch {
            throw TaskWidgetError.system(error.code, "cannot start the click command", advice: "check /bin/sh", context: "click_command")
        }
    }

    public func reapFinished() {
        running.removeAll { pid in
            var status: Int32 = 0
            guard waitpid(pid, &status, WNOHANG) == pid else { return false }
            let (signal, exitStatus) = (status & 0x7f, (status >> 8) & 0xff)
            if signal != 0 || exitStatus != 0 {
                let how = signal != 0 ? "killed by signal \(signal)" : "exit \(exitStatus)"
                logger.warning("the click command failed (\(how)): check click_command in a shell")
            }
            return true
        }
    }
}
