public import Foundation

/// A file the user named to read from (`import FILE`, `--template FILE`), read as a stream so that
/// a pipe or a process substitution (`import <(ssh host taskwidget export)`, `/dev/stdin`) reads
/// as a regular file does: `FileManager.contents(atPath:)` and `Data(contentsOf:)` refuse them.
public enum InputFile {
    /// The bytes of the file at `path`, or of standard input for `-`. `name` says what it is in
    /// errors (`the template ~/t.mustache`); each error says why, in one line.
    public static func read(_ path: String, named name: String) throws -> Data {
        guard path == "-" else { return try readFile(path, named: name) }
        return try read(descriptor: STDIN_FILENO, named: name)
    }

    /// The bytes of the file at `path` (`-` is a file of that name here), or `nil` when there is
    /// none, or not even its folder: a file a command reads when it exists (config.toml, the sync
    /// accounts, the TRMNL devices). A folder, a pipe (which would wait for a writer) or an
    /// unreadable file in its place is an error.
    public static func readIfPresent(_ path: String, named name: String) throws -> Data? {
        do {
            return try readFile(path, named: name, openingPipes: false)
        } catch let error as TaskWidgetError where [ENOENT, ENOTDIR].contains((error.cause as? SystemError)?.code) {
            return nil
        }
    }

    private static func readFile(_ path: String, named name: String, openingPipes: Bool = true) throws -> Data {
        // Without a writer, opening a pipe waits for one: it is opened without waiting, and refused.
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | (openingPipes ? 0 : O_NONBLOCK))
        guard descriptor >= 0 else {
            let code = errno
            throw TaskWidgetError.system(
                code, "cannot read \(name)", advice: code == EACCES ? "check its permissions" : "check the path", context: "input file")
        }
        if !openingPipes {
            var status = stat()
            if fstat(descriptor, &status) == 0, [S_IFIFO, S_IFSOCK].contains(status.st_mode & S_IFMT) {
                close(descriptor)
                throw TaskWidgetError(.notAFile, "cannot read \(name): it is a pipe: give the path of a file", context: "input file")
            }
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
        }
        return try read(descriptor: descriptor, named: name)
    }

    /// Reads `descriptor` to its end, and closes it unless it is standard input.
    private static func read(descriptor: Int32, named name: String) throws -> Data {
        var status = stat()
        if fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFDIR {
            if descriptor != STDIN_FILENO { close(descriptor) }
            throw TaskWidgetError(.notAFile, "cannot read \(name): it is a folder: give the path of a file", context: "input file")
        }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: descriptor != STDIN_FILENO)
        do {
            return try handle.readToEnd() ?? Data()
        } catch {
            let code = (error as NSError).domain == NSPOSIXErrorDomain ? Int32((error as NSError).code) : EIO
            throw TaskWidgetError.system(code, "cannot read \(name)", advice: "check the file", context: "input file")
        }
    }
}
