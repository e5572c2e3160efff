public import ArgumentParser
public import TaskWidgetCore

/// `--list NAME | --inbox`: which tasks a command or widget looks at (default: all of them).
public struct ScopeOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Only the tasks of this list.", valueName: "name"))
    public var list: String?

    @Flag(name: .long, help: "Only the tasks without a list.")
    public var inbox = false

    public init() {}

    public func validate() throws {
        if list != nil && inbox {
            throw ValidationError("--list and --inbox exclude each other: give one of them")
        }
    }

    public var scope: TaskScope {
        if let list { return .list(list) }
        return inbox ? .inbox : .all
    }
}
