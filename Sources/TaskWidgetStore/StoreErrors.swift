import Foundation
import GRDB
import TaskWidgetCore

/// Turns SQLite failures into ``TaskWidgetError``s that say what to do, with SQLite's error as the cause.
enum StoreErrors {
    static func map(_ error: any Error, path: String) -> TaskWidgetError {
        if let error = error as? TaskWidgetError { return error }
        if let error = error as? UnreadableValue {
            return TaskWidgetError(
                .damagedStore,
                "the store \(path) holds a \(error.record) whose \(error.column) taskwidget cannot read: restore it from a backup or pass another --store",
                context: "\(path): \(error.record).\(error.column)")
        }
        guard let error = error as? DatabaseError else {
            // Another of GRDB's decoding errors: a row holds what no taskwidget writes. Its
            // description may quote the row's values (titles), so it is no cause to show or log.
            return TaskWidgetError(
                .damagedStore, "the store \(path) holds data taskwidget cannot read: restore it from a backup or pass another --store",
                context: "\(path): \(type(of: error))")
        }
        // Another program's GRDB database whose first migration is named as ours: a reader, which
        // does not look at the tables first, finds ours or their columns missing.
        if error.resultCode == .SQLITE_ERROR, let message = error.message, message.hasPrefix("no such table") || message.hasPrefix("no such column") {
            var notOurs = TaskStore.notATaskwidgetStore(path)
            notOurs.cause = error
            return notOurs
        }
        let (code, message): (TaskWidgetError.Code, String) =
            switch error.resultCode {
            case .SQLITE_CORRUPT where hasJournal(path), .SQLITE_NOTADB where hasJournal(path):
                // A backup copied over a store in use is read with the old store's -wal on top,
                // and "restore it from a backup" was what the user had just done (helper-108).
                // `export` often still reads a store whose damage is in an index (helper-156).
                (
                    .damagedStore,
                    "\(path) is not a taskwidget store or is damaged: if a copy replaced it, stop watch, serve and notify, remove \(path)-wal and \(path)-shm, "
                        + "and copy it again; else restore it from a backup"
                        + (error.resultCode == .SQLITE_CORRUPT ? ", or save what can still be read with \(Self.rescue(path))" : " or pass another --store")
                )
            // An export passed as the store: "damaged" sent the user to restore a good file (helper-129).
            case .SQLITE_NOTADB where isJSON(path):
                (.damagedStore, "\(path) is an export (JSON), not a store: add what it holds to a store with `taskwidget import \(path)`, or pass a store with --store")
            case .SQLITE_CORRUPT:
                (.damagedStore, "the store \(path) is damaged: restore it from a backup, or save what can still be read with \(Self.rescue(path))")
            case .SQLITE_NOTADB:
                (.damagedStore, "\(path) is not a taskwidget store or is damaged: restore it from a backup or pass another --store")
            case .SQLITE_BUSY, .SQLITE_LOCKED:
                (.storeLocked, "the store \(path) is locked by another program: try again in a moment")
            case .SQLITE_FULL:
                (.diskFull, "the disk holding \(path) is full: free some space and try again")
            // A file that may be written, on a read-only mount: "its permissions" sent the user
            // to a file that was rw-r--r-- (helper-125, helper-127).
            case .SQLITE_CANTOPEN where isOnReadOnlyFileSystem(path), .SQLITE_READONLY where isOnReadOnlyFileSystem(path):
                (.permissionDenied, "cannot open the store \(path): it is on a read-only file system: remount it read-write, or pass another --store")
            case .SQLITE_READONLY where isFolderReadOnly(of: path):
                // The file may be writable: SQLite makes its -wal and -shm beside it (helper-85).
                (
                    .permissionDenied,
                    "the store \(path) cannot be changed: its folder is read-only to you, and SQLite writes the store's -wal and -shm files there: fix the folder's permissions"
                )
            case .SQLITE_READONLY:
                (.permissionDenied, "the store \(path) is read-only: fix its permissions to change it")
            case .SQLITE_CANTOPEN where isOutOfFiles():
                (.ioFailure, "cannot open the store \(path): too many files are open: raise the open file limit (ulimit -n)")
            case .SQLITE_CANTOPEN, .SQLITE_PERM, .SQLITE_AUTH:
                (.permissionDenied, "cannot open the store \(path): check that it exists and its permissions")
            case .SQLITE_IOERR:
                (.ioFailure, "reading or writing \(path) failed: check the disk and try again")
            default:
                (.damagedStore, "the store \(path) cannot be used (\(error.resultCode)): restore it from a backup or pass another --store")
            }
        return TaskWidgetError(code, message, context: path, cause: error)
    }

    /// Whether the process has too few file descriptors left for SQLite's three (the store, its
    /// `-wal` and `-shm`), which then says only that it cannot open the store: that read as a
    /// permission problem (helper-90). SQLite has closed what it opened by now.
    private static func isOutOfFiles() -> Bool {
        guard let limit = OpenFileLimit.current else { return false }
        guard let folder = opendir("/proc/self/fd") else { return errno == EMFILE || errno == ENFILE }
        defer { closedir(folder) }
        var open = -3  // ".", ".." and the folder's own descriptor
        while readdir(folder) != nil { open += 1 }
        return limit - open < 3
    }

    /// Whether the file at `path` starts as JSON does (an object, after blank space): an export
    /// given where a store or a backup belongs.
    /// The commands that save what a damaged store at `path` still holds into a new one.
    static func rescue(_ path: String) -> String {
        "`(umask 077; taskwidget export --store \(path.shellQuoted) > rescued.json)`, then `taskwidget import rescued.json --store NEW`"
    }

    static func isJSON(_ path: String) -> Bool {
        guard let start = FileHandle(forReadingAtPath: path).flatMap({ try? $0.read(upToCount: 64) }) else { return false }
        return start.first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) == UInt8(ascii: "{")
    }

    /// Whether the store has a `-wal` file beside it (SQLite may have emptied one it could not use
    /// by the time the error is read).
    private static func hasJournal(_ path: String) -> Bool {
        access(path + "-wal", F_OK) == 0
    }

    /// Whether the store's file may be written and its folder not.
    private static func isOnReadOnlyFileSystem(_ path: String) -> Bool {
        var info = statvfs()
        return statvfs(URL(fileURLWithPath: path).deletingLastPathComponent().path, &info) == 0 && info.f_flag & UInt(ST_RDONLY) != 0
    }

    private static func isFolderReadOnly(of path: String) -> Bool {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        return access(path, W_OK) == 0 && access(folder, W_OK) != 0
    }
}
