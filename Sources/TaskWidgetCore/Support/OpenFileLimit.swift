import Glibc

/// How many files the process may have open (`ulimit -n`): every command needs a few, and watch,
/// serve and notify many more.
public enum OpenFileLimit {
    /// Raises the soft limit to the hard one (a shell's `ulimit -n` or a unit's `LimitNOFILE` may
    /// set it low), and refuses to go on with fewer than `minimum` files: at 16, notify's GLib
    /// aborted (SIGTRAP) when it made its next pipe, and serve spun a core on connections it could
    /// not accept (helper-90). Returns the limit then.
    @discardableResult
    public static func ensure(atLeast minimum: Int, for command: String) throws(TaskWidgetError) -> Int {
        var limit = rlimit()
        guard getrlimit(resource, &limit) == 0 else { return Int.max }
        if limit.rlim_cur < limit.rlim_max {
            var raised = limit
            raised.rlim_cur = min(limit.rlim_max, 1 << 20)
            if setrlimit(resource, &raised) == 0 { limit = raised }
        }
        guard limit.rlim_cur >= minimum else {
            throw TaskWidgetError(
                .ioFailure, "only \(limit.rlim_cur) files may be open (ulimit -n), and \(command) needs \(minimum): raise the limit",
                context: "open file limit \(limit.rlim_cur)")
        }
        return Int(clamping: limit.rlim_cur)
    }

    /// The soft limit now; `nil` when it cannot be had.
    public static var current: Int? {
        var limit = rlimit()
        return getrlimit(resource, &limit) == 0 ? Int(clamping: limit.rlim_cur) : nil
    }

    private static let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
}
