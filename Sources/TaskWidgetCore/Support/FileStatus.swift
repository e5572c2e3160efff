public import Glibc

/// Who may change a file, as its `stat` says: what config.toml and the widgets' font cache trust
/// only when no one else may change it.
extension stat {
    /// Whether the user running taskwidget, or root, owns the file.
    public var isOwnedByUserOrRoot: Bool { st_uid == geteuid() || st_uid == 0 }

    /// Whether its group or others may write it.
    public var isWritableByOthers: Bool { st_mode & 0o022 != 0 }
}
