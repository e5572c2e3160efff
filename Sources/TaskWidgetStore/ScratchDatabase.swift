import Foundation
import Glibc
import TaskWidgetCore

/// A database file beside a store or a backup, that a whole-store write fills and then links or
/// renames into place: `TARGET.KIND-UUID`, private to its user whatever the umask, with the
/// `-wal`, `-shm` and `-journal` SQLite makes beside it, all gone after ``remove()``.
///
/// The process writing it holds it with `flock` until then, so that the leftovers of one that was
/// interrupted (Ctrl-C, SIGTERM, SIGKILL) can be told from a file still being written:
/// ``removeLeftovers(in:)`` removes them, before each new scratch file in its folder and when a
/// store there is opened to be changed. They stayed for good, megabytes each time an import into
/// a new store or a dated backup was stopped (helpers 135, 137).
struct ScratchDatabase {
    let path: String
    private let descriptor: Int32

    private static let suffixes = ["", "-wal", "-shm", "-journal"]

    /// Makes `TARGET.KIND-UUID`, once the leftovers of interrupted writes in its folder are
    /// removed. Throws `failure` with the system's reason when the file cannot be made.
    init(beside target: String, kind: String, failure: String, advice: String) throws {
        Self.removeLeftovers(in: URL(fileURLWithPath: target).deletingLastPathComponent().path)
        let path = target + ".\(kind)-\(UUID.random().uuidString)"
        let descriptor = Glibc.open(path, O_CREAT | O_EXCL | O_RDWR | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw TaskWidgetError.system(errno, failure, advice: advice, context: path) }
        flock(descriptor, LOCK_EX)
        (self.path, self.descriptor) = (path, descriptor)
    }

    /// Removes the file and SQLite's beside it (a name linked or renamed elsewhere stays there),
    /// and lets go of it.
    func remove() {
        for suffix in Self.suffixes { unlink(path + suffix) }
        close(descriptor)
    }

    /// Removes the scratch files in `folder` that no process holds. One made in the last two
    /// seconds is left: its maker may not have taken hold of it yet.
    static func removeLeftovers(in folder: String) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
        for name in names where isScratchName(name) {
            let leftover = folder + "/" + name
            let file = Glibc.open(leftover, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
            guard file >= 0 else { continue }
            defer { close(file) }
            guard let status = stat.of(descriptor: file), status.st_mode & S_IFMT == S_IFREG, status.st_uid == geteuid(),
                time(nil) - status.st_mtim.tv_sec >= 2, flock(file, LOCK_EX | LOCK_NB) == 0
            else { continue }
            for suffix in suffixes { unlink(leftover + suffix) }
        }
    }

    /// Whether `name` ends in `.new-` or `.restore-` and a UUID, as a scratch file's does.
    private static func isScratchName(_ name: String) -> Bool {
        let uuid = name.suffix(36)
        guard uuid.count == 36, UUID(uuidString: String(uuid)) != nil else { return false }
        return name.dropLast(36).hasSuffix(".new-") || name.dropLast(36).hasSuffix(".restore-")
    }
}
