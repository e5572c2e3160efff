import ArgumentParser
import TaskWidgetCLI
import TaskWidgetCore
import TaskWidgetFormats
import TaskWidgetStore

struct TimelineCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "timeline", _superCommandName: "taskwidget",
        abstract: "Print the widget timeline: 24 h of entries every 15 minutes and at each due date.",
        discussion: """
            Each entry says what a widget shows from its date until the next entry: counts, the \
            top tasks with due labels, and habits. The JSON form (schema taskwidget.timeline/1) \
            has schema, generatedAt, timeZone, reloadAfter, validUntil, truncated and entries; \
            each entry has date, epoch, reasons, dayStart, dayEnd, scope (null for all \
            tasks, else the list's name, Inbox, or the view's name), counts, top, habits, \
            relevance, nextChange and contentHash.

            Examples:
              taskwidget timeline --format text
              taskwidget timeline --list Work --now 2026-11-22T16:27 --tz Europe/Berlin
            """)

    enum Format: String, ExpressibleByArgument, CaseIterable { case json, text }

    @OptionGroup var options: GlobalOptions
    @OptionGroup var scope: ScopeOptions
    @Option(help: "json or text.") var format: Format = .json

    func run() throws {
        let context = try options.context()
        let request = context.timelineRequest(view: try scope.selectedView(in: context))
        let timeline = TimelineProvider().timeline(for: request, snapshot: try context.storeForReading().timelineSnapshot(for: request))
        print(format == .json ? TimelineJSON.document(timeline) : TimelineText.document(timeline), terminator: "")
    }
}
