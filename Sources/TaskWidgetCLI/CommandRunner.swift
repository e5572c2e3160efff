public import ArgumentParser
import CLinuxEvents
public import Foundation
import Logging
// glibc's own module, for `stdout`: through Glibc, Swift 6 refuses C globals it cannot prove safe.
@preconcurrency import SwiftGlibc
public import TaskWidgetCore

/// How every taskwidget program runs its command line: logs to stderr, every failure one
/// `taskwidget: …` line on stderr with its documented exit status (and with `--verbose` the cause
/// underneath), never a stack trace, and output that did not reach its file never ends in success.
public enum CommandRunner {
    /// Parses the arguments for `Root`, runs the command, and exits.
    public static func main<Root: ParsableCommand>(_ root: Root.Type, arguments: [String] = CommandLine.arguments) -> Never {
        ignoreFileSizeLimit()
        dropAbsurdTerminalSize()
        XDGPaths.unsetInvalidVariables()
        LoggingSystem.bootstrap(StreamLogHandler.standardError)
        var parsed = false
        do {
            try refuseTextNotInUTF8()
            try refuseTooFewOpenFiles()
            var command = try parse(root, Array(arguments.dropFirst()))
            parsed = true
            try command.run()
            try flushStandardOutput(arguments: arguments)
            exit(0)
        } catch {
            let failure = self.failure(for: error, root: root, arguments: arguments)
            endQuietlyIfTheReaderWentAway(failure.error)
            report(failure.error)
            exit(parsed ? failure.status : printBarLine(for: failure, root: root, arguments: arguments))
        }
    }

    /// Parses the arguments for `Root`, runs the command (asynchronous ones awaited), and exits.
    public static func main<Root: AsyncParsableCommand>(_ root: Root.Type, arguments: [String] = CommandLine.arguments) async -> Never {
        ignoreFileSizeLimit()
        dropAbsurdTerminalSize()
        XDGPaths.unsetInvalidVariables()
        LoggingSystem.bootstrap(StreamLogHandler.standardError)
        do {
            try refuseTextNotInUTF8()
            try refuseTooFewOpenFiles()
            var command = try Root.parseAsRoot(helpRequest(Array(arguments.dropFirst()), root: root))
            if var asynchronous = command as? any AsyncParsableCommand {
                try await asynchronous.run()
            } else {
                try command.run()
            }
            try flushStandardOutput(arguments: arguments)
            exit(0)
        } catch {
            let failure = self.failure(for: error, root: root, arguments: arguments)
            endQuietlyIfTheReaderWentAway(failure.error)
            report(failure.error)
            exit(failure.status)
        }
    }

    /// Refuses to run with fewer than 6 open files allowed (`ulimit -n`): with 5, SQLite and
    /// libdispatch raced for the last two, and a store that could not be opened came with a trap on
    /// a dispatch thread now and then; with 6, every command runs. Before the command line is
    /// parsed, so that a bar's `status` still prints its error line.
    static func refuseTooFewOpenFiles() throws(TaskWidgetError) {
        _ = try OpenFileLimit.ensure(atLeast: 6, for: "taskwidget")
    }

    /// Refuses an argument, or a variable naming a path, that is not UTF-8 (typed in another
    /// locale, a file name from another system): Swift reads its bytes as U+FFFD, and a title or
    /// name was saved so without a word, where standard input that is not UTF-8 is refused
    /// (helper-87).
    static func refuseTextNotInUTF8() throws(TaskWidgetError) {
        for index in 1..<Int(CommandLine.argc) {
            guard let argument = CommandLine.unsafeArgv[index], String(validatingCString: argument) == nil else { continue }
            throw TaskWidgetError(
                .invalidInput, "the argument “\(String(cString: argument).sanitizedForMessage)” is not UTF-8 text: give it in UTF-8 "
                    + "(a file or folder whose name is in another encoding: rename it in UTF-8)",
                context: "argument \(index) not UTF-8")
        }
        // And the current folder, which relative paths are read from: Swift names it with U+FFFD,
        // and a relative --out-dir made and filled a folder of that name (helper-174).
        var folder = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        if getcwd(&folder, folder.count) != nil, String(validatingCString: folder) == nil {
            throw TaskWidgetError(
                .invalidInput, "the current folder's name is not UTF-8 text: run taskwidget from another folder, or rename it in UTF-8",
                context: "current folder not UTF-8")
        }
        // So is a variable that names a file: the store was made in a folder of another name,
        // beside the one named (helper-89, helper-90).
        for name in pathVariables {
            guard let value = getenv(name), String(validatingCString: value) == nil else { continue }
            throw TaskWidgetError(.invalidInput, "\(name) is not UTF-8 text: set it in UTF-8 (rename a folder whose name is in another encoding), or taskwidget would use another path", context: "\(name) not UTF-8")
        }
    }

    /// The environment variables that name files taskwidget reads or writes.
    private static let pathVariables = [
        "HOME", "TASKWIDGET_STORE", "XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME", "XDG_RUNTIME_DIR",
    ]

    /// The command `arguments` ask for. A subcommand of `root` without subcommands of its own,
    /// named first, is parsed by itself: ArgumentParser's parse from the root also builds the
    /// argument sets of the root and of every command on the way (3.2 M of `status`'s 53.7 M
    /// instructions). What that cannot parse (help, a mistake, a nested command) is parsed from the
    /// root, as before, so that help and errors read the same. Such subcommands name the root as
    /// their `_superCommandName` (ArgumentParser's mark of a command run as part of another): parsed
    /// by themselves, they then leave the `--generate-completion-script` check to the root, which
    /// alone answers it (1.6 M instructions).
    static func parse(_ root: any ParsableCommand.Type, _ arguments: [String]) throws -> any ParsableCommand {
        let arguments = try helpRequest(arguments, root: root)
        if let name = arguments.first,
            let command = root.configuration.subcommands.first(where: { $0.configuration.commandName == name }),
            command.configuration.subcommands.isEmpty,
            let parsed = try? command.parseAsRoot(Array(arguments.dropFirst())),
            type(of: parsed) == command  // not the help ArgumentParser answers `--help` with
        {
            assert(
                command.configuration._superCommandName == root.configuration.commandName,
                "\(command) must name \(root) as its _superCommandName, or its parse builds the completion script's argument sets")
            return parsed
        }
        return try root.parseAsRoot(arguments)
    }

    /// `arguments`, with a request for help in the form ArgumentParser's help command reads:
    /// `help help` is `help`, and `list help add` (help asked for after a command that has
    /// subcommands, none named “help”) is `help list add`; `help COMMAND --verbose` (an option
    /// copied along with the command) loses its options, which the help command does not take.
    /// - Throws: a usage error when a name after `help` is no command (``checkHelpRequest(_:_:)``).
    static func helpRequest(_ arguments: [String], root: any ParsableCommand.Type) throws -> [String] {
        var words = arguments
        while words.count >= 2, words[0] == "help", words[1] == "help" { words.removeFirst() }
        var command = root
        var depth = 0
        while depth < words.count, let next = command.configuration.subcommands.first(where: { $0.configuration.commandName == words[depth] }) {
            command = next
            depth += 1
        }
        if depth > 0, depth < words.count, words[depth] == "help", !command.configuration.subcommands.isEmpty {
            words = ["help"] + words[..<depth] + words[(depth + 1)...]
        }
        guard words.first == "help" else { return words }
        // A program without subcommands (notify) has no help command: `help` is `--help`.
        guard !root.configuration.subcommands.isEmpty else { return ["--help"] }
        words = words.filter { !$0.hasPrefix("-") }
        try checkHelpRequest(root, words)
        return words
    }

    /// The options every command takes (``GlobalOptions``), which go after the command's name.
    private static let globalOptions: Set<Substring> = ["--store", "--tz", "--now", "--verbose"]

    /// `taskwidget --store x.sqlite ls`: options every command takes, given before the command as
    /// git's are. The error shows the command with them after it.
    static func optionsBeforeCommand(in arguments: [String], root: any ParsableCommand.Type) -> TaskWidgetError? {
        let words = Array(arguments.dropFirst())
        let names = Set(root.configuration.subcommands.compactMap { $0.configuration.commandName })
        guard let first = words.first, globalOptions.contains(first.prefix { $0 != "=" }),
            let commandIndex = words.firstIndex(where: names.contains)
        else { return nil }
        var command = Array(words[commandIndex...])
        command.insert(contentsOf: words[..<commandIndex], at: command.firstIndex(of: "--") ?? command.endIndex)
        let shown = ([root.configuration.commandName ?? "taskwidget"] + command).map { $0.removingControlCharacters.shellQuoted }
        return TaskWidgetError(
            .invalidInput, "\(first.prefix { $0 != "=" }) goes after the command's name, as in `\(shown.joined(separator: " "))`")
    }

    /// `help NAME…` where a NAME is no command (of `root`, or of the command before it) is a usage
    /// error: ArgumentParser answers it with the help of the last command it knows, and exit 0.
    static func checkHelpRequest(_ root: any ParsableCommand.Type, _ arguments: [String]) throws {
        // The names after `help` are a command line's after the program's name.
        guard arguments.first == "help", let error = mistypedCommand(in: arguments, root: root) else { return }
        throw error
    }

    /// `name`, given where a subcommand of `command` goes, if it is none: the error names the
    /// nearest one (`lst`: did you mean “ls”?), or says where they are listed.
    static func unknownCommand(_ name: String, of command: any ParsableCommand.Type, path: String) -> TaskWidgetError? {
        let names = command.configuration.subcommands.compactMap { $0.configuration.commandName }
        guard !names.isEmpty, !name.hasPrefix("-"), !names.contains(name) else { return nil }
        let help = "`\(path) --help` lists them"
        let meant = synonyms[name.lowercased()].flatMap { names.contains($0) ? $0 : nil } ?? NameLookup.closest(to: name, among: names)
        let hint = meant.map { "did you mean “\($0)”? (\(help))" } ?? help
        return TaskWidgetError(.invalidInput, "there is no command “\(name.sanitizedForMessage)”: \(hint)")
    }

    /// Other tools' names for commands, which no spelling is near (`remove` is nearest to `move`),
    /// and the typo meant of two as near (`lst`: `ls` and `list`).
    private static let synonyms = [
        "remove": "rm", "delete": "rm", "del": "rm", "list": "ls", "lst": "ls", "complete": "done", "finish": "done", "new": "add", "create": "add",
        "mv": "move", "rn": "rename", "ren": "rename",
    ]

    /// A mistyped command in `arguments` (`taskwidget lst`, `taskwidget list lss`): the first
    /// word after a command with subcommands that names none of them.
    static func mistypedCommand(in arguments: [String], root: any ParsableCommand.Type) -> TaskWidgetError? {
        var path = root.configuration.commandName ?? "taskwidget"
        var command = root
        for argument in arguments.dropFirst() {
            if let next = command.configuration.subcommands.first(where: { $0.configuration.commandName == argument }) {
                path += " " + argument
                command = next
                continue
            }
            return unknownCommand(argument, of: command, path: path)
        }
        return nil
    }

    /// `error` as the one line to report, with the exit status it documents.
    private static func failure(
        for error: any Error, root: any ParsableCommand.Type, arguments: [String]
    ) -> (error: TaskWidgetError, status: Int32) {
        if let error = error as? TaskWidgetError {
            return (error, error.code.exitStatus)
        }
        if let misplaced = optionsBeforeCommand(in: arguments, root: root) {
            return (misplaced, misplaced.code.exitStatus)
        }
        let message = root.message(for: error)
        if let misread = dashedText(in: arguments) ?? dashedValue(for: message, in: arguments)
            ?? dashedWord(in: arguments, for: message, showsHelp: root.exitCode(for: error) == .success)
        {
            return (misread, misread.code.exitStatus)
        }
        let status = root.exitCode(for: error)
        guard status != .success else { printHelp(for: error, root: root) }
        if let unknown = unknownOptionGiven(in: arguments, root: root) {
            return (unknown, unknown.code.exitStatus)
        }
        // A mistyped command, which ArgumentParser calls an unexpected argument, or, when an
        // option follows it (`list edit Home --name Haus`), an unknown option of the command before.
        if let mistyped = mistypedCommand(in: arguments, root: root) {
            return (mistyped, mistyped.code.exitStatus)
        }
        if let split = unquotedTitle(for: message, in: arguments) ?? unquotedValue(for: message, in: arguments, root: root)
            ?? inboxOption(for: message, in: arguments)
        {
            return (split, split.code.exitStatus)
        }
        let (command, path, _) = commandNamed(by: arguments, root: root)
        let line = unknownOption(in: message, of: command, root: root) ?? oneLine(message)
        return (TaskWidgetError(.invalidInput, "\(line.asClause) (see `\(path) --help`)"), status.rawValue)
    }

    /// ArgumentParser's message for an unknown long option, with its suggestion made by the rule
    /// list and habit names follow (``NameLookup/closest(to:among:)``) among the options
    /// `command`'s help lists, or none: ArgumentParser's own is loose and unlike ours
    /// (`add --dew`: “Did you mean '--now'?”, beside `--due`; `ls --done`: '--store').
    static func unknownOption(in message: String, of command: any ParsableCommand.Type, root: any ParsableCommand.Type) -> String? {
        let prefix = "Unknown option '--"
        guard message.hasPrefix(prefix), let end = message.dropFirst(prefix.count).firstIndex(of: "'") else { return nil }
        let typed = String(message[message.index(message.startIndex, offsetBy: prefix.count)..<end])
        let meant = NameLookup.closest(to: typed, among: longOptions(of: command, root: root), preferringLettersKept: true)
        return "Unknown option '--\(typed)'" + (meant.map { ". Did you mean '--\($0)'?" } ?? "")
    }

    /// A long option in `arguments` that the command they name does not take, as the error to
    /// report before any other: ArgumentParser and the commands' checks may speak of its effects
    /// instead (`snooze --top --bye 1d`: "give task ids or --top, not both"; `sync account add a
    /// --ur URL`: "missing expected argument '--url <url>'"). Words after `--`, and words with a
    /// space (a title such as "--- notes ---", which ``dashedText(in:)`` explains), are no options.
    static func unknownOptionGiven(in arguments: [String], root: any ParsableCommand.Type) -> TaskWidgetError? {
        // A mistyped command (`lst --all`) is the mistake to name: its options are unknown.
        guard mistypedCommand(in: arguments, root: root) == nil else { return nil }
        let (command, path, chain) = commandNamed(by: arguments, root: root)
        let words = arguments.dropFirst().prefix { $0 != "--" }
        let names = words.filter { $0.hasPrefix("--") && $0.count > 2 }.map { String($0.dropFirst(2).prefix { $0 != "=" }) }
        guard !names.isEmpty else { return nil }
        // The commands' above it too, which ArgumentParser takes after a subcommand's name (and
        // serve's refuses itself, saying whose they are).
        let known = Set(chain.flatMap { longOptions(of: $0, root: root) })
        guard let typed = names.first(where: { !known.contains($0) && !$0.contains(" ") }) else { return nil }
        let message = "Unknown option '--\(typed)'"
        if let inbox = inboxOption(for: message, in: arguments) { return inbox }
        guard let line = unknownOption(in: message, of: command, root: root) else { return nil }
        return TaskWidgetError(.invalidInput, "\(line.asClause) (see `\(path) --help`)")
    }

    /// The long options (without their dashes) that `command`'s help lists, hidden ones too,
    /// e.g. `due`, `remind`.
    static func longOptions(of command: any ParsableCommand.Type, root: any ParsableCommand.Type) -> [String] {
        let help =
            command == root
            ? root.helpMessage(includeHidden: true, columns: 10_000) : root.helpMessage(for: command, includeHidden: true, columns: 10_000)
        return help.split(separator: "\n").flatMap { line -> [String] in
            // `  -h, --help   Show help information.`: the names end where two spaces start the text.
            guard line.hasPrefix("  -"), let names = line.dropFirst(2).components(separatedBy: "  ").first else { return [] }
            return names.split(whereSeparator: { $0 == "," || $0 == " " || $0 == "/" })
                .filter { $0.hasPrefix("--") }.map { String($0.dropFirst(2)) }
        }
    }

    /// A command line that does not parse still gives a bar the line it reads: when the command
    /// named first prints a line for a bar (``BarLineCommand``), prints its line for the failure,
    /// and returns the exit status the run then takes.
    private static func printBarLine(
        for failure: (error: TaskWidgetError, status: Int32), root: any ParsableCommand.Type, arguments: [String]
    ) -> Int32 {
        guard let name = arguments.dropFirst().first,
            let command = root.configuration.subcommands.first(where: { $0.configuration.commandName == name }) as? any BarLineCommand.Type,
            let exitsNormally = command.printLine(for: failure.error, arguments: Array(arguments.dropFirst(2)))
        else { return failure.status }
        return exitsNormally ? 0 : failure.status
    }

    /// An argument that starts with a dash and holds a space, which no option does: text (a title
    /// such as "- buy milk") that ArgumentParser read as options, and then asked for what it missed,
    /// or showed the help for a cluster with an `h` in it, adding nothing. The error says how to
    /// write it: after `--`, or joined to its option with `=`. (`--due=tomorrow 9am` is an option
    /// with its value: its `=` comes before the space.)
    static func dashedText(in arguments: [String]) -> TaskWidgetError? {
        let words = arguments.dropFirst().prefix { $0 != "--" }
        let text = words.first { word in
            let option = word.prefix { !$0.isWhitespace }
            return word.count > 1 && option.hasPrefix("-") && option.count < word.count && !option.contains("=")
        }
        return text.map(startsWithADash)
    }

    /// `text`, read as options: how to write it.
    private static func startsWithADash(_ text: String) -> TaskWidgetError {
        let quoted = text.removingControlCharacters.shellQuoted
        return TaskWidgetError(
            .invalidInput, "\(quoted) starts with a dash, so it reads as options: put it after --, which goes after the options, or join it to its option as --OPTION=\(quoted)")
    }

    /// `add -hydrate` (or `list add -home`, `habit add -5`): a title or name of one word that
    /// starts with a dash reads as short options; with an `h` among them ArgumentParser showed
    /// the help and exit 0, nothing added, else it said the title was missing. The error says
    /// how to write it. (`add -help` is still the help.)
    static func dashedWord(in arguments: [String], for message: String, showsHelp: Bool) -> TaskWidgetError? {
        guard showsHelp || message.hasPrefix("Missing expected argument"), let command = titledCommand(in: arguments) else { return nil }
        let words = arguments.dropFirst(1 + command.count).prefix { $0 != "--" }
        let word = words.first { word in
            word.hasPrefix("-") && !word.hasPrefix("--") && word != "-help" && word.count >= (showsHelp ? 3 : 2) && (!showsHelp || word.contains("h"))
        }
        return word.map(startsWithADash)
    }

    /// The command of `arguments` whose argument is a title or a name of the user's, if it is one.
    private static func titledCommand(in arguments: [String]) -> [String]? {
        let command = arguments.dropFirst().first == "add" ? ["add"] : Array(arguments.dropFirst().prefix(2))
        return command == ["add"] || command == ["list", "add"] || command == ["habit", "add"] ? command : nil
    }

    /// `taskwidget add Pay rent` (or `list add Side project`, `habit add Morning run`): a title or
    /// name of several words, not quoted, which ArgumentParser calls unexpected arguments after the
    /// first. The error shows it quoted.
    static func unquotedTitle(for message: String, in arguments: [String]) -> TaskWidgetError? {
        guard message.hasPrefix("Unexpected argument"), let command = titledCommand(in: arguments) else { return nil }
        let words = arguments.dropFirst(1 + command.count).prefix { !$0.hasPrefix("-") }
        guard words.count > 1 else { return nil }
        let (what, quoted) = (command == ["add"] ? "title" : "name", words.joined(separator: " ").removingControlCharacters.shellQuoted)
        return TaskWidgetError(
            .invalidInput, "a \(what) of several words is one argument: quote it, as in `taskwidget \(command.joined(separator: " ")) \(quoted)`")
    }

    /// `--remind tomorrow 9am`, `edit ID --title Pay the rent`, `habit check Drink water`: a value
    /// of several words, not quoted, whose words after the first ArgumentParser calls unexpected
    /// arguments. The error shows it quoted, after its option if it has one.
    static func unquotedValue(for message: String, in arguments: [String], root: any ParsableCommand.Type) -> TaskWidgetError? {
        // The words of the command's name (`taskwidget habit check`) are no value.
        let path = commandNamed(by: arguments, root: root).path
        let nameLength = path.split(separator: " ").count
        // `ls Work`: a list is shown with --list (helper-119).
        if path == "taskwidget ls", let match = message.firstMatch(of: /nexpected arguments?:? '([^']*)'/), arguments.count > nameLength,
            arguments[nameLength] == String(match.output.1), !match.output.1.hasPrefix("-")
        {
            // Which also says there is no search: the word named no list (helper-142).
            let word = String(match.output.1).removingControlCharacters.shellQuoted
            return TaskWidgetError(
                .invalidInput,
                "`taskwidget ls` takes options, not words: to show one list, give --list \(word); to find tasks by a word (ls has no search), "
                    + "`COLUMNS=200 taskwidget ls | grep -i \(word)`")
        }
        guard let match = message.firstMatch(of: /nexpected arguments?:? '([^']*)'/),
            let index = arguments.indices.dropFirst(nameLength + 1).first(where: { arguments[$0] == String(match.output.1) })
        else { return nil }
        // `add -- 'Pay rent' --due tomorrow`: quoting the title was said, which it was (helper-136).
        if match.output.1.hasPrefix("-"), let separator = arguments.firstIndex(of: "--"), separator < index {
            return TaskWidgetError(
                .invalidInput,
                "\(String(match.output.1).removingControlCharacters.shellQuoted) comes after --, which makes what follows it words, not options: put the options before --")
        }
        guard !arguments[index - 1].hasPrefix("-") else { return nil }
        // A value that is a number or a name from a set (`--format text extra`) is not what quoting
        // mends: ArgumentParser's "unexpected argument" is right there (helper-92).
        guard !singleWordOptions.contains(arguments[index - 2]) else { return nil }
        // `add foo -`: quoted, it named a title `foo` and dropped the `-` (helper-119).
        if match.output.1 == "-" {
            return path == "taskwidget add"
                ? TaskWidgetError(.invalidInput, "add takes a title, or - to read titles from standard input, not both") : nil
        }
        let words = arguments[(index - 1)...].prefix { !$0.hasPrefix("-") }
        let option = arguments[index - 2].hasPrefix("-") ? arguments[index - 2].removingControlCharacters + " " : ""
        // `import a.json b.json`: quoted, the two names made one of no file (helper-135).
        if option.isEmpty, oneFileCommands.contains(path) {
            // A restore replaces the whole store: once for each would keep the last alone (helper-137).
            let advice = path == "taskwidget restore" ? "the backup to put in the store's place" : "run it once for each"
            return TaskWidgetError(.invalidInput, "`\(path)` takes one file: \(advice)")
        }
        if option.isEmpty, oneTaskCommands.contains(path), let id = words.first, isTaskIDLike(id) {
            // `start ID ID`: quoted, the ids named no task, and 8000 of them made a line of 300 KB (helper-88).
            if words.allSatisfy(isTaskIDLike) {
                return TaskWidgetError(.invalidInput, "`\(path)` takes one task id: run it for each (done, undo and rm take several)")
            }
            // `edit ID new title`: quoted with the id, it named no task (helper-119).
            let rest = words.dropFirst().joined(separator: " ").removingControlCharacters.shellQuoted
            let advice = path == "taskwidget edit" ? ", then options: to change its title, give --title \(rest)" : ""
            return TaskWidgetError(.invalidInput, "`\(path)` takes one task id\(advice) (see `\(path) --help`)")
        }
        let quoted = words.joined(separator: " ").removingControlCharacters.shellQuoted
        // `list rm Home Work`: two lists, most likely, not one named "Home Work" (helper-142).
        if option.isEmpty, oneNameCommands.contains(path) {
            return TaskWidgetError(.invalidInput, "`\(path)` takes one name: run it once for each, or quote a name of several words, as in `\(quoted)`")
        }
        return TaskWidgetError(.invalidInput, "a value of several words is one argument: quote it, as in `\(option)\(quoted)`")
    }

    /// The options whose value is a number or one name of a set, never words.
    private static let singleWordOptions: Set = [
        "--format", "--max-width", "--color", "--status", "--to", "--family", "--scale", "--theme", "--depth", "--image-format", "--rotate",
        "--size", "--listen",
    ]

    /// The commands whose argument is one task id.
    private static let oneTaskCommands: Set = ["taskwidget start", "taskwidget stop", "taskwidget edit", "taskwidget move"]

    /// The commands that take one name, whose words may name several.
    private static let oneNameCommands: Set = ["taskwidget list rm", "taskwidget habit rm"]

    /// The commands that take one file.
    private static let oneFileCommands: Set = ["taskwidget import", "taskwidget restore", "taskwidget backup"]

    /// Whether `word` reads as a task id or a prefix of one (`ls` prints 8 hex digits).
    private static func isTaskIDLike(_ word: String) -> Bool {
        (4...36).contains(word.count) && word.allSatisfy { $0.isHexDigit || $0 == "-" }
    }

    /// `add --inbox`, `edit ID --inbox`: the commands that put a task somewhere name the Inbox
    /// as a list. ArgumentParser suggested `--now`.
    static func inboxOption(for message: String, in arguments: [String]) -> TaskWidgetError? {
        guard message.hasPrefix("Unknown option '--inbox'"), let command = arguments.dropFirst().first, ["add", "edit"].contains(command) else {
            return nil
        }
        return TaskWidgetError(.invalidInput, "\(command) names the Inbox as a list: --list inbox (see `taskwidget \(command) --help`)")
    }

    /// A value that starts with a dash (`--max-width -1`) reads as an option, and ArgumentParser
    /// then says the option's value is missing: the error says to join them. A time or a day
    /// (`--due -2h`, `--date -1`) is never counted back, so joined it would only fail again: the
    /// error shows how to name an earlier one.
    static func dashedValue(for message: String, in arguments: [String]) -> TaskWidgetError? {
        guard let match = message.firstMatch(of: /^Missing value for '(--[a-z-]+)/),
            let index = arguments.firstIndex(of: String(match.output.1)), index + 1 < arguments.count,
            arguments[index + 1].wholeMatch(of: /-[0-9+.][^ ]*/) != nil
                || (textOptions.contains(String(match.output.1)) && arguments[index + 1].wholeMatch(of: /-[^-].*/) != nil)
        else { return nil }
        let (option, value) = (String(match.output.1), arguments[index + 1].removingControlCharacters)
        if let advice = countedBackAdvice[option] {
            return TaskWidgetError(.invalidInput, "\(option) \(value): times are not counted back; \(advice)")
        }
        return TaskWidgetError(.invalidInput, "\(value) after \(option) reads as an option: join them as \(option)=\(value.shellQuoted)")
    }

    /// The options whose value is the user's text (`edit --title -dash`), which may start with a dash.
    private static let textOptions: Set<String> = ["--title", "--list"]

    /// The options that take a time (WHEN), a day or a delay, with what to give instead of a time
    /// counted back.
    private static let countedBackAdvice = [
        "--due": "name an earlier one, as in --due 'today 9am'", "--remind": "name an earlier one, as in --remind 'today 9am'",
        "--date": "name the day, as in --date yesterday", "--at": "--at is from now to 24 hours later (use --now to draw another day)",
        "--by": "snooze moves a task later, as in --by 1h",
    ]

    /// The first line of ArgumentParser's `message`. The values an option takes, which it lists
    /// one per line under "one of the following:" when there are six or more, are folded into that
    /// line as it writes shorter lists: "one of 'a', 'b' or 'c'". Two values are a choice as well:
    /// "one of 'png' or 'bmp'", where ArgumentParser writes "and".
    static func oneLine(_ message: String) -> String {
        let lines = message.split(separator: "\n")
        guard let first = lines.first else { return "bad usage" }
        let (heading, items) = (" the following:", lines.dropFirst())
        if first.hasSuffix(heading), let last = items.last, items.allSatisfy({ $0.hasPrefix("  - ") }) {
            let quoted = { (item: Substring) in "'\(item.dropFirst(4))'" }
            let list = items.count == 1 ? quoted(last) : items.dropLast().map(quoted).joined(separator: ", ") + " or " + quoted(last)
            return first.dropLast(heading.count) + " " + list
        }
        if let values = first.range(of: "provide one of '"), let and = first.range(of: "' and '", range: values.upperBound..<first.endIndex) {
            return first.replacingCharacters(in: and, with: "' or '")
        }
        return String(first)
    }

    /// `taskwidget: MESSAGE` on stderr, and with `--verbose` the cause underneath.
    public static func report(_ error: TaskWidgetError) {
        // A name quoted from the store may hold control characters (written there by hand).
        writeToStandardError("taskwidget: \(error.message.removingControlCharacters)\n")
        if let cause = error.cause, CommandLine.arguments.contains("--verbose") {
            writeToStandardError("taskwidget: cause: \("\(cause)".removingControlCharacters)\n")
        }
    }

    /// `taskwidget list rm`: the command the user was running, for the help hint of an error.
    /// `chain` is every command from `root` down to it.
    private static func commandNamed(by arguments: [String], root: any ParsableCommand.Type) -> (
        command: any ParsableCommand.Type, path: String, chain: [any ParsableCommand.Type]
    ) {
        var path = [root.configuration.commandName ?? "taskwidget"]
        var chain = [root]
        for argument in arguments.dropFirst() {
            guard
                let next = chain.last!.configuration.subcommands.first(where: {
                    ($0.configuration.commandName ?? String(describing: $0).lowercased()) == argument
                })
            else { break }
            path.append(argument)
            chain.append(next)
        }
        return (chain.last!, path.joined(separator: " "), chain)
    }

    /// Help, the version or a completion script, as ArgumentParser prints them, but checked as any
    /// output is: `--help > /dev/full` exited 0 (helper-74).
    private static func printHelp(for request: any Error, root: any ParsableCommand.Type) -> Never {
        print(root.fullMessage(for: request))
        do {
            try flushStandardOutput()
        } catch {
            endQuietlyIfTheReaderWentAway(error)
            report(error)
            exit(error.code.exitStatus)
        }
        exit(0)
    }

    /// A reader of standard output that went away (`render -o - | head -c 8`) ends the command as
    /// it ends `cat`: by SIGPIPE, without a word (141 in a shell). A program that ignores SIGPIPE
    /// (render, for its drawing helper) sees the write fail with EPIPE instead, and said so (74).
    private static func endQuietlyIfTheReaderWentAway(_ error: TaskWidgetError) {
        guard error.isStandardOutputReaderGone else { return }
        signal(SIGPIPE, SIG_DFL)
        var pipeSignal = sigset_t()
        sigemptyset(&pipeSignal)
        sigaddset(&pipeSignal, SIGPIPE)
        pthread_sigmask(SIG_UNBLOCK, &pipeSignal, nil)
        raise(SIGPIPE)
    }

    /// Unsets a `COLUMNS` or `LINES` that no terminal has: ArgumentParser's help trapped (SIGILL)
    /// on `COLUMNS=-9223372036854775807` (helper-90).
    private static func dropAbsurdTerminalSize() {
        for name in ["COLUMNS", "LINES"] {
            guard let value = getenv(name) else { continue }
            if !(Int(String(cString: value)).map { (1...100_000).contains($0) } ?? true) { unsetenv(name) }
        }
    }

    /// Whether standard output is a pipe whose reader has closed it.
    private static func isStandardOutputReaderGone() -> Bool {
        var descriptor = pollfd(fd: STDOUT_FILENO, events: Int16(POLLOUT), revents: 0)
        return poll(&descriptor, 1, 0) == 1 && descriptor.revents & Int16(POLLERR) != 0
    }

    /// A write past the file size limit (`ulimit -f`, systemd's LimitFSIZE=) fails with EFBIG, which
    /// the command reports as the I/O error it is (exit 74), instead of SIGXFSZ killing the process
    /// with a core dump.
    private static func ignoreFileSizeLimit() {
        signal(SIGXFSZ, SIG_IGN)
    }

    /// `print` buffers and reports nothing: output that did not reach its file (a full disk, a
    /// closed descriptor) must not end in success, or `export > backup.json` looks like a backup.
    /// A change the command committed stays made, and the error says so, and where to see it.
    private static func flushStandardOutput(arguments: [String] = []) throws(TaskWidgetError) {
        var failure: TaskWidgetError
        if fflush(stdout) != 0 {
            failure = .standardOutput(errno)
        } else if ferror(stdout) != 0 {
            // `print` keeps no errno. With SIGPIPE ignored (systemd's IgnoreSIGPIPE), a reader gone
            // read as "a write failed" (74) where `export` ended quietly (helper-90).
            // A write of nothing names a closed one (EBADF), which `timeline >&-` said "a write
            // failed" of where `ls >&-` said "bad file descriptor" (helper-110).
            if isStandardOutputReaderGone() {
                failure = .standardOutput(EPIPE)
            } else if write(STDOUT_FILENO, "", 0) == -1 {
                failure = .standardOutput(errno)
            } else {
                failure = TaskWidgetError(.ioFailure, "cannot write to standard output: a write failed")
            }
        } else {
            return
        }
        if SavedChanges.wereMade {
            // The command that shows it; the siblings' arguments start after `serve` or `sync`.
            let listings = ["habit": "habit ls", "list": "list ls", "device": "serve device ls", "account": "sync account ls", "token": nil]
            let listing = listings[arguments.dropFirst().first ?? ""] ?? "ls"
            failure.message += ": the change itself was made" + (listing.map { " (taskwidget \($0) shows it)" } ?? "")
        }
        throw failure
    }
}

/// Flushes what `print` buffered, then, when standard output is a pipe or a socket (a bar's), waits
/// without waking until its reader goes away or SIGTERM, SIGINT or SIGHUP comes, and returns: the
/// command then exits with its error's status (those signals killed it, 143 for 64). Returns at
/// once on a terminal or a file.
public func holdStandardOutputWhileItIsRead() {
    fflush(stdout)
    guard stat.of(descriptor: STDOUT_FILENO)?.isPipeOrSocket == true else { return }
    // Blocked, and read from a signalfd: one that came before ends the wait at once.
    var terminating = sigset_t()
    sigemptyset(&terminating)
    for signal in [SIGTERM, SIGINT, SIGHUP] { sigaddset(&terminating, signal) }
    pthread_sigmask(SIG_BLOCK, &terminating, nil)
    let signals = signalfd(-1, &terminating, Int32(SFD_CLOEXEC))
    // No events asked of stdout: poll reports only the reader's end (POLLERR, POLLHUP).
    var descriptors = [pollfd(fd: STDOUT_FILENO, events: 0, revents: 0), pollfd(fd: signals, events: Int16(POLLIN), revents: 0)]
    while poll(&descriptors, 2, -1) < 0 && errno == EINTR {}
}

/// Writes `data` to standard output's buffer, as `print` does, without making a String of it (the
/// exit flushes the rest and checks it too).
public func writeToStandardOutput(_ data: Data) throws {
    let written = data.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, stdout) }
    if written < data.count { throw TaskWidgetError.standardOutput(errno) }
}

/// Prints a command's line of confirmation (`Completed 3f2a Pay rent`) without control
/// characters: the titles and names it quotes come from the store, which a program other than
/// taskwidget (sqlite3) may have written escape sequences into.
public func printConfirmation(_ line: String) {
    print(line.removingControlCharacters)
}

/// Writes to standard error; a closed or full standard error is ignored (the exit status still
/// tells), where `FileHandle.write(_:)` would crash the process.
public func writeToStandardError(_ text: String) {
    try? FileHandle.standardError.write(contentsOf: Data(text.utf8))
}

/// A command whose standard output a status bar reads: a command line that does not parse
/// (`status --format waybar --max-widht 20` in a bar's config) still prints a line of its format,
/// as the command prints for the errors of its run.
public protocol BarLineCommand: ParsableCommand {
    /// Prints the line for `failure` when `arguments` (those after the command's name) choose a
    /// format, and says whether the run then exits 0, as it does for that format's errors; `nil`
    /// when it printed nothing.
    static func printLine(for failure: TaskWidgetError, arguments: [String]) -> Bool?
}
