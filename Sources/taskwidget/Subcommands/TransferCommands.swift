import ArgumentParser
import Foundation
import Logging
import TaskWidgetCLI
import TaskWidgetConfig
import TaskWidgetCore
import TaskWidgetStore

struct Export: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export", _superCommandName: "taskwidget",
        abstract: "Print the whole store as JSON (read it back with `import`).",
        discussion: """
            The file a shell makes takes your umask, which may let others read it; \
            `taskwidget backup FILE` writes one only you can read.

            Examples:
              (umask 077; taskwidget export > tasks.json)
              taskwidget export | ssh laptop taskwidget import -
            """)
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
            A task whose id is already in the store is merged with it as sync merges, but with \
            no common copy to tell which side changed which field: the copy edited later \
            (the file's, within the same second) gives every field, and a task completed in \
            either copy stays completed; a task deleted here stays deleted unless the file's copy \
            was edited after the deletion. So an older backup neither reopens tasks, nor undoes \
            newer edits of tasks, nor brings back tasks you removed since; but a task it holds \
            completed is completed again if you reopened it since (without a common copy, a \
            reopened task looks like one that was never completed). A file edited later than \
            the store takes back the store's own changes to that task. Lists and \
            habits have no edit times: those of the file are added, or replace the store's \
            of the same id (an older backup takes back their renames, colors and checked \
            days, and brings back ones you removed since). A list or habit of the file whose \
            name one of the store has under another id (two stores that each made a Home) \
            is refused: rename one of them first. The file is checked first: if \
            anything in it is wrong, a misspelt field name included, nothing is imported. \
            The last line counts what the file holds and, unless every task is new, what \
            became of its tasks: new, updated, unchanged (the store's copy was as new or \
            newer), kept deleted.

            Examples:
              taskwidget import backup.json
              taskwidget export --store old.sqlite | taskwidget import -
            """)
    @OptionGroup var options: GlobalOptions
    @Argument(help: "The export file, or - for standard input.", completion: .file()) var file: String

    /// An empty path (`import "$FILE"` with the variable unset) is a usage error: it read as a
    /// file not found, exit 74 (helper-119).
    func validate() throws {
        if file.isEmpty { throw ValidationError("import needs the path of a file, or - for standard input") }
    }

    func run() throws {
        let context = try options.context()
        let file = try PathText.expandingHome(file, in: "the file to import", environment: context.environment)
        let name = file == "-" ? "standard input" : file
        // Typed or pasted at a terminal: it waited without a word (helper-135).
        if file == "-", isatty(STDIN_FILENO) == 1, isatty(STDERR_FILENO) == 1 {
            writeToStandardError("Paste or type the export, then press Ctrl-D on a line of its own (Ctrl-C stops):\n")
        }
        // An export of 100 000 tasks is about 40 MiB: a file larger than this one is none.
        let data = try InputFile.read(file, named: name, limit: 512 << 20) {
            TaskWidgetError(
                .badImport, "\(name) holds more than 512 MiB, more than an export of a million tasks: give a file `taskwidget export` wrote",
                context: "import")
        }
        // Phases for --verbose: a file of 50 000 tasks takes seconds, said by nothing (helper-114).
        context.logger.debug("read the file", metadata: ["bytes": "\(data.count)"])
        let summary = try merge(data, source: name, context: context)
        // What became of the tasks, said unless every one is new.
        let fates = [(summary.added, "new"), (summary.updated, "updated"), (summary.unchanged, "unchanged"), (summary.keptDeleted, "kept deleted")]
        let said = fates.filter { $0.0 > 0 }.map { "\($0.0) \($0.1)" }.joined(separator: ", ")
        let detail = summary.added == summary.tasks ? "" : " (tasks: \(said))"
        // And what the file's copies of lists and habits took back.
        let replaced = [(summary.listsChanged, "list"), (summary.habitsChanged, "habit")].filter { $0.0 > 0 }.map { counted($0.0, $0.1) }
        var changes = replaced.isEmpty ? [] : ["changed \(replaced.joined(separator: " and "))"]
        if summary.habitDaysSet > 0 { changes.append("set \(counted(summary.habitDaysSet, "habit day")) to what it records") }
        if summary.habitDaysRemoved > 0 { changes.append("removed \(counted(summary.habitDaysRemoved, "habit day")) it does not have") }
        let phrases = changes.count > 1 ? changes.dropLast().joined(separator: ", ") + ", and " + changes[changes.count - 1] : changes.first
        let taken = phrases.map { "; the file's copy \($0)" } ?? ""
        print("Imported \(counted(summary.lists, "list")), \(counted(summary.tasks, "task")) and \(counted(summary.habits, "habit"))\(detail)\(taken)")
    }

    /// Checks the file and merges it into the store. On a terminal, a file of this size or more
    /// (about 3 000 tasks, a second's work; 100 000 take 10 s) gets a line that says how far the
    /// import is, cleared before anything else is said.
    private func merge(_ data: Data, source: String, context: CommandContext) throws -> ImportSummary {
        let showsProgress = isatty(STDERR_FILENO) == 1 && data.count >= Self.fileSizeWorthProgress
        if showsProgress { writeToStandardError("Checking \(source)…") }
        defer { if showsProgress { writeToStandardError("\r\u{1B}[K") } }
        let export = try StoreExport.decode(data, source: source)
        context.logger.debug(
            "checked the file; merging it into the store in one transaction",
            metadata: ["lists": "\(export.lists.count)", "tasks": "\(export.tasks.count)", "habits": "\(export.habits.count)"])
        return try context.storeForWriting().importing(export, source: source) { done, total in
            if showsProgress { writeToStandardError("\r\u{1B}[KImporting: \(done) of \(total) tasks…") }
        }
    }

    /// The size of file from which ``merge(_:source:context:)`` says how far it is.
    static let fileSizeWorthProgress = 1 << 20
}

struct Backup: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup", _superCommandName: "taskwidget",
        abstract: "Copy the whole store into a file, safely while it is in use (read it back with `restore`).",
        discussion: """
            The copy is the store as of one moment, the changes SQLite still keeps beside the \
            file (its -wal) included, which a copy of the file alone misses. It is readable by \
            you alone; an older backup at FILE is replaced once the new one is whole. Any \
            other file there is left alone and the backup refused: a store, another program's \
            database, an export, any file that is not a backup this command wrote.

            Examples:
              mkdir -p ~/backups && taskwidget backup ~/backups/tasks.sqlite
              taskwidget ls --store ~/backups/tasks.sqlite
            """)
    @OptionGroup var options: GlobalOptions
    @Argument(help: "The file to write.", completion: .file()) var file: String

    func validate() throws {
        if file.isEmpty { throw ValidationError("backup needs the path of the file to write") }
        // `import -` reads standard input; a backup is a whole SQLite file, not for a pipe.
        if file == "-" { throw ValidationError("backup writes a file, not standard output: give its path") }
    }

    func run() throws {
        let context = try options.context()
        let file = try PathText.expandingHome(file, in: "the backup file", environment: context.environment)
        let storePath = context.location.path
        guard FileManager.default.fileExists(atPath: storePath) else {
            throw TaskWidgetError(.storeMissing, "there is no store at \(storePath) yet: there is nothing to back up", context: storePath)
        }
        if let part = storePart(file, of: storePath) {
            // Its -wal or -shm: reported backed up, and emptied by the next write (helper-142).
            throw TaskWidgetError(.invalidInput, "\(file) is \(part): give the backup another path", context: "backup onto the store")
        }
        try Self.checkReplaceable(file, context: context)
        // The README's line on a new machine: "no such file or directory: check its folder" (helper-166).
        let folder = URL(fileURLWithPath: file).deletingLastPathComponent().path
        guard FileManager.default.fileExists(atPath: folder) else {
            throw TaskWidgetError(
                .ioFailure, "the folder \(folder) for the backup does not exist: create it first (mkdir -p \(folder.shellQuoted))", context: folder)
        }
        let counts = try context.storeForReading().backUp(to: file)
        print("Backed up \(counts.inWords) into \(file)")
    }
}

extension Backup {
    /// A file at FILE is replaced only when it is an older backup, one `backup` wrote (or an
    /// empty file). A store, another program's SQLite database, an export or any other file is
    /// left alone: `backup` typed for `restore` replaced the user's store, even one watch
    /// followed, and any other file went too (helper-152, helper-156).
    static func checkReplaceable(_ file: String, context: CommandContext) throws {
        let advice = "give the backup another path, or remove the file first"
        let target = TaskStore.backupTarget(at: file)
        switch target {
        case .nothing: return
        case .otherFile:
            throw TaskWidgetError(.invalidInput, "\(file) is not an older backup (not an SQLite file): \(advice)", context: "backup over another file")
        case .backup, .otherDatabase: break
        }
        // A config.toml that cannot be read leaves its store aside: backup works without it.
        let configured = try? context.configuration(using: []).store
        let usual = try? StoreLocation.resolve(explicitPath: nil, environment: context.environment, configured: configured)
        // The usual store, by any name: a backup copied over it (cp, mv) keeps a backup's mark
        // until the next write, and a later backup replaced the store (helper-166).
        let isUsualStore = usual.map { isSameFile($0.path, file) } == true
        if target == .backup && !isUsualStore { return }
        // A backup of a taskwidget from before backups were marked looks like a store: refused too.
        let what =
            isUsualStore
            ? "is the store taskwidget uses without --store"
            : "holds a store or another program's database (or a backup of an older taskwidget, which looks the same)"
        // Not "remove the file first": it may hold the user's tasks (helper-168).
        throw TaskWidgetError(
            .invalidInput, "\(file) \(what), not a backup: give the backup another path (`taskwidget ls --store \(file.shellQuoted)` shows what it holds)",
            context: "backup over a database")
    }
}

struct Restore: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "restore", _superCommandName: "taskwidget",
        abstract: "Replace the whole store with a backup, safely while watch, serve or notify follow it.",
        discussion: """
            FILE is a `taskwidget backup`, or a store file copied while nothing wrote to it. \
            Everything the store holds is replaced by what FILE holds, in one write that watch, \
            serve and notify show at once; sync then sends the differences to the servers as \
            for any other change: what sync knew of the servers is forgotten, so that its next \
            run reads every task there again and the restored copy wins: edits made since, here \
            or elsewhere, are undone, and tasks deleted since come back; tasks added elsewhere \
            since stay, and so do completions (sync never reopens a task). Copying a file over \
            the store instead (cp, mv, rsync) while any taskwidget runs mixes the two: SQLite \
            reads the copy with the store's pending changes on top. A store that holds anything \
            is replaced only with --yes. To add a backup's tasks to the store instead, export and \
            import them.

            Examples:
              taskwidget restore ~/backups/tasks.sqlite --yes
              taskwidget export --store ~/backups/tasks.sqlite | taskwidget import -
            """)
    @OptionGroup var options: GlobalOptions
    @Argument(help: "The backup to restore.", completion: .file()) var file: String
    @Flag(help: "Confirm that the store's lists, tasks and habits are replaced.") var yes = false

    func validate() throws {
        if file.isEmpty { throw ValidationError("restore needs the path of a backup") }
    }

    func run() throws {
        let context = try options.context()
        let file = try PathText.expandingHome(file, in: "the backup", environment: context.environment)
        // The store put back over itself said "Restored", and made sync forget what it knew of
        // the servers (helper-142).
        if let part = storePart(file, of: context.location.path) {
            throw TaskWidgetError(
                .invalidInput, "\(file) is \(part), not a backup of it: give a file `taskwidget backup` wrote", context: "restore from the store")
        }
        let store: TaskStore
        do {
            store = try context.storeForWriting()
        } catch let error as TaskWidgetError where error.code == .damagedStore || error.code == .storeVersion {
            // The store itself cannot be opened, to be written either (helper-127).
            let path = context.location.path
            throw TaskWidgetError(
                error.code,
                "\(error.message); to restore over it, first move it away with its -wal and -shm (mv \(path.shellQuoted) \((path + ".damaged").shellQuoted), and the same for \((path + "-wal").shellQuoted) and \((path + "-shm").shellQuoted))",
                context: error.context, cause: error)
        }
        let replaced = try store.counts()
        if !yes, !replaced.isEmpty {
            throw ValidationError(
                "restoring replaces the store's \(replaced.inWords): add --yes to confirm"
            )
        }
        let restored = try store.restore(from: file, now: context.now)
        print("Restored \(restored.inWords) from \(file)")
    }
}

/// What `file` is of the store at `storePath`, symbolic links followed: "the store itself", "the
/// store's -wal file" (or -shm, -journal); `nil` for another file.
private func storePart(_ file: String, of storePath: String) -> String? {
    if isSameFile(file, storePath) { return "the store itself" }
    let (target, store) = (resolvedPath(file), resolvedPath(storePath))
    return ["-wal", "-shm", "-journal"].first { target == store + $0 }.map { "the store's \($0) file" }
}

extension StoreCounts {
    /// “3 tasks, 1 list and 0 habits”.
    fileprivate var inWords: String { "\(counted(tasks, "task")), \(counted(lists, "list")) and \(counted(habits, "habit"))" }
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
    // Its own --store, whose default is the demo's store: TASKWIDGET_STORE and config.toml name
    // the user's own tasks.
    @Option(name: .long, help: ArgumentHelp("The store to fill (default: ~/.local/share/taskwidget/demo.sqlite, never $TASKWIDGET_STORE or config.toml's store).", valueName: "path"), completion: .file())
    var store: String?

    @Option(name: .long, help: GlobalOptions.timeZoneHelp)
    var tz: String?

    @Option(name: .long, help: GlobalOptions.nowHelp)
    var now: String?

    @Flag(name: .long, help: GlobalOptions.verboseHelp)
    var verbose = false

    func run() throws {
        let context = try GlobalOptions.context(tz: tz, now: now, verbose: verbose) { environment in
            let location = try store == nil ? StoreLocation.demo(environment: environment) : StoreLocation.resolve(explicitPath: store, environment: environment)
            return (location, nil)
        }
        let isDemoStoreThere = store == nil && FileManager.default.fileExists(atPath: context.location.path)
        let demoStore = try TaskStore.open(at: context.location, mode: .readWrite, logger: context.logger)
        let path = demoStore.path.shellQuoted
        do {
            try demoStore.fillWithDemoData(now: context.now, calendar: context.calendar)
        } catch let error as TaskWidgetError where error.code == .invalidInput && isDemoStoreThere {
            // The demo's own store, from an earlier demo (its dates are that day's): safe to remove.
            throw TaskWidgetError(
                .invalidInput, "the demo store \(demoStore.path) is there from an earlier demo: remove it for a new one (rm -f \(path) \((demoStore.path + "-wal").shellQuoted) \((demoStore.path + "-shm").shellQuoted)), or pass --store PATH")
        }
        print("""
            Filled \(demoStore.path) with sample lists, tasks and habits.
            Look at them with --store or TASKWIDGET_STORE, e.g.:
              taskwidget ls --store \(path)
              TASKWIDGET_STORE=\(path) taskwidget status --format waybar
            """)
    }
}
