import ArgumentParser
import Foundation
import Glibc
import Logging
import TaskWidgetConfig
import TaskWidgetCore
import TaskWidgetStore

/// The options of every sync command: the store, the configuration, the zone and the clock.
struct SyncGlobalOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The store file (default: $TASKWIDGET_STORE, else ~/.local/share/taskwidget/tasks.sqlite).", valueName: "path"))
    var store: String?

    @Option(name: .long, help: ArgumentHelp("The configuration file (default: ~/.config/taskwidget/config.toml).", valueName: "path"))
    var config: String?

    @Option(name: .long, help: ArgumentHelp("The time zone of floating times and all-day due dates (default: $TZ, else the system's).", valueName: "zone"))
    var tz: String?

    @Option(name: .long, help: ArgumentHelp("Act as if it were this instant (ISO 8601), for tests.", valueName: "iso8601"))
    var now: String?

    @Flag(name: .long, help: "Log what happens to stderr (requests and counts; never titles, names or passwords).")
    var verbose = false

    /// `--config`, else the default path.
    var configPath: String? {
        config ?? Configuration.defaultPath(environment: ProcessInfo.processInfo.environment)
    }

    func context() throws -> SyncContext {
        let environment = ProcessInfo.processInfo.environment
        let calendar = LocalCalendar(timeZone: try RunSettings.timeZone(argument: tz, environment: environment, system: .current))
        let now = try RunSettings.now(argument: self.now, calendar: calendar, clock: Date())
        var logger = Logger(label: "taskwidget.sync")
        let levelName = verbose ? "debug" : environment["TASKWIDGET_LOG"] ?? "warning"
        logger.logLevel = Logger.Level(rawValue: levelName.lowercased()) ?? .warning
        return SyncContext(
            storeLocation: try StoreLocation.resolve(explicitPath: store, environment: environment), timeZone: calendar.timeZone,
            now: now, logger: logger)
    }
}

/// What a sync command works with, resolved once.
struct SyncContext {
    let storeLocation: StoreLocation
    let timeZone: TimeZone
    let now: Instant
    let logger: Logger

    func storeForWriting() throws -> TaskStore {
        try TaskStore.open(at: storeLocation, mode: .readWrite, logger: logger)
    }
}

/// One sync at a time per store: a lock file beside it (`flock`, released when the process ends,
/// however it ends). A second sync started meanwhile (a timer and a hand) says so and exits 75.
struct SyncLock {
    let descriptor: Int32

    init(storePath: String) throws {
        let path = storePath + ".sync-lock"
        descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw TaskWidgetError.system(errno, "cannot create \(path)", advice: "check the store's folder", context: path)
        }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            close(descriptor)
            throw TaskWidgetError(.temporaryFailure, "another sync of this store is running: try again when it is done", context: "sync locked")
        }
    }

    func release() {
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }
}
