import Foundation
import TaskWidgetCore
import TOMLKit

/// The user's settings from `$XDG_CONFIG_HOME/taskwidget/config.toml` (SPEC §14): the store, named
/// views, and the settings of serve, sync and notify. A missing file means the defaults; a bad one
/// is a ``TaskWidgetError/Code/badConfig`` error that names the file, the line and what is wrong.
///
/// ```toml
/// store = "~/Documents/tasks.sqlite"
///
/// [views.work]
/// list = "Work"
///
/// [views.soon]
/// due_within = "2d"
/// ```
public struct Configuration: Sendable {
    /// The file read, `nil` when there is none.
    public var path: String?
    /// `store`: the store file (a leading `~/` is the home folder).
    public var store: String?
    /// `[views.NAME]`, in the order the file defines them.
    public var views: [View]
    /// `[serve]`.
    public var serve: ServeSettings
    /// `[sync.accounts.NAME]`, in the order the file defines them.
    public var syncAccounts: [SyncAccount]
    /// `[notify]`.
    public var notify: NotifySettings

    /// The defaults: what no file says.
    public init() {
        views = []
        serve = ServeSettings()
        syncAccounts = []
        notify = NotifySettings()
    }

    /// `$XDG_CONFIG_HOME/taskwidget/config.toml` (``XDGPaths/configHome``), `nil` without a home.
    public static func defaultPath(environment: [String: String]) -> String? {
        XDGPaths(environment: environment).configHome.map { XDGPaths.taskwidgetFolder(in: $0) + "/config.toml" }
    }

    /// Reads the configuration at `path`, or at ``defaultPath(environment:)``; a file that is not
    /// there gives the defaults.
    public static func load(path: String? = nil, environment: [String: String]) throws -> Configuration {
        guard let path = path ?? defaultPath(environment: environment) else { return Configuration() }
        guard let data = FileManager.default.contents(atPath: path) else {
            guard FileManager.default.fileExists(atPath: path) else { return Configuration() }
            throw TaskWidgetError(.badConfig, "cannot read \(path): check its permissions", context: path)
        }
        return try parse(String(decoding: data, as: UTF8.self), path: path, home: environment["HOME"])
    }

    /// Reads a configuration from its text; `path` names it in errors.
    public static func parse(_ text: String, path: String, home: String? = nil) throws -> Configuration {
        let table: TOMLTable
        do {
            table = try TOMLTable(string: text)
        } catch let error as TOMLParseError {
            let position = error.source.begin
            throw TaskWidgetError(
                .badConfig, "\(path):\(position.line):\(position.column): \(error.description.removingControlCharacters): fix the file",
                context: "\(path):\(position.line)")
        }
        let reader = ConfigReader(table: table, keyPath: [], source: ConfigSource(path: path, text: text, home: home))
        var configuration = Configuration()
        configuration.path = path
        try reader.allowKeys(["store", "views", "serve", "sync", "notify"])
        configuration.store = try reader.path("store")
        configuration.views = try reader.tables("views").map(View.init(reader:))
        configuration.serve = try reader.table("serve").map(ServeSettings.init(reader:)) ?? ServeSettings()
        if let sync = try reader.table("sync") {
            try sync.allowKeys(["accounts"])
            configuration.syncAccounts = try sync.tables("accounts").map(SyncAccount.init(reader:))
        }
        configuration.notify = try reader.table("notify").map(NotifySettings.init(reader:)) ?? NotifySettings()
        return configuration
    }

    /// The view called `name`; an unknown name is a ``TaskWidgetError/Code/notFound`` error that
    /// lists the views there are.
    public func view(named name: String) throws -> View {
        try NameLookup.find(name, in: views, named: \.name, kind: "view")
    }
}
