import ArgumentParser
import Foundation
import TaskWidgetCLI
import TaskWidgetCore
import TaskWidgetStore
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
            --render-dir DIR also keeps a PNG widget there (DIR/medium.png, or DIR/WxH.png with
            --size) current at the same moments, rewritten atomically and only when it changes.
            Examples:
              taskwidget watch --format waybar
              taskwidget watch --format i3bar --list Work
              taskwidget watch --render-dir /srv/dashboard --size 800x480 --theme mono
            """)

    @OptionGroup var options: GlobalOptions
    @OptionGroup var scope: ScopeOptions
    @OptionGroup var line: StatusLineOptions
    @Option(help: ArgumentHelp("Also keep a PNG widget in this folder (see render).", valueName: "dir")) var renderDir: String?
    @OptionGroup(title: "PNG widget options (with --render-dir)") var widget: WidgetOptions
    /// For tests and previews: with --now, time runs this many times faster than real time.
    @Option(help: .hidden) var clockSpeed: Int?

    func validate() throws {
        if let clockSpeed, clockSpeed < 1 { throw ValidationError("--clock-speed must be at least 1") }
    }

    func run() throws {
        // Before anything can start a thread: every thread inherits the blocked signals.
        FollowLoop.blockSignals()
        let context = try options.context()
        let renderer = try line.renderer()
        var outputs: [any EntryOutput] = []
        var widgetFamily: WidgetFamily?
        if let renderDir {
            let spec = try widget.spec()
            let file = try Self.folder(renderDir).appendingPathComponent(spec.fileName)
            outputs.append(WidgetFileOutput(drawing: try DrawingHelper(spec: spec, timeZone: context.timeZone), file: file))
            widgetFamily = spec.family
        }
        let follower = StoreFollower(
            location: context.location, calendar: context.calendar, view: try scope.selectedView(), family: widgetFamily,
            logger: context.logger)
        // A virtual clock (`--now`, for previews and tests) starts as late as it can: it runs from here.
        let clock = WatchClock.forRun(now: context.now, virtual: options.now != nil, speed: clockSpeed)
        var session = WatchSession(
            source: follower, renderer: renderer, maxWidth: line.maxWidth, sink: StandardOutput(), outputs: outputs,
            clockSpeed: clock.speed, logger: context.logger)
        try FollowLoop.run(
            &session, clock: clock, storePath: context.location.path, options: .init(followsStandardOutput: true), logger: context.logger)
    }
}

extension WatchCommand {
    /// The `--render-dir` folder, which must exist: watch runs unattended, so a typo must fail at once.
    static func folder(_ path: String) throws -> URL {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue else {
            throw TaskWidgetError(.ioFailure, "the folder \(path) for --render-dir does not exist: create it first", context: path)
        }
        return URL(fileURLWithPath: path, isDirectory: true)
    }
}
