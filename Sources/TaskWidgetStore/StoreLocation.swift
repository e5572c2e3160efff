import Foundation
import TaskWidgetCore

/// Where the store file is, resolved from `--store`, `TASKWIDGET_STORE`, config.toml's `store` or
/// the XDG default.
public struct StoreLocation: Sendable, Equatable {
    public var path: String
    /// The default location's folder is created on first write; a folder the user named must exist.
    public var isDefault: Bool

    /// A relative path that SQLite would not take as a file's (`file:…` reads as a URI, `:memory:`
    /// as a database in memory) is taken from the current folder (`./file:…`).
    public init(path: String, isDefault: Bool) {
        self.path = path.hasPrefix("file:") || path == ":memory:" ? "./" + path : path
        self.isDefault = isDefault
    }

    /// The folder the store file is in (`.` for a bare file name).
    public var folder: String {
        let folder = PathText.folder(of: path)
        return folder.isEmpty ? "." : folder
    }

    /// Resolves the store path: `--store PATH`, else `TASKWIDGET_STORE`, else `configured` (the
    /// `store` of config.toml), else `$XDG_DATA_HOME/taskwidget/tasks.sqlite` (``XDGPaths/dataHome``).
    public static func resolve(explicitPath: String?, environment: [String: String], configured: String? = nil) throws -> StoreLocation {
        if let explicitPath {
            // An empty --store (an unset shell variable) must not fall through to the user's store.
            guard !explicitPath.isEmpty else {
                throw TaskWidgetError(.invalidInput, "--store needs a path: give the store file, or leave --store out for the default")
            }
            // A shell leaves `--store=~/…` as it is (helper-92).
            return try named(explicitPath, from: "--store", environment: environment)
        }
        if let path = environment["TASKWIDGET_STORE"], !path.isEmpty {
            // systemd's Environment= and a bar's settings do not expand `~/` either.
            return try named(path, from: "TASKWIDGET_STORE", environment: environment)
        }
        if let configured, !configured.isEmpty {
            return try named(configured, from: "config.toml's store", environment: environment)
        }
        return try inDataFolder("tasks.sqlite", environment: environment)
    }

    /// The store file `path` names, with a leading `~/` for the home folder, as config.toml's
    /// paths; `source` names where it came from. A path that ends in `/` names a folder: SQLite
    /// could not open it, and the errors said to make the store or to check permissions (helper-94);
    /// so does the path of an existing folder, device, FIFO or socket.
    private static func named(_ path: String, from source: String, environment: [String: String]) throws -> StoreLocation {
        // `~` alone is the home folder: it made a store file named `~` here (helper-99).
        guard !path.hasSuffix("/"), path != "~" else {
            throw TaskWidgetError(.notAFile, "\(path) names a folder, not a store file: give \(source) a file path", context: path)
        }
        // From a folder deleted since, a relative path is refused there: the errors advised a first
        // `add`, which failed too (helper-104).
        let expanded = try PathText.expandingHome(path, in: source, environment: environment)
        // A store's own journal or sync lock: `add` made a database of the -wal (helper-108).
        if let suffix = ["-wal", "-shm", "-journal", ".sync-lock"].first(where: expanded.hasSuffix), access(String(expanded.dropLast(suffix.count)), F_OK) == 0 {
            let store = String(expanded.dropLast(suffix.count))
            throw TaskWidgetError(
                .invalidInput, "\(expanded) is the \(suffix.dropFirst()) file of the store \(store), kept beside it: give \(source) the store itself, \(store)",
                context: "journal as store")
        }
        // watch, serve and notify wait for a missing or unreadable store to come back: a folder,
        // a device or a FIFO never becomes one, and they waited for good (helper-135, helper-141).
        var status = stat()
        if stat(expanded, &status) == 0 {
            switch status.st_mode & S_IFMT {
            case S_IFREG: break
            case S_IFDIR:
                throw TaskWidgetError(
                    .notAFile, "\(path) is a folder, not a store file: give \(source) a file path, like \(path)/tasks.sqlite", context: path)
            default:
                throw TaskWidgetError(
                    .notAFile, "\(path) is not a regular file (a device, a pipe or a socket): give \(source) the path of a store file", context: path)
            }
        }
        return StoreLocation(path: expanded, isDefault: false)
    }

    /// Where `taskwidget demo` puts its sample data unless `--store` is given:
    /// `$XDG_DATA_HOME/taskwidget/demo.sqlite`, apart from the user's own tasks (and from
    /// `TASKWIDGET_STORE`, which usually names them).
    public static func demo(environment: [String: String]) throws -> StoreLocation {
        try inDataFolder("demo.sqlite", environment: environment)
    }

    /// The file `name` in taskwidget's folder of ``XDGPaths/dataHome``.
    private static func inDataFolder(_ name: String, environment: [String: String]) throws -> StoreLocation {
        guard let dataHome = XDGPaths(environment: environment).dataHome else {
            throw TaskWidgetError(
                .invalidInput,
                "HOME is \(PathText.homeProblem(environment)), so there is no default store: pass --store PATH, or set TASKWIDGET_STORE or XDG_DATA_HOME")
        }
        return StoreLocation(path: XDGPaths.taskwidgetFolder(in: dataHome) + "/" + name, isDefault: true)
    }
}
