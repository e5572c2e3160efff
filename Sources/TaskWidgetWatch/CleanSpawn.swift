public import Glibc
public import TaskWidgetCore

/// Starts programs from a process whose loop blocks the signals it reads (``FollowLoop/blockSignals()``)
/// and ignores SIGPIPE: the child gets an empty signal mask and SIGPIPE at its default, as a
/// program started from a shell would. Foundation's `Process` passes the blocked mask on, which
/// leaves a child deaf to SIGTERM and SIGINT.
///
/// ```swift
/// let pid = try CleanSpawn.spawn("/bin/sh", ["-c", command])
/// ```
public enum CleanSpawn {
    /// Starts `path` with `arguments` (not including the program's own name, which is `path`) and
    /// this process's environment; `actions` set up its descriptors (`nil`: inherited, close-on-exec
    /// ones closed). Throws the system's error when it cannot start.
    public static func spawn(
        _ path: String, _ arguments: [String], actions: UnsafePointer<posix_spawn_file_actions_t>? = nil
    ) throws(SystemError) -> pid_t {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGPIPE)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, path, actions, &attributes, argv, environ)
        guard status == 0 else { throw SystemError(status) }
        return pid
    }
}
