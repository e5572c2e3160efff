public import Glibc

/// What a file's `stat` says: who may change it (config.toml and the widgets' font cache are
/// trusted only when no one else may), and what kind of file it is.
extension stat {
    /// The status of the open `descriptor`; `nil` when it cannot be had.
    public static func of(descriptor: Int32) -> stat? {
        var status = stat()
        return fstat(descriptor, &status) == 0 ? status : nil
    }

    /// The status of the file at `path` itself, a link not followed (`lstat`); `nil` when there is none.
    public static func ofLink(atPath path: String) -> stat? {
        var status = stat()
        return lstat(path, &status) == 0 ? status : nil
    }

    /// Whether it is a symbolic link (from ``ofLink(atPath:)``).
    public var isSymbolicLink: Bool { st_mode & S_IFMT == S_IFLNK }

    /// Whether it is a pipe or a socket, whose reader may stop reading (a frozen bar) or go away.
    public var isPipeOrSocket: Bool { st_mode & S_IFMT == S_IFIFO || st_mode & S_IFMT == S_IFSOCK }

    /// Whether the user running taskwidget, or root, owns the file.
    public var isOwnedByUserOrRoot: Bool { st_uid == geteuid() || st_uid == 0 }

    /// Whether its group or others may write it.
    public var isWritableByOthers: Bool { st_mode & 0o022 != 0 }
}
