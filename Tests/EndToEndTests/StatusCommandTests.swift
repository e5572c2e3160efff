import Foundation
import GRDB
import Testing

@testable import TaskWidgetTestSupport

/// `taskwidget status` run as a bar runs it: the same bytes as the library's goldens, one valid
/// line of the format even when the store cannot be read (exit 0 for bars), a store that is only
/// ever read, and user templates.
@Suite struct StatusCommandTests {
    static let barFormats = ["waybar", "i3bar", "polybar", "tmux"]
    static let zone = ["--tz", "Europe/Berlin"]

    /// Written by the library's StatusGoldenTests (TaskWidgetFormatsTests/Goldens).
    static let goldens = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("TaskWidgetFormatsTests/Goldens")

    /// The golden scenarios that run on the fixture's store, with the arguments that select them
    /// (the names and widths of `StatusFixture.scenarios`).
    static let scenarios: [(name: String, arguments: [String])] = [
        ("store", []), ("store-wide", ["--max-width", "1000"]), ("list-lab", ["--list", "R&D <lab> 100% #1"]), ("inbox", ["--inbox"]),
    ]

    /// A sandbox holding the fixture's store, imported from the golden export.
    static func fixtureSandbox() throws -> Sandbox {
        let sandbox = try Sandbox()
        let export = goldens.appendingPathComponent("store.export.json").path
        try #require(FileManager.default.fileExists(atPath: export), "missing \(export): run the StatusGoldenTests first")
        #expect(try sandbox.succeed(["import", export]).hasPrefix("Imported 2 lists, 8 tasks"))
        return sandbox
    }

    /// The golden lines of a format by scenario name.
    static func golden(_ format: String) throws -> [String: String] {
        let url = goldens.appendingPathComponent(format + ".txt")
        let text = try String(contentsOf: url, encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var result: [String: String] = [:]
        for index in stride(from: 0, to: lines.count - 1, by: 2) where lines[index].hasPrefix("=== ") {
            result[String(lines[index].dropFirst(4))] = lines[index + 1]
        }
        return result
    }

    /// Pango's five entities read back (what the bar shows of a tooltip without tags).
    static func unescapePango(_ text: String) -> String {
        text.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'")
            .replacingOccurrences(of: "&amp;", with: "&")
    }

    static func jsonObject(_ line: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> [String: Any] {
        let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        return try #require(object, "not a JSON object: \(line)", sourceLocation: sourceLocation)
    }

    static func fingerprint(_ path: String) throws -> (Data, Date?) {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        return (try Data(contentsOf: URL(fileURLWithPath: path)), attributes[.modificationDate] as? Date)
    }

    // MARK: Parsing

    /// A command is parsed by itself when it can be (CommandRunner.parse, for `status`'s start-up);
    /// its help and its errors still come from the root, naming the command by its whole path.
    /// On a terminal, `status` (text or JSON) says its error once, on stderr: the line a script
    /// reads from stdout said it again (helper-74). A bar's format still prints its line there.
    @Test func onATerminalAnErrorIsSaidOnce() throws {
        let sandbox = try Sandbox()
        try sandbox.succeed(["add", "Pay rent"])
        for format in ["text", "json"] {
            let result = try sandbox.runOnTerminal(["status", "--format", format, "--list", "Nope"])
            #expect(result.status == 64 && result.shown.components(separatedBy: "no list is named").count == 2, "\(result)")
        }
        let bar = try sandbox.runOnTerminal(["status", "--format", "waybar", "--list", "Nope"])
        #expect(bar.status == 0 && bar.shown.hasPrefix(#"{"text":"⚠ taskwidget""#), "\(bar)")
        let piped = try sandbox.run(["status", "--list", "Nope"])
        #expect(piped.status == 64 && piped.stdout.hasPrefix("⚠ taskwidget: no list is named"))
    }

    @Test(arguments: ["status", "ls", "timeline"])
    func helpAndErrorsOfACommandParsedByItselfNameItFromTheRoot(command: String) throws {
        let sandbox = try Sandbox()
        let help = try sandbox.succeed([command, "--help"], global: false)
        #expect(help.contains("USAGE: taskwidget \(command) "))
        #expect(help.contains("--version"))
        let mistake = try sandbox.run([command, "--no-such-option"], global: false)
        #expect(mistake.status == 64)
        #expect(mistake.stderr == "taskwidget: unknown option '--no-such-option' (see `taskwidget \(command) --help`)\n")
    }

    /// Parsed by itself, a command leaves `--generate-completion-script` to the root (it names the
    /// root as its super-command), and the root still writes the whole script.
    @Test(arguments: [[], ["status"], ["ls"]])
    func theCompletionScriptComesFromTheRoot(before: [String]) throws {
        let script = try Sandbox().succeed(before + ["--generate-completion-script", "bash"], global: false)
        #expect(script.hasPrefix("#!/bin/bash\n"))
        #expect(script.contains("\n_taskwidget() {") && script.contains("\n_taskwidget_status() {"))
    }

    /// bash completes file and folder names where a command takes them (the store, an export to
    /// import, a template, a folder for the widgets): it offered nothing there.
    @Test(arguments: [
        ("taskwidget import b", "backup.json"), ("taskwidget ls --store b", "backup.json"),
        ("taskwidget status --template n", "notes.txt"), ("taskwidget render --out-dir ", "widgets"),
    ])
    func bashCompletesFileNames(line: String, expected: String) throws {
        let sandbox = try Sandbox()
        let script = sandbox.folder.appendingPathComponent("taskwidget.bash")
        try Data(try sandbox.succeed(["--generate-completion-script", "bash"], global: false).utf8).write(to: script)
        for file in ["backup.json", "notes.txt"] { try Data().write(to: sandbox.folder.appendingPathComponent(file)) }
        try FileManager.default.createDirectory(at: sandbox.folder.appendingPathComponent("widgets"), withIntermediateDirectories: true)
        // What bash does on TAB at the end of LINE: the words, the one being typed, then the function.
        let completing = """
            cd "$1" && source "$2" || exit 1
            read -ra COMP_WORDS <<< "$3"; [ "${3: -1}" = " " ] && COMP_WORDS+=("")
            COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); COMP_LINE=$3; COMP_POINT=${#3}
            _taskwidget taskwidget "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
            printf '%s\n' "${COMPREPLY[@]}"
            """
        let result = try ProcessRunner.run("/bin/bash", ["-c", completing, "bash", sandbox.folder.path, script.path, line])
        #expect(result.status == 0 && result.stdout == expected + "\n", "\(line): \(result.stdout)\(result.stderr)")
    }

    // MARK: Goldens

    @Test func theBinaryPrintsTheLibrarysGoldenLines() throws {
        let sandbox = try Self.fixtureSandbox()
        for format in StatusLineCheck.formats {
            let golden = try Self.golden(format)
            for (name, arguments) in Self.scenarios {
                let result = try sandbox.run(["status", "--format", format] + Self.zone + arguments)
                #expect(result.status == 0 && result.stderr.isEmpty, "\(format) \(name): \(result.stderr)")
                let expected = try #require(golden[name], "\(format).txt has no scenario \(name)")
                #expect(result.stdout == expected + "\n", "\(format) \(name)")
            }
        }
        // text is the default format.
        #expect(try sandbox.succeed(["status"] + Self.zone) == (try Self.golden("text")["store"] ?? "") + "\n")
    }

    /// Within a minute of its due time a task is "due now": at the due instant itself the line
    /// said "1 min overdue", rounded up from nothing.
    @Test(arguments: [
        ("16:38:00", "in 2 min"), ("16:38:59", "in 1 min"), ("16:39:30", "due now"), ("16:40:00", "due now"),
        ("16:40:59", "due now"), ("16:41:00", "1 min overdue"), ("17:45:00", "1 h overdue"),
        // To the nearest minute or hour: 1 h 59 min was "in 1 h", 1 min 59 s "in 1 min".
        ("14:40:01", "in 2 h"), ("16:38:01", "in 2 min"), ("15:10:00", "in 2 h"), ("15:11:00", "in 1 h"), ("18:39:00", "2 h overdue"),
    ])
    func theTimeToADueTaskIsSaidInWholeMinutes(time: String, when: String) throws {
        var sandbox = try Sandbox()
        try sandbox.succeed(["add", "Stand-up", "--due", "2026-11-22T16:40:00+01:00"])
        sandbox.now = "2026-11-22T\(time)+01:00"
        #expect(try sandbox.succeed(["status"] + Self.zone).hasSuffix("next: Stand-up (\(when))\n"))
    }

    // MARK: Stores that cannot be read

    @Test(arguments: ["missing", "garbage", "foreign", "newer", "folder"])
    func anUnreadableStoreGivesOneValidErrorLine(kind: String) throws {
        let sandbox = try Sandbox()
        // A path with markup characters, so that the tooltip's escaping shows.
        let folder = sandbox.folder.appendingPathComponent("R&D <x> 'q'")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let store = folder.appendingPathComponent("tasks.sqlite").path
        let dataError: Bool
        switch kind {
        case "missing":
            dataError = false
        case "garbage":
            try Data((0..<8192).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }).write(to: URL(fileURLWithPath: store))
            dataError = true
        case "foreign":
            try DatabaseQueue(path: store).write { try $0.execute(sql: "CREATE TABLE foo(x); INSERT INTO foo VALUES (1)") }
            dataError = true
        case "newer":
            try sandbox.succeed(["add", "Pay rent", "--store", store])
            try DatabaseQueue(path: store).write { try $0.execute(sql: "INSERT INTO grdb_migrations VALUES ('v99')") }
            dataError = true
        default:
            try FileManager.default.createDirectory(atPath: store, withIntermediateDirectories: false)
            dataError = false
        }
        let before = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        let fingerprint = kind == "missing" || kind == "folder" ? nil : try Self.fingerprint(store)

        for format in StatusLineCheck.formats {
            let result = try sandbox.run(["status", "--format", format, "--store", store] + Self.zone)
            let isBar = Self.barFormats.contains(format)
            #expect(result.status == (isBar ? 0 : dataError ? 65 : 74), "\(kind) \(format): \(result.stderr)")
            #expect(result.stdoutLines.count == 1 && result.stdout.hasSuffix("\n"), "\(kind) \(format): \(result.stdout)")
            #expect(result.stderrLines.count == 1 && result.stderr.hasPrefix("taskwidget: "), "\(kind) \(format): \(result.stderr)")
            let message = String(result.stderr.dropFirst("taskwidget: ".count).dropLast())
            #expect(message.contains(store), "\(message)")
            let line = result.stdoutLines.first ?? ""
            switch format {
            case "waybar":
                let object = try Self.jsonObject(line)
                #expect(object["class"] as? String == "error" && object["alt"] as? String == "error")
                #expect(object["text"] as? String == "⚠ taskwidget")
                #expect((object["percentage"] as? NSNumber)?.intValue == 0)
                let tooltip = try #require(object["tooltip"] as? String)
                #expect(!tooltip.contains("<") && Self.unescapePango(tooltip) == message, "\(tooltip)")
            case "i3bar":
                let object = try Self.jsonObject(line)
                #expect(object["full_text"] as? String == "⚠ taskwidget" && object["urgent"] as? Bool == true)
            case "json":
                #expect(try Self.jsonObject(line) as? [String: String] == ["error": message])
            case "text":
                #expect(line == "⚠ taskwidget: " + message)
            default:
                #expect(line.contains("⚠ taskwidget"), "\(format): \(line)")
            }
        }
        // Nothing was created or changed.
        var after = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        if kind == "newer" {
            // GRDB's connection above removed the WAL files when it closed (taskwidget's writers keep
            // them); SQLite's reader then makes them again beside a WAL database. The store is unchanged.
            after.removeAll { $0.hasSuffix("-wal") || $0.hasSuffix("-shm") }
        }
        #expect(after == before, "\(kind): files \(before) became \(after)")
        if let fingerprint {
            let after = try Self.fingerprint(store)
            #expect(after.0 == fingerprint.0 && after.1 == fingerprint.1)
        }
    }

    /// (A width too small was refused before any line: the bar showed nothing.)
    @Test(arguments: [(["--list", "Nope"], "Nope"), (["--max-width", "2"], "--max-width must be at least 4")])
    func anUnknownListOrATooSmallWidthIsAnErrorLineForBarsAndAnErrorForText(arguments: [String], error: String) throws {
        let sandbox = try Self.fixtureSandbox()
        for format in StatusLineCheck.formats {
            let result = try sandbox.run(["status", "--format", format] + arguments + Self.zone)
            let isBar = Self.barFormats.contains(format)
            #expect(result.status == (isBar ? 0 : 64), "\(format): \(result.stderr)")
            #expect(result.stdoutLines.count == 1, "\(format): \(result.stdout)")
            #expect(result.stderr.contains(error), "\(format): \(result.stderr)")
            if format == "waybar" {
                #expect(try Self.jsonObject(result.stdout)["class"] as? String == "error")
            }
        }
    }

    /// A mistyped option in a bar's config: the bar showed nothing, and the error went where
    /// nobody looks. Now it gets the error line an unknown list gives, with the same exit status.
    @Test(arguments: [
        (["--max-widht", "20"], "unknown option '--max-widht'"), (["--list", "Work", "--inbox"], "--list and --inbox exclude each other"),
    ])
    func aCommandLineThatDoesNotParseGivesTheErrorLineOfItsFormat(arguments: [String], error: String) throws {
        let sandbox = try Self.fixtureSandbox()
        for format in StatusLineCheck.formats {
            let unknownList = try sandbox.run(["status", "--format", format, "--list", "Nope"] + Self.zone)
            for formatArguments in [["--format", format], ["--format=\(format)"]] {
                let result = try sandbox.run(["status"] + formatArguments + arguments + Self.zone)
                #expect(result.status == unknownList.status, "\(format): \(result.stderr)")
                #expect(result.stderrLines.count == 1 && result.stderr.contains(error), "\(format): \(result.stderr)")
                let message = String(result.stderr.dropFirst("taskwidget: ".count).dropLast())
                switch format {
                case "waybar":
                    let line = try Self.jsonObject(result.stdout)
                    #expect(line["class"] as? String == "error")
                    #expect((line["tooltip"] as? String)?.contains(error.replacingOccurrences(of: "'", with: "&#39;")) == true, "\(line)")
                case "json": #expect(try Self.jsonObject(result.stdout) as? [String: String] == ["error": message])
                case "text": #expect(result.stdout == "⚠ taskwidget: \(message)\n")
                default: #expect(result.stdout == unknownList.stdout, "\(format): \(result.stdout)")
                }
            }
        }
        // Without --format it is text: in a pipe its error line, as an unknown list gives (it
        // printed nothing: helper-86); on a terminal, where a person reads it, the error alone.
        let plain = try sandbox.run(["status"] + arguments + Self.zone)
        let message = String(plain.stderr.dropFirst("taskwidget: ".count).dropLast())
        #expect(plain.status == 64 && plain.stdout == "⚠ taskwidget: \(message)\n" && plain.stderr.contains(error), "\(plain)")
        let onTerminal = try sandbox.runOnTerminal(["status"] + arguments + Self.zone)
        #expect(onTerminal.status == 64 && onTerminal.shown.components(separatedBy: error).count == 2, "\(onTerminal)")
    }

    // MARK: The store is only read

    @Test func statusNeverChangesTheStoreAndWorksWhenNobodyMayWriteIt() throws {
        let sandbox = try Self.fixtureSandbox()
        let outputs = try StatusLineCheck.formats.map { try sandbox.succeed(["status", "--format", $0] + Self.zone) }
        let before = try Self.fingerprint(sandbox.storePath)
        let files = try FileManager.default.contentsOfDirectory(atPath: sandbox.folder.path).sorted()
        for (format, output) in zip(StatusLineCheck.formats, outputs) {
            #expect(try sandbox.succeed(["status", "--format", format] + Self.zone) == output)
        }
        let unchanged = try Self.fingerprint(sandbox.storePath)
        #expect(unchanged.0 == before.0 && unchanged.1 == before.1)

        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: sandbox.storePath)
        try Sandbox.letNobodyReadTheSideFiles(of: sandbox.storePath)
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: sandbox.folder.path)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: sandbox.folder.path) }
        for (format, output) in zip(StatusLineCheck.formats, outputs) {
            #expect(try sandbox.succeed(["status", "--format", format] + Self.zone) == output, "\(format) on a 0444 store")
            // Root ignores permissions: run as `nobody` too, in a folder it cannot write.
            let unprivileged = try Sandbox.asUnprivilegedUser(
                ["status", "--format", format, "--store", sandbox.storePath, "--now", sandbox.now] + Self.zone)
            #expect(unprivileged.status == 0 && unprivileged.stdout == output, "\(format) as nobody: \(unprivileged.stderr)")
        }
        let after = try Self.fingerprint(sandbox.storePath)
        #expect(after.0 == before.0 && after.1 == before.1)
        #expect(try FileManager.default.contentsOfDirectory(atPath: sandbox.folder.path).sorted() == files)
    }

    // MARK: Templates and options

    @Test func userTemplatesReplaceTheDefaults() throws {
        let sandbox = try Self.fixtureSandbox()
        let file = sandbox.folder.appendingPathComponent("mine.mustache")
        try Data("mine {{overdue}}/{{dueToday}}{{#next}} {{title}}{{/next}}".utf8).write(to: file)
        let viaFile = try sandbox.succeed(["status", "--format", "tmux", "--template", file.path, "--list", "R&D <lab> 100% #1"] + Self.zone)
        // tmux escaping applies to the user's template too.
        #expect(viaFile == "mine 0/1 Issue ####42 ####{pane_id} ####(rm -rf /) ##[fg=r…\n")
        // From a pipe too (`--template /dev/stdin`, `<(…)`): it could not be read.
        let piped = try sandbox.run(
            ["status", "--format", "tmux", "--template", "/dev/stdin", "--list", "R&D <lab> 100% #1"] + Self.zone,
            input: try Data(contentsOf: file))
        #expect(piped.status == 0 && piped.stdout == viaFile, "\(piped.stderr)")

        let config = sandbox.folder.appendingPathComponent("config")
        let templates = config.appendingPathComponent("taskwidget/templates")
        try FileManager.default.createDirectory(at: templates, withIntermediateDirectories: true)
        try Data(#"{"text": "{{class}} {{percentage}}%", "class": "{{class}}"}"#.utf8).write(to: templates.appendingPathComponent("waybar.mustache"))
        let result = try sandbox.run(["status", "--format", "waybar"] + Self.zone, environment: ["XDG_CONFIG_HOME": config.path])
        #expect(result.status == 0)
        #expect(result.stdout == #"{"text": "overdue 20%", "class": "overdue"}"# + "\n")
        // Another format keeps its default.
        let text = try sandbox.run(["status"] + Self.zone, environment: ["XDG_CONFIG_HOME": config.path])
        #expect(text.stdout == (try Self.golden("text")["store"] ?? "") + "\n")
    }

    /// An editor's byte order mark before a template is no part of it: it began every line, and a
    /// waybar line that begins with one is no JSON a bar reads.
    @Test func aByteOrderMarkBeforeATemplateIsLeftOut() throws {
        let sandbox = try Self.fixtureSandbox()
        let file = sandbox.folder.appendingPathComponent("bom.mustache")
        try Data("\u{FEFF}{\"text\": \"{{class}}\"}".utf8).write(to: file)
        let line = try sandbox.succeed(["status", "--format", "waybar", "--template", file.path] + Self.zone)
        #expect(line == #"{"text": "overdue"}"# + "\n")
    }

    /// A template's text reaches the bar as it is (tmux runs its `#(…)`), so one that others may
    /// change, or in a folder they may change, is refused as such a config.toml is: it was used
    /// (helper-78). On a bar's pipe, the bar gets the error line.
    @Test func aTemplateOthersCanChangeIsRefused() throws {
        let sandbox = try Self.fixtureSandbox()
        let config = sandbox.folder.appendingPathComponent("config")
        let templates = config.appendingPathComponent("taskwidget/templates")
        try FileManager.default.createDirectory(at: templates, withIntermediateDirectories: true)
        let file = templates.appendingPathComponent("tmux.mustache")
        try Data("mine {{summary}} #(touch pwned)".utf8).write(to: file)
        let environment = ["XDG_CONFIG_HOME": config.path]
        try FileManager.default.setAttributes([.posixPermissions: 0o666], ofItemAtPath: file.path)
        let open = try sandbox.run(["status", "--format", "tmux"] + Self.zone, environment: environment)
        #expect(open.status == 0 && open.stdout == "#[fg=red]⚠ taskwidget#[default]\n", "\(open.stdout)")
        #expect(open.stderr == "taskwidget: \(file.path) can be changed by others (its text reaches the bar as it is, and tmux or polybar run "
            + "the commands it may hold): run `chmod go-w \(file.path)`\n")
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: file.path)
        try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: templates.path)
        let folder = try sandbox.run(["status", "--format", "tmux"] + Self.zone, environment: environment)
        #expect(folder.stderr.hasPrefix("taskwidget: the folder \(templates.path) of \(file.path) can be changed by others"), "\(folder.stderr)")
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: templates.path)
        let mine = try sandbox.run(["status", "--format", "tmux"] + Self.zone, environment: environment)
        #expect(mine.status == 0 && mine.stdout.hasPrefix("mine ") && mine.stderr.isEmpty, "\(mine.stdout)\(mine.stderr)")

        // A link to a file in a folder others may change is refused too: only the link's folder
        // was checked (helper-82). A relative path names its folder `.`.
        let openFolder = sandbox.folder.appendingPathComponent("open")
        try FileManager.default.createDirectory(at: openFolder, withIntermediateDirectories: false)
        try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: openFolder.path)
        try Data("linked {{summary}}".utf8).write(to: openFolder.appendingPathComponent("linked.mustache"))
        try FileManager.default.removeItem(at: file)
        try FileManager.default.createSymbolicLink(at: file, withDestinationURL: openFolder.appendingPathComponent("linked.mustache"))
        let linked = try sandbox.run(["status", "--format", "tmux"] + Self.zone, environment: environment)
        #expect(
            linked.stderr.hasPrefix("taskwidget: the folder \(openFolder.path) of \(file.path) (a link to \(openFolder.path)/linked.mustache) can be changed by others"),
            "\(linked.stderr)")
        let relative = try ProcessRunner.run(
            "/bin/sh", ["-c", "cd \"$1\" && shift && exec \"$@\"", "sh", openFolder.path, Sandbox.binary.path]
                + sandbox.arguments(["status", "--template", "linked.mustache"] + Self.zone),
            environment: sandbox.environment)
        #expect(relative.stderr.hasPrefix("taskwidget: the folder . of linked.mustache can be changed by others"), "\(relative.stderr)")

        // A device is no file: the mode check advised `chmod go-w /dev/null` (helper-92).
        let device = try sandbox.run(["status", "--template", "/dev/null"] + Self.zone)
        #expect(device.status == 64 && device.stderr.hasPrefix("taskwidget: /dev/null is a device, not a file ("), "\(device.stderr)")
        #expect(!device.stderr.contains("chmod"))
    }

    /// A template that is not UTF-8 is refused with its name: its bytes showed as `��` (helper-78).
    @Test func aTemplateThatIsNotUTF8IsRefused() throws {
        let sandbox = try Self.fixtureSandbox()
        let file = sandbox.folder.appendingPathComponent("latin1.mustache")
        try Data([0xFF, 0xFE] + Array("{{summary}}".utf8)).write(to: file)
        let result = try sandbox.run(["status", "--template", file.path] + Self.zone)
        #expect(result.status == 64 && result.stderr == "taskwidget: the template \(file.path) is not UTF-8 text: save it as UTF-8\n", "\(result.stderr)")
    }

    /// A template whose line is no JSON says where the line breaks, and that a value in {{{…}}}
    /// is not escaped; it said "does not render valid JSON" alone (helper-78). The line itself,
    /// which holds titles, is not shown: a bar's stderr may be a journal.
    @Test func aTemplateThatRendersNoJSONSaysWhereTheLineBreaks() throws {
        let sandbox = try Self.fixtureSandbox()
        let file = sandbox.folder.appendingPathComponent("broken.mustache")
        try Data("{\"text\": \"{{class}}\",\n  \"x\": }".utf8).write(to: file)
        let result = try sandbox.run(["status", "--format", "waybar", "--template", file.path] + Self.zone)
        #expect(result.status == 0 && result.stdout.contains("\"class\":\"error\""), "a bar gets its error line")
        #expect(
            result.stderr == "taskwidget: template \(file.path) does not render valid JSON for waybar (the line it renders breaks at character "
                + "\(#"{"text": "overdue","x": "#.count + 1)): fix the template\n", "\(result.stderr)")
        // A comma before `}` too, which Foundation's parser took and bars' parsers refuse; the
        // hint about {{{…}}} only for a template that has one (helper-82).
        try Data("{\"text\": \"{{{class}}}\",}".utf8).write(to: file)
        let comma = try sandbox.run(["status", "--format", "i3bar", "--template", file.path] + Self.zone)
        #expect(
            comma.stderr == "taskwidget: template \(file.path) does not render valid JSON for i3bar (the line it renders breaks at character "
                + "\(#"{"text": "overdue","#.count + 1)): fix the template (a value in {{{…}}} is put in unescaped)\n", "\(comma.stderr)")
        // Valid JSON that is no object: a bare value was "not valid JSON", and an i3bar array,
        // printed here, became an array in an array under watch, which swaybar drew as nothing
        // (helper-122).
        for (format, template) in [("waybar", "\"{{summary}}\""), ("i3bar", "[{\"full_text\": \"{{summary}}\"}]"), ("json", " {{open}}")] {
            try Data(template.utf8).write(to: file)
            let value = try sandbox.run(["status", "--format", format, "--template", file.path] + Self.zone)
            #expect(
                value.stderr == "taskwidget: template \(file.path) renders no JSON object for \(format): a line is one object, {…}: fix the template\n",
                "\(format): \(value.stderr)")
        }
    }

    @Test func aBrokenTemplateNamesFileLineAndColumn() throws {
        let sandbox = try Self.fixtureSandbox()
        let file = sandbox.folder.appendingPathComponent("broken.mustache")
        try Data("{\n  \"text\": \"{{#next}}{{title}}\"\n}".utf8).write(to: file)
        let bar = try sandbox.run(["status", "--format", "waybar", "--template", file.path] + Self.zone)
        #expect(bar.status == 0)
        #expect(try Self.jsonObject(bar.stdout)["class"] as? String == "error")
        #expect(bar.stderr.hasPrefix("taskwidget: template \(file.path):3:2: "), "\(bar.stderr)")
        let text = try sandbox.run(["status", "--template", file.path] + Self.zone)
        #expect(text.status == 64 && text.stderr.hasPrefix("taskwidget: template \(file.path):3:2: "), "\(text.stderr)")

        // A template that renders invalid JSON: the bar still gets a valid line.
        try Data(#"{"text": "{{#next}}{{{title}}}{{/next}}"}"#.utf8).write(to: file)
        let invalid = try sandbox.run(["status", "--format", "waybar", "--template", file.path] + Self.zone)
        #expect(invalid.status == 0 && invalid.stderr.contains(file.path))
        #expect(try Self.jsonObject(invalid.stdout)["class"] as? String == "error")
    }

    /// (A width below four is refused: see `anUnknownListOrATooSmallWidthIsAnErrorLineForBarsAndAnErrorForText`.)
    @Test func aWidthOfFourCutsTitlesToFourCharacters() throws {
        let sandbox = try Self.fixtureSandbox()
        let narrow = try sandbox.succeed(["status", "--format", "tmux", "--max-width", "4", "--list", "R&D <lab> 100% #1"] + Self.zone)
        #expect(narrow == "1 today · Iss…\n")
    }
}
