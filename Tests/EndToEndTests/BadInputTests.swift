import Foundation
import Glibc
import GRDB
import Testing

@testable import TaskWidgetTestSupport

/// Every bad input gives one `taskwidget: …` line on stderr, the documented exit status, no stack
/// trace, and leaves the store exactly as it was (same export, integrity ok).
@Suite(.serialized, .runsPrograms(onThreadNamed: "bad input")) struct BadInputTests {
    /// A store with two lists, a habit, and two tasks whose ids share the prefix `abcd`.
    static func populatedSandbox() throws -> Sandbox {
        let sandbox = try Sandbox()
        try sandbox.succeed(["list", "add", "Home"])
        try sandbox.succeed(["add", "Pay rent", "--new-list", "--list", "Home", "--due", "tomorrow"])
        try sandbox.succeed(["habit", "add", "Walk"])
        try sandbox.succeed(["habit", "check", "Walk"])  // a history, which `habit rm` asks --yes for
        try sandbox.importTasks([("ABCD0000-0000-4000-8000-000000000001", "Twin one"), ("ABCD1111-0000-4000-8000-000000000002", "Twin two")])
        return sandbox
    }

    static let usageCases: [[String]] = [
        ["add", ""],
        ["add", "   "],
        ["add", "bell\u{7}title"],
        ["add", "two\nlines"],
        ["add", String(repeating: "x", count: 1001)],
        ["add", "Due when?", "--due", "next blue moon"],
        ["add", "Due when?", "--due", "25:00"],
        ["add", "Remind when?", "--remind", "2026-02-30"],
        ["add", "Typo", "--list", "Hmoe"],
        ["add", "Nowhere", "--new-list"],
        ["add", "Reserved", "--list", "inbox", "--new-list"],
        ["done", "ffff"],
        ["done", "abcd"],
        ["done", "xyz!"],
        ["done", "abc"],
        ["edit", "abcd0", "--list", "Nope"],
        ["edit", "abcd0"],
        ["ls", "--list", "Nope"],
        ["ls", "--list", "Home", "--inbox"],
        ["list", "rename", "Inbox", "Later"],
        ["list", "add", "home"],
        ["list", "add", "Work", "--color", "12345G"],
        ["list", "color", "Home", "blue"],
        ["list", "rename", "Nope", "Other"],
        ["list", "rm", "Home"],
        ["list", "move", "Home", "--to", "0"],
        ["list", "move", "Hmoe", "--to", "1"],
        ["habit", "add", "walk"],
        ["habit", "check", "Run"],
        ["habit", "check", "Walk", "--date", "2030-01-01"],
        ["habit", "check", "Walk", "--status", "maybe"],
        ["habit", "rm", "Walk"],
        ["habit", "edit", "Walk"],
        ["habit", "edit", "Walk", "--icon", ""],
        ["habit", "toggle", "Wlak"],
        ["move", "abcd0", "--to", "0"],
        ["ls", "--tz", "Mars/Olympus"],
        ["ls", "--now", "yesterday-ish"],
        ["frobnicate"],
        ["add"],
    ]

    @Test(arguments: usageCases)
    func badUsageExits64AndChangesNothing(arguments: [String]) throws {
        try Self.populatedSandbox().expectRefused(arguments, status: 64)
    }

    /// `rm` and `undo` without ids say what to give, as `done` does, where argument-parser said
    /// "missing expected argument '<ids> ...'" (helper-129).
    @Test func rmAndUndoWithoutIdsSayWhatToGive() throws {
        let sandbox = try Self.populatedSandbox()
        try sandbox.expectRefused(["rm"], status: 64, message: "taskwidget: give task ids: `taskwidget ls` shows them (see `taskwidget rm --help`)")
        try sandbox.expectRefused(
            ["undo"], status: 64, message: "taskwidget: give task ids: `taskwidget ls --all` shows completed ones (see `taskwidget undo --help`)")
    }

    /// `--new-list` with the Inbox: the refusal says that the Inbox needs no making, rather than
    /// asking for the --list that was given.
    /// From a folder deleted since, a relative path is refused as such: the errors said the file
    /// was missing and advised making it there (a first `add`, "create it first"), which failed
    /// too (helper-104, helper-110).
    @Test func aRelativePathFromADeletedFolderIsRefused() throws {
        let sandbox = try Sandbox()
        try sandbox.succeed(["add", "Pay rent"])
        let gone = sandbox.folder.appendingPathComponent("gone").path
        let fromGone = "mkdir \"$1\" && cd \"$1\" && rmdir \"$1\" && shift && exec \"$@\""
        let store = ["--store", sandbox.storePath]
        let cases: [(arguments: [String], variable: String?, path: String, source: String)] = [
            (["add", "x", "--store", "tasks.sqlite"], nil, "tasks.sqlite", "--store"),
            (["ls"], "rel.sqlite", "rel.sqlite", "TASKWIDGET_STORE"),
            (["render", "-o", "w.png"] + store, nil, "w.png", "-o"),
            (["import", "rel.json"] + store, nil, "rel.json", "the file to import"),
            (["status", "--template", "t.mustache"] + store, nil, "t.mustache", "--template"),
        ]
        for (arguments, variable, path, source) in cases {
            var environment = sandbox.environment
            environment["TASKWIDGET_STORE"] = variable
            let result = try ProcessRunner.run("/bin/sh", ["-c", fromGone, "sh", gone, Sandbox.binary.path] + arguments, environment: environment)
            #expect(result.status == 74, "\(arguments)")
            #expect(
                result.stderr.hasSuffix("taskwidget: the current folder was deleted, so the relative path \(path) (\(source)) names no file: "
                    + "cd to a folder that exists, or give an absolute path\n"), "\(arguments): \(result.stderr)")
        }
    }

    /// A store's `-wal`, `-shm` or sync lock given as a store is refused: `add` made a database of
    /// the -wal beside the store (helper-108), and of the lock (helper-109).
    @Test func aStoresJournalIsNoStore() throws {
        let sandbox = try Sandbox()
        try sandbox.succeed(["add", "Pay rent"])
        let before = try sandbox.succeed(["export"])
        for suffix in ["-wal", "-shm", ".sync-lock"] {
            if suffix == ".sync-lock" { FileManager.default.createFile(atPath: sandbox.storePath + suffix, contents: nil) }
            try sandbox.expectRefused(
                ["add", "oops", "--store", sandbox.storePath + suffix], status: 64,
                message: "\(sandbox.storePath + suffix) is the \(suffix.dropFirst()) file of the store \(sandbox.storePath), kept beside it: "
                    + "give --store the store itself, \(sandbox.storePath)")
        }
        #expect(try sandbox.succeed(["export"]) == before)
    }

    /// An export given as a store is named for what it is, and left as it is: "not a taskwidget
    /// store or is damaged: restore it from a backup" sent the user to restore a good file
    /// (helper-129).
    @Test func anExportGivenAsTheStoreIsNamedAsOne() throws {
        let sandbox = try Sandbox()
        try sandbox.succeed(["add", "Pay rent"])
        let export = sandbox.folder.appendingPathComponent("backup.json")
        let text = try sandbox.succeed(["export"])
        try Data(text.utf8).write(to: export)
        for command in [["ls"], ["add", "oops"]] {
            try sandbox.expectRefused(
                command + ["--store", export.path], status: 65,
                message: "\(export.path) is an export (JSON), not a store: add what it holds to a store with `taskwidget import \(export.path)`, or pass a store with --store")
        }
        #expect(try String(contentsOf: export, encoding: .utf8) == text)
        #expect(!FileManager.default.fileExists(atPath: export.path + "-wal") && !FileManager.default.fileExists(atPath: export.path + "-shm"))
    }

    @Test func newListWithTheInboxSaysTheInboxIsAlwaysThere() throws {
        try Self.populatedSandbox().expectRefused(["add", "Reserved", "--list", "Inbox", "--new-list"], status: 64, message: "the Inbox is always there")
    }

    /// ArgumentParser lists six values or more one per line: the one line of the error still names
    /// them all, as it does fewer; two values are a choice ("or") too.
    @Test func aBadValueOfAnOptionNamesTheValuesItTakes() throws {
        let sandbox = try Sandbox()
        let format = try sandbox.run(["status", "--format", "bogus"])
        #expect(format.status == 64 && format.stderrLines.count == 1)
        #expect(format.stderr.contains("one of 'text', 'json', 'waybar', 'i3bar', 'polybar' or 'tmux' (see `taskwidget status --help`)"), "\(format.stderr)")
        let color = try sandbox.run(["ls", "--color", "bogus"])
        #expect(color.status == 64 && color.stderr.contains("one of 'auto', 'always' or 'never' (see `taskwidget ls --help`)"), "\(color.stderr)")
        let listing = try sandbox.run(["ls", "--format", "yaml"])
        #expect(listing.status == 64 && listing.stderrLines.count == 1)
        #expect(listing.stderr.contains("the value 'yaml' is invalid for '--format <format>'. Please provide one of 'table' or 'json' (see `taskwidget ls --help`)"), "\(listing.stderr)")
    }

    /// The first minute's likely mistake: a title of several words, not quoted.
    @Test func anUnquotedTitleIsShownQuoted() throws {
        let sandbox = try Sandbox()
        try sandbox.succeed(["add", "First"])
        try sandbox.expectRefused(
            ["add", "Pay", "rent", "--due", "fri"], status: 64,
            message: "taskwidget: a title of several words is one argument: quote it, as in `taskwidget add 'Pay rent'`\n")
        try sandbox.expectRefused(
            ["list", "add", "Side", "project"], status: 64,
            message: "taskwidget: a name of several words is one argument: quote it, as in `taskwidget list add 'Side project'`\n")
        try sandbox.expectRefused(
            ["habit", "add", "Morning", "run", "--icon", "🏃"], status: 64,
            message: "taskwidget: a name of several words is one argument: quote it, as in `taskwidget habit add 'Morning run'`\n")
        // Other values of several words, after their option or not (helper-74: "unexpected argument '9am'").
        try sandbox.expectRefused(
            ["add", "x", "--remind", "tomorrow", "9am"], status: 64,
            message: "taskwidget: a value of several words is one argument: quote it, as in `--remind 'tomorrow 9am'`\n")
        try sandbox.expectRefused(
            ["edit", "First", "--title", "Pay", "the", "rent"], status: 64,
            message: "taskwidget: a value of several words is one argument: quote it, as in `--title 'Pay the rent'`\n")
        try sandbox.expectRefused(
            ["habit", "check", "Morning", "run"], status: 64,
            message: "taskwidget: a value of several words is one argument: quote it, as in `'Morning run'`\n")
        // Several ids to a command of one task: quoted, they named no task (helper-88).
        for command in [["start"], ["stop"], ["edit"], ["move", "--to", "2"]] {
            try sandbox.expectRefused(
                command + ["363934aa", "98319956"], status: 64,
                message: "taskwidget: `taskwidget \(command[0])` takes one task id: run it for each (done, undo and rm take several)\n")
        }
        // The words after an id are no part of it: quoted with it, they named no task (helper-119).
        try sandbox.expectRefused(
            ["edit", "363934aa", "New", "title"], status: 64,
            message: "taskwidget: `taskwidget edit` takes one task id, then options: to change its title, give --title 'New title' (see `taskwidget edit --help`)\n")
        try sandbox.expectRefused(["start", "363934aa", "now"], status: 64, message: "taskwidget: `taskwidget start` takes one task id (see `taskwidget start --help`)\n")
        try sandbox.expectRefused(["add", "foo", "-"], status: 64, message: "taskwidget: add takes a title, or - to read titles from standard input, not both\n")
        // A list is shown with --list (helper-119); a number or a name of a set is no value (helper-92).
        try sandbox.expectRefused(
            ["ls", "extra"], status: 64,
            message: "taskwidget: `taskwidget ls` takes options, not words: to show one list, give --list extra; "
                + "to find tasks by a word (ls has no search), `COLUMNS=200 taskwidget ls | grep -i extra`\n")
        // Two names to a command of one: most likely two lists, not one of two words (helper-142).
        try sandbox.expectRefused(
            ["list", "rm", "Home", "Work", "--yes"], status: 64,
            message: "taskwidget: `taskwidget list rm` takes one name: run it once for each, or quote a name of several words, as in `'Home Work'`\n")
        try sandbox.expectRefused(
            ["status", "--format", "text", "extra"], status: 64, message: "taskwidget: unexpected argument 'extra' (see `taskwidget status --help`)\n",
            allowingStdout: true)
        try sandbox.expectRefused(
            ["ls", "--color", "never", "extra"], status: 64, message: "taskwidget: unexpected argument 'extra' (see `taskwidget ls --help`)\n")
        // A short option is named too (helper-94: "as in `'p.png extra'`").
        try sandbox.expectRefused(
            ["render", "-o", "p.png", "extra"], status: 64,
            message: "taskwidget: a value of several words is one argument: quote it, as in `-o 'p.png extra'`\n")
        // Options after -- are words: the title was quoted already (helper-136).
        try sandbox.expectRefused(
            ["add", "--", "Pay rent", "--due", "tomorrow"], status: 64,
            message: "taskwidget: --due comes after --, which makes what follows it words, not options: put the options before --\n")
        // Two files, where a command takes one: quoted, they named no file (helper-135).
        for command in ["import", "backup"] {
            try sandbox.expectRefused(
                [command, "a.json", "b.json"], status: 64, message: "taskwidget: `taskwidget \(command)` takes one file: run it once for each\n")
        }
        // A restore replaces the store: once for each would keep the last one alone (helper-137).
        try sandbox.expectRefused(
            ["restore", "a.sqlite", "b.sqlite"], status: 64, message: "taskwidget: `taskwidget restore` takes one file: the backup to put in the store's place\n")
        // The Inbox is a list where a task is put (ArgumentParser suggested --now); mv is move.
        try sandbox.expectRefused(
            ["add", "x", "--inbox"], status: 64, message: "taskwidget: add names the Inbox as a list: --list inbox (see `taskwidget add --help`)\n")
        try sandbox.expectRefused(["mv", "x", "--to", "1"], status: 64, message: "taskwidget: there is no command “mv”: did you mean “move”?")
    }

    /// A command that keeps running counts its clock in nanoseconds: a `--now` out of their range
    /// crashed watch and notify with SIGILL, exit 132 and no word (helper-73).
    @Test func aKeptRunningClockOutOfItsRangeIsRefused() throws {
        let sandbox = try Sandbox()
        try sandbox.succeed(["add", "Pay rent"])
        for arguments in [["watch", "--now", "2300-01-01T00:00:00Z"], ["notify", "--now", "1600-01-01T00:00:00Z"]] {
            try sandbox.expectRefused(
                arguments, status: 64, message: "taskwidget: --now must be from 1678 to 2261 for a command that keeps running (its clock counts nanoseconds): give a nearer date\n")
        }
    }

    /// A date that cannot be read names its option, as both may be on the line; `render -o` of a
    /// folder says to give a file (it said to check that the folder exists).
    @Test func aBadDateNamesItsOptionAndAFolderIsNoFile() throws {
        let sandbox = try Sandbox()
        let id = try sandbox.succeed(["add", "x"]).trimmingCharacters(in: .newlines)
        try sandbox.expectRefused(["add", "x", "--due", "fri", "--remind", "blah"], status: 64, message: "taskwidget: --remind: cannot read date “blah”: use ")
        try sandbox.expectRefused(["edit", id, "--due", "soonish"], status: 64, message: "taskwidget: --due: cannot read date “soonish”")
        // edit's names `none`, the way to clear one (helper-170).
        let refusal = try sandbox.expectRefused(["edit", id, "--remind", "never"], status: 64)
        #expect(refusal.stderr.hasPrefix("taskwidget: --remind: cannot read date “never”") && refusal.stderr.hasSuffix("; or none to clear it\n"), "\(refusal.stderr)")
        try sandbox.expectRefused(["render", "--at", "later", "-o", "-"], status: 64, message: "taskwidget: --at: cannot read date “later”")
        try sandbox.expectRefused(
            ["render", "-o", sandbox.folder.path], status: 74, message: "is a directory: give the path of a file, not of a folder")
        // An empty path (an unset shell variable) named the current folder, and --out-dir alone
        // asked where to write (helper-95).
        try sandbox.expectRefused(["render", "-o", ""], status: 64, message: "taskwidget: -o needs a path: give the image file, or - for standard output")
        try sandbox.expectRefused(["render", "--timeline", "--out-dir", ""], status: 64, message: "taskwidget: --out-dir needs the path of a folder")
        // serve's URLs name a family where --size goes (/widget/medium.png) (helper-121).
        try sandbox.expectRefused(
            ["render", "--size", "Medium", "-o", "-"], status: 64,
            message: "taskwidget: “Medium” is a family, not a size: give --family medium (--size takes WIDTHxHEIGHT, e.g. 800x480)")
        try sandbox.expectRefused(
            ["render", "--out-dir", sandbox.folder.path], status: 64,
            message: "taskwidget: --out-dir DIR holds the images of --timeline: add --timeline, or write one image with -o FILE")
    }

    /// A title that starts with a dash reads as options: with an `h` among its letters
    /// ArgumentParser showed the help and exited 0, adding nothing, and without one it asked for a
    /// title. Either way the error now says how to write it, and the way it gives works.
    @Test func aTitleThatStartsWithADashIsAnErrorThatSaysHowToWriteIt() throws {
        let sandbox = try Sandbox()
        let help = try sandbox.run(["add", "-fix the bike"])
        #expect(help.status == 64 && help.stdout.isEmpty)
        #expect(help.stderr == "taskwidget: '-fix the bike' starts with a dash, so it reads as options: put it after --, which goes after the options, or join it to its option as --OPTION='-fix the bike'\n")
        let missing = try sandbox.run(["add", "- buy milk"])
        #expect(missing.status == 64 && missing.stderr.hasPrefix("taskwidget: '- buy milk' starts with a dash"))
        let long = try sandbox.run(["add", "--help me move"])
        #expect(long.status == 64 && long.stderr.hasPrefix("taskwidget: '--help me move' starts with a dash"), "\(long.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: sandbox.folder.path).isEmpty)
        // An option joined to its value, with a space in the value, is an option: here the title is missing.
        let joined = try sandbox.run(["add", "--due=tomorrow 9am"])
        #expect(joined.status == 64 && joined.stderr.contains("missing") && !joined.stderr.contains("starts with a dash"), "\(joined.stderr)")
        // Options first, as always before `--`.
        let id = try sandbox.succeed(["add", "--store", sandbox.storePath, "--", "- buy milk"], global: false).trimmingCharacters(in: .newlines)
        // One word: read as short options, with an `h` among them it showed the help, exit 0.
        for arguments in [["add", "-hydrate"], ["add", "-ok"], ["add", "-5"], ["list", "add", "-home"], ["habit", "add", "-hydrate"]] {
            let word = arguments.last!
            let refused = try sandbox.run(arguments)
            #expect(refused.status == 64 && refused.stdout.isEmpty, "\(arguments): \(refused.stdout)")
            #expect(refused.stderr == "taskwidget: \(word) starts with a dash, so it reads as options: put it after --, which goes after the options, or join it to its option as --OPTION=\(word)\n")
        }
        #expect(try sandbox.run(["add", "-help"]).stdout.hasPrefix("OVERVIEW: Create a task"))
        let edit = try sandbox.run(["edit", id, "--title", "- buy oat milk"])
        #expect(edit.status == 64 && edit.stderr.hasSuffix("or join it to its option as --OPTION='- buy oat milk'\n"))
        let dashedTitle = try sandbox.run(["edit", id, "--title", "-dash"])
        #expect(dashedTitle.status == 64 && dashedTitle.stderr == "taskwidget: -dash after --title reads as an option: join them as --title=-dash\n")
        try sandbox.succeed(["edit", id, "--title=- buy oat milk"])
        #expect(try sandbox.succeed(["ls"]).contains("- buy oat milk"))
    }

    @Test func helpForACommandThatIsNotThereIsAUsageError() throws {
        let sandbox = try Sandbox()
        let result = try sandbox.run(["help", "nope"], global: false)
        #expect(result.status == 64 && result.stdout.isEmpty)
        #expect(result.stderr == "taskwidget: there is no command “nope”: `taskwidget --help` lists them\n")
        #expect(try sandbox.run(["help", "list", "add"], global: false).stdout.contains("taskwidget list add"))
        // The programs of serve, sync and notify too (their main is asynchronous).
        let sync = try sandbox.run(["sync", "help", "nope"], global: false)
        #expect(sync.status == 64 && sync.stderr == "taskwidget: there is no command “nope”: `taskwidget sync --help` lists them\n")
    }

    /// An option copied along with the command (`help add --verbose`) still shows its help: it
    /// said there was no command “help”.
    @Test func helpForACommandWithAnOptionShowsTheCommandsHelp() throws {
        let sandbox = try Sandbox()
        for arguments in [["help", "add", "--verbose"], ["help", "list", "add", "--store", "x.sqlite"], ["sync", "help", "account", "--verbose"]] {
            let result = try sandbox.run(arguments, global: false)
            #expect(result.status == 0 && result.stderr.isEmpty, "\(arguments): \(result.stderr)")
            #expect(result.stdout.contains("USAGE: taskwidget " + arguments.filter { !$0.hasPrefix("-") && $0 != "help" && $0 != "x.sqlite" }.joined(separator: " ")), "\(arguments)")
        }
    }

    /// `help help` and help asked for after a command with subcommands (`list help add`, as git's
    /// and cargo's users type it) show that help; they said there was no command “help”. A name
    /// after `help list` that is no command is a usage error, as after `help` (it showed list's
    /// help, exit 0). `add help` still adds a task called “help”.
    @Test(arguments: [
        (["help", "help"], "USAGE: taskwidget <subcommand>"),
        (["help", "help", "ls"], "USAGE: taskwidget ls"),
        (["list", "help"], "USAGE: taskwidget list <subcommand>"),
        (["list", "help", "add"], "USAGE: taskwidget list add"),
        (["habit", "help", "check", "--verbose"], "USAGE: taskwidget habit check"),
        (["serve", "device", "help", "add"], "USAGE: taskwidget serve device add"),
    ])
    func helpAskedForInOtherWordsShowsTheHelp(arguments: [String], usage: String) throws {
        let result = try Sandbox().run(arguments, global: false)
        #expect(result.status == 0 && result.stderr.isEmpty, "\(arguments): \(result.stderr)")
        #expect(result.stdout.contains(usage), "\(arguments): \(result.stdout.prefix(300))")
    }

    @Test func helpForASubcommandThatIsNotThereIsAUsageError() throws {
        let sandbox = try Sandbox()
        // Of serve, sync and notify too: `help serve nope` showed serve's help, exit 0 (helper-82).
        for (arguments, path) in [(["help", "serve", "nope"], "taskwidget serve"), (["help", "serve", "device", "nope"], "taskwidget serve device")] {
            let sibling = try sandbox.run(arguments, global: false)
            #expect(sibling.status == 64 && sibling.stderr == "taskwidget: there is no command “nope”: `\(path) --help` lists them\n", "\(sibling.stderr)")
        }
        #expect(try sandbox.run(["help", "serve", "device", "add"], global: false).stdout.contains("USAGE: taskwidget serve device add"))
        #expect(try sandbox.run(["help", "notify"], global: false).stdout.contains("USAGE: taskwidget notify"))
        let result = try sandbox.run(["help", "list", "nope"], global: false)
        #expect(result.status == 64 && result.stdout.isEmpty)
        #expect(result.stderr == "taskwidget: there is no command “nope”: `taskwidget list --help` lists them\n")
        #expect(try sandbox.succeed(["add", "help"]).count == 9)  // an id and a newline
        #expect(try sandbox.succeed(["ls"]).contains("help"))
    }

    /// Options every command takes, given before the command as git's are, were an unknown option
    /// with no more: the error shows the command with them after its name.
    @Test(arguments: [
        (["--store", "x.sqlite", "ls"], "--store goes after the command's name, as in `taskwidget ls --store x.sqlite`"),
        (["--verbose", "status", "--format", "waybar"], "--verbose goes after the command's name, as in `taskwidget status --format waybar --verbose`"),
        (["--tz=UTC", "--now", "2026-11-22T10:00:00Z", "add", "x y", "--", "-z"],
         "--tz goes after the command's name, as in `taskwidget add 'x y' --tz=UTC --now 2026-11-22T10:00:00Z -- -z`"),
        (["--store", "x.sqlite", "list", "add", "Home"], "--store goes after the command's name, as in `taskwidget list add Home --store x.sqlite`"),
    ])
    func anOptionBeforeTheCommandShowsWhereItGoes(arguments: [String], message: String) throws {
        let result = try Sandbox().run(arguments, global: false)
        #expect(result.status == 64 && result.stdout.isEmpty)
        #expect(result.stderr == "taskwidget: \(message)\n")
    }

    /// A value that starts with a dash reads as an option: the error says to join it to its
    /// option (it said the value was missing), and joined, the option's own check answers.
    @Test func aValueThatStartsWithADashIsToBeJoined() throws {
        let sandbox = try Sandbox()
        let split = try sandbox.run(["status", "--max-width", "-1"])
        #expect(split.status == 64 && split.stderr == "taskwidget: -1 after --max-width reads as an option: join them as --max-width=-1\n")
        let joined = try sandbox.run(["status", "--max-width=-1"])
        #expect(joined.status == 64 && joined.stderr.hasPrefix("taskwidget: --max-width must be at least 4"))
    }

    /// A time or a day counted back (`--due -2h`) is no form of WHEN: the advice to join it to its
    /// option led to a second error, so the error shows how to name an earlier one.
    @Test func aTimeCountedBackIsToBeNamed() throws {
        let sandbox = try Sandbox()
        let due = try sandbox.run(["add", "x", "--due", "-2h"])
        #expect(due.status == 64 && due.stderr == "taskwidget: --due -2h: times are not counted back; name an earlier one, as in --due 'today 9am'\n")
        #expect(try sandbox.run(["add", "x", "--due", "today 9am"]).status == 0, "the form the advice shows is read")
        let day = try sandbox.run(["habit", "check", "Run", "--date", "-1"])
        #expect(day.status == 64 && day.stderr == "taskwidget: --date -1: times are not counted back; name the day, as in --date yesterday\n")
        let moment = try sandbox.run(["render", "--at", "-2h", "-o", "-"])
        #expect(moment.status == 64 && moment.stderr.contains("--at is from now to 24 hours later"), "\(moment.stderr)")
        let delay = try sandbox.run(["snooze", "--top", "--by", "-1h"])
        #expect(delay.status == 64 && delay.stderr == "taskwidget: --by -1h: times are not counted back; snooze moves a task later, as in --by 1h\n")
    }

    /// A configuration file named with --config must exist: a typo in its path said "there is no
    /// sync account yet".
    @Test func aConfigFileThatIsNotThereIsNamed() throws {
        let sandbox = try Sandbox()
        let missing = sandbox.folder.appendingPathComponent("sync.toml").path
        for arguments in [["sync", "--config", missing], ["sync", "account", "ls", "--config", missing]] {
            let result = try sandbox.run(arguments)
            #expect(result.status == 64, "\(arguments)")
            #expect(result.stderr.hasPrefix("taskwidget: there is no configuration file \(missing): check --config"), "\(result.stderr)")
        }
    }

    /// A mistyped command names the nearest one, at any depth, as a mistyped option does (it was
    /// "unexpected argument 'lst'").
    @Test(arguments: [
        (["lst"], "there is no command “lst”: did you mean “ls”? (`taskwidget --help` lists them)"),
        (["help", "statsu"], "there is no command “statsu”: did you mean “status”? (`taskwidget --help` lists them)"),
        (["list", "lss"], "there is no command “lss”: did you mean “ls”? (`taskwidget list --help` lists them)"),
        (["habit", "chek", "walk"], "there is no command “chek”: did you mean “check”? (`taskwidget habit --help` lists them)"),
        (["serve", "devce", "ls"], "there is no command “devce”: did you mean “device”? (`taskwidget serve --help` lists them)"),
        (["frobnicate"], "there is no command “frobnicate”: `taskwidget --help` lists them"),
        // An option after it was the error: "unknown option '--name'. Did you mean '--now'?"
        (["list", "edit", "Home", "--name", "Haus"], "there is no command “edit”: `taskwidget list --help` lists them"),
        (["lst", "--all"], "there is no command “lst”: did you mean “ls”? (`taskwidget --help` lists them)"),
        // Other tools' words: `remove` is spelt nearest to `move`, which reorders.
        (["remove", "abcd"], "there is no command “remove”: did you mean “rm”? (`taskwidget --help` lists them)"),
        (["list", "delete", "Home"], "there is no command “delete”: did you mean “rm”? (`taskwidget list --help` lists them)"),
        // `rn` is spelt nearest to `rm`, which deletes (helper-82).
        (["list", "rn", "Home", "House"], "there is no command “rn”: did you mean “rename”? (`taskwidget list --help` lists them)"),
    ])
    func aMistypedCommandNamesTheNearestOne(arguments: [String], message: String) throws {
        let result = try Sandbox().run(arguments, global: false)
        #expect(result.status == 64 && result.stdout.isEmpty)
        #expect(result.stderr == "taskwidget: \(message)\n")
    }

    /// A mistyped option is suggested the command's option nearest to it by the rule commands and
    /// names follow (one edit in three letters), or none: ArgumentParser's suggestions were
    /// unrelated options (`add --dew`: '--now'; `ls --done`: '--store'; `ls --dne`: '--tz').
    @Test(arguments: [
        (["add", "x", "--dew", "fri"], "unknown option '--dew' (see `taskwidget add --help`)"),
        (["ls", "--done"], "unknown option '--done' (see `taskwidget ls --help`)"),
        (["ls", "--dne"], "unknown option '--dne' (see `taskwidget ls --help`)"),
        (["add", "x", "--remnd", "9am"], "unknown option '--remnd'. Did you mean '--remind'? (see `taskwidget add --help`)"),
        (["ls", "--al"], "unknown option '--al'. Did you mean '--all'? (see `taskwidget ls --help`)"),
        (["list", "add", "Home", "--colr", "red"], "unknown option '--colr'. Did you mean '--color'? (see `taskwidget list add --help`)"),
        (["watch", "--rendr-dir", "out"], "unknown option '--rendr-dir'. Did you mean '--render-dir'? (see `taskwidget watch --help`)"),
        (["--vrsion"], "unknown option '--vrsion'. Did you mean '--version'? (see `taskwidget --help`)"),
        (["sync", "--acount", "home"], "unknown option '--acount'. Did you mean '--account'? (see `taskwidget sync --help`)"),
        // A letter left out: the name that holds every letter typed (it was '--list').
        (["serve", "--listn", "127.0.0.1:1"], "unknown option '--listn'. Did you mean '--listen'? (see `taskwidget serve --help`)"),
        // Named before what the command's checks say of its effects (helper-82): "give task ids or
        // --top, not both", "missing expected argument '--url <url>'".
        (["snooze", "--top", "--bye", "1d"], "unknown option '--bye'. Did you mean '--by'? (see `taskwidget snooze --help`)"),
        (["done", "--tpo"], "unknown option '--tpo'. Did you mean '--top'? (see `taskwidget done --help`)"),
        (["sync", "account", "add", "a", "--ur", "http://x"], "unknown option '--ur'. Did you mean '--url'? (see `taskwidget sync account add --help`)"),
    ])
    func aMistypedOptionNamesTheNearestOneOrNone(arguments: [String], message: String) throws {
        let result = try Sandbox().run(arguments, global: false)
        // watch (and status) print their text format's error line too, for a reader of the pipe.
        #expect(result.status == 64 && result.stdout == (arguments[0] == "watch" ? "⚠ taskwidget: \(message)\n" : ""))
        #expect(result.stderr == "taskwidget: \(message)\n")
    }

    @Test func ambiguousPrefixListsTheCandidates() throws {
        let sandbox = try Self.populatedSandbox()
        let result = try sandbox.run(["done", "abcd"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("abcd0000 (Twin one)") && result.stderr.contains("abcd1111 (Twin two)"))
    }

    @Test func badImportFilesExit65AndChangeNothing() throws {
        let sandbox = try Self.populatedSandbox()
        let documents = [
            "not json",
            #"{"schema": "taskwidget.export/9", "lists": [], "tasks": [], "habits": []}"#,
            #"{"schema": "taskwidget.export/1", "lists": [], "tasks": [{"id": "x"}], "habits": []}"#,
            #"{"schema": "taskwidget.export/1", "lists": [{"id": "ABCD0000-0000-4000-8000-00000000000F", "name": "", "colorHex": "FFFFFF", "createdAt": "2026-11-20T10:00:00Z", "sortOrder": 0}], "tasks": [], "habits": []}"#,
            String(repeating: "[", count: 100_000),
        ]
        for (index, document) in documents.enumerated() {
            let file = sandbox.folder.appendingPathComponent("bad\(index).json")
            try Data(document.utf8).write(to: file)
            try sandbox.expectRefused(["import", file.path], status: 65)
        }
        // A newer version's export says to upgrade (helper-79).
        let newer = sandbox.folder.appendingPathComponent("newer.json")
        try Data(#"{"schema": "taskwidget.export/2", "lists": [], "tasks": [], "habits": []}"#.utf8).write(to: newer)
        try sandbox.expectRefused(["import", newer.path], status: 65, message: "a newer taskwidget wrote it, upgrade taskwidget to import it")
        try sandbox.expectRefused(["import", sandbox.folder.appendingPathComponent("missing.json").path], status: 74)
        // An empty file says so (it said the JSON ends too soon, and /dev/null could not be read).
        try sandbox.expectRefused(["import", "/dev/null"], status: 65, message: "/dev/null is empty")
        let blank = sandbox.folder.appendingPathComponent("blank.json")
        try Data("  \n\n".utf8).write(to: blank)
        try sandbox.expectRefused(["import", blank.path], status: 65, message: "\(blank.path) holds only blank space: give a file")
        try sandbox.expectRefused(["import", sandbox.folder.path], status: 74, message: "it is a folder")
    }

    /// A `COLUMNS` no terminal has is left out: ArgumentParser's help trapped (SIGILL) on the
    /// smallest Int (helper-90).
    @Test(arguments: [["--help"], ["help", "add"], ["serve", "--help"]])
    func anAbsurdTerminalWidthIsIgnored(arguments: [String]) throws {
        let result = try Sandbox().run(arguments, global: false, environment: ["COLUMNS": "-9223372036854775807"])
        #expect(result.status == 0 && result.stdout.hasPrefix("OVERVIEW: "), "\(result.stderr)")
    }

    /// Too few files allowed (`ulimit -n`, soft and hard) is one line and exit 74:
    /// - a store SQLite cannot open for want of descriptors read as a permission problem, "check
    ///   that it exists and its permissions" (helper-90); at 5, a trap on a dispatch thread came
    ///   with it now and then, and every command now needs 6;
    /// - watch, with 9, trapped on a libdispatch thread (SIGILL, 132: helper-91);
    /// - notify, with 16, had GLib abort (SIGTRAP) 8 runs in 10 (helper-90); it says so before GLib starts.
    @Test(arguments: [
        (["ls"], 5, "only 5 files may be open (ulimit -n), and taskwidget needs 6: raise the limit"),
        (["watch"], 9, "only 9 files may be open (ulimit -n), and watch needs 32: raise the limit"),
        (["notify"], 16, "only 16 files may be open (ulimit -n), and notify needs 64: raise the limit"),
    ])
    func tooFewOpenFilesAreSaid(arguments: [String], limit: Int, message: String) throws {
        let sandbox = try Sandbox()
        try sandbox.succeed(["add", "Pay rent"])
        let result = try sandbox.run(arguments, openFileLimit: limit)
        #expect(result.status == 74)
        #expect(result.stderr == "taskwidget: " + message.replacingOccurrences(of: "{store}", with: sandbox.storePath) + "\n")
    }

    /// With 6 files allowed, Foundation's UUID() could not read /dev/urandom and gave the all-zero
    /// id: the first new task had it, and the second clashed with it (exit 65, "restore it from a
    /// backup": helper-91). Ids come from getrandom now.
    @Test func newIdsAreRandomWithFewFilesAllowed() throws {
        let sandbox = try Sandbox()
        try sandbox.succeed(["add", "First"])
        var ids: [String] = []
        for title in ["Second", "Third"] {
            let result = try sandbox.run(["add", title], openFileLimit: 6)
            #expect(result.status == 0, "\(result.stderr)")
            ids.append(result.stdout)
        }
        #expect(Set(ids).count == 2 && !ids.contains("00000000\n"), "\(ids)")
    }

    /// Input that never ends (`import /dev/zero`, `yes | taskwidget add -`, a template that is a
    /// device) is refused once it holds more than any export, title or template: it was read
    /// until the kernel killed taskwidget (24 GB, helper-79).
    @Test func endlessInputIsRefusedOnceItIsLargerThanAnyExportTitleOrTemplate() throws {
        let sandbox = try Sandbox()
        let zeros = try sandbox.run(["import", "/dev/zero"])
        #expect(zeros.status == 65)
        #expect(zeros.stderr == "taskwidget: /dev/zero holds more than 512 MiB, more than an export of a million tasks: give a file `taskwidget export` wrote\n")
        #expect(!FileManager.default.fileExists(atPath: sandbox.storePath), "nothing was imported")
        let lines = try sandbox.run(["add", "-"], input: Data(String(repeating: "y\n", count: 50_000).utf8))
        #expect(lines.status == 64, "\(lines.stderr)")
        #expect(lines.stderr.hasPrefix("taskwidget: standard input is longer than a title can be (one line of at most 1000 characters)"), "\(lines.stderr)")
        let template = try sandbox.run(["status", "--template", "/dev/zero"])
        #expect(template.status == 64 && template.stderr.contains("the template /dev/zero holds more than 4 MiB"), "\(template.stderr)")
    }

    @Test func storeInAMissingFolderExits74() throws {
        let sandbox = try Sandbox()
        let path = sandbox.folder.appendingPathComponent("no/such/folder/tasks.sqlite").path
        let result = try sandbox.run(["add", "Pay rent", "--store", path])
        #expect(result.status == 74)
        #expect(result.stderrLines.count == 1 && result.stderr.hasPrefix("taskwidget: the folder"))
        #expect(!FileManager.default.fileExists(atPath: sandbox.folder.appendingPathComponent("no").path))
    }

    @Test func storeInAnUnwritableFolderExits74() throws {
        let sandbox = try Sandbox()
        let folder = sandbox.folder.appendingPathComponent("locked")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: folder.path)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder.path) }
        let store = folder.appendingPathComponent("tasks.sqlite").path
        // Root may write anywhere: run as `nobody` then, as a real user would be.
        let result = try Sandbox.asUnprivilegedUser(["add", "Pay rent", "--store", store, "--now", sandbox.now])
        #expect(result.status == 74)
        #expect(result.stderrLines.count == 1)
        #expect(result.stderr.contains("not writable"))
        #expect(!FileManager.default.fileExists(atPath: store))
    }

    @Test func missingStoreIsAnErrorForReadsAndIsNotCreated() throws {
        let sandbox = try Sandbox()
        for command in [["ls"], ["export"], ["list", "ls"], ["habit", "ls"]] {
            let result = try sandbox.run(command)
            #expect(result.status == 74)
            #expect(result.stderrLines.count == 1 && result.stderr.contains("taskwidget add"))
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: sandbox.folder.path).isEmpty)
    }

    /// SPEC §4: nothing about a failed command changes the store, and creating it is a change. A
    /// typo in `--store` or an id that is not there must leave no empty store, which a bar would
    /// show as "No open tasks" instead of the error. The first command that works creates it. A
    /// command that changes what the store holds names the missing store (exit 74).
    @Test func aWriteThatFailsOnAMissingStoreCreatesNothing() throws {
        let sandbox = try Sandbox()
        for command in [
            ["done", "abcd"], ["edit", "abcd", "--title", "x"], ["add", "x", "--list", "Nope"], ["list", "rename", "A", "B"],
            ["habit", "check", "Walk"], ["snooze", "--top", "--by", "1h"],
        ] {
            let result = try sandbox.run(command)
            let missingStore = command[0] != "add"
            #expect(result.status == (missingStore ? 74 : 64) && result.stderrLines.count == 1, "\(command): \(result.stderr)")
            #expect(result.stderr.contains("there is no store at") == missingStore, "\(command): \(result.stderr)")
            // At the default location, where a first write makes the store, the command's own error.
            let atDefault = try sandbox.run(command + ["--now", sandbox.now], global: false)
            #expect(atDefault.status == 64 && atDefault.stderrLines.count == 1, "\(command): \(atDefault.stderr)")
            #expect(!atDefault.stderr.contains("there is no store"), "\(command): \(atDefault.stderr)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: sandbox.folder.path).isEmpty)
        try sandbox.succeed(["add", "Pay rent"])
        #expect(FileManager.default.fileExists(atPath: sandbox.storePath))
    }

    /// Every command that opens the store (watch is run apart). `{png}` and `{import}` stand for
    /// files in the sandbox: a widget render would write, and a valid (empty) export.
    static let storeReaders: [[String]] = [
        ["ls"], ["export"], ["timeline"], ["status"], ["list", "ls"], ["habit", "ls"], ["render", "-o", "{png}"],
    ]
    static let storeWriters: [[String]] = [
        ["add", "New"], ["done", "abcd"], ["edit", "abcd", "--title", "Renamed"], ["rm", "abcd"], ["list", "add", "Work"],
        ["habit", "check", "Walk"], ["import", "{import}"], ["demo"],
    ]

    /// What can be at the store's path instead of a store: each refused by readers and writers
    /// with one line and its exit status, no crash, no hang (a FIFO blocks whoever opens it to
    /// read), and the thing at the path (and the folder around it) left exactly as it was.
    @Test(.timeLimit(.minutes(2)), arguments: ["garbage", "foreign", "newer", "folder", "empty", "halfTruncated", "fifo", "symlinkLoop"])
    func unusableStoreFilesAreRefusedAndLeftAlone(kind: String) throws {
        let sandbox = try Sandbox()
        let store = URL(fileURLWithPath: sandbox.storePath)
        let expectedStatus: Int32
        switch kind {
        case "garbage":
            try Data((0..<8192).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }).write(to: store)
            expectedStatus = 65
        case "foreign":
            try DatabaseQueue(path: sandbox.storePath).write { try $0.execute(sql: "CREATE TABLE foo(x); INSERT INTO foo VALUES (1)") }
            expectedStatus = 65
        case "newer":
            try sandbox.succeed(["add", "Pay rent"])
            try DatabaseQueue(path: sandbox.storePath).write { try $0.execute(sql: "INSERT INTO grdb_migrations VALUES ('v99')") }
            expectedStatus = 65
        case "folder":
            try FileManager.default.createDirectory(atPath: sandbox.storePath, withIntermediateDirectories: false)
            expectedStatus = 74
        case "halfTruncated":
            // A store whose pages all live in the main file (no -wal to make up for it), cut in half.
            try sandbox.succeed(["demo"])
            try Sandbox.removeWALFiles(sandbox.storePath)
            let bytes = try Data(contentsOf: store)
            try bytes.prefix(bytes.count / 2).write(to: store)
            expectedStatus = 65
        case "fifo":
            #expect(mkfifo(sandbox.storePath, 0o644) == 0)
            expectedStatus = 74
        case "symlinkLoop":
            let other = sandbox.folder.appendingPathComponent("other.sqlite").path
            try FileManager.default.createSymbolicLink(atPath: sandbox.storePath, withDestinationPath: other)
            try FileManager.default.createSymbolicLink(atPath: other, withDestinationPath: sandbox.storePath)
            expectedStatus = 74
        default:
            // A zero-byte file is a new store to a writer, and an empty one to a reader.
            #expect(FileManager.default.createFile(atPath: sandbox.storePath, contents: Data()))
            #expect(try sandbox.run(["ls"]).status == 65)
            try sandbox.succeed(["add", "Pay rent"])
            return
        }
        let importFile = sandbox.folder.appendingPathComponent("empty-export.json")
        try Data(#"{"schema": "taskwidget.export/1", "lists": [], "tasks": [], "habits": []}"#.utf8).write(to: importFile)
        let png = sandbox.folder.appendingPathComponent("widget.png").path
        let before = Self.snapshot(sandbox.storePath)
        let files = try Self.files(in: sandbox.folder)

        for command in Self.storeReaders + Self.storeWriters {
            let arguments = command.map { $0 == "{png}" ? png : $0 == "{import}" ? importFile.path : $0 }
            let result = try Self.runWithDeadline(sandbox, arguments)
            #expect(result.status == expectedStatus, "\(kind) \(command): \(result.status) \(result.stderr)")
            #expect(result.stderrLines.count == 1 && result.stderr.hasPrefix("taskwidget: "), "\(kind) \(command): \(result.stderr)")
            // status prints its error line for a bar even in the text format; nothing else prints.
            #expect(result.stdout.isEmpty == (command != ["status"]), "\(kind) \(command): \(result.stdout)")
        }
        let bar = try Self.runWithDeadline(sandbox, ["status", "--format", "waybar"])
        #expect(bar.status == 0 && bar.stdout.contains(#""class":"error""#) && bar.stderrLines.count == 1, "\(kind): \(bar.stdout)")
        // watch shows the error line and waits for a usable store; a folder or a FIFO never
        // becomes one, so for them it exits after the line.
        let neverAStore = kind == "folder" || kind == "fifo"
        let watch = try StreamingProcess(sandbox.arguments(["watch", "--format", "text"]), environment: sandbox.environment)
        #expect(watch.nextLine()?.hasPrefix("⚠ taskwidget: ") == true, "\(kind): \(watch.stderrText)")
        if !neverAStore { watch.send(SIGTERM) }
        #expect(watch.waitForExit() == (neverAStore ? 74 : 0))

        #expect(Self.snapshot(sandbox.storePath) == before, "\(kind)")
        #expect(try Self.files(in: sandbox.folder) == files, "\(kind)")
    }

    // MARK: - Helpers

    /// The file's bytes and modification time, or what is at the path if it is not a file (never
    /// opened then: a FIFO would block).
    static func snapshot(_ path: String) -> String {
        let attributes = try? FileManager.default.attributesOfItem(atPath: path)
        let type = attributes?[.type] as? FileAttributeType
        let data = type == .typeRegular ? FileManager.default.contents(atPath: path) ?? Data() : Data()
        return "\(type?.rawValue ?? "none") \(attributes?[.modificationDate] ?? "-") \(data.hashValue) \(data.count)"
    }

    /// The names in the folder, but the `-wal` and `-shm` SQLite's readers make beside a WAL
    /// database (the store file itself is compared by `snapshot`).
    static func files(in folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { !$0.hasSuffix("-wal") && !$0.hasSuffix("-shm") }.sorted()
    }

    /// Runs `taskwidget ARGUMENTS` but gives up (and fails the test) if it does not end within 20 s.
    static func runWithDeadline(_ sandbox: borrowing Sandbox, _ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) throws -> RunResult {
        let process = try StreamingProcess(sandbox.arguments(arguments), environment: sandbox.environment)
        let status = process.waitForExit(within: .seconds(20))
        #expect(status != nil, "taskwidget \(arguments.joined(separator: " ")) hangs", sourceLocation: sourceLocation)
        return RunResult(status: status ?? -1, stdout: process.remainingLines(), stderr: process.stderrText)
    }
}
