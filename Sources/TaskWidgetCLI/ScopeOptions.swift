public import ArgumentParser
public import TaskWidgetConfig
public import TaskWidgetCore

/// `--list NAME | --inbox | --view NAME`: which tasks a command or widget looks at (default: all
/// of them).
public struct ScopeOptions: ParsableArguments {
    @Option(name: .long, help: Self.listHelp)
    public var list: String?

    @Flag(name: .long, help: Self.inboxHelp)
    public var inbox = false

    @Option(name: .long, help: Self.viewHelp)
    public var view: String?

    public init() {}

    /// The help of each option, for `status`, which declares them without this group.
    public static let listHelp = ArgumentHelp("Only the tasks of this list (Inbox: those without one).", valueName: "name")
    public static let inboxHelp = ArgumentHelp("Only the tasks without a list.")
    public static let viewHelp = ArgumentHelp("A view of config.toml ([views.NAME]); `all` is all tasks.", valueName: "name")

    /// What the options chose.
    public var selection: ScopeSelection { ScopeSelection(list: list, inbox: inbox, view: view) }

    public func validate() throws { try selection.validate() }

    /// Whether no option was given: all tasks, or what a command's settings choose.
    public var isEmpty: Bool { selection.isEmpty }

    /// ``ScopeSelection/selectedView(in:)``.
    public func selectedView(in context: CommandContext) throws -> TaskView {
        try selection.selectedView(in: context)
    }

    /// ``ScopeSelection/selectedView(configuration:)``.
    public func selectedView(configuration: Configuration) throws -> TaskView {
        try selection.selectedView(configuration: configuration)
    }
}

/// The values of `--list`, `--inbox` and `--view`, however they were parsed.
public struct ScopeSelection: Sendable {
    public var list: String?
    public var inbox: Bool
    public var view: String?

    public init(list: String?, inbox: Bool, view: String?) {
        (self.list, self.inbox, self.view) = (list, inbox, view)
    }

    /// Refuses options that exclude each other.
    public func validate() throws {
        if list != nil && inbox {
            throw ValidationError("--list and --inbox exclude each other: give one of them")
        }
        if view != nil && (list != nil || inbox) {
            throw ValidationError("--view and --\(inbox ? "inbox" : "list") exclude each other: give one of them")
        }
    }

    /// Whether no option was given: all tasks, or what a command's settings choose.
    public var isEmpty: Bool { list == nil && !inbox && view == nil }

    /// The tasks these options name: a view of the run's config.toml (read only when a view is
    /// named, from where `context`'s environment says), or the scope.
    public func selectedView(in context: CommandContext) throws -> TaskView {
        try selectedView { try context.configuration(using: .views) }
    }

    /// The tasks these options name: a view of `configuration`, or the scope.
    public func selectedView(configuration: Configuration) throws -> TaskView {
        try selectedView { configuration }
    }

    private func selectedView(loading configuration: () throws -> Configuration) throws -> TaskView {
        guard let view else { return TaskView(scope: list.map(TaskScope.init(listNamed:)) ?? (inbox ? .inbox : .all)) }
        return try configuration().view(named: view)
    }
}
