import ArgumentParser
import Foundation
import TaskWidgetCLI
import TaskWidgetConfig
import TaskWidgetCore
import TaskWidgetFormats
import TaskWidgetStore
import TaskWidgetWatch

struct WatchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch", _superCommandName: "taskwidget",
        abstract: "Stream the status line: a new line whenever it changes, for bars that read a stream.",
        usage: "taskwidget watch [--format <format>] [--view <name>] [--render-dir <dir> [--family <family>] ...] [<options>]",
        discussion: """
            Prints the line for now, then a new one when the next timeline entry starts (a task \
            falls due, a quarter hour, midnight), when another process changes the store (within \
            250 ms), when the wall clock jumps (suspend, date change), or on SIGUSR1. It prints \
            only lines that changed, at most one a second, and uses no CPU in between. i3bar gets \
            the whole protocol: a header, then one array per line.

            A missing, locked or damaged store gives the format's error line; watch then waits \
            for the store to come back. A watch that cannot start prints that line too, and \
            exits; in a bar's format on a pipe, once the bar closes it or stops watch, so that \
            the bar keeps showing the line.

            Exit status: 0 on SIGTERM, SIGINT or SIGHUP and when its reader goes away; 64 for a \
            mistake in its options, its template or config.toml; 74 when the --template file or the \
            --render-dir folder is missing, the PNG renderer cannot start, or a line cannot be \
            written.

            SIGUSR2 shows the next view: [watch] views of config.toml in their order, else all \
            tasks, then every [views.NAME]; --view, --list or --inbox picks the first one. i3bar \
            and swaybar send their clicks: the wheel moves through the views, the left, middle and \
            right buttons run `taskwidget done`, `start` and `snooze` on the task the line names \
            (see [watch] in the status bars guide of the documentation). waybar and polybar \
            send them as signals: SIGRTMIN+1, +2 and +3 are the left, middle and right buttons, \
            +4 and +5 the wheel up and down (+6 to +9 do nothing).

            --render-dir DIR also keeps a PNG widget there (DIR/medium.png, DIR/FAMILY.png with \
            --family, or DIR/WxH.png with --size) current at the same moments, rewritten \
            atomically and only when it changes.

            Examples:
              taskwidget watch --format waybar
              taskwidget watch --format i3bar --list Work
              pkill -USR2 -f '^taskwidget watch'    # show the next view
              pkill -RTMIN+1 -f '^taskwidget watch --format waybar'    # a left click
              taskwidget watch --render-dir /srv/dashboard --size 800x480 --theme mono
            """)

    @OptionGroup var options: GlobalOptions
    @OptionGroup var scope: ScopeOptions
    @OptionGroup var line: StatusLineOptions
    @Option(help: ArgumentHelp("Also keep a PNG widget in this folder (see render).", valueName: "dir"), completion: .directory) var renderDir: String?
    @OptionGroup(title: "PNG widget options (with --render-dir)") var widget: WidgetOptions
    /// For tests and previews: with --now, time runs this many times faster than real time.
    @Option(help: .hidden) var clockSpeed: Int?

    func validate() throws {
        if let clockSpeed, !(1...WatchClock.maxSpeed).contains(clockSpeed) {
            throw ValidationError("--clock-speed must be from 1 to \(WatchClock.maxSpeed)")
        }
        if renderDir == nil, !widget.isEmpty {
            throw ValidationError("the PNG widget options shape the image of --render-dir: add --render-dir DIR, or leave them out")
        }
    }

    /// What a run is made of, set up before its first line.
    private struct Setup {
        var context: CommandContext
        var renderer: StatusRenderer
        var configuration: Configuration
        var views: [TaskView]
        var shown: Int
        var outputs: [any EntryOutput] = []
        var widgetFamily: WidgetFamily?
    }

    private func setUp() throws -> Setup {
        let context = try options.context()
        let renderer = try line.renderer(environment: context.environment)
        let configuration = try context.configuration(using: [.views, .watch])
        let (views, shown) = try Self.cycle(of: configuration, starting: scope)
        var setup = Setup(context: context, renderer: renderer, configuration: configuration, views: views, shown: shown)
        if let renderDir {
            let spec = try widget.spec()
            let folder = try PathText.expandingHome(renderDir, in: "--render-dir", environment: context.environment)
            let file = try Self.folder(folder).appendingPathComponent(spec.fileName)
            setup.outputs.append(WidgetFileOutput(drawing: try DrawingHelper(spec: spec, timeZone: context.timeZone), file: file))
            setup.widgetFamily = spec.family
        }
        return setup
    }

    func run() throws {
        // Before anything can start a thread: every thread inherits the blocked signals.
        FollowLoop.blockSignals()
        SignalledClicks.blockSignals()
        let setup: Setup
        do {
            // With 9 files allowed, a store that could not be opened trapped on a libdispatch thread
            // (SIGILL, helper-91): too few is said at start, as notify and serve say it.
            try OpenFileLimit.ensure(atLeast: 32, for: "watch")
            setup = try setUp()
        } catch let error as TaskWidgetError {
            // A bar whose watch cannot start (a mistake in config.toml, an unknown view) shows one
            // line of its format that says so, as `status` does, instead of nothing; the error goes
            // to stderr before the line is held.
            Self.printFirstLine(for: error, format: line.format)
            guard StatusFallback.exitsNormally(format: line.format) else { throw error }
            CommandRunner.report(error)
            Self.holdLine(of: line.format)
            Foundation.exit(error.code.exitStatus)
        }
        let (context, views) = (setup.context, setup.views)
        let follower = StoreFollower(
            location: context.location, calendar: context.calendar, view: views[0], family: setup.widgetFamily, logger: context.logger)
        let followers = views.map(follower.showing)
        // A virtual clock (`--now`, for previews and tests) starts as late as it can: it runs from here.
        let clock = try WatchClock.forRun(now: context.now, virtual: options.now != nil, speed: clockSpeed)
        let session = WatchSession(
            views: followers, showing: setup.shown, renderer: setup.renderer, maxWidth: line.maxWidth, sink: StandardOutput(), outputs: setup.outputs,
            clockSpeed: clock.speed, logger: context.logger)
        // i3bar and swaybar write their clicks to standard input; waybar and polybar run a command,
        // which sends them as signals.
        let clicks: [any ClickSource] = line.format == .i3bar ? [BarClickInput(), try SignalledClicks()] : [try SignalledClicks()]
        let watchSettings = setup.configuration.watch
        let actions = [1: watchSettings.leftClick, 2: watchSettings.middleClick, 3: watchSettings.rightClick]
        let (store, zone, virtual) = (context.location.path, context.timeZone.identifier, options.now != nil)
        var clickable = ClickableWatch(session: session, inputs: clicks, logger: context.logger) { click, shown, now in
            guard let action = actions[click.button], action != .none else { return nil }
            // The task the line names, by its id: `--top --view NAME` read config.toml again, which
            // may define the view otherwise by now, and acted on a task the bar did not show
            // (helper-98).
            guard let task = shown?.next else {
                let place = shown?.scopeTitle.map { " in “\($0.sanitizedForMessage)”" } ?? ""
                writeToStandardError("taskwidget: nothing to \(action.verb): the bar shows no task\(place)\n")
                return nil
            }
            // The clock of a preview (`--now`) goes on to the command.
            let clock = virtual ? ["--now", InstantFormat.utc(now)] : []
            return [InstalledProgram.folder + "/taskwidget", action.rawValue, task.id.lowercasedString, "--from-bar", "--store", store, "--tz", zone]
                + clock
        }
        try FollowLoop.run(
            &clickable, clock: clock, storePath: context.location.path, options: .init(followsStandardOutput: true, sources: clicks),
            logger: context.logger)
    }
}

extension WatchCommand {
    /// The views watch cycles through, and which it shows first: `[watch] views`, else all tasks
    /// then every view of the file; the one `scope` names (put first when the cycle lacks it),
    /// else the cycle's first.
    static func cycle(of configuration: Configuration, starting scope: ScopeOptions) throws -> (views: [TaskView], shown: Int) {
        var views = try (configuration.watch.views ?? [TaskView.allName] + configuration.views.compactMap(\.name))
            .map { try configuration.view(named: $0).followed(by: "watch") }
        guard !scope.isEmpty else { return (views, 0) }
        let start = try scope.selectedView(configuration: configuration).followed(by: "watch")
        if let index = views.firstIndex(of: start) { return (views, index) }
        views.insert(start, at: 0)
        return (views, 0)
    }

    /// The `--render-dir` folder, which must exist: watch runs unattended, so a typo must fail at once.
    static func folder(_ path: String) throws -> URL {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
            throw TaskWidgetError(.ioFailure, "the folder \(path) for --render-dir does not exist: create it first", context: path)
        }
        guard isFolder.boolValue else {
            throw TaskWidgetError(.ioFailure, "\(path) for --render-dir is a file, not a folder: give the path of a folder", context: path)
        }
        return URL(fileURLWithPath: path, isDirectory: true)
    }
}

extension WatchCommand: BarLineCommand {
    /// A command line that does not parse is a watch that cannot start: the same line, and the
    /// error's exit status.
    static func printLine(for failure: TaskWidgetError, arguments: [String]) -> Bool? {
        guard let format = StatusLineOptions.format(in: arguments) else { return nil }
        printFirstLine(for: failure, format: format)
        holdLine(of: format)  // the error is on stderr already
        return false
    }

    /// The stream's start (i3bar's header) and its one line, which says what is wrong
    /// (``StatusLineOptions/printsErrorLine(format:)``).
    private static func printFirstLine(for failure: TaskWidgetError, format: StatusFormat) {
        guard StatusLineOptions.printsErrorLine(format: format) else { return }
        let framing = LineFraming(format: format)
        print((framing.header ?? "") + framing.frame(StatusFallback.line(format: format, message: failure.message), isFirst: true), terminator: "")
    }

    /// A bar shows the line only while watch runs (waybar hides a module whose command ended,
    /// swaybar says it cannot read it): for a bar's format, the line stays up while a pipe reads it,
    /// until the bar goes or stops watch. The run then ends with the error's status.
    private static func holdLine(of format: StatusFormat) {
        if StatusFallback.exitsNormally(format: format) { holdStandardOutputWhileItIsRead() }
    }
}

extension WatchSettings.ClickAction {
    /// What the action does to a task, for a message: `done` completes it.
    fileprivate var verb: String { self == .done ? "complete" : rawValue }
}
