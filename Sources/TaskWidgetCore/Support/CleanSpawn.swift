public import Glibc

/// Starts programs from a process whose loop blocks the signals it reads and ignores SIGPIPE: the
/// child gets an empty signal mask and SIGPIPE at its default, as a program started from a shell
/// would. Foundation's `Process` passes the blocked mask on, which leaves a child deaf to SIGTERM
/// and SIGINT. Watch, notify and sync start their commands and helpers with it.
///
/// ```swift
/// let pid = try CleanSpawn.spawn("/bin/sh", ["-c", command])
/// ```
public enum CleanSpawn {
    /// Starts `path` with `arguments` (not including the program's own name, which is `path`).
    ///
    /// - Parameters:
    ///   - environment: the child's environment; `nil` passes this process's on.
    ///   - actions: set up its descriptors (`nil`: inherited, close-on-exec ones closed).
    ///   - defaultSignals: the signals set back to their default action (those this process
    ///     ignores, which a child would otherwise inherit ignored).
    ///   - ownProcessGroup: starts it in a process group of its own, so that killing the group
    ///     ends its children too.
    /// - Throws: the system's error when it cannot start.
    public static func spawn(
        _ path: String, _ arguments: [String], environment: [String: String]? = nil,
        actions: UnsafePointer<posix_spawn_file_actions_t>? = nil, defaultSignals: [Int32] = [SIGPIPE],
        ownProcessGroup: Bool = false
    ) throws(SystemError) -> pid_t {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in defaultSignals { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var flags = POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF
        if ownProcessGroup {
            posix_spawnattr_setpgroup(&attributes, 0)
            flags |= POSIX_SPAWN_SETPGROUP
        }
        posix_spawnattr_setflags(&attributes, Int16(flags))
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { $0.map { strdup("\($0.key)=\($0.value)") } + [nil] }
        defer { (argv + (envp ?? [])).forEach { free($0) } }
        var pid: pid_t = 0
        let status =
            if let envp {
                posix_spawn(&pid, path, actions, &attributes, argv, envp)
            } else {
                posix_spawn(&pid, path, actions, &attributes, argv, environ)
            }
        guard status == 0 else { throw SystemError(status) }
        return pid
    }
}
