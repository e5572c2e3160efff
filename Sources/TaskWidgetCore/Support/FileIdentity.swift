import Foundation

/// Whether the open `descriptor` is the file now at `path`: the same device and inode. (Here
/// rather than in a module that imports NIO, whose CNIOLinux declares `stat` too.)
public func descriptor(_ descriptor: Int32, isFileAt path: String) -> Bool {
    var opened = stat()
    var named = stat()
    return fstat(descriptor, &opened) == 0 && stat(path, &named) == 0 && opened.st_dev == named.st_dev && opened.st_ino == named.st_ino
}
