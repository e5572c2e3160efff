import ArgumentParser
import Foundation
import TaskWidgetCLI
import TaskWidgetCore
import TaskWidgetStore

struct Export: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
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
        commandName: "import",
        abstract: "Add the lists, tasks and habits of an export file to the store.",
        discussion: """
            Records whose id is already in the store are replaced. The file is checked first:
            if anything in it is wrong, nothing is imported.
            Examples:
              taskwidget import backup.json
              taskwidget export --store old.sqlite | taskwidget import -
            """)
    @OptionGroup var options: GlobalOptions
    @Argument(help: "The export file, or - for standard input.") var file: String

    func run() throws {
        let context = try options.context()
        let data: Data
        do {
            data = file == "-" ? try FileHandle.standardInput.readToEnd() ?? Data() : try Data(contentsOf: URL(fileURLWithPath: file))
        } catch {
            throw TaskWidgetError(
                (error as? CocoaError)?.code == .fileReadNoPermission ? .permissionDenied : .ioFailure,
                "cannot read \(file): check that it exists and is readable", context: file == "-" ? "stdin" : file)
        }
        let export = try StoreExport.decode(data, source: file == "-" ? "standard input" : file)
        let counts = try context.storeForWriting().importing(export, source: file)
        print("Imported \(counts.lists) lists, \(counts.tasks) tasks and \(counts.habits) habits")
    }
}

struct Demo: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Fill an empty store with sample lists, tasks and habits for a first look.",
        discussion: """
            Example:
              taskwidget demo --store /tmp/demo.sqlite && taskwidget ls --store /tmp/demo.sqlite
            """)
    @OptionGroup var options: GlobalOptions

    func run() throws {
        let context = try options.context()
        let store = try context.storeForWriting()
        try store.fillWithDemoData(now: context.now, calendar: context.calendar)
        print("Filled \(store.path) with sample lists, tasks and habits. Try: taskwidget ls --store \(store.path)")
    }
}
