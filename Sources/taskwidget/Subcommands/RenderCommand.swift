import ArgumentParser
import Foundation
import Logging
import TaskWidgetCLI
import TaskWidgetCore
import TaskWidgetStore
import TaskWidgetWatch

struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render", _superCommandName: "taskwidget",
        abstract: "Draw the widget as a PNG image (Cairo + Pango).",
        usage: "taskwidget render -o <file> [--family <family> | --size <WxH>] [--scale <scale>] [--theme <theme>] [--at <when>] [<options>]\ntaskwidget render --timeline --out-dir <dir> [<options>]",
        discussion: """
            Families in points: small 170x170 (headline number, 3 tasks), medium 364x170 (counts, \
            5 tasks), large 364x382 (12 tasks, habits). --size WxH scales the family's layout \
            (large unless --family is given) to a dashboard canvas. Pixels = points x --scale, exactly.

            -o FILE draws the entry for now, and -o - writes it to standard output. --at WHEN \
            draws the entry the timeline shows at that moment instead: the widget as it will look \
            then, within the next 24 hours. --now moves the clock itself, so the whole timeline \
            starts at that instant.

            Files are written whole or not at all: a failed render keeps the previous file. \
            --timeline renders each timeline entry whose image differs from the one before into \
            --out-dir, plus index.json; the earlier render's images that the new index does not \
            name are removed, and nothing else. A run that fails leaves the earlier set whole.

            Examples:
              taskwidget render -o medium.png
              taskwidget render --family small --scale 3 --theme dark -o s.png
              taskwidget render --size 800x480 --theme mono -o /srv/eink.png
              taskwidget render --at 17:00 -o evening.png
              taskwidget render -o - | feh -
              taskwidget render --timeline --out-dir output/timeline
            """)

    @OptionGroup var options: GlobalOptions
    @OptionGroup var scope: ScopeOptions
    @OptionGroup var widget: WidgetOptions
    @Option(name: [.customShort("o"), .customLong("output")], help: ArgumentHelp("The image file to write (a name ending in .bmp writes a BMP), or - for standard output.", valueName: "file"), completion: .file())
    var output: String?
    @Option(help: ArgumentHelp("Draw the entry the timeline shows at this moment, within 24 h of now (e.g. 17:00, \"in 2h\").", valueName: "when"))
    var at: String?
    @Flag(help: "Render the whole timeline into --out-dir.") var timeline = false
    @Option(help: ArgumentHelp("The folder for --timeline (created if missing).", valueName: "dir"), completion: .directory) var outDir: String?

    func validate() throws {
        switch (output, timeline, outDir) {
        case (.some, false, nil), (nil, true, .some): break
        case (nil, false, nil): throw ValidationError("say where to write: -o FILE, -o - for standard output, or --timeline --out-dir DIR")
        case (nil, false, .some): throw ValidationError("--out-dir DIR holds the images of --timeline: add --timeline, or write one image with -o FILE")
        case (_, true, nil): throw ValidationError("--timeline needs --out-dir DIR")
        default: throw ValidationError("-o FILE renders one image (now, or --at WHEN), --timeline --out-dir DIR the whole timeline: give one of them")
        }
        if at != nil && timeline { throw ValidationError("--at draws one entry, --timeline all of them: give one of them") }
        // An empty -o (an unset shell variable) named the current folder (helper-95).
        if output == "" { throw ValidationError("-o needs a path: give the image file, or - for standard output") }
        if outDir == "" { throw ValidationError("--out-dir needs the path of a folder") }
        do { _ = try widget.spec(writingTo: output) } catch let error as TaskWidgetError { throw ValidationError(error.message) }
    }

    func run() throws {
        let context = try options.context()
        let spec = try widget.spec(writingTo: output)
        // The helper (started early, by `main`) gets its widget now, and sets up while the store is read.
        let drawing = try DrawingHelper(spec: spec, timeZone: context.timeZone)
        try drawing.start()
        let store = try context.storeForReading()
        let view = try scope.selectedView(in: context)
        // One image of now reads only what the current entry needs; --at and --out-dir the whole timeline.
        let request = context.timelineRequest(
            view: view, family: spec.family, extent: output != nil && at == nil ? .currentEntry : .whole)
        if let output {
            let snapshot = try store.timelineSnapshot(for: request)
            let entry = try at.map { try Self.entry(at: context.date($0, for: .moment, option: "--at"), of: request, snapshot: snapshot, in: store) }
                ?? TimelineProvider().currentEntry(for: request, snapshot: snapshot)
            let image = try drawing.image(for: entry)
            drawing.finish()
            if output == "-" {
                guard isatty(STDOUT_FILENO) != 1 else {
                    throw TaskWidgetError(.invalidInput, "-o - writes a \(drawing.spec.format.rawValue.uppercased()) to standard output, which is a terminal: redirect it to a file or a pipe")
                }
                try writeToStandardOutput(image)
            } else {
                let path = try PathText.expandingHome(output, in: "-o", environment: context.environment)
                try AtomicFile.write(image, to: URL(fileURLWithPath: path), durability: .atomicOnly)
            }
            context.logger.debug("wrote a \(spec.pixels) PNG", metadata: ["path": "\(output)"])
        } else if let outDir {
            let timeline = TimelineProvider().timeline(for: request, snapshot: try store.timelineSnapshot(for: request))
            let showsProgress = isatty(STDERR_FILENO) == 1
            let folder = try PathText.expandingHome(outDir, in: "--out-dir", environment: context.environment)
            let written = try drawing.renderTimeline(timeline, into: URL(fileURLWithPath: folder)) { done, total in
                if showsProgress { writeToStandardError("\rRendering entry \(done) of \(total)…") }
            }
            if showsProgress { writeToStandardError("\n") }
            context.logger.debug("wrote \(written) \(spec.pixels) PNGs and index.json", metadata: ["folder": "\(outDir)"])
        }
    }
}

extension RenderCommand {
    /// The widget at `instant` (`--at`): the entry of `request`'s timeline then. A view's due
    /// horizon counts from when the tasks are read, so for one with a horizon the tasks are read
    /// as of `instant`: the entry kept out those coming within it by then (helper-146).
    static func entry(at instant: Instant, of request: TimelineRequest, snapshot: TimelineSnapshot, in store: TaskStore) throws -> TimelineEntry {
        let entry = try entry(at: instant, in: TimelineProvider().timeline(for: request, snapshot: snapshot), timeZone: request.timeZone)
        guard request.view.dueWithin != nil else { return entry }
        let then = TimelineRequest(now: instant, calendar: request.calendar, view: request.view, family: request.family, extent: .currentEntry)
        return TimelineProvider().currentEntry(for: then, snapshot: try store.timelineSnapshot(for: then))
    }

    /// The entry `timeline` shows at `instant` (`--at`), which must lie within it: from now to
    /// 24 hours later. The refusal says what `--at` was read as: a day alone is its 23:59, which
    /// `--at tomorrow` passed without a word (helper-118).
    static func entry(at instant: Instant, in timeline: Timeline, timeZone: TimeZone) throws -> TimelineEntry {
        guard instant <= timeline.validUntil, let entry = timeline.entry(at: instant) else {
            let shown = { (instant: Instant) in InstantFormat.local(instant, in: timeZone) }
            throw TaskWidgetError(
                .invalidInput,
                "--at must be within the timeline, from now to 24 hours later (\(shown(timeline.entries.first?.date ?? instant)) to "
                    + "\(shown(timeline.validUntil))), and reads as \(shown(instant)) (a day alone is its 23:59): give a time within it, or use --now to draw another day")
        }
        return entry
    }
}
