import ArgumentParser
import Foundation
import TaskWidgetCLI
import TaskWidgetCore
import TaskWidgetStore

/// `--top [--list NAME | --inbox | --view NAME]`: act on the task a bar shows instead of on ids:
/// the entry's next task (``TimelineEntry/next``) for that scope or view at now, the one `status`
/// names after "next:". With nothing open there, the command says so and exits 64.
struct TopTaskOptions: ParsableArguments {
    @Flag(help: "Act on the task a bar shows (the one after \"next:\") instead of on ids.") var top = false
    /// Set by watch on the command a click starts, with the id of the task its line names.
    @Flag(help: .hidden) var fromBar = false
    @OptionGroup(title: "With --top") var scope: ScopeOptions

    /// Whether a bar's click runs the command: it is refused what the click cannot see the
    /// consequences of (a series on the server), and its messages, which go to the bar's log,
    /// name tasks by id, never by title.
    var isClick: Bool { top || fromBar }

    /// Checks that `ids` or `--top` is given, not both, and a scope only with `--top`. `what` the
    /// command takes names them: `start` takes "a task id" (it said "task ids": helper-89).
    func validate(ids: [String], what: String = "task ids") throws {
        if top && !ids.isEmpty { throw ValidationError("give \(what) or --top, not both") }
        if !top && ids.isEmpty { throw ValidationError("give \(what), or --top for the task a bar shows") }
        if !top && !scope.isEmpty { throw ValidationError("--list, --inbox and --view go with --top") }
    }

    /// ``validate(ids:what:)`` for a command that takes one task id (`start`, `stop`).
    func validate(id: String?) throws { try validate(ids: id.map { [$0] } ?? [], what: "a task id") }

    /// `ids`, or with `--top` the id of the task a bar shows now. `action` names what the command
    /// does (`complete`) when nothing is open.
    func ids(_ ids: [String], store: TaskStore, context: CommandContext, action: String) throws -> [String] {
        guard top else { return ids }
        let view = try scope.selectedView(in: context)
        let request = context.timelineRequest(view: view, extent: .currentEntry)
        let entry = TimelineProvider().currentEntry(for: request, snapshot: try store.timelineSnapshot(for: request))
        guard let task = entry.next else {
            let place = view.name.map { " in the view “\($0)”" } ?? entry.scopeTitle.map { " in “\($0)”" } ?? ""
            throw TaskWidgetError(.notFound, "nothing to \(action): no task is open\(place)", context: "no open task")
        }
        return [task.id.uuidString]
    }
}
