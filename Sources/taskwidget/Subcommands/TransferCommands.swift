import ArgumentParser
import Foundation
import TaskWidgetCLI
import TaskWidgetCore
import TaskWidgetStore

struct Export: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export", _superCommandName: "taskwidget",
        abstract: "Print the whole store as JSON (read it back with `import`).",
        discussion: "Example: taskwidget export > backup.json")
    @OptionGroup var options: GlobalOptions

    func run() throws {
        var data = try options.context().storeForReading().export().jsonData()
        data.append(UInt8(ascii: "\n"))
        try writeToStandardOutput(data)
    }
}

struct Import: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import", _superCommandName: "taskwidget",
        abstract: "Add the lists, tasks and habits of an export file to the store.",
        discussion: """
            A task whose id is already in the store is merged with it as sync merges: each \
            field keeps the later edit, and a completed task stays completed, so an older \
            backup neither reopens tasks nor undoes newer edits. Lists and habits whose id is \
            already in the store are replaced by the file's; a list of the file whose name a \
            list of the store has under another id (two stores that each made a Home) is \
            refused: rename one of them first. The file is checked first: if anything in it is \
            wrong, nothing is imported.

            Examples:
              taskwidget import backup.json
              taskwidget export --store old.sqlite | taskwidget import -
            """)
    @OptionGroup var options: GlobalOptions
    @Argument(help: "The export file, or - for standard input.") var file: String

    func run() throws {
        let context = try options.context()
        let name = file == "-" ? "standard input" : file
        let export = try StoreExport.decode(try InputFile.read(file, named: name), source: name)
        let counts = try context.storeForWriting().importing(export, source: file)
        print("Imported \(counted(counts.lists, "list")), \(counted(counts.tasks, "task")) and \(counted(counts.habits, "habit"))")
    }
}

struct Demo: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo", _superCommandName: "taskwidget",
        abstract: "Fill a store of its own with sample lists, tasks and habits for a first look.",
        discussion: """
            Without --store the sample data goes to $XDG_DATA_HOME/taskwidget/demo.sqlite \
            (~/.local/share/taskwidget/demo.sqlite), never to your own tasks. A store that \
            already has data is refused. Look at the demo with --store PATH or TASKWIDGET_STORE=PATH.

            Examples:
              taskwidget demo
              taskwidget demo --store /tmp/demo.sqlite
              taskwidget ls --store /tmp/demo.sqlite
            """)
    @OptionGroup var options: GlobalOptions

    func run() throws {
        let context = try options.context()
        let location = options.store == nil ? try StoreLocation.demo(environment: context.environment) : context.location
        let isDemoStoreThere = options.store == nil && FileManager.default.fileExists(atPath: location.path)
        let store = try TaskStore.open(at: location, mode: .readWrite, logger: context.logger)
        let path = store.path.shellQuoted
        do {
            try store.fillWithDemoData(now: context.now, calendar: context.calendar)
        } catch let error as TaskWidgetError where error.code == .invalidInput && isDemoStoreThere {
            // The demo's own store, from an earlier demo (its dates are that day's): safe to remove.
            throw TaskWidgetError(
                .invalidInput, "the demo store \(store.path) is there from an earlier demo: remove it for a new one (rm -f \(path) \((store.path + "-wal").shellQuoted) \((store.path + "-shm").shellQuoted)), or pass --store PATH")
        }
        print("""
            Filled \(store.path) with sample lists, tasks and habits.
            Look at them with --store or TASKWIDGET_STORE, e.g.:
              taskwidget ls --store \(path)
              TASKWIDGET_STORE=\(path) taskwidget status --format waybar
            """)
    }
}
