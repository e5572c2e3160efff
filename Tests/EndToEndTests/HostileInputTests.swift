import Foundation
import GRDB
import Testing

@testable import TaskWidgetTestSupport

/// Hostile input where a user hits it, through the built binary: huge titles (on the command line
/// and in import files), NUL bytes, bytes that are not UTF-8, deep nesting, broken and deeply nested
/// templates. Each is one short `taskwidget: ` line on stderr with the documented status (64 usage,
/// 65 bad data; a bar format still prints its error line and exits 0), never a crash, and the
/// store exactly as it was; what is accepted stays bounded in what it prints.
@Suite struct HostileInputTests {
    /// One character of `1 + marks` scalars: `x` and that many U+0301 (2 bytes each).
    static func zalgo(_ marks: Int) -> String { "x" + String(repeating: "\u{301}", count: marks) }

    /// A sandbox with a list, a habit and a task, so that "nothing changed" means something.
    static func sandbox() throws -> Sandbox {
        let sandbox = try Sandbox()
        try sandbox.succeed(["add", "Pay rent", "--new-list", "--list", "Home", "--due", "tomorrow"])
        try sandbox.succeed(["habit", "add", "Walk"])
        return sandbox
    }

    /// An export with one task titled `title` (any JSON string content, escaped here).
    static func document(title: String) -> Data {
        let escaped = String(decoding: try! JSONSerialization.data(withJSONObject: [title]), as: UTF8.self).dropFirst().dropLast()
        return Data("""
            {"schema": "taskwidget.export/1", "lists": [], "habits": [], "tasks": [
              {"id": "ABCD0000-0000-4000-8000-000000000001", "title": \(escaped), "isCompleted": false,
               "state": "notStarted", "createdAt": "2026-11-20T10:00:00Z", "modifiedAt": "2026-11-20T10:00:00Z", "sortOrder": 0}]}
            """.utf8)
    }

    func write(_ data: Data, _ name: String, in sandbox: borrowing Sandbox) throws -> String {
        let url = sandbox.folder.appendingPathComponent(name)
        try data.write(to: url)
        return url.path
    }

    // MARK: Huge titles

    /// The command line carries at most 128 KiB per argument (Linux's MAX_ARG_STRLEN: a 1 MB title
    /// never reaches taskwidget, the shell gets E2BIG). Within that, one character of 120 000 bytes
    /// passes a limit that counted characters only; it is refused by its bytes now, in `add`,
    /// `edit`, `list add` and `habit add`, and so are 1001 ordinary characters.
    @Test func hugeTitlesOnTheCommandLineAreRefused() throws {
        let sandbox = try Self.sandbox()
        let huge = Self.zalgo(60_000)
        let id = try #require(try sandbox.succeed(["ls", "--format", "json"]).split(separator: "\"").first { $0.count == 36 })
        try sandbox.expectRefused(["add", huge], status: 64, message: "the title is 120001 bytes long in UTF-8: the limit is 40000 bytes")
        try sandbox.expectRefused(["edit", String(id.prefix(8)), "--title", huge], status: 64, message: "120001 bytes")
        try sandbox.expectRefused(["list", "add", huge], status: 64, message: "the list name is 120001 bytes long")
        try sandbox.expectRefused(["habit", "add", huge], status: 64, message: "the habit name is 120001 bytes long")
        try sandbox.expectRefused(["habit", "add", "Run", "--icon", Self.zalgo(200)], status: 64, message: "the icon must be")
        try sandbox.expectRefused(["add", String(repeating: "ab", count: 60_000)], status: 64, message: "120000 characters long")
    }

    /// An argument that is not UTF-8 is refused, as standard input that is not: it was saved with
    /// U+FFFD in place of its bytes, and a bar gets the error line of its format (helper-87).
    @Test func anArgumentThatIsNotUTF8IsRefused() throws {
        let sandbox = try Sandbox()
        let badByte = #""$(printf 'bad \377 byte')""#
        let add = try ProcessRunner.run("/bin/sh", ["-c", sandbox.shellCommand(["add"]) + " " + badByte], environment: sandbox.environment)
        #expect(add.status == 64 && add.stderr == "taskwidget: the argument “bad � byte” is not UTF-8 text: give it in UTF-8 (a file or folder whose name is in another encoding: rename it in UTF-8)\n", "\(add.stderr)")
        #expect(!FileManager.default.fileExists(atPath: sandbox.storePath), "nothing was saved")
        let bar = try ProcessRunner.run(
            "/bin/sh", ["-c", sandbox.shellCommand(["status", "--format", "waybar", "--list"]) + " " + badByte], environment: sandbox.environment)
        #expect(bar.status == 0 && bar.stdout.hasPrefix(#"{"text":"⚠ taskwidget","tooltip":"the argument"#), "\(bar.stdout)")
        // A variable that names a path: the store was made under another name (helper-89, helper-90).
        let store = sandbox.folder.appendingPathComponent("st").path
        let variable = try ProcessRunner.run(
            "/bin/sh", ["-c", "TASKWIDGET_STORE=\"$(printf '\(store)\\377')\" exec " + Sandbox.binary.path.shellQuoted + " add x"],
            environment: sandbox.environment)
        #expect(variable.status == 64 && variable.stderr == "taskwidget: TASKWIDGET_STORE is not UTF-8 text: set it in UTF-8 (rename a folder whose name is in another encoding), or taskwidget would use another path\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: sandbox.folder.path).allSatisfy { !$0.hasPrefix("st") })
        // The current folder: a relative --out-dir filled a folder named with U+FFFD (helper-174).
        let here = try ProcessRunner.run(
            "/bin/sh", ["-c", "cd " + sandbox.folder.path.shellQuoted + " && mkdir \"$(printf 'lat\\351')\" && cd \"$(printf 'lat\\351')\" && exec " + Sandbox.binary.path.shellQuoted + " render --timeline --out-dir out"],
            environment: sandbox.environment)
        #expect(here.status == 64 && here.stderr == "taskwidget: the current folder's name is not UTF-8 text: run taskwidget from another folder, or rename it in UTF-8\n", "\(here.stderr)")
        // The folder made above only (Foundation lists its name with U+FFFD too), no second.
        #expect(try FileManager.default.contentsOfDirectory(atPath: sandbox.folder.path).filter { $0.hasPrefix("lat") }.count == 1)
    }

    /// In an import file there is no such cap: a 1 MB title, of one character or of a million,
    /// is refused whole, and the rest of the file with it.
    @Test(arguments: [("one character", 500_000), ("a million characters", 0)])
    func megabyteTitlesInAnImportFileAreRefused(kind: String, marks: Int) throws {
        let sandbox = try Self.sandbox()
        let title = marks > 0 ? Self.zalgo(marks) : String(repeating: "x", count: 1_000_000)
        let file = try write(Self.document(title: title), "huge.json", in: sandbox)
        let message = marks > 0 ? "tasks[0]: the title is 1000001 bytes long in UTF-8" : "tasks[0]: the title is 1000000 characters long"
        try sandbox.expectRefused(["import", file], status: 65, message: message)
        try sandbox.expectRefused(["import", "-"], status: 65, message: "tasks[0]: the title is", input: Self.document(title: title))
    }

    /// The largest titles accepted (1000 of the longest emoji sequences, 35 000 bytes) in every
    /// status format, `ls`, the timeline and a PNG: each prints a bounded, valid result, the
    /// status lines cut to --max-width characters.
    @Test func theLargestAcceptedTitlesGiveBoundedOutput() throws {
        let sandbox = try Self.sandbox()
        let longest = String(repeating: "👩🏻‍❤️‍💋‍👨🏼", count: 1000)
        try sandbox.succeed(["add", longest, "--due", "17:00"])
        try sandbox.succeed(["add", String(repeating: "%#<&", count: 250), "--due", "16:00"])
        for format in StatusLineCheck.formats {
            let result = try sandbox.run(["status", "--format", format])
            #expect(result.status == 0 && result.stdoutLines.count == 1, "\(format): \(result.stderr)")
            // json is the whole entry (titles whole); the others show titles cut to 40 characters.
            #expect(result.stdout.utf8.count < (format == "json" ? 80_000 : 8_000), "\(format): \(result.stdout.utf8.count) bytes")
            // One valid line of the format, as its host parses it (JSON, markup, escapes).
            let problem = result.stdoutLines.first.flatMap { StatusLineCheck.problem($0, format: format) }
            #expect(problem == nil, "\(format): \(problem ?? "")")
        }
        let listing = try sandbox.succeed(["ls"])
        #expect(listing.utf8.count < 80_000 && listing.contains("%#<&%#<&"))
        let timeline = try sandbox.run(["timeline", "--format", "json"])
        #expect(timeline.status == 0 && (try? JSONSerialization.jsonObject(with: Data(timeline.stdout.utf8))) != nil)
        let png = sandbox.folder.appendingPathComponent("large.png").path
        let render = try sandbox.run(["render", "--family", "large", "-o", png])
        #expect(render.status == 0, "\(render.stderr)")
        #expect(FileManager.default.contents(atPath: png)?.starts(with: [0x89, 0x50, 0x4E, 0x47]) == true)
    }

    // MARK: NUL, control characters, bytes that are not UTF-8

    @Test func nulAndControlCharactersAreRefusedOrRemoved() throws {
        let sandbox = try Self.sandbox()
        // In an import file: escaped (a control character in a title) or raw (not JSON).
        let escaped = try write(Self.document(title: "nul\u{0}byte"), "escaped-nul.json", in: sandbox)
        try sandbox.expectRefused(["import", escaped], status: 65, message: "tasks[0]: the title contains a control character")
        var raw = Self.document(title: "nul byte")
        raw[raw.firstIndex(of: UInt8(ascii: " "))!] = 0
        try sandbox.expectRefused(["import", try write(raw, "raw-nul.json", in: sandbox)], status: 65, message: "the JSON is malformed at line 1, column ")
        #expect(try sandbox.run(["import", try write(raw, "raw-nul.json", in: sandbox)]).stderr.hasSuffix(" (a NUL byte)\n"))
        try sandbox.expectRefused(["add", "bell\u{7}\u{1B}[31m"], status: 64, message: "control character")
        // A template's own NUL and escape sequences never reach a text line.
        let template = try write(Data("a\u{0}b\u{1B}[31m {{open}}\u{2028}!".utf8), "controls.mustache", in: sandbox)
        #expect(try sandbox.succeed(["status", "--template", template]) == "ab[31m 1 !\n")
    }

    /// Control characters that the commands refuse but a store written by other means holds (here
    /// sqlite3's way, by hand): the listings (`ls`, `list ls`, `habit ls`, `timeline --format
    /// text`) and the lines that confirm a change (`done`, `habit check`) show the text
    /// without them, so a title cannot clear the screen or set the terminal's title.
    @Test func controlCharactersWrittenIntoTheStoreNeverReachTheTerminal() throws {
        let sandbox = try Self.sandbox()
        try DatabaseQueue(path: sandbox.storePath).write { db in
            try db.execute(sql: "UPDATE task SET title = 'Pay' || char(27) || '[2J' || char(7) || ' rent'")
            try db.execute(sql: "UPDATE taskList SET name = 'Ho' || char(27) || ']0;pwned' || char(7) || 'me', colorHex = '00' || char(27) || 'FF'")
            try db.execute(sql: "UPDATE habit SET icon = char(155) || '31m' || char(27) || '[31m'")
        }
        let id = try #require(
            (try JSONSerialization.jsonObject(with: Data(try sandbox.succeed(["ls", "--format", "json"]).utf8)) as? [[String: Any]])?
                .first?["shortId"] as? String)
        let outputs = [
            try sandbox.succeed(["ls"]), try sandbox.succeed(["list", "ls"]), try sandbox.succeed(["habit", "ls"]),
            try sandbox.succeed(["timeline", "--format", "text"]), try sandbox.succeed(["done", id]),
            try sandbox.succeed(["habit", "check", "Walk"]),
        ]
        for output in outputs {
            #expect(!output.unicodeScalars.contains { $0.properties.generalCategory == .control && $0 != "\n" }, "\(output.debugDescription)")
        }
        #expect(outputs[0].contains("Pay[2J rent") && outputs[0].contains("Ho]0;pwnedme"), "\(outputs[0])")
        #expect(outputs[1].contains("Ho]0;pwnedme  #00FF") && outputs[2].contains("Walk"), "\(outputs[1])\(outputs[2])")
        #expect(outputs[3].contains("Pay[2J rent"), "\(outputs[3])")
        #expect(outputs[4] == "Completed \(id) Pay[2J rent\n", "\(outputs[4])")
        #expect(outputs[5].hasPrefix("31m[31m Walk: done on "), "\(outputs[5])")
        // The list is found by the name `ls` shows (it said “did you mean “Ho]0;pwnedme”?”), is
        // taken for it, and is renamed to it, which mends it.
        #expect(try sandbox.succeed(["ls", "--all", "--list", "Ho]0;pwnedme"]).contains("Pay[2J rent"))
        let taken = try sandbox.expectRefused(["list", "add", "Ho]0;pwnedme"], status: 64, message: "a list named “Ho]0;pwnedme” already exists")
        #expect(!taken.stderr.unicodeScalars.contains { $0.properties.generalCategory == .control && $0 != "\n" }, "\(taken.stderr.debugDescription)")
        try sandbox.succeed(["list", "rename", "Ho]0;pwnedme", "Ho]0;pwnedme"])
        #expect(try sandbox.succeed(["list", "ls"]).contains("Ho]0;pwnedme  #00FF"))
        #expect(try sandbox.succeed(["export"]).contains("\"name\" : \"Ho]0;pwnedme\""))
    }

    @Test func importFilesThatAreNotUTF8AreRefused() throws {
        let sandbox = try Self.sandbox()
        var invalid = Self.document(title: "caf_")
        invalid[invalid.range(of: Data("caf_".utf8))!.upperBound - 1] = 0xE9  // "café" in Latin-1
        let utf16 = String(decoding: Self.document(title: "utf-16"), as: UTF8.self).data(using: .utf16)!
        for (name, data) in [("latin1.json", invalid), ("utf16.json", utf16), ("overlong.json", Data([0x22, 0xC0, 0xAF, 0x22]))] {
            try sandbox.expectRefused(["import", try write(data, name, in: sandbox)], status: 65, message: "\(name) is not UTF-8 text")
        }
        let surrogate = try write(Data(String(decoding: Self.document(title: "x"), as: UTF8.self).replacingOccurrences(of: #""x""#, with: #""\ud800""#).utf8), "surrogate.json", in: sandbox)
        try sandbox.expectRefused(["import", surrogate], status: 65, message: "surrogate.json is not a taskwidget export")
    }

    // MARK: Deep nesting

    /// 100 000 `[` and 100 000 `{"a":` are refused before the decoder; exactly 513 `[` made
    /// Foundation's decoder trap (SIGILL) before the check.
    @Test(arguments: [("[", 513), ("[", 100_000), ("{\"a\":", 100_000), ("[", 64)])
    func deeplyNestedImportFilesAreRefused(open: String, depth: Int) throws {
        let sandbox = try Self.sandbox()
        let file = try write(Data(String(repeating: open, count: depth).utf8), "deep.json", in: sandbox)
        let message = depth > 64 ? "arrays and objects are nested more than 64 deep" : "the JSON ends too soon"
        try sandbox.expectRefused(["import", file], status: 65, message: message)
    }

    // MARK: Templates

    /// An unclosed section, a deep nest (SIGSEGV in the Mustache parser before), and one hidden
    /// behind a set-delimiter tag: `text` exits 64, a bar prints its error line and exits 0.
    @Test(arguments: [
        ("unclosed", "{{#hasTasks}}{{open}} open", "unclosed.mustache:1:27: a section is never closed ({{/name}} is missing): fix the template"),
        ("unfinished", "{{#top}}\n{{title}}\n{{/top", "unfinished.mustache:3:7: the template ends inside a tag (}} is missing): fix the template"),
        ("nested", String(repeating: "{{#hasTasks}}", count: 100_000), "nested.mustache:1:209: sections or transforms are nested more than 16 deep"),
        ("transforms", "{{" + String(repeating: "a(", count: 100_000) + "}}", "transforms.mustache:1:1: sections or transforms are nested more than 16 deep"),
        ("delimited", "{{=<% %>=}}\n" + String(repeating: "<%^top%>", count: 1000), "delimited.mustache:2:129: sections or transforms"),
        // The parser's names (unrecognisedConfigVariable) were the message.
        ("setting", "{{% CONTENT_TYPE: BOGUS}}{{open}}",
         "setting.mustache:1:26: a {{% …}} tag names an unknown setting: the content types are TASKWIDGET_TEXT, TASKWIDGET_JSON, TASKWIDGET_WAYBAR, "
            + "TASKWIDGET_I3BAR, TASKWIDGET_POLYBAR, TASKWIDGET_TMUX (or leave the tag out: each format sets its own)"),
        // swift-mustache's own types, or another host's, escaped titles for no host or another
        // one: a title's #{host} ran in tmux (helper-122).
        ("html", "{{% CONTENT_TYPE: HTML}}{{open}}", "html.mustache:1:1: {{% CONTENT_TYPE: HTML}} would escape titles for another host than"),
        ("another", "a{{=<% %>=}}<%% CONTENT_TYPE: TASKWIDGET_TMUX%>",
         "another.mustache:1:13: {{% CONTENT_TYPE: TASKWIDGET_TMUX}} would escape titles for another host than"),
        // Shown as a value, a list printed Swift's description of it, an object nothing (helper-122).
        ("list", "{{open}} {{top}}", "list.mustache:1:10: “top” is a list: go over it with a section, {{#top}}…{{/top}}"),
        ("object", "{{{counts}}}", "object.mustache:1:1: “counts” is an object: show one of its names ({{counts.NAME}}), or open it as a section"),
        // The list again for each of its items: eight deep, 15 s and 490 MB (helper-122).
        ("again", "{{#top}}{{title}}{{#top}}{{title}}{{/top}}{{/top}}",
         "again.mustache:1:18: {{#top}} inside {{#top}} goes over the whole list again for each of its items: close the first one before"),
        ("pragma", "{{% NOPE}}{{open}}", "pragma.mustache:1:9: a {{% …}} tag is malformed (taskwidget sets the content type itself: leave it out)"),
        // The parser said it was closed "with another name than it was opened with" (helper-106).
        ("stray", "x{{/top}}", "stray.mustache:1:2: {{/top}} closes a section that is not open: remove it, or open the section with {{#top}}"),
        // The parser's "closed with another name than it was opened with" named neither (helper-110).
        ("misnamed", "a{{#top}}{{title}}{{/tops}}", "misnamed.mustache:1:19: {{/tops}} closes the section {{#top}}: give it that name, {{/top}}"),
    ])
    func brokenTemplatesAreOneLineErrors(name: String, text: String, message: String) throws {
        let sandbox = try Self.sandbox()
        let template = try write(Data(text.utf8), name + ".mustache", in: sandbox)
        // text is no bar: it exits 64, and still prints its one error line.
        let text = try sandbox.expectRefused(["status", "--template", template], status: 64, message: message, allowingStdout: true)
        #expect(text.stdoutLines.count == 1 && text.stdout.hasPrefix("⚠ taskwidget: "), "\(text.stdout)")
        for format in ["waybar", "polybar"] {
            let bar = try sandbox.expectRefused(["status", "--format", format, "--template", template], status: 0, message: message, allowingStdout: true)
            #expect(bar.stdoutLines.count == 1 && bar.stdout.contains("⚠ taskwidget"), "\(format): \(bar.stdout)")
        }
    }

    /// The default i3bar template, copied as one's own, still works: it switches to JSON escaping
    /// alone for `instance`, which a JSON format may do (and no other: see above).
    @Test func theDefaultI3barTemplateCopiedIsTakenAsItIs() throws {
        let sandbox = try Self.sandbox()
        let copy = try write(
            Data(contentsOf: TimelineCommandTests.repositoryRoot.appendingPathComponent("templates/i3bar.mustache")), "mine.mustache", in: sandbox)
        let own = try sandbox.succeed(["status", "--format", "i3bar", "--template", copy])
        #expect(own == (try sandbox.succeed(["status", "--format", "i3bar"])))
    }

    // MARK: Dates and colors

    @Test func hostileDatesAndColorsAreShortUsageErrors() throws {
        let sandbox = try Self.sandbox()
        try sandbox.expectRefused(["add", "Far", "--due", "in 999999w"], status: 64, message: "outside the years 0001 to 9999")
        try sandbox.expectRefused(["add", "Far", "--due", "9999-12-31T23:59-05:00"], status: 64, message: "outside the years")
        // A day alone west of UTC ends past 9999 there: the message said 0001 to 9999 of a date in 9999 (helper-105).
        try sandbox.expectRefused(
            ["add", "Far", "--due", "9999-12-31", "--tz", "America/New_York"], status: 64,
            message: "“9999-12-31” is outside the years 0001 to 9999 in UTC, which taskwidget keeps (its exports write UTC): give a nearer date")
        try sandbox.expectRefused(["ls", "--now", "9999-12-31T23:59:59-18:00"], status: 64, message: "outside the years")
        // A timeline that would reach the year 10000: render failed with an internal message, and
        // timeline and status wrote dates of that year.
        for command in [["render", "-o", "-"], ["timeline"]] {
            try sandbox.expectRefused(command + ["--now", "9999-12-31T12:00"], status: 64, message: "--now must be before 9999-12-30")
        }
        #expect(try sandbox.run(["status", "--now", "9999-12-31T12:00"]).stdout.contains("--now must be before 9999-12-30"), "the bar's line says it")
        #expect(try sandbox.run(["timeline", "--format", "json", "--now", "9999-12-29T23:59:59"]).status == 0)
        try sandbox.expectRefused(["add", "Soon", "--due", Self.zalgo(50_000)], status: 64, message: "cannot read date")
        try sandbox.expectRefused(["list", "add", "Work", "--color", "#" + Self.zalgo(50_000)], status: 64, message: "is not a color")
        try sandbox.expectRefused(["done", Self.zalgo(50_000)], status: 64, message: "is not a task id")
    }
}
