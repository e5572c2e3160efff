import ArgumentParser
import TaskWidgetCore

/// `--list NAME | --inbox`: which tasks a command or widget looks at (default: all of them).
struct ScopeOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Only the tasks of this list.", valueName: "name"))
    var list: String?

    @Flag(name: .long, help: "Only the tasks without a list.")
    var inbox = false

    func validate() throws {
        if list != nil && inbox {
            throw ValidationError("--list and --inbox exclude each other: give one of them")
        }
    }

    var scope: TaskScope {
        if let list { return .list(list) }
        return inbox ? .inbox : .all
    }
}
