import ArgumentParser
import Foundation
import Logging
import TaskWidgetCore
import TaskWidgetStore

/// The options every command takes: where the store is, the time zone and the clock.
struct GlobalOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The store file (default: $TASKWIDGET_STORE, else ~/.local/share/taskwidget/tasks.sqlite).", valueName: "path"))
    var store: String?

    @Option(name: .long, help: ArgumentHelp("The time zone for days and times (default: $TZ, else the system's).", valueName: "zone"))
    var tz: String?

    @Option(name: .long, help: ArgumentHelp("Act as if it were this instant (ISO 8601), for previews and tests.", valueName: "iso8601"))
    var now: String?

    @Flag(name: .long, help: "Log what happens to stderr (never task titles). TASKWIDGET_LOG=debug does the same.")
    var verbose = false

    /// Resolves everything a command needs, once per run.
    func context() throws -> CommandContext {
        let environment = ProcessInfo.processInfo.environment
        let calendar = LocalCalendar(timeZone: try RunSettings.timeZone(argument: tz, environment: environment, system: .current))
        let now = try RunSettings.now(argument: self.now, calendar: calendar, clock: Date())
        let location = try StoreLocation.resolve(explicitPath: store, environment: environment)
        var logger = Logger(label: "taskwidget")
        let levelName = verbose ? "debug" : environment["TASKWIDGET_LOG"] ?? "warning"
        logger.logLevel = Logger.Level(rawValue: levelName.lowercased()) ?? .warning
        return CommandContext(location: location, calendar: calendar, now: now, logger: logger)
    }
}

/// What a command works with: resolved once, then passed to the library.
struct CommandContext {
    let location: StoreLocation
    let calendar: LocalCalendar
    let now: Instant
    let logger: Logger

    var timeZone: TimeZone { calendar.timeZone }

    /// The store opened read-only: display commands never create or change it.
    func storeForReading() throws -> TaskStore {
        try TaskStore.open(at: location, mode: .readOnly, logger: logger)
    }

    /// The store opened for writing, created and migrated when needed.
    func storeForWriting() throws -> TaskStore {
        try TaskStore.open(at: location, mode: .readWrite, logger: logger)
    }

    /// Parses a WHEN argument (SPEC §4) relative to this run's clock and zone.
    func date(_ text: String, for purpose: WhenParser.Purpose) throws -> Instant {
        try WhenParser(now: now, calendar: calendar).parse(text, for: purpose)
    }

    /// The timeline request of this run for `scope` (and a widget `family`).
    func timelineRequest(scope: TaskScope, family: WidgetFamily? = nil) -> TimelineRequest {
        TimelineRequest(now: now, calendar: calendar, scope: scope, family: family)
    }
}
