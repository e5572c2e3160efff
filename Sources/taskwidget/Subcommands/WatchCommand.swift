import ArgumentParser
import Foundation
import TaskWidgetKit
import TaskWidgetWatch

struct WatchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Stream the status line: a new line whenever it changes, for bars that read a stream.",
        discussion: """
            Prints the line for now, then a new one when the next timeline entry starts (a task
            falls due, a quarter hour, midnight), when another process changes the store (within
            250 ms), when the wall clock jumps (suspend, date change), or on SIGUSR1. It prints only
            lines that changed, at most one a second, and uses no CPU in between. i3bar gets the
            whole protocol: a header, then one array per line.
            A missing, locked or damaged store gives the format's error line; watch then waits for
            the store to come back. It exits 0 on SIGTERM, SIGINT or SIGHUP and when its reader goes away.
            Examples:
              taskwidget watch --format waybar
              taskwidget watch --format i3bar --list Work
            """)

    @OptionGroup var options: GlobalOptions
    @OptionGroup var scope: ScopeOptions
    @Option(help: "text, json, waybar, i3bar, polybar or tmux.") var format: StatusFormat = .text
    @Option(help: ArgumentHelp("A Mustache template to use instead of the format's.", valueName: "file")) var template: String?
    @Option(help: ArgumentHelp("Cut titles to this many characters.", valueName: "n")) var maxWidth = 40
    /// For tests and previews: with --now, time runs this many times faster than real time.
    @Option(help: .hidden) var clockSpeed: Int?

    func validate() throws {
        guard maxWidth >= 4 else { throw ValidationError("--max-width must be at least 4") }
        if let clockSpeed, clockSpeed < 1 { throw ValidationError("--clock-speed must be at least 1") }
    }

    func run() throws {
        // Before anything can start a thread: every thread inherits the blocked signals.
        WatchLoop.blockSignals()
        let context = try options.context()
        let renderer = try StatusRenderer(
            format: format, template: .resolve(format: format, path: template, environment: ProcessInfo.processInfo.environment))
        var clock = WatchClock.real
        if options.now != nil || clockSpeed != nil {
            let start = WatchClock.real.now()
            clock = .virtual(
                start: Int64((context.now.timeIntervalSince1970 * 1000).rounded()) * 1_000_000,
                monotonicStart: start.monotonic, speed: clockSpeed ?? 1)
        }
        let follower = StoreFollower(location: context.location, timeZone: context.timeZone, scope: scope.scope, logger: context.logger)
        var session = WatchSession(source: follower, renderer: renderer, maxWidth: maxWidth, sink: StandardOutput(),
            clockSpeed: clock.speed, logger: context.logger)
        try WatchLoop.run(&session, clock: clock, storePath: context.location.path, logger: context.logger)
    }
}
