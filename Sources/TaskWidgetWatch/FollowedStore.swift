import CLinuxEvents
import Glibc
public import Logging
import TaskWidgetCore
public import TaskWidgetStore

/// The store as a long-running reader follows it, read-only: reopened when its file is replaced
/// (renamed over), or deleted and created again; read again from the file when written over in
/// place (`cp backup.sqlite tasks.sqlite`, which SQLite's `data_version` does not see), and with file events that changed nothing told apart
/// from another process's writes by `PRAGMA data_version`. A default store that is missing reads
/// as an empty one (a first run), but once its file was seen, its disappearance is a failure until
/// it is back: tasks deleted with the file are not "no open tasks". ``StoreFollower`` (watch, serve) and
/// notify's reminder source each keep one and read what they need from ``opened()``.
///
/// ```swift
/// var followed = FollowedStore(location: location, logger: logger)
/// if case .changed = followed.check() { let tasks = try followed.opened().tasks(in: .all, includeCompleted: false) }
/// ```
public struct FollowedStore {
    public let location: StoreLocation
    private let logger: Logger
    private var store: TaskStore?
    private var identity: FileIdentity?
    /// The `-wal` and `-shm` files the open store uses: deleted (`rm tasks.sqlite-wal
    /// tasks.sqlite-shm`), they are files no other connection writes, and the main file may not
    /// change (helper-71: a watch showed an old line for good).
    private var sideFiles: [FileNode?] = []
    private var dataVersion: Int?
    /// Whether the file's header said WAL when it was opened (``isWAL(_:)``).
    private var openedInWAL: Bool?
    /// Whether a file was ever found at the path.
    private var fileWasSeen = false

    public init(location: StoreLocation, logger: Logger) {
        self.location = location
        self.logger = logger
    }

    /// Looks at the store again, reopening it when its file was replaced or created.
    public mutating func check() -> StoreCheck {
        let current = FileIdentity(path: location.path)
        fileWasSeen = fileWasSeen || current != nil
        // Still no file, as at the last look: the empty store opened then stands. Opened again at
        // every look (any file event in the folder, before a new user's first `add`), it read as
        // changed, and watch printed its JSON line again with a new time (helper-76).
        if store != nil, current == nil, identity == nil, !fileWasSeen { return .unchanged }
        do {
            // A copy in rollback mode written over the store in place (`VACUUM INTO`, `.dump`): the
            // open connection, still in WAL mode, held its lock on the file, and every write waited
            // for it and failed as "locked by another program" (helper-166). Opened again, it
            // holds none between reads, and the next write makes the file WAL again.
            let sameJournal = current == identity || Self.isWAL(location.path) == openedInWAL
            if let store, let current, let identity, current.node == identity.node, Self.sideFiles(of: location.path) == sideFiles, sameJournal {
                // The same file, written in place: a checkpoint (every writer makes one as it
                // closes) or a copy over it. Its pages are read again; opening it again each
                // time kept a closed connection for every write (``TaskStore``'s retire).
                let isWrittenInPlace = current != identity
                if isWrittenInPlace {
                    try store.forgetCachedPages()
                    self.identity = current
                }
                let version = try store.dataVersion()
                guard version != dataVersion || isWrittenInPlace else { return .unchanged }
                dataVersion = version
                logger.debug("store changed", metadata: ["data_version": "\(version)", "in_place": "\(isWrittenInPlace)"])
                return .changed
            }
            store = nil
            if current == nil, fileWasSeen {
                // Through a link, `add` makes no store: it refuses the dangling link (helper-89).
                let isLink = stat.ofLink(atPath: location.path)?.isSymbolicLink == true
                // With its folder gone, `add` makes none: it refused, so the advice failed (helper-116).
                let folder = PathText.folder(of: location.path)
                let start =
                    isLink
                    ? "point the link at another store"
                    : folder.isEmpty || access(folder, F_OK) == 0
                        ? "add a task to start a new one there"
                        : "create its folder (mkdir -p \(folder.shellQuoted)) and add a task to start a new one there"
                throw TaskWidgetError(.storeMissing, "the store \(location.path) is gone: restore it, or \(start)", context: location.path)
            }
            let opened = try TaskStore.open(at: location, mode: .readOnly, logger: logger)
            (store, identity, dataVersion) = (opened, current, try opened.dataVersion())
            openedInWAL = Self.isWAL(location.path)
            sideFiles = Self.sideFiles(of: location.path)
            return .changed
        } catch {
            (store, identity, dataVersion) = (nil, nil, nil)
            return .failed(error as? TaskWidgetError ?? TaskWidgetError(.ioFailure, "cannot read the store \(location.path)"))
        }
    }

    /// Closes the store: the next ``check()`` opens it again (SIGUSR1, for whatever replaced its files
    /// in a way their events and identities did not show).
    public mutating func reopen() {
        store = nil
    }

    /// Whether the SQLite header of the file at `path` says WAL (its bytes 18 and 19, the file
    /// format's write and read versions, are 2; 1 in rollback mode); `nil` when it cannot be read.
    private static func isWAL(_ path: String) -> Bool? {
        let descriptor = Glibc.open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var header = [UInt8](repeating: 0, count: 20)
        guard Glibc.read(descriptor, &header, 20) == 20 else { return nil }
        return header[18] == 2 && header[19] == 2
    }

    private static func sideFiles(of path: String) -> [FileNode?] {
        [FileNode(path: path + "-wal"), FileNode(path: path + "-shm")]
    }

    /// The store as of the last ``check()``; an error when it is not open (missing, or not checked yet).
    public func opened() throws -> TaskStore {
        guard let store else {
            throw TaskWidgetError(.storeMissing, "the store \(location.path) is not open", context: location.path)
        }
        return store
    }
}

/// Which file a path names: another one put in its place, or the file deleted and made again, is
/// another node.
struct FileNode: Equatable {
    var device: UInt64
    var inode: UInt64

    /// `nil` when nothing is at `path`.
    init?(path: String) {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        self.init(status)
    }

    init(_ status: stat) {
        (device, inode) = (UInt64(status.st_dev), UInt64(status.st_ino))
    }
}

/// Which file a path names, as last written: another file renamed over it, the file deleted and
/// created again, or its bytes written over in place has another identity. (A checkpoint, which
/// copies committed pages from the `-wal` into it, gives one too: the store is then read again,
/// as it would be for the commit itself.)
struct FileIdentity: Equatable {
    var node: FileNode
    var size: Int64
    var modified: timespec

    /// `nil` when nothing is at `path`.
    init?(path: String) {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        (node, size, modified) = (FileNode(status), Int64(status.st_size), status.st_mtim)
    }

    static func == (lhs: Self, rhs: Self) -> Bool {
        (lhs.node, lhs.size, lhs.modified.tv_sec, lhs.modified.tv_nsec) == (rhs.node, rhs.size, rhs.modified.tv_sec, rhs.modified.tv_nsec)
    }
}
