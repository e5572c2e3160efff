import Foundation

// System calls whose C structs NIO's CNIOLinux declares too (`stat`, `pollfd`): a module that
// imports NIO may see NIO's declaration first and then cannot build the struct without importing
// CNIOLinux. Here, in a module without NIO, they are Glibc's.

/// Whether the open `descriptor` is the file now at `path`: the same device and inode.
public func descriptor(_ descriptor: Int32, isFileAt path: String) -> Bool {
    var opened = stat()
    var named = stat()
    return fstat(descriptor, &opened) == 0 && stat(path, &named) == 0 && opened.st_dev == named.st_dev && opened.st_ino == named.st_ino
}

/// Whether two paths name one file: through symbolic links, a relative path, and a hard link's
/// other name too (`cp -al`, as snapshot backups make). Paths that name nothing yet are compared
/// as absolute paths with their links followed.
public func isSameFile(_ lhs: String, _ rhs: String) -> Bool {
    var (left, right) = (stat(), stat())
    guard stat(lhs, &left) == 0, stat(rhs, &right) == 0 else { return resolvedPath(lhs) == resolvedPath(rhs) }
    return left.st_dev == right.st_dev && left.st_ino == right.st_ino
}

/// `path` absolute, its symbolic links followed.
public func resolvedPath(_ path: String) -> String { URL(fileURLWithPath: path).resolvingSymlinksInPath().path }

/// `poll` on one descriptor for reading: 1 when it is readable (or at its end), 0 after
/// `milliseconds`, -1 with `errno` on failure.
public func pollReadable(_ descriptor: Int32, milliseconds: Int32) -> Int32 {
    var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
    return poll(&poller, 1, milliseconds)
}
