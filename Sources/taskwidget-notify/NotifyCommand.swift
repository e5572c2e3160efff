import ArgumentParser
import Foundation
import Logging
import TaskWidgetCLI
import TaskWidgetConfig
import TaskWidgetCore
import TaskWidgetNotify
import TaskWidgetStore
import TaskWidgetWatch

/// `taskwidget notify`: taskwidget hands its command line to this program (SiblingCommands), so
/// that only it loads GLib and talks D-Bus. Thin: it resolves the settings once and runs the
/// library's ``NotifySession`` in a ``FollowLoop``.
@main
struct NotifyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "taskwidget notify",
        abstract: "Show reminders as desktop notifications with Done and Snooze buttons.",
        discussion: """
            Runs until stopped, one per desktop session (a second one exits 0 saying so). \
            At each open task's reminder (`taskwidget add … --remind WHEN`) it shows a \
            notification: the task's title, when it is due and its list; critical when the \
            task is overdue. Done completes the task and Snooze 10 min moves its reminder, \
            as `taskwidget done` and `taskwidget edit --remind` would; clicking the \
            notification runs the configuration's click_command, if any. It follows the \
            store like watch: a task completed, deleted or re-timed elsewhere has its \
            reminder dropped or moved and its notification closed.

            Each reminder is shown once: the delivered ones are kept in \
            $XDG_STATE_HOME/taskwidget/delivered-reminders.json. One missed while notify \
            was not running or the machine slept is shown once it is back, if it is no \
            older than missed_within (default 24h). Of many at once (missed, or due at the \
            same moment), three come one by one (overdue tasks' first, then the latest) and \
            one notification counts the rest. Any reminder shown a minute or more \
            late is marked "Missed reminder", one the notification server refused until a \
            retry too. Without a notification server it waits, says so once, and delivers \
            when one starts.

            Settings (in ~/.config/taskwidget/config.toml):
              [notify]
              missed_within = "24h"
              at_due = true
              click_command = "xdg-open https://tasks.example.com"

            Examples:
              taskwidget notify
              taskwidget notify --at-due --verbose
              systemctl --user enable --now taskwidget-notify.service

            Exit status: 0 when stopped (SIGTERM, SIGINT, SIGHUP) or when another notify \
            runs for the same store, 64 bad usage, a mistake in config.toml's store or [notify] \
            (one in another table is only logged) or another notify running for another store, \
            69 no D-Bus session bus, 74 I/O.
            """,
        version: "0.1.0")

    @OptionGroup var options: GlobalOptions

    @Flag(name: .long, help: "Also notify when a task falls due (or at_due = true in the configuration).")
    var atDue = false

    /// For tests and previews: with --now, time runs this many times faster than real time.
    @Option(help: .hidden) var clockSpeed: Int?

    func validate() throws {
        if let clockSpeed, !(1...WatchClock.maxSpeed).contains(clockSpeed) {
            throw ValidationError("--clock-speed must be from 1 to \(WatchClock.maxSpeed)")
        }
    }

    func run() throws {
        // Before anything can start a thread (GLib starts several): every thread inherits the mask.
        FollowLoop.blockSignals()
        try OpenFileLimit.ensure(atLeast: 64, for: "notify")
        let (context, configuration) = try options.serviceContext(using: .notify, command: "notify")
        let environment = context.environment
        let logger = context.logger
        let location = context.location
        let settings = ReminderSettings(configuration.notify, atDue: atDue)
        let paths = XDGPaths(environment: environment)

        guard let lockPath = SessionLock.defaultPath(paths, busAddress: environment["DBUS_SESSION_BUS_ADDRESS"]) else {
            throw TaskWidgetError(.invalidInput, "neither XDG_RUNTIME_DIR, XDG_STATE_HOME nor HOME is set: notify needs one for its lock file: set one of them")
        }
        let lock: SessionLock
        switch try SessionLock.acquire(at: lockPath, store: location.path) {
        case .acquired(let acquired):
            lock = acquired
        case .heldBy(let pid, let store):
            let holder = pid.map { " (pid \($0))" } ?? ""
            // One that follows another store shows none of this one's reminders (helper-151); the
            // same store named another way (a relative path, a link) is this one (helper-172).
            if let store, !isSameFile(store, location.path) {
                throw TaskWidgetError(
                    .invalidInput,
                    "notify is already running in this session\(holder) for the store \(store), and one runs per session: "
                        + "stop it to show the reminders of \(location.path)", context: "notify running for another store")
            }
            writeToStandardError("taskwidget: notify is already running in this session\(holder): it shows the reminders\n")
            return
        }
        let storage: any DeliveredReminderStorage
        if let path = DeliveredRemindersFile.defaultPath(paths, isPreview: options.now != nil) {
            storage = DeliveredRemindersFile(path: path)
        } else {
            logger.warning("HOME is not set: delivered reminders are kept in memory only, and a restart may show them again")
            storage = DeliveredRemindersInMemory()
        }

        let clock = try WatchClock.forRun(now: context.now, virtual: options.now != nil, speed: clockSpeed)
        let glib = GLibEventSource()
        let notifier = DesktopNotifier(glib: glib, logger: logger)
        defer { notifier.shutdown() }
        let launcher = ShellCommandLauncher(logger: logger)
        var session = NotifySession(
            source: StoreReminderSource(location: location, missedWithin: settings.missedWithin, calendar: context.calendar, logger: logger),
            notifier: notifier,
            actions: StoreReminderActions(location: location, logger: logger), storage: storage, launcher: launcher,
            calendar: context.calendar, settings: settings, clockSpeed: clock.speed, logger: logger)
        logger.debug("notify started", metadata: ["store": "\(location.path)", "lock": "\(lock.path)"])
        try FollowLoop.run(&session, clock: clock, storePath: location.path, options: .init(sources: [glib, launcher]), logger: logger)
        session.stop(at: clock.now())
        withExtendedLifetime(lock) {}
    }

    static func main() { CommandRunner.main(Self.self) }
}
