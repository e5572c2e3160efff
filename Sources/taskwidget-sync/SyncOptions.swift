import ArgumentParser
import Foundation
import Glibc
import TaskWidgetCLI
import TaskWidgetConfig
import TaskWidgetCore
import TaskWidgetStore

/// The options of every sync command: taskwidget's own, and the configuration file that holds
/// the accounts.
struct SyncGlobalOptions: ParsableArguments {
    @OptionGroup var global: GlobalOptions

    @Option(name: .long, help: ArgumentHelp("The configuration file (default: ~/.config/taskwidget/config.toml).", valueName: "path"), completion: .file())
    var config: String?

    /// `--config`, else the default path (`nil` without a home folder).
    func configPath() throws -> String? {
        try givenConfig() ?? Configuration.defaultPath(environment: ProcessInfo.processInfo.environment)
    }

    /// ``configPath()``, or the error that there is none (no home folder, and no `--config`).
    func existingConfigPath() throws -> String {
        guard let path = try configPath() else {
            throw TaskWidgetError(.badConfig, "there is no home folder for config.toml: set HOME or XDG_CONFIG_HOME, or pass --config")
        }
        return path
    }

    /// `--config` with `~/` read as the home folder; without a HOME, `~/` is refused (it was kept
    /// as is, and `account add` wrote the file into the passwd entry's home: helper-102).
    private func givenConfig() throws -> String? {
        try config.map { try PathText.expandingHome($0, in: "--config", environment: ProcessInfo.processInfo.environment) }
    }

    /// `--store` and `--config` as given, for advice that names a command: without them it
    /// acted on the default store and config (helper-155).
    func repeated(in context: CommandContext) throws -> String {
        global.repeatedStore(in: context) + (try givenConfig().map { " --config \($0.shellQuoted)" } ?? "")
    }

    /// The run's context, its store resolved with ``configuration()``'s `store`: `--config FILE`
    /// names the store too, not only the accounts.
    func context() throws -> CommandContext { try global.context(configuration: configuration()) }

    /// The configuration read from ``configPath()``. A file named with `--config` must exist (a
    /// missing default file is an empty configuration).
    func configuration() throws -> Configuration {
        if let config = try givenConfig(), !FileManager.default.fileExists(atPath: config) {
            throw TaskWidgetError(
                .badConfig, "there is no configuration file \(config): check --config, or make it with `taskwidget sync account add NAME --config \(config.shellQuoted) …`",
                context: "config missing")
        }
        return try Configuration.load(path: configPath(), environment: ProcessInfo.processInfo.environment, using: .sync)
    }
}

/// One sync at a time per store: a lock file beside it (`flock`, released when the process ends,
/// however it ends). A second sync started meanwhile (a timer and a hand) says so and exits 75.
/// The default store's folder is made for it when missing, as the store's first write would, and
/// removed again when the sync made no store.
struct SyncLock {
    let descriptor: Int32
    let storePath: String
    let path: String
    /// The folders made for the lock (deepest first), removed again when no store came of the sync.
    let madeFolders: [String]

    init(store location: StoreLocation) throws {
        let path = location.path + ".sync-lock"
        (storePath, self.path) = (location.path, path)
        let madeFolders = try TaskStore.makeDefaultFolder(of: location)
        self.madeFolders = madeFolders
        func removeMadeFolders() { for folder in madeFolders { rmdir(folder) } }
        while true {
            let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
            guard descriptor >= 0 else {
                let error = TaskWidgetError.system(errno, "cannot create \(path)", advice: "check the store's folder", context: path)
                removeMadeFolders()
                throw error
            }
            guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
                close(descriptor)
                throw TaskWidgetError(.temporaryFailure, "another sync of this store is running: try again when it is done", context: "sync locked")
            }
            // A sync that ended meanwhile may have removed the file this one locked (``release()``):
            // then the lock is on a file nobody else will find, and it is taken again.
            if TaskWidgetCore.descriptor(descriptor, isFileAt: path) {
                self.descriptor = descriptor
                return
            }
            close(descriptor)
        }
    }

    /// Unlocks; a sync that made no store (it failed first, or it was a dry run) takes its lock
    /// file away too, still holding it, so that nothing is left beside a store that is not there.
    func release() {
        let madeNoStore = access(storePath, F_OK) != 0
        if madeNoStore { unlink(path) }
        flock(descriptor, LOCK_UN)
        close(descriptor)
        if madeNoStore { for folder in madeFolders { rmdir(folder) } }
    }
}

/// What the store keeps for accounts that config.toml does not name (renamed or removed): their
/// lists and tasks go to no other account until `sync account forget NAME`.
struct UnconfiguredAccountState {
    let account: String
    let lists: Int
    let tasks: Int

    /// The accounts of the run's store, if there is one, that are not among `configured` (read
    /// only: nothing is made).
    static func find(in context: CommandContext, configured: [SyncAccount]) throws -> [Self] {
        guard FileManager.default.fileExists(atPath: context.location.path) else { return [] }
        return try find(in: context.storeForReading(), configured: configured)
    }

    /// The accounts of `store` that are not among `configured` and still hold lists or tasks here.
    static func find(in store: TaskStore, configured: [SyncAccount]) throws -> [Self] {
        let names = Set(configured.map(\.name))
        return try store.accountsWithSyncState()
            .filter { !names.contains($0.account) && $0.lists + $0.tasks > 0 }
            .map { Self(account: $0.account, lists: $0.lists, tasks: $0.tasks) }
    }

    /// What it holds here (``HeldHere``).
    var held: HeldHere { HeldHere(lists: lists, tasks: tasks) }

    /// The command that lets them go.
    var forgetCommand: String { "taskwidget sync account forget \(account.shellQuoted)" }

    /// sync's note about it, one line.
    var note: String {
        "note: this store keeps what it synced with “\(account)”, an account config.toml does not name, and no other account "
            + "takes its \(held.words): if it was renamed or is gone for good, run `\(forgetCommand)`"
    }
}

/// The lists and tasks an account holds in the store, in words for sentences about them: it said
/// "its 0 lists and 22 tasks stay" and "its 1 task stay" (helper-155).
struct HeldHere {
    let lists: Int
    let tasks: Int

    /// "1 list and 3 tasks", "22 tasks", "1 list"; "no lists or tasks" for none.
    var words: String {
        switch (lists, tasks) {
        case (0, 0): "no lists or tasks"
        case (0, _): counted(tasks, "task")
        case (_, 0): counted(lists, "list")
        default: "\(counted(lists, "list")) and \(counted(tasks, "task"))"
        }
    }

    /// Whether it holds no list and no task.
    var isEmpty: Bool { lists + tasks == 0 }

    /// `plural` ("stay", "them"), or `singular` ("stays", "it") for one list or task alone.
    func agreeing(_ plural: String, _ singular: String) -> String { lists + tasks == 1 ? singular : plural }
}
