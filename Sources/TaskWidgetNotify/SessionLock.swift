import Foundation
public import Glibc
public import TaskWidgetCore

/// Makes `taskwidget notify` one process per session (SPEC §13): an exclusive `flock` on
/// `$XDG_RUNTIME_DIR/taskwidget/notify.lock` (one per session bus: ``defaultPath(_:busAddress:)``),
/// held for the life of the process and released by the kernel when it ends, however it ends (no
/// stale lock after a crash). The file holds the holder's process id and the store it follows,
/// for the message a second notify prints, and is removed when the lock is let go: each past
/// `dbus-launch` session would otherwise leave its `notify-HASH.lock` behind.
///
/// ```swift
/// switch try SessionLock.acquire(at: path, store: storePath) {
/// case .acquired(let lock): run(); withExtendedLifetime(lock) {}
/// case .heldBy(let pid, let store): print("notify is already running (pid \(pid ?? 0)) for \(store ?? "?")")
/// }
/// ```
public final class SessionLock {
    /// What ``acquire(at:store:)`` found.
    public enum Acquisition {
        /// This process holds the lock while the value lives.
        case acquired(SessionLock)
        /// Another process holds it: its id and the store it follows, when the file says.
        case heldBy(pid_t?, store: String?)
    }

    public let path: String
    private let descriptor: Int32

    private init(path: String, descriptor: Int32) {
        self.path = path
        self.descriptor = descriptor
    }

    /// Removes the file while still holding the lock, then lets go: a notify that opened the file
    /// meanwhile finds it gone once it locks it (``acquire(at:)`` checks), and opens a new one. A
    /// file at the path that is not this one (its folder was emptied meanwhile) is another's.
    deinit {
        if Self.isStill(descriptor, at: path) { unlink(path) }
        close(descriptor)
    }

    /// The lock's file: in `$XDG_RUNTIME_DIR` (one per login session, on a tmpfs); without it, in
    /// taskwidget's state folder. `nil` with neither (no HOME).
    ///
    /// One per session bus: a bus at another address than the session's own
    /// (`unix:path=$XDG_RUNTIME_DIR/bus`), such as `dbus-run-session` or `dbus-launch` starts, has a
    /// lock of its own (`notify-HASH.lock`). A notify whose bus went away keeps trying to reach it,
    /// and holds its lock: the next session's notify, on a new bus, must still start.
    public static func defaultPath(_ paths: XDGPaths, busAddress: String?) -> String? {
        guard let home = paths.runtimeDirectory ?? paths.stateHome else { return nil }
        let folder = (XDGPaths.taskwidgetFolder(in: home) as NSString).standardizingPath
        let sessionBus = paths.runtimeDirectory.map { busIdentity("unix:path=\($0)/bus") }
        guard let busAddress, !busAddress.isEmpty, busIdentity(busAddress) != sessionBus else { return folder + "/notify.lock" }
        return folder + "/notify-\(String(FNV1a.value(of: busIdentity(busAddress).utf8), radix: 16)).lock"
    }

    /// The bus an address names, without what does not tell buses apart: the first of a list of
    /// addresses, without its `guid`, a socket's path standardized (`unix:path=/run/user/1000/bus`
    /// for `unix:path=/run/user/1000//bus,guid=5f3c…`).
    static func busIdentity(_ address: String) -> String {
        let first = address.split(separator: ";").first.map(String.init) ?? address
        guard let colon = first.firstIndex(of: ":") else { return first }
        let transport = first[..<colon]
        let keys = first[first.index(after: colon)...].split(separator: ",").filter { !$0.hasPrefix("guid=") }.map { key in
            guard transport == "unix", key.hasPrefix("path=") else { return String(key) }
            return "path=" + (String(key.dropFirst(5)) as NSString).standardizingPath
        }
        return transport + ":" + keys.sorted().joined(separator: ",")
    }

    /// Takes the lock at `path` for a notify that follows `store`, without waiting, creating the
    /// file (and its folder, private to the user) when needed.
    public static func acquire(at path: String, store: String) throws -> Acquisition {
        let folder = PathText.folder(of: path)
        try AtomicFile.makeFolder(folder, permissions: 0o700)
        // A file removed between its opening and its locking is opened again: rare, so a few tries.
        for _ in 0..<100 {
            // Close-on-exec: a click command that outlives notify must not keep the session's lock.
            let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
            guard descriptor >= 0 else {
                throw TaskWidgetError.system(errno, "cannot open the lock file \(path)", advice: "check its folder's permissions", context: path)
            }
            guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
                let code = errno
                defer { close(descriptor) }
                guard code == EWOULDBLOCK else {
                    throw TaskWidgetError.system(code, "cannot lock \(path)", advice: "check the file system", context: path)
                }
                // Held by a notify on its way out, which removed it: try the path again.
                guard isStill(descriptor, at: path) else { continue }
                return holder(descriptor)
            }
            // Locked a file its last holder removed on its way out: take the one at the path now.
            guard isStill(descriptor, at: path) else {
                close(descriptor)
                continue
            }
            let holder = "\(getpid())\n\(store)\n"
            ftruncate(descriptor, 0)
            _ = holder.withCString { pwrite(descriptor, $0, strlen($0), 0) }
            return .acquired(SessionLock(path: path, descriptor: descriptor))
        }
        throw TaskWidgetError(.ioFailure, "cannot lock \(path): its file keeps being removed: check what else writes its folder", context: path)
    }

    /// Whether `path` still names the file `descriptor` has open.
    private static func isStill(_ descriptor: Int32, at path: String) -> Bool {
        var open = stat()
        var named = stat()
        return fstat(descriptor, &open) == 0 && lstat(path, &named) == 0 && open.st_dev == named.st_dev && open.st_ino == named.st_ino
    }

    /// The process id and the store the holder wrote into the file.
    private static func holder(_ descriptor: Int32) -> Acquisition {
        var buffer = [UInt8](repeating: 0, count: 4096 + 32)
        let count = pread(descriptor, &buffer, buffer.count, 0)
        guard count > 0 else { return .heldBy(nil, store: nil) }
        let lines = String(decoding: buffer[..<count], as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        return .heldBy(pid_t(lines[0].trimmingCharacters(in: .whitespaces)), store: lines.count > 2 ? String(lines[1]) : nil)
    }
}
