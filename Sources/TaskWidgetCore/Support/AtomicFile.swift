public import Foundation

/// Writes a whole file or nothing: readers of `path` see either the old bytes or the new ones, never
/// a part (SPEC §7). The bytes go to a temporary file in the same folder, are flushed to disk, and
/// the temporary file is renamed over the target; on any failure the temporary file is removed and
/// the old file stays.
///
/// ```swift
/// try AtomicFile.write(png, to: URL(fileURLWithPath: "output/medium.png"))
/// ```
public enum AtomicFile {
    /// Writes `data` to `url` whole; the file gets `permissions` (0644: readable by everyone).
    public static func write(_ data: Data, to url: URL, permissions: mode_t = 0o644) throws {
        let folder = url.deletingLastPathComponent()
        let temporary = folder.appendingPathComponent(".\(url.lastPathComponent).\(getpid()).\(UUID().uuidString.prefix(8)).tmp")
        let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, permissions)
        guard descriptor >= 0 else { throw failure(errno, url) }
        var succeeded = false
        defer {
            if !succeeded { unlink(temporary.path) }
        }
        do {
            defer { close(descriptor) }
            do {
                try SystemError.writeAll(data, to: descriptor)
            } catch {
                throw failure(error.code, url)
            }
            guard fsync(descriptor) == 0 else { throw failure(errno, url) }
        }
        guard rename(temporary.path, url.path) == 0 else { throw failure(errno, url) }
        succeeded = true
        // The rename itself is durable once the folder is flushed too.
        syncFolder(folder.path)
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
        .system(code, "cannot write \(url.path)", advice: "check that the folder exists and is writable", context: url.path)
    }
}
