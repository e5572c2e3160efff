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

    /// `path` without the slashes that end it, except a root's own.
    private static func trimmingTrailingSlashes(_ path: some StringProtocol) -> Substring {
        var path = Substring(path)
        while path.count > 1, path.last == "/" { path.removeLast() }
        return path
    }
}
