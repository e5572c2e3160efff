public import Foundation

/// Writes a whole file or nothing: readers of `path` see either the old bytes or the new ones, never
/// a part (SPEC §7). The bytes go to a temporary file in the same folder, are flushed to disk (when
/// the write is ``Durability/durable``), and the temporary file is renamed over the target; on any
/// failure the temporary file is removed and the old file stays.
///
/// A file replaced keeps the stricter of its permissions and `permissions` (a widget image the
/// user made private stays private), and one this user may not write is refused. A symbolic link
/// of this user's to a file stays, and the file it names is replaced, or made when it is not
/// there yet; another user's link is replaced, never followed (one planted in a shared
/// folder must not turn the write onto a file of its choosing). What cannot be replaced is written
/// to as it is: a character device (`/dev/null`, a terminal), and this user's FIFO or socket
/// (`/dev/stdout` on a pipe, a pipe a reader waits on).
///
/// ```swift
/// try AtomicFile.write(png, to: URL(fileURLWithPath: "output/medium.png"), durability: .atomicOnly)
/// ```
public enum AtomicFile {
    /// Whether a write waits for the disk.
    public enum Durability: Sendable {
        /// The file and the folder's entry are flushed to disk before the write returns, so the
        /// file survives a power cut: for settings, secrets and state that nothing makes again, and
        /// for a cache whose file is trusted because it is there (the fonts' `fonts.conf`).
        case durable
        /// The system writes the file back in its own time. Readers still see the old file or the
        /// new one whole, and a killed writer changes nothing, but a power cut may lose the last
        /// write: for widget images, which the next run draws again. Each flush costs 0.5 ms on
        /// this project's test machine, and far more on a slow disk.
        case atomicOnly
    }

    /// Writes `data` to `url` whole; the file gets `permissions` (0644: readable by everyone). A
    /// file it replaces keeps its group (and owner, for root) and its mode, within `permissions`
    /// for a private file (0600).
    public static func write(_ data: Data, to url: URL, permissions: mode_t = 0o644, durability: Durability = .durable) throws {
        // `URL(fileURLWithPath: "notes/")` names a folder, and its `path` drops the slash: the file
        // `notes` was replaced (`render -o notes/`, `serve token --file notes/`, helper-94).
        guard !url.hasDirectoryPath else {
            throw TaskWidgetError.system(EISDIR, "cannot write \(url.path)/", advice: "give the path of a file, not of a folder", context: url.path)
        }
        var (url, permissions) = (url, permissions)
        var link = stat()
        var status = stat()
        var replaced: stat?
        let isOwnLink = lstat(url.path, &link) == 0 && link.st_mode & S_IFMT == S_IFLNK && link.st_uid == geteuid()
        // A link to a file not there yet (the first image, a drive not mounted) names where to
        // write: it was replaced by the file, and the image never reached its target (helper-157).
        if isOwnLink, stat(url.path, &status) != 0, errno == ENOENT,
            let target = try? FileManager.default.destinationOfSymbolicLink(atPath: url.path)
        {
            let resolved = target.hasPrefix("/") ? URL(fileURLWithPath: target) : url.deletingLastPathComponent().appendingPathComponent(target)
            return try write(data, to: resolved, permissions: permissions, durability: durability)
        }
        if link.st_mode & S_IFMT != S_IFLNK || isOwnLink, stat(url.path, &status) == 0 {
            let isOwn = status.st_uid == geteuid()
            switch status.st_mode & S_IFMT {
            case S_IFREG:
                if isOwnLink, let resolved = realpath(url.path, nil) {
                    url = URL(fileURLWithPath: String(cString: resolved))
                    free(resolved)
                }
                // As `cp` would not write it: replaced, a file made read-only changed (helper-157).
                guard access(url.path, W_OK) == 0 || errno != EACCES else {
                    let (what, advice) =
                        isOwn
                        ? ("which is read-only", "make it writable (chmod u+w) or write another file")
                        : ("which is another user's and read-only to you", "write another file, or ask its owner")
                    throw TaskWidgetError.system(EACCES, "cannot write \(url.path), \(what)", advice: advice, context: url.path)
                }
                // `render -o` over a file a web server reads by its group left it root's own, and
                // a 664 became 644 (helper-153).
                permissions = status.st_mode & 0o777 & (permissions & 0o004 != 0 ? 0o777 : permissions)
                replaced = status
            case S_IFDIR:
                throw failure(EISDIR, url)
            case S_IFCHR:
                return try writeInPlace(data, to: url)
            case S_IFIFO where isOwn, S_IFSOCK where isOwn:
                return try writeInPlace(data, to: url)
            default:
                break
            }
        }
        let folder = url.deletingLastPathComponent()
        let temporary = folder.appendingPathComponent(".\(url.lastPathComponent).\(getpid()).\(UUID.random().uuidString.prefix(8)).tmp")
        let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, permissions)
        guard descriptor >= 0 else { throw failure(errno, url) }
        var succeeded = false
        defer {
            if !succeeded { unlink(temporary.path) }
        }
        do {
            defer { close(descriptor) }
            if let replaced {
                if fchown(descriptor, replaced.st_uid, replaced.st_gid) != 0 { _ = fchown(descriptor, uid_t.max, replaced.st_gid) }
                _ = fchmod(descriptor, permissions)  // as it was, not as the umask leaves it
            }
            do {
                try SystemError.writeAll(data, to: descriptor)
            } catch {
                throw failure(error.code, url)
            }
            guard durability == .atomicOnly || fsync(descriptor) == 0 else { throw failure(errno, url) }
        }
        guard rename(temporary.path, url.path) == 0 else { throw failure(errno, url) }
        succeeded = true
        // The rename itself is durable once the folder is flushed too.
        if durability == .durable { syncFolder(folder.path) }
    }

    /// Writes `data` into the device, FIFO or socket at `url`, which cannot be replaced.
    private static func writeInPlace(_ data: Data, to url: URL) throws {
        let descriptor = open(url.path, O_WRONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw TaskWidgetError.system(errno, "cannot write \(url.path)", advice: "check its permissions", context: url.path) }
        defer { close(descriptor) }
        do {
            try SystemError.writeAll(data, to: descriptor)
        } catch {
            throw TaskWidgetError.system(error.code, "cannot write \(url.path)", advice: "check that it takes writes", context: url.path)
        }
    }

    /// Creates `folder` and the folders above it that are missing (as `mkdir -p` does), each with
    /// `permissions` (0700 for the user's own settings, secrets and state).
    public static func makeFolder(_ folder: String, permissions: mode_t = 0o755) throws {
        var path = folder.hasPrefix("/") ? "" : "."
        for component in folder.split(separator: "/") {
            path += "/" + component
            guard mkdir(path, permissions) == 0 || errno == EEXIST else {
                throw TaskWidgetError.system(errno, "cannot create the folder \(path)", advice: "check the path and its permissions", context: path)
            }
        }
    }

    /// Flushes `folder`'s entries to disk, so that a file renamed or linked into it stays there.
    public static func syncFolder(_ folder: String) {
        let descriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if descriptor >= 0 {
            fsync(descriptor)
            close(descriptor)
        }
    }

    private static func failure(_ code: Int32, _ url: URL) -> TaskWidgetError {
        let advice =
            switch code {
            case EISDIR: "give the path of a file, not of a folder"
            // `render --timeline` at `ulimit -n 8` (helper-104).
            case EMFILE, ENFILE: "raise the open file limit (ulimit -n)"
            case ENOSPC, EDQUOT: "free some space"
            // A folder such as /tmp (sticky) lets only a file's owner replace it.
            case EPERM: "the file there is another user's, in a folder that lets only its owner replace it: write another file"
            default: "check that the folder exists and is writable"
            }
        return .system(code, "cannot write \(url.path)", advice: advice, context: url.path)
    }
}
