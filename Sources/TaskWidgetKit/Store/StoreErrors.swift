import GRDB

/// Turns SQLite failures into ``TaskWidgetError``s that say what to do.
enum StoreErrors {
    static func map(_ error: any Error, path: String) -> TaskWidgetError {
        if let error = error as? TaskWidgetError { return error }
        guard let error = error as? DatabaseError else {
            return TaskWidgetError(.io, "cannot use the store \(path): \(error)")
        }
        switch error.resultCode {
        case .SQLITE_CORRUPT, .SQLITE_NOTADB:
            return TaskWidgetError(
                .data, "\(path) is not a taskwidget store or is damaged: restore it from a backup or pass another --store")
        case .SQLITE_BUSY, .SQLITE_LOCKED:
            return TaskWidgetError(.io, "the store \(path) is locked by another program: try again in a moment")
        case .SQLITE_FULL:
            return TaskWidgetError(.io, "the disk holding \(path) is full: free some space and try again")
        case .SQLITE_READONLY:
            return TaskWidgetError(.io, "the store \(path) is read-only: fix its permissions to change it")
        case .SQLITE_CANTOPEN, .SQLITE_PERM, .SQLITE_AUTH:
            return TaskWidgetError(.io, "cannot open the store \(path): check that it exists and its permissions")
        case .SQLITE_IOERR:
            return TaskWidgetError(.io, "reading or writing \(path) failed: check the disk and try again")
        default:
            return TaskWidgetError(.data, "the store \(path) cannot be used (\(error.resultCode)): restore it from a backup or pass another --store")
        }
    }
}
