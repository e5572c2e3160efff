import Glibc

/// The folder and the last component of a file path, as Foundation's `NSString` path methods find
/// them. Those trap on a relative path of one character (`a`, `a/`) in Swift 6.3: every command
/// given `--store a` crashed with SIGILL (helper-92).
public enum PathText {
    /// `path` without its last component: `/a/b` → `/a`, `/a` → `/`, `a/b/` → `a`, and `` for a
    /// bare name (`a`), which callers read as the current folder.
    public static func folder(of path: String) -> String {
        let path = trimmingTrailingSlashes(path)
        guard let slash = path.lastIndex(of: "/") else { return "" }
        let folder = trimmingTrailingSlashes(path[..<slash])
        return folder.isEmpty ? "/" : String(folder)
    }

    /// The last component of `path`: `/a/b` → `b`, `a/b/` → `b`, `a` → `a`, `/` → `/`.
    public static func lastComponent(of path: String) -> String {
        let path = trimmingTrailingSlashes(path)
        guard path != "/", let slash = path.lastIndex(of: "/") else { return String(path) }
        return String(path[path.index(after: slash)...])
    }

    /// `path` with a leading `~/`, or a lone `~`, read as the home folder (`$HOME`), as `--store`
    /// and config.toml read it. A shell leaves `--file=~/t` and `'~/t'` as they are, and
    /// Foundation's URLs read `~` as the user database's home instead, or not at all: `serve
    /// token --file=~/t` wrote one file and `serve --token-file=~/t` looked for another
    /// (helper-99). `source` names the path in the error when HOME is no absolute path.
    ///
    /// A relative path from a current folder deleted since the shell entered it names nothing: it
    /// is refused as such (the errors said the file was missing, and advised making it there).
    public static func expandingHome(_ path: String, in source: String, environment: [String: String]) throws(TaskWidgetError) -> String {
        guard path == "~" || path.hasPrefix("~/") else {
            if !path.hasPrefix("/"), path != "-", isCurrentFolderDeleted() {
                throw TaskWidgetError(
                    .ioFailure, "the current folder was deleted, so the relative path \(path) (\(source)) names no file: cd to a folder that exists, or give an absolute path",
                    context: "current folder deleted")
            }
            return path
        }
        guard let home = environment["HOME"], home.hasPrefix("/") else {
            throw TaskWidgetError(.invalidInput, "HOME is \(homeProblem(environment)), so ~/ in \(source) names no folder: give an absolute path")
        }
        guard path != "~" else { return home }
        // Without the home's own last slashes: `HOME=/` (a service user's) made `//t` of `~/t`.
        var base = Substring(home)
        while base.hasSuffix("/") { base.removeLast() }
        return String(base) + path.dropFirst()
    }

    /// Whether the process's current folder no longer exists (`getcwd` says ENOENT then).
    private static func isCurrentFolderDeleted() -> Bool {
        guard let folder = getcwd(nil, 0) else { return errno == ENOENT }
        free(folder)
        return false
    }

    /// What is wrong with `HOME` when it is not an absolute path: "not set", "empty" or "not an absolute path".
    public static func homeProblem(_ environment: [String: String]) -> String {
        environment["HOME"].map { $0.isEmpty ? "empty" : "not an absolute path" } ?? "not set"
    }

    /// `path` without the slashes that end it, except a root's own.
    private static func trimmingTrailingSlashes(_ path: some StringProtocol) -> Substring {
        var path = Substring(path)
        while path.count > 1, path.last == "/" { path.removeLast() }
        return path
    }
}
