import Foundation
public import TaskWidgetCore
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
    /// Where the file was looked for when there is none, for messages that say where to make it.
    var pathLookedAt: String?
    /// `store`: the store file (a leading `~/` is the home folder), used when neither `--store`
    /// nor `TASKWIDGET_STORE` names one.
    public var store: String?
    /// `[views.NAME]`, in the order the file defines them.
    public var views: [TaskView]
    /// `[watch]`.
    public var watch: WatchSettings
    /// `[serve]`.
    public var serve: ServeSettings
    /// `[sync.accounts.NAME]`, in the order the file defines them.
    public var syncAccounts: [SyncAccount]
    /// `[notify]`.
    public var notify: NotifySettings
    /// The errors in the sections a run said it does not use (``Sections``), each with its
    /// section: a service logs them and goes on; ``checked(for:)`` throws those of a section used
    /// after all.
    public var problemsLeftAside: [(section: Sections, error: TaskWidgetError)] = []

    /// The tables of the file a run uses. One it does not use is still read, but an error in it is
    /// kept in ``problemsLeftAside`` rather than thrown: `notify`, a service, stopped for good on a
    /// typo in a view (helper-151), and `ls` on a typo in `[serve]` (helper-158). The top-level
    /// keys (`store`) are always checked.
    public struct Sections: OptionSet, Sendable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }

        public static let views = Sections(rawValue: 1 << 0)
        public static let watch = Sections(rawValue: 1 << 1)
        public static let serve = Sections(rawValue: 1 << 2)
        public static let sync = Sections(rawValue: 1 << 3)
        public static let notify = Sections(rawValue: 1 << 4)
        public static let all: Sections = [.views, .watch, .serve, .sync, .notify]

        /// These and the ones they need read: `[watch] views` and `[serve] view` name views.
        var needed: Sections { isDisjoint(with: [.watch, .serve]) ? self : union(.views) }
    }

    /// The defaults: what no file says.
    public init() {
        views = []
        watch = WatchSettings()
        serve = ServeSettings()
        syncAccounts = []
        notify = NotifySettings()
    }

    /// `$XDG_CONFIG_HOME/taskwidget/config.toml` (``XDGPaths/configHome``), `nil` without a home.
    public static func defaultPath(environment: [String: String]) -> String? {
        XDGPaths(environment: environment).configHome.map { XDGPaths.taskwidgetFolder(in: $0) + "/config.toml" }
    }

    /// Reads the configuration at `path`, or at ``defaultPath(environment:)``; a file that is not
    /// there gives the defaults. Errors in tables outside `sections` are kept, not thrown.
    public static func load(path: String? = nil, environment: [String: String], using sections: Sections = .all) throws -> Configuration {
        guard let path = path ?? defaultPath(environment: environment) else { return Configuration() }
        guard let text = try text(at: path) else {
            var defaults = Configuration()
            defaults.pathLookedAt = path
            return defaults
        }
        return try parse(text, path: path, home: environment["HOME"], using: sections)
    }

    /// The text of the configuration at `path`, `nil` when there is none: refused when others
    /// may change it, and when it is not UTF-8 (which TOML is).
    static func text(at path: String) throws -> String? {
        guard let (data, status) = try InputFile.readIfPresentWithStatus(path, named: path) else { return nil }
        // Whoever could change it would choose the commands taskwidget runs (`password_command`,
        // `click_command`), the server a password goes to, and the store tasks are written to.
        try InputFile.refuseIfOthersCanChange(
            path, status: status, why: "whoever can change it chooses the commands taskwidget runs and the store it writes", code: .badConfig,
            context: "config")
        guard let text = String(validating: data, as: UTF8.self) else {
            throw TaskWidgetError(.badConfig, "\(path) is not UTF-8 text: save it as UTF-8", context: "config not UTF-8")
        }
        return text
    }

    /// Reads a configuration from its text; `path` names it in errors. Errors in tables outside
    /// `sections` are kept in ``problemsLeftAside``, not thrown.
    public static func parse(_ text: String, path: String, home: String? = nil, using sections: Sections = .all) throws -> Configuration {
        let table: TOMLTable
        do {
            table = try TOMLTable(string: text)
        } catch let error as TOMLParseError {
            let position = error.source.begin
            throw TaskWidgetError(
                .badConfig, "\(path):\(position.line):\(position.column): \(error.advice(in: text)): fix the file",
                context: "\(path):\(position.line)")
        }
        let reader = ConfigReader(table: table, keyPath: [], source: ConfigSource(path: path, text: text, home: home))
        var configuration = Configuration()
        configuration.path = path
        try reader.allowKeys(["store", "views", "watch", "serve", "sync", "notify"])
        configuration.store = try reader.path("store")
        let sections = sections.needed
        func read(_ section: Sections, _ body: () throws -> Void) throws {
            do {
                try body()
            } catch let error as TaskWidgetError where !sections.contains(section) {
                configuration.problemsLeftAside.append((section, error))
            }
        }
        try read(.views) {
            let viewTables = try reader.tables("views")
            let views = try viewTables.map(TaskView.init(reader:))
            // `--view` ignores case, so `[views.Work]` and `[views.work]` would be one name for two views.
            for (index, view) in views.enumerated() {
                guard let other = views[..<index].first(where: { NameLookup.isSame($0.name ?? "", view.name ?? "") }) else { continue }
                throw viewTables[index].error(
                    nil,
                    "the view “\((other.name ?? "").sanitizedForMessage)” has this name but for capitals, how its accents are encoded "
                        + "(NFC or NFD), spaces around it or invisible characters, which view names ignore: rename one")
            }
            configuration.views = views
        }
        try read(.watch) {
            guard let watch = try reader.table("watch") else { return }
            let settings = try WatchSettings(reader: watch)
            for (index, name) in (settings.views ?? []).enumerated() {
                guard (try? configuration.view(named: name)) != nil else {
                    throw watch.error("views", "item \(index + 1), “\(name.sanitizedForMessage)”, is not a view: \(configuration.knownViews)")
                }
            }
            configuration.watch = settings
        }
        try read(.serve) {
            guard let serve = try reader.table("serve") else { return }
            let settings = try ServeSettings(reader: serve)
            // A name that is no view said so without the file's line (helper-164).
            if let name = settings.view, (try? configuration.view(named: name)) == nil {
                throw serve.error("view", "“\(name.sanitizedForMessage)” is not a view: \(configuration.knownViews)")
            }
            configuration.serve = settings
        }
        try read(.sync) {
            guard let sync = try reader.table("sync") else { return }
            try sync.allowKeys(["accounts"])
            configuration.syncAccounts = try sync.tables("accounts").map(SyncAccount.init(reader:))
        }
        try read(.notify) { configuration.notify = try reader.table("notify").map(NotifySettings.init(reader:)) ?? NotifySettings() }
        return configuration
    }

    /// This configuration for a run that uses `sections`: the first error kept of one of them is
    /// thrown.
    public func checked(for sections: Sections) throws -> Configuration {
        let sections = sections.needed
        if let problem = problemsLeftAside.first(where: { sections.contains($0.section) }) { throw problem.error }
        return self
    }

    /// The view called `name` (case-insensitive), or for `all`, unless the file defines a view of
    /// that name, all tasks. An unknown name is a ``TaskWidgetError/Code/notFound`` error that lists
    /// the views there are.
    public func view(named name: String) throws -> TaskView {
        if let view = views.first(where: { NameLookup.isSame($0.name ?? "", name) }) { return view }
        if NameLookup.isSame(name, TaskView.allName) { return TaskView() }
        throw TaskWidgetError(.notFound, "no view is named “\(name.sanitizedForMessage)”: \(knownViews)", context: "view not found")
    }

    /// The views there are, and where to define one, for messages.
    private var knownViews: String {
        let file = path ?? pathLookedAt ?? "$XDG_CONFIG_HOME/taskwidget/config.toml"
        guard !views.isEmpty else { return "there are none yet (define one as a [views.NAME] table in \(file))" }
        let names = views.compactMap(\.name)
        let all = names.contains { NameLookup.isSame($0, TaskView.allName) } ? [] : [TaskView.allName]
        return "the views are " + (names + all).joined(separator: ", ") + " (defined in \(file))"
    }
}
