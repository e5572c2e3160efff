public import ArgumentParser
public import Foundation
public import Logging
import Synchronization
public import TaskWidgetConfig
public import TaskWidgetCore
public import TaskWidgetStore

/// The options every command takes: where the store is, the time zone and the clock.
public struct GlobalOptions: ParsableArguments {
    @Option(name: .long, help: Self.storeHelp, completion: .file())
    public var store: String?

    @Option(name: .long, help: Self.timeZoneHelp)
    public var tz: String?

    @Option(name: .long, help: Self.nowHelp)
    public var now: String?

    @Flag(name: .long, help: Self.verboseHelp)
    public var verbose = false

    public init() {}

    /// The help of each option, for commands that declare them without this group: `demo`, with a
    /// `--store` of its own, and `status` (``context(store:tz:now:verbose:configuration:)``).
    public static let storeHelp = ArgumentHelp(
        "The store file (default: $TASKWIDGET_STORE, else config.toml's store, else ~/.local/share/taskwidget/tasks.sqlite).", valueName: "path")
    public static let timeZoneHelp = ArgumentHelp("The time zone for days and times (default: $TZ, else the system's).", valueName: "zone")
    public static let nowHelp = ArgumentHelp("Act as if it were this instant (ISO 8601), for previews and tests.", valueName: "iso8601")
    public static let verboseHelp = ArgumentHelp("Log what happens to stderr (never task titles). TASKWIDGET_LOG=debug does the same.")

    /// ` --store PATH` when the command line named the store (else nothing), for a command that a
    /// message suggests: without it, the suggested command ran on the default store (helper-173).
    public func repeatedStore(in context: CommandContext) -> String {
        store == nil ? "" : " --store \(context.location.path.shellQuoted)"
    }

    /// Resolves everything a command needs, once per run. `configuration` is the run's config.toml
    /// when the command read it from elsewhere (`sync --config FILE`); else the default file is read
    /// for its `store`, only when neither --store nor TASKWIDGET_STORE names the store.
    public func context(configuration given: Configuration? = nil) throws -> CommandContext {
        try Self.context(store: store, tz: tz, now: now, verbose: verbose, configuration: given)
    }

    /// The context of a service (`notify`, `serve`), with config.toml read for `sections` only: a
    /// mistake in another table is logged as a warning naming `command`, which goes on, where the
    /// error stopped it for good (its unit does not restart on 64; helper-151).
    public func serviceContext(using sections: Configuration.Sections, command: String) throws -> (CommandContext, Configuration) {
        var configuration = Configuration()
        let context = try Self.context(tz: tz, now: now, verbose: verbose) { environment in
            configuration = try Configuration.load(environment: environment, using: sections)
            return (try StoreLocation.resolve(explicitPath: store, environment: environment, configured: configuration.store), configuration)
        }
        for problem in configuration.problemsLeftAside {
            context.logger.warning("\(problem.error.message): \(command) goes on, as it does not use that setting")
        }
        return (context, configuration)
    }

    /// ``context(configuration:)`` for the options' values.
    public static func context(
        store: String?, tz: String?, now: String?, verbose: Bool, configuration given: Configuration? = nil
    ) throws -> CommandContext {
        try context(tz: tz, now: now, verbose: verbose) { environment in
            // config.toml's `store` comes after --store and TASKWIDGET_STORE: the file is read only
            // when neither names the store (about 0.15 M instructions for a short file).
            // Read for `store` alone: a mistake in a table is the error of the commands that use it
            // (``CommandContext/configuration(using:)``), not of every command (helper-158).
            let named = store != nil || !(environment["TASKWIDGET_STORE"] ?? "").isEmpty
            let configuration = try given ?? (named ? nil : Configuration.load(environment: environment, using: []))
            return (try StoreLocation.resolve(explicitPath: store, environment: environment, configured: configuration?.store), configuration)
        }
    }

    /// Resolves a run's clock, zone and logger from the options `tz`, `now` and `verbose`, and its
    /// store with `locate`, which may read config.toml and return it.
    public static func context(
        tz: String?, now: String?, verbose: Bool,
        locate: (_ environment: [String: String]) throws -> (StoreLocation, Configuration?)
    ) throws -> CommandContext {
        let environment = ProcessInfo.processInfo.environment
        let calendar = LocalCalendar(timeZone: try RunSettings.timeZone(argument: tz, environment: environment, system: .current))
        let now = try RunSettings.now(argument: now, calendar: calendar, clock: Date())
        let (location, configuration) = try locate(environment)
        var logger = Logger(label: "taskwidget")
        let levelName = verbose ? "debug" : environment["TASKWIDGET_LOG"] ?? "warning"
        logger.logLevel = Logger.Level(rawValue: levelName.lowercased()) ?? .warning
        return CommandContext(
            location: location, calendar: calendar, now: now, logger: logger, environment: environment, loadedConfiguration: configuration)
    }
}

/// What a command works with: resolved once, then passed to the library.
public struct CommandContext {
    public let location: StoreLocation
    public let calendar: LocalCalendar
    public let now: Instant
    public let logger: Logger
    /// The process's environment, read once: Foundation builds the dictionary anew at every
    /// `ProcessInfo.processInfo.environment` (about 0.35 M instructions).
    public let environment: [String: String]
    /// config.toml, when it was read to find the store.
    let loadedConfiguration: Configuration?

    public var timeZone: TimeZone { calendar.timeZone }

    /// config.toml (``Configuration/load(path:environment:using:)``) for a command that uses
    /// `sections` of it: the one read for the store, else read now. A mistake in one of them is
    /// an error; one elsewhere is not this command's.
    public func configuration(using sections: Configuration.Sections) throws -> Configuration {
        try loadedConfiguration?.checked(for: sections) ?? Configuration.load(environment: environment, using: sections)
    }

    /// The store opened read-only: display commands never create or change it. It stays open until
    /// the process exits, since these commands read it and end: the exit closes it at no cost,
    /// where closing it first tears down its dispatch queue, which starts a thread (0.8 M of
    /// `status`'s 44.8 M instructions). Not for a long-running program, which would keep every
    /// store it opens: `watch`, `serve` and `notify` open theirs themselves.
    public func storeForReading() throws -> TaskStore {
        let store = try TaskStore.open(at: location, mode: .readOnly, logger: logger)
        storesKeptUntilExit.withLock { $0.append(store) }
        return store
    }

    /// The store opened for writing, created and migrated when needed.
    public func storeForWriting() throws -> TaskStore {
        try TaskStore.open(at: location, mode: .readWrite, logger: logger)
    }

    /// The store opened for writing by a command that changes what it holds (`done`, `edit`,
    /// `list rename`…). A store named by `--store`, `TASKWIDGET_STORE` or config.toml that is not
    /// there is an error naming its path, as for a display command: a typo in the path said "no
    /// task has the id …", from the empty store it would have made.
    public func storeForChanging() throws -> TaskStore {
        try TaskStore.open(at: location, mode: .readWrite, creating: location.isDefault, logger: logger)
    }

    /// Parses a WHEN argument (SPEC §4) relative to this run's clock and zone; an error names
    /// `option`, the one it came from (`--remind: cannot read date “blah”: …`).
    public func date(_ text: String, for purpose: WhenParser.Purpose, option: String) throws -> Instant {
        try reading(text, for: purpose, option: option).instant
    }

    /// Parses a WHEN argument as ``date(_:for:option:)`` does, with what a command says of it (a
    /// time alone that meant tomorrow, a time the clocks skip).
    public func reading(_ text: String, for purpose: WhenParser.Purpose, option: String) throws -> WhenParser.Reading {
        do {
            return try WhenParser(now: now, calendar: calendar).read(text, for: purpose)
        } catch {
            throw TaskWidgetError(error.code, "\(option): \(error.message)", context: error.context, cause: error.cause)
        }
    }

    /// The timeline request of this run for `view` (and a widget `family`).
    public func timelineRequest(
        view: TaskView, family: WidgetFamily? = nil, extent: TimelineRequest.Extent = .whole
    ) -> TimelineRequest {
        TimelineRequest(now: now, calendar: calendar, view: view, family: family, extent: extent)
    }
}

/// The stores ``CommandContext/storeForReading()`` opened, which the process's exit closes.
private let storesKeptUntilExit = Mutex<[TaskStore]>([])
