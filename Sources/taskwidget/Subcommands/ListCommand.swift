import ArgumentParser
import TaskWidgetCLI
import TaskWidgetConfig
import TaskWidgetCore
import TaskWidgetFormats
import TaskWidgetStore

struct ListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "Manage lists (the Inbox is the tasks without a list).",
        subcommands: [Add.self, Ls.self, Rename.self, Color.self, Move.self, Rm.self],
        defaultSubcommand: Ls.self)

    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add",
            abstract: "Create a list.", discussion: "Example: taskwidget list add Work --color 1E90FF")
        @OptionGroup var options: GlobalOptions
        @Argument(help: "The list's name (unique, case-insensitive).") var name: String
        @Option(help: ArgumentHelp("Six hex digits (default 007AFF).", valueName: "hex")) var color: String?

        func run() throws {
            let context = try options.context()
            _ = try (Validation.listName(name), color.map(Validation.colorHex))
            let list = try context.storeForWriting().addList(named: name, colorHex: color, now: context.now)
            printConfirmation("Created list \(list.name) #\(list.colorHex)")
        }
    }

    /// A note on standard error for each view of config.toml that shows the list `name`, which a
    /// rename or removal leaves naming no list: every `ls --view` and bar of it then failed
    /// (helper-142). `then` says what to do.
    static func noteViews(showing name: String, _ context: CommandContext, then: String) {
        for view in (try? context.configuration(using: .views).views) ?? [] {
            guard case .list(let shown) = view.scope, NameLookup.isSame(shown, name) else { continue }
            writeToStandardError("taskwidget: note: the view “\(view.name ?? "")” of config.toml shows the list “\(shown)”: \(then)\n")
        }
    }

    /// Says that `what` of a synced list changed here only: sync does not send it, and the other
    /// devices went on showing the old one without a word (helper-115).
    static func noteNotSynced(_ what: String, of list: TaskList, in store: TaskStore) {
        guard (try? store.isListSynced(list.id)) == true else { return }
        writeToStandardError(
            "taskwidget: note: \(list.name.removingControlCharacters) is synced, and sync does not send \(what): change it on the server too (in a calendar app), or the other devices keep the old one\n"
        )
    }

    struct Ls: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "ls", abstract: "Show the lists with their task counts.",
            discussion: "Examples:\n  taskwidget list ls\n  taskwidget list ls --store ~/work.sqlite")
        @OptionGroup var options: GlobalOptions

        func run() throws {
            let context = try options.context()
            let lists = try context.storeForReading().listSummaries()
            let width = terminalWidthOfStandardOutput(context.environment)
            print(Listing(now: context.now, calendar: context.calendar, terminalWidth: width).table(lists), terminator: "")
        }
    }

    struct Rename: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "rename",
            abstract: "Rename a list.", discussion: "Example: taskwidget list rename Work Job")
        @OptionGroup var options: GlobalOptions
        @Argument(help: "The list's current name.") var old: String
        @Argument(help: "Its new name.") var new: String

        func run() throws {
            let context = try options.context()
            let store = try context.storeForChanging()
            let (list, previousName) = try store.renameList(old, to: new)
            guard list.name != previousName else {
                printConfirmation("List \(list.name) is already named so: nothing changed")
                return
            }
            printConfirmation("Renamed list \(previousName) to \(list.name)")
            if !NameLookup.isSame(previousName, list.name) {
                ListCommand.noteViews(showing: previousName, context, then: "change its list to \(list.name.removingControlCharacters.shellQuoted) there")
            }
            ListCommand.noteNotSynced("a list's name", of: list, in: store)
        }
    }

    struct Color: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "color",
            abstract: "Change a list's color.", discussion: "Example: taskwidget list color Work FF9500")
        @OptionGroup var options: GlobalOptions
        @Argument(help: "The list's name.") var name: String
        @Argument(help: "Six hex digits, e.g. FF9500.") var hex: String

        func run() throws {
            let store = try options.context().storeForChanging()
            let list = try store.setListColor(name, colorHex: hex)
            printConfirmation("List \(list.name) is now #\(list.colorHex)")
            ListCommand.noteNotSynced("a list's color", of: list, in: store)
        }
    }

    struct Move: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "move",
            abstract: "Move a list to another place in the list order.",
            discussion: """
                N counts from 1 in the order `taskwidget list ls` shows (and `ls` follows; the \
                widgets order tasks by due date, whatever their list); a number past the end puts \
                the list last.

                Example: taskwidget list move Work --to 1
                """)
        @OptionGroup var options: GlobalOptions
        @Argument(help: "The list's name.") var name: String
        @Option(name: .customLong("to"), help: ArgumentHelp("The new position, from 1.", valueName: "n")) var position: Int

        func run() throws {
            let store = try options.context().storeForChanging()
            let (list, isChanged) = try store.moveList(name, to: position)
            // As a task's `move` says: it said "Moved" of a list already there (helper-170).
            guard isChanged else {
                printConfirmation("List \(list.name) is already at position \(list.sortOrder + 1): nothing changed")
                return
            }
            printConfirmation("Moved list \(list.name) to position \(list.sortOrder + 1)")
            ListCommand.noteNotSynced("the order of lists", of: list, in: store)
        }
    }

    struct Rm: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "rm",
            abstract: "Delete a list and all its tasks.", discussion: "Example: taskwidget list rm Errands --yes")
        @OptionGroup var options: GlobalOptions
        @Argument(help: "The list's name.") var name: String
        @Flag(help: "Confirm that the list's tasks are deleted too (an empty list needs no --yes).") var yes = false

        func run() throws {
            let context = try options.context()
            if !yes {
                // The list named first: a name that is none was asked to be confirmed.
                let summaries = try context.storeForReading().listSummaries()
                let list = try TaskList.named(name, in: summaries.map(\.list))
                let count = summaries.first { $0.list.id == list.id }?.totalCount ?? 0
                guard count == 0 else {
                    throw ValidationError("deleting the list “\(list.name)” deletes its \(counted(count, "task")) too: add --yes to confirm")
                }
            }
            let (list, count) = try context.storeForChanging().deleteList(name, now: context.now)
            printConfirmation("Deleted list \(list.name)" + (count == 0 ? "" : " and its \(counted(count, "task"))"))
            ListCommand.noteViews(showing: list.name, context, then: "remove the view there, or make the list again")
        }
    }
}
