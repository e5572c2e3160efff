import Glibc

/// The XDG base directories (freedesktop.org's Base Directory Specification) of one environment:
/// the one place where taskwidget decides where its data, configuration, state, caches and
/// runtime files go. A relative path in an `XDG_*` variable is invalid and ignored, as the
/// specification says; so is a relative `HOME`.
///
/// ```swift
/// let paths = XDGPaths(environment: ProcessInfo.processInfo.environment)
/// paths.dataHome.map { $0 + "/taskwidget/tasks.sqlite" }  // ~/.local/share/taskwidget/tasks.sqlite
/// ```
public struct XDGPaths: Sendable, Equatable {
    /// `$XDG_DATA_HOME`, else `~/.local/share`.
    public var dataHome: String?
    /// `$XDG_CONFIG_HOME`, else `~/.config`.
    public var configHome: String?
    /// `$XDG_STATE_HOME`, else `~/.local/state`.
    public var stateHome: String?
    /// `$XDG_CACHE_HOME`, else `~/.cache`.
    public var cacheHome: String?
    /// `$XDG_RUNTIME_DIR`; it has no default.
    public var runtimeDirectory: String?

    public init(environment: [String: String]) {
        func absolute(_ name: String) -> String? {
            environment[name].flatMap { $0.hasPrefix("/") ? $0 : nil }
        }
        let home = absolute("HOME")
        dataHome = absolute("XDG_DATA_HOME") ?? home.map { $0 + "/.local/share" }
        configHome = absolute("XDG_CONFIG_HOME") ?? home.map { $0 + "/.config" }
        stateHome = absolute("XDG_STATE_HOME") ?? home.map { $0 + "/.local/state" }
        cacheHome = absolute("XDG_CACHE_HOME") ?? home.map { $0 + "/.cache" }
        runtimeDirectory = absolute("XDG_RUNTIME_DIR")
    }

    /// Unsets, in this process's environment, an `XDG_*_HOME` that is empty or relative, which the
    /// specification says to ignore, as ``init(environment:)`` does: fontconfig, which the
    /// drawing programs load, took an empty `XDG_DATA_HOME` for the current folder, and from a
    /// deleted one printed "out of memory" errors (helper-104). Called at the start of every
    /// program, before it starts another.
    public static func unsetInvalidVariables() {
        for name in ["XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME"] {
            guard let value = getenv(name), value.pointee != CChar(UInt8(ascii: "/")) else { continue }
            unsetenv(name)
        }
    }

    /// taskwidget's own folder in a base directory: `base/taskwidget`.
    public static func taskwidgetFolder(in base: String) -> String {
        base + "/taskwidget"
    }
}
