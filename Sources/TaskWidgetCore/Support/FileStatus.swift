public import Glibc
import Foundation

/// What a file's `stat` says: who may change it (config.toml and the widgets' font cache are
/// trusted only when no one else may), and what kind of file it is.
extension stat {
    /// The status of the open `descriptor`; `nil` when it cannot be had.
    public static func of(descriptor: Int32) -> stat? {
        var status = stat()
        return fstat(descriptor, &status) == 0 ? status : nil
    }

    /// Whether it is a pipe or a socket, whose reader may stop reading (a frozen bar) or go away.
    public var isPipeOrSocket: Bool { st_mode & S_IFMT == S_IFIFO || st_mode & S_IFMT == S_IFSOCK }

    /// Whether the user running taskwidget, or root, owns the file.
    public var isOwnedByUserOrRoot: Bool { st_uid == geteuid() || st_uid == 0 }

    /// Whether its group or others may write it.
    public var isWritableByOthers: Bool { st_mode & 0o022 != 0 }
}

extension InputFile {
    /// Refuses a file that another user owns (but root) or that group or others may change, and
    /// one in a folder that others may change (but a sticky one), as OpenSSH refuses such a
    /// `~/.ssh/config`. `status` is the file's as it was read (a path checked apart from the read
    /// could be swapped between the two); `why` says what whoever could change it would control,
    /// and `code` and `context` make the error (`config`, `template`).
    public static func refuseIfOthersCanChange(_ path: String, status: stat, why: String, code: TaskWidgetError.Code, context: String) throws {
        if !status.isOwnedByUserOrRoot {
            throw TaskWidgetError(
                code, "\(path) belongs to another user (\(why)): make it yours with chown, or write your own",
                context: "\(context) owner \(status.st_uid)")
        }
        if status.isWritableByOthers {
            throw TaskWidgetError(
                code, "\(path) can be changed by others (\(why)): run `chmod go-w \(path)`",
                context: "\(context) mode \(String(status.st_mode & 0o777, radix: 8))")
        }
        let folder = (path as NSString).deletingLastPathComponent
        var folderStatus = stat()
        guard stat(folder.isEmpty ? "." : folder, &folderStatus) == 0 else { return }
        // A sticky folder (/tmp) lets no one replace a file of another.
        if !folderStatus.isOwnedByUserOrRoot || (folderStatus.isWritableByOthers && folderStatus.st_mode & S_ISVTX == 0) {
            throw TaskWidgetError(
                code,
                "the folder \(folder) of \(path) can be changed by others, who could put another file in its place: run `chmod go-w \(folder)`, or make it yours",
                context: "\(context) folder mode \(String(folderStatus.st_mode & 0o777, radix: 8))")
        }
    }
}
