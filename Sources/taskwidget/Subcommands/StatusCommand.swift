import ArgumentParser
import Foundation
import TaskWidgetCLI
import TaskWidgetCore
import TaskWidgetFormats
import TaskWidgetStore

struct StatusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status", _superCommandName: "taskwidget",
        abstract: "Print the widget entry for now as one line for a status bar.",
        discussion: """
            Formats: text, json, waybar, i3bar (one block), polybar, tmux. Titles are escaped for \
            the host. Each format comes from a Mustache template: the default one, or \
            $XDG_CONFIG_HOME/taskwidget/templates/FORMAT.mustache, or --template FILE.

            When the store cannot be read, or the command line is wrong, bar formats still print \
            one valid line (waybar class `error`) and exit 0; the error goes to stderr.

            Exit status (text and json): 0; 64 for a mistake in the options, the template or \
            config.toml; 65 for a damaged store or one that is not taskwidget's; 74 when the \
            store or the template cannot be read.

            Examples:
              taskwidget status
              taskwidget status --format waybar --list Work
              taskwidget status --view work     # [views.work] of config.toml
              taskwidget status --format tmux --max-width 24
            """)

    // The options of GlobalOptions, ScopeOptions and StatusLineOptions, in their order, declared
    // here and not as option groups: ArgumentParser reflects on each group with a Mirror and looks
    // up three of its conformances, and the first look-up of each scans all of the binary's
    // conformance records. A bar runs this command every few seconds: the groups cost 3.1 M of its
    // 26.2 M instructions at 10k tasks.
    @Option(name: .long, help: GlobalOptions.storeHelp, completion: .file()) var store: String?
    @Option(name: .long, help: GlobalOptions.timeZoneHelp) var tz: String?
    @Option(name: .long, help: GlobalOptions.nowHelp) var now: String?
    @Flag(name: .long, help: GlobalOptions.verboseHelp) var verbose = false
    @Option(name: .long, help: ScopeOptions.listHelp) var list: String?
    @Flag(name: .long, help: ScopeOptions.inboxHelp) var inbox = false
    @Option(name: .long, help: ScopeOptions.viewHelp) var view: String?
    @Option(name: .customLong("format"), help: StatusLineOptions.formatHelp) var format: StatusFormat?
    @Option(help: StatusLineOptions.templateHelp, completion: .file()) var template: String?
    @Option(name: .customLong("max-width"), help: StatusLineOptions.maxWidthHelp) var maxWidth: Int?

    private var scope: ScopeSelection { ScopeSelection(list: list, inbox: inbox, view: view) }
    private var line: StatusLineChoice { StatusLineChoice(format: format, template: template, maxWidth: maxWidth) }

    func validate() throws { try scope.validate() }

    func run() throws {
        let line = line
        do {
            let context = try GlobalOptions.context(store: store, tz: tz, now: now, verbose: verbose)
            let renderer = try line.renderer(environment: context.environment)
            let request = context.timelineRequest(view: try scope.selectedView(in: context), extent: .currentEntry)
            let entry = TimelineProvider().currentEntry(for: request, snapshot: try context.storeForReading().timelineSnapshot(for: request))
            print(try renderer.line(for: entry, timeZone: context.timeZone, now: context.now, maxWidth: line.maxWidth))
        } catch let error as TaskWidgetError {
            // A bar must never show garbage: print a valid error line, and the error on stderr.
            Self.printFallback(format: line.format, message: error.message)
            guard StatusFallback.exitsNormally(format: line.format) else { throw error }
            CommandRunner.report(error)
        }
    }
}

extension StatusCommand: BarLineCommand {
    /// The line `run()` prints for its own errors, and its exit status: a bar's format exits 0,
    /// as waybar hides a module whose command fails.
    static func printLine(for failure: TaskWidgetError, arguments: [String]) -> Bool? {
        guard let format = StatusLineOptions.format(in: arguments) else { return nil }
        printFallback(format: format, message: failure.message)
        return StatusFallback.exitsNormally(format: format)
    }

    /// Prints the fallback line (``StatusLineOptions/printsErrorLine(format:)``).
    private static func printFallback(format: StatusFormat, message: String) {
        guard StatusLineOptions.printsErrorLine(format: format) else { return }
        print(StatusFallback.line(format: format, message: message))
    }
}
