public import Foundation

/// A file the user named to read from (`import FILE`, `--template FILE`), read as a stream so that
/// a pipe or a process substitution (`import <(ssh host taskwidget export)`, `/dev/stdin`) reads
/// as a regular file does: `FileManager.contents(atPath:)` and `Data(contentsOf:)` refuse them.
public enum InputFile {
    /// The bytes of the file at `path`, or of standard input for `-`. `name` says what it is in
    /// errors (`the template ~/t.mustache`); each error says why, in one line. More than `limit`
    /// bytes is the error `tooLarge` gives, once they are read: a stream has no size to check
    /// first, and `/dev/zero` or `yes` never end.
    public static func read(_ path: String, named name: String, limit: Int, tooLarge: () -> TaskWidgetError) throws -> Data {
        try readWithStatus(path, named: name, limit: limit, tooLarge: tooLarge).data
    }

    /// ``read(_:named:limit:tooLarge:)``, with the status of the file read, from the descriptor it
    /// was read through.
    public static func readWithStatus(_ path: String, named name: String, limit: Int, tooLarge: () -> TaskWidgetError) throws -> (
        data: Data, status: stat
    ) {
        let read =
            if path == "-" {
                try read(descriptor: STDIN_FILENO, named: name, limit: limit)
            } else {
                try readFile(path, named: name, limit: limit)
            }
        guard read.data.count <= limit else { throw tooLarge() }
        return read
    }

    /// The bytes of the file at `path` (`-` is a file of that name here), or `nil` when there is
    /// none, or not even its folder: a file a command reads when it exists (config.toml, the sync
    /// accounts, the TRMNL devices). A folder, a pipe (which would wait for a writer) or an
    /// unreadable file in its place is an error.
    public static func readIfPresent(_ path: String, named name: String) throws -> Data? {
        try readIfPresentWithStatus(path, named: name)?.data
    }

    /// ``readIfPresent(_:named:)``, with the status of the file read, from the descriptor it was
    /// read through: its owner and mode are those of the bytes read, whatever replaced the path since.
    public static func readIfPresentWithStatus(_ path: String, named name: String) throws -> (data: Data, status: stat)? {
        do {
            return try readFile(path, named: name, isOptional: true)
        } catch is Missing {
            return nil
        }
    }

    /// Nothing at the path of an optional file: thrown as is, since config.toml's usual case is on
    /// `status`'s path, and a ``TaskWidgetError`` would format the system's message for nothing.
    private struct Missing: Error {}

    /// An optional file (`isOptional`) is opened without waiting for a writer, since a pipe in its
    /// place would wait for one, and the pipe is refused.
    private static func readFile(_ path: String, named name: String, isOptional: Bool = false, limit: Int = .max) throws -> (data: Data, status: stat) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | (isOptional ? O_NONBLOCK : 0))
        guard descriptor >= 0 else {
            let code = errno
            if isOptional, code == ENOENT || code == ENOTDIR { throw Missing() }
            throw TaskWidgetError.system(
                code, "cannot read \(name)", advice: code == EACCES ? "check its permissions" : "check the path", context: "input file")
        }
        if isOptional { _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK) }
        return try read(descriptor: descriptor, named: name, refusingPipes: isOptional, limit: limit)
    }

    /// Reads `descriptor` to its end, or to one byte past `limit`, and closes it unless it is
    /// standard input. A folder, and with `refusingPipes` a pipe, is refused.
    private static func read(descriptor: Int32, named name: String, refusingPipes: Bool = false, limit: Int) throws -> (data: Data, status: stat) {
        var status = stat()
        if fstat(descriptor, &status) == 0 {
            let refused = status.st_mode & S_IFMT == S_IFDIR ? "a folder" : refusingPipes && status.isPipeOrSocket ? "a pipe" : nil
            if let refused {
                if descriptor != STDIN_FILENO { close(descriptor) }
                throw TaskWidgetError(.notAFile, "cannot read \(name): it is \(refused): give the path of a file", context: "input file")
            }
        }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: descriptor != STDIN_FILENO)
        do {
            guard limit < .max else { return (try handle.readToEnd() ?? Data(), status) }
            // One read(2) at a time, each read of nothing the end: FileHandle's read(upToCount:)
            // reads on past a terminal's Ctrl-D until it has the count, so one was not enough.
            var data = Data()
            var chunk = [UInt8](repeating: 0, count: 1 << 16)
            while data.count <= limit {
                let count = Glibc.read(descriptor, &chunk, min(chunk.count, limit + 1 - data.count))
                if count == 0 { break }
                guard count > 0 else {
                    if errno == EINTR { continue }
                    throw NSError(domain: NSPOSIXErrorDomain, code: Int(errno))
                }
                data.append(chunk, count: count)
            }
            return (data, status)
        } catch {
            // Foundation wraps the system's error: a closed standard input read as "input/output error".
            let errors = [error as NSError, (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError].compactMap { $0 }
            let code = errors.first { $0.domain == NSPOSIXErrorDomain }.map { Int32($0.code) } ?? EIO
            let advice = descriptor == STDIN_FILENO && code == EBADF ? "it is closed: run the command with something piped in" : "check the file"
            throw TaskWidgetError.system(code, "cannot read \(name)", advice: advice, context: "input file")
        }
    }
}

extension InputFile {
    /// Refuses a file that another user owns (but root) or that group or others may change, and
    /// one in a folder that others may change (but a sticky one), as OpenSSH refuses such a
    /// `~/.ssh/config`. `status` is the file's as it was read (a path checked apart from the read
    /// could be swapped between the two); `why` says what whoever could change it would control,
    /// and `code` and `context` make the error (`config`, `template`).
    public static func refuseIfOthersCanChange(_ path: String, status: stat, why: String, code: TaskWidgetError.Code, context: String) throws {
        // A device's mode is no file's: `chmod go-w /dev/null`, which the mode check advised for
        // `--template /dev/null`, breaks the system (helper-92).
        if [S_IFCHR, S_IFBLK].contains(status.st_mode & S_IFMT) {
            throw TaskWidgetError(code, "\(path) is a device, not a file (\(why)): give the path of a file", context: "\(context) device")
        }
        if !status.isOwnedByUserOrRoot {
            throw TaskWidgetError(
                code, "\(path) belongs to another user (\(why)): make it yours with chown, or write your own",
                context: "\(context) owner \(status.st_uid)")
        }
        // A link of another user's leads wherever they choose (to a file of the user's own, which
        // passed every check, helper-117).
        var link = stat()
        if lstat(path, &link) == 0, link.st_mode & S_IFMT == S_IFLNK, !link.isOwnedByUserOrRoot {
            throw TaskWidgetError(
                code, "\(path) is a link that belongs to another user (\(why)): remove it, or give the path of a file of yours",
                context: "\(context) link owner \(link.st_uid)")
        }
        if status.isWritableByOthers {
            throw TaskWidgetError(
                code, "\(path) can be changed by others (\(why)): run `chmod go-w \(path)`",
                context: "\(context) mode \(String(status.st_mode & 0o777, radix: 8))")
        }
        // The folder of the path, and that of the file a link leads to: either could be given
        // another file (a link in a safe folder to a file in an open one was trusted, helper-82).
        let real = realpath(path, nil).map { pointer in
            defer { free(pointer) }
            return String(cString: pointer)
        }
        var checked: Set<String> = []
        for file in [path] + (real.map { [$0] } ?? []) {
            let folderOfFile = PathText.folder(of: file)
            let folder = folderOfFile.isEmpty ? "." : folderOfFile
            var folderStatus = stat()
            guard checked.insert(folder).inserted, stat(folder, &folderStatus) == 0 else { continue }
            let named = file == path ? path : "\(path) (a link to \(file))"
            // Said as such: `chmod go-w` is no fix for a folder of another user (helper-120).
            if !folderStatus.isOwnedByUserOrRoot {
                throw TaskWidgetError(
                    code,
                    "the folder \(folder) of \(named) belongs to another user, who could put another file in its place: keep it in a folder of yours",
                    context: "\(context) folder owner \(folderStatus.st_uid)")
            }
            // A sticky folder (/tmp) lets no one replace a file of another.
            if folderStatus.isWritableByOthers && folderStatus.st_mode & S_ISVTX == 0 {
                throw TaskWidgetError(
                    code,
                    "the folder \(folder) of \(named) can be changed by others, who could put another file in its place: run `chmod go-w \(folder)`",
                    context: "\(context) folder mode \(String(folderStatus.st_mode & 0o777, radix: 8))")
            }
        }
    }
}
