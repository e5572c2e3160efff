import Foundation
import Testing

@testable import TaskWidgetCore
@testable import TaskWidgetStore
@testable import TaskWidgetFormats
@testable import TaskWidgetTestSupport

/// The renderer's rules one at a time: truncation on grapheme boundaries, the bar class, the
/// percentage, i3bar's urgency and short text, user templates and their errors.
@Suite struct StatusRendererTests {
    /// The fixture's entry with its counts replaced (everything else as the store gives it).
    static func entry(open: Int, overdue: Int = 0, dueToday: Int = 0, dueSoon: Int = 0, completedToday: Int = 0) throws -> TimelineEntry {
        var entry = try StatusFixture.entry(StatusFixture.export)
        entry.counts = TaskCounts(open: open, overdue: overdue, dueToday: dueToday, dueSoon: dueSoon, completedToday: completedToday, inbox: 0)
        if open == 0 { entry.top = [] }
        return entry
    }

    /// An entry whose only task has `title`, due today at 18:00.
    static func entry(title: String) throws -> TimelineEntry {
        try StatusFixture.entry(StatusFixture.single(title))
    }

    // MARK: Truncation

    @Test func titlesUpToTheWidthAreKeptWhole() {
        let forty = String(repeating: "a", count: 40)
        #expect(forty.truncated(to: 40) == forty)
        #expect("short".truncated(to: 40) == "short")
        #expect((forty + "b").truncated(to: 40) == String(repeating: "a", count: 39) + "…")
        #expect((forty + "b").truncated(to: 40).count == 40)
    }

    @Test func truncationNeverSplitsAGraphemeCluster() {
        let family = "👩‍👩‍👧"  // woman, ZWJ, woman, ZWJ, girl: one character
        let flags = "🇩🇪🇫🇷🇯🇵🇺🇸"  // four flags, each two regional indicators
        let accent = "e\u{301}"  // e and a combining acute: one character
        let cases: [(text: String, width: Int, expected: String)] = [
            (String(repeating: family, count: 10), 5, String(repeating: family, count: 4) + "…"),
            (flags, 3, "🇩🇪🇫🇷…"),
            (flags, 4, flags),
            (String(repeating: accent, count: 6), 4, String(repeating: accent, count: 3) + "…"),
            ("ab" + family + "cd", 4, "ab" + family + "…"),
        ]
        for (text, width, expected) in cases {
            let cut = text.truncated(to: width)
            #expect(cut == expected, "\(text) at \(width)")
            #expect(cut.count <= width)
            // Every character of the cut is a whole character of the original.
            #expect(Array(cut.dropLast(cut == text ? 0 : 1)) == Array(text.prefix(cut.count - (cut == text ? 0 : 1))))
            #expect(cut.unicodeScalars.filter { (0x1F1E6...0x1F1FF).contains($0.value) }.count % 2 == 0)
        }
    }

    @Test func maxWidthCutsTitlesInEveryFormat() throws {
        let title = "ab👨‍👩‍👧‍👦cd🇯🇵ef and more"
        let entry = try Self.entry(title: title)
        let cut = "ab👨‍👩‍👧‍👦cd🇯🇵…"  // 7 characters: six of the title and the ellipsis
        #expect(try StatusFixture.line(.text, entry, maxWidth: 7).contains("next: " + cut + " ("))
        #expect(try StatusFixture.line(.polybar, entry, maxWidth: 7).hasSuffix(" · " + cut))
        #expect(try StatusFixture.line(.tmux, entry, maxWidth: 7).hasSuffix(" · " + cut))
        let waybar = try JSONDecoder.decodeLine(WaybarLine.self, try StatusFixture.line(.waybar, entry, maxWidth: 7))
        #expect(waybar.text.hasSuffix(" · " + cut))
        #expect(waybar.tooltip.hasSuffix("\n" + cut + " · 18:00"))
        // The JSON format is the entry: titles stay whole.
        #expect(try StatusFixture.line(.json, entry, maxWidth: 7).contains(#""title":"\#(title)""#))
        // Escaping comes after cutting: an `&` is one character, not five.
        let ampersands = try JSONDecoder.decodeLine(
            WaybarLine.self, try StatusFixture.line(.waybar, try Self.entry(title: "&&&&&&&&"), maxWidth: 5))
        #expect(ampersands.text.hasSuffix(" · &amp;&amp;&amp;&amp;…"))
    }

    /// Regression: the line was trimmed with Foundation's `.whitespaces`, which holds U+200B, so the
    /// zero-width space that guards a title's last `%` was cut off the end of a polybar line.
    @Test func aTitleEndingInPercentKeepsItsGuardAtTheEndOfThePolybarLine() throws {
        let line = try StatusFixture.line(.polybar, try Self.entry(title: "Done 100%"))
        #expect(line.unicodeScalars.suffix(2).elementsEqual("%\u{200B}".unicodeScalars), "\(line.debugDescription)")
        #expect(Independent.splitPolybar(line)?.text.hasSuffix("Done 100%") == true)
    }

    // MARK: Class, percentage, i3bar

    /// overdue beats due-soon beats ok; no open task is empty.
    @Test(arguments: [
        (1, 1, 0, 0, "overdue"), (3, 1, 2, 1, "overdue"), (2, 0, 2, 1, "due-soon"), (2, 0, 1, 0, "ok"),
        (5, 0, 0, 0, "ok"), (0, 0, 0, 0, "empty"),
    ])
    func classFollowsTheMostUrgentCount(open: Int, overdue: Int, dueToday: Int, dueSoon: Int, expected: String) throws {
        let entry = try Self.entry(open: open, overdue: overdue, dueToday: dueToday, dueSoon: dueSoon)
        let waybar = try JSONDecoder.decodeLine(WaybarLine.self, try StatusFixture.line(.waybar, entry))
        #expect(waybar.class == expected && waybar.alt == expected)
        let i3bar = try JSONDecoder.decodeLine(I3barBlock.self, try StatusFixture.line(.i3bar, entry))
        #expect(i3bar.urgent == (expected == "overdue"))
    }

    /// Done today out of done plus still due by the end of today (overdue included), rounded down;
    /// 0 when nothing is due or done.
    @Test func percentageIsDoneOutOfDoneAndDue() throws {
        let facts: [(done: Int, due: Int, percent: UInt8)] = [
            (0, 0, 0), (0, 3, 0), (1, 0, 100), (5, 0, 100), (1, 1, 50), (1, 2, 33), (2, 1, 66), (1, 3, 25), (3, 997, 0),
        ]
        for (done, due, percent) in facts {
            let entry = try Self.entry(open: due, dueToday: due, completedToday: done)
            let waybar = try JSONDecoder.decodeLine(WaybarLine.self, try StatusFixture.line(.waybar, entry))
            #expect(waybar.percentage == percent, "done \(done), due \(due)")
        }
        // Overdue tasks are still to do today: three tasks due this morning, one done and two now
        // overdue, are a third done (it read 100, since only the tasks due later today counted).
        let morning = try JSONDecoder.decodeLine(
            WaybarLine.self, try StatusFixture.line(.waybar, try Self.entry(open: 2, overdue: 2, completedToday: 1)))
        #expect(morning.percentage == 33)
        #expect(try JSONDecoder.decodeLine(
            WaybarLine.self, try StatusFixture.line(.waybar, try Self.entry(open: 4, overdue: 1, dueToday: 3, completedToday: 1))).percentage == 20)
        // The percentage is written as a bare integer, as waybar 0.9.17 reads it.
        let line = try StatusFixture.line(.waybar, try Self.entry(open: 2, dueToday: 2, completedToday: 1))
        #expect(line.hasSuffix(#""percentage": 33}"#) || line.hasSuffix(#""percentage":33}"#))
    }

    @Test func i3barUrgencyAndShortTextFollowTheCounts() throws {
        // Counts only, with what they count: no title can make the short text long, and a bar
        // too narrow for the full text still tells what is late, due today, or left.
        // With nothing open, ✓ as the full text's "✓ All done" when something was done today.
        let cases = [
            (0, 0, 0, 0, "0 open"), (0, 0, 0, 2, "✓"), (0, 0, 5, 2, "5 open"), (0, 4, 5, 0, "4 today"), (1, 0, 1, 0, "⚠ 1"),
            (2, 3, 6, 0, "⚠ 2 · 3 today"), (12, 34, 47, 0, "⚠ 12 · 34 today"),
        ]
        for (overdue, dueToday, open, completedToday, shortText) in cases {
            let entry = try Self.entry(open: open, overdue: overdue, dueToday: dueToday, completedToday: completedToday)
            let block = try JSONDecoder.decodeLine(I3barBlock.self, try StatusFixture.line(.i3bar, entry))
            #expect(block.urgent == (overdue > 0))
            #expect(block.short_text == shortText)
            #expect((block.color != nil) == (overdue > 0))
        }
    }

    /// With every task undated, `next` has no due date: the text says nothing about when.
    @Test func textOfAnUndatedNextTaskHasNoEmptyParentheses() throws {
        var builder = StoreBuilder(created: Fixed.instant("2026-11-01T08:00:00Z"))
        builder.task("Buy milk")
        let line = try StatusFixture.line(.text, try StatusFixture.entry(builder.export))
        #expect(line.contains("next: Buy milk"))
        #expect(!line.contains("()"), "\(line)")
    }

    // MARK: User templates

    @Test func templateFileReplacesTheDefault() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("mine.mustache")
        try Data(#"{"text": "mine {{overdue}} {{#next}}{{title}}{{/next}}", "class": "{{class}}"}"#.utf8).write(to: URL(fileURLWithPath: path))
        let template = try StatusRenderer.Template.resolve(format: .waybar, path: path, environment: [:])
        #expect(template.source == path)
        let renderer = try StatusRenderer(format: .waybar, template: template)
        let line = try renderer.line(for: try StatusFixture.entry(StatusFixture.export), timeZone: StatusFixture.zone, now: StatusFixture.now)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: String])
        // The user's template gets the host's escaping without asking for it.
        #expect(object == ["text": "mine 1 Pay rent &amp; &lt;stuff&gt; &quot;quoted&quot; &#39;single&#39;", "class": "overdue"])
    }

    @Test func configTemplateReplacesTheDefaultForItsFormatOnly() throws {
        let config = try TemporaryFolder()
        let templates = config.path("taskwidget/templates")
        try FileManager.default.createDirectory(atPath: templates, withIntermediateDirectories: true)
        try Data("user {{overdue}} overdue".utf8).write(to: URL(fileURLWithPath: templates + "/tmux.mustache"))
        let entry = try StatusFixture.entry(StatusFixture.export)

        let fromConfig = try StatusRenderer.Template.resolve(format: .tmux, path: nil, environment: ["XDG_CONFIG_HOME": config.url.path])
        #expect(fromConfig.source == templates + "/tmux.mustache")
        let renderer = try StatusRenderer(format: .tmux, template: fromConfig)
        #expect(try renderer.line(for: entry, timeZone: StatusFixture.zone, now: StatusFixture.now) == "user 1 overdue")
        // Without XDG_CONFIG_HOME, ~/.config is the place; a relative XDG_CONFIG_HOME is ignored.
        let home = try TemporaryFolder()
        try FileManager.default.createDirectory(atPath: home.path(".config/taskwidget/templates"), withIntermediateDirectories: true)
        try Data("home".utf8).write(to: URL(fileURLWithPath: home.path(".config/taskwidget/templates/tmux.mustache")))
        #expect(try StatusRenderer.Template.resolve(format: .tmux, path: nil, environment: ["HOME": home.url.path]).text == "home")
        #expect(
            try StatusRenderer.Template.resolve(
                format: .tmux, path: nil, environment: ["HOME": home.url.path, "XDG_CONFIG_HOME": "relative/config"]
            ).text == "home")
        // Another format keeps its default.
        let waybar = try StatusRenderer.Template.resolve(format: .waybar, path: nil, environment: ["XDG_CONFIG_HOME": config.url.path])
        #expect(waybar.source == "the default waybar template")
        // --template wins over the configured one.
        let file = config.path("explicit.mustache")
        try Data("explicit".utf8).write(to: URL(fileURLWithPath: file))
        #expect(try StatusRenderer.Template.resolve(format: .tmux, path: file, environment: ["XDG_CONFIG_HOME": config.url.path]).text == "explicit")
    }

    @Test func aMissingTemplateFileIsAnIOErrorNamingIt() throws {
        let error = expectError(.ioFailure) {
            try StatusRenderer.Template.resolve(format: .waybar, path: "/nonexistent/mine.mustache", environment: [:])
        }
        #expect(error?.message.contains("/nonexistent/mine.mustache") == true)
    }

    /// A parse error names the user's file, and the line and column in that file (the renderer
    /// parses one pragma line before it; the position must not count it).
    @Test(arguments: [
        // An unclosed section is noticed at the end of the file: line 3, after the `}`.
        ("{\n  \"text\": \"{{#next}}{{title}}\"\n}", 3, 2...2),
        // A closing tag that closes nothing open, on line 1: the column is inside the tag.
        ("{{#next}}{{title}}{{/top}} tail", 1, 19...26),
        ("line one\nline two\n  {{#top}}x{{/next}}", 3, 12...20),
    ])
    func templateSyntaxErrorNamesFileLineAndColumn(text: String, line: Int, columns: ClosedRange<Int>) throws {
        let folder = try TemporaryFolder()
        let path = folder.path("broken.mustache")
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        let template = try StatusRenderer.Template.resolve(format: .waybar, path: path, environment: [:])
        let error = expectError(.badTemplate) { try StatusRenderer(format: .waybar, template: template) }
        let message = try #require(error?.message)
        let prefix = "template " + path + ":\(line):"
        #expect(message.hasPrefix(prefix), "\(message)")
        let column = Int(message.dropFirst(prefix.count).prefix(while: \.isNumber))
        #expect(column.map(columns.contains) == true, "\(message)")
    }

    /// Regression: swift-mustache parses each nested section (and each `(` of a transform) with a
    /// recursive call of kilobytes of stack, so a user template a few hundred levels deep killed
    /// taskwidget with SIGSEGV. Such templates are refused before parsing, also when set-delimiter
    /// tags hide the sections.
    @Test(arguments: [
        ("sections", String(repeating: "{{#hasTasks}}", count: 5000) + "x" + String(repeating: "{{/hasTasks}}", count: 5000), 1),
        ("unclosed", "line one\n" + String(repeating: "{{^hasTasks}}", count: 100_000), 2),
        ("transforms", "{{" + String(repeating: "a(", count: 100_000) + "x" + String(repeating: ")", count: 100_000) + "}}", 1),
        ("delimiters", "{{=<% %>=}}\n" + String(repeating: "<%#top%>", count: 5000), 2),
        ("blocks", String(repeating: "{{$block}}", count: 5000), 1),
        ("partials", String(repeating: "{{<parent}}", count: 5000), 1),
    ])
    func deeplyNestedTemplatesAreRefusedBeforeTheParserOverflows(name: String, text: String, line: Int) throws {
        let template = StatusRenderer.Template(text: text, source: "\(name).mustache")
        let error = expectError(.badTemplate) { try StatusRenderer(format: .waybar, template: template) }
        let message = try #require(error?.message)
        #expect(message.hasPrefix("template \(name).mustache:\(line):"), "\(message)")
        #expect(message.contains("nested more than \(StatusRenderer.maximumNesting) deep"), "\(message)")
    }

    /// The defaults skip the nesting scan and the name check at every run; they would pass them.
    @Test(arguments: StatusFormat.allCases)
    func theBuiltInTemplatesAreMarkedAndPassTheNestingScanAndTheNameCheck(format: StatusFormat) throws {
        let template = try StatusRenderer.Template.resolve(format: format, path: nil, environment: [:])
        #expect(template.isBuiltIn)
        let text = TemplateText(template.text, source: "built-in")
        try StatusRenderer.checkNesting(of: text)
        try StatusRenderer.checkHostSign(of: text, format: format)
        try TemplateNames.check(text, names: StatusContext.fields.mapValues(\.shape))
        let folder = try TemporaryFolder()
        let path = folder.path("user.mustache")
        try Data(template.text.utf8).write(to: URL(fileURLWithPath: path))
        #expect(try !StatusRenderer.Template.resolve(format: format, path: path, environment: [:]).isBuiltIn)
    }

    /// A tag right after tmux's `#` or polybar's `%` would let a title finish the host's format
    /// (`#{{title}}` with the title `[fg=red]` styled the bar, helper-139): refused where it is.
    /// tmux's `##` is the sign itself; polybar has no escape, so any `%` there is refused.
    @Test(arguments: [
        (StatusFormat.tmux, "next #{{#next}}{{title}}{{/next}}", 6), (.tmux, "a\n###{{overdue}}", 3), (.polybar, "100%{{overdue}}", 4),
        (.polybar, "100%%{{#next}}{{title}}{{/next}}", 5),
        // Past the tags that print nothing (helper-141).
        (.tmux, "A #{{! note }}{{open}}", 3), (.tmux, "A #{{=<% %>=}}<%open%>", 3), (.polybar, "%{{! x }}{{open}}", 1),
        (.tmux, "A #{{! a }}#{{! b }}#{{open}}", 21),
    ])
    func aTagRightAfterTheHostsSignIsRefused(format: StatusFormat, text: String, column: Int) throws {
        let error = expectError(.badTemplate) { try StatusRenderer(format: format, template: .init(text: text, source: "sign")) }
        #expect(error?.message.hasPrefix("template sign:\(text.contains("\n") ? 2 : 1):\(column): the \(format == .tmux ? "#" : "%") right before {{") == true, "\(error?.message ?? "")")
    }

    @Test func theHostsSignBeforeASpaceOrTmuxsDoubledSignIsTaken() throws {
        let entry = try StatusFixture.entry(StatusFixture.export)
        for (format, text) in [(StatusFormat.tmux, "##{{open}} # {{open}} #[fg=red]{{open}} #{{! a }}#{{open}} #{{! a }} {{open}}"), (.polybar, "100% {{open}} %{F#f00}{{open}}%{F-}"), (.text, "#{{open}}%{{open}}")] {
            _ = try StatusRenderer(format: format, template: .init(text: text, source: "sign")).line(for: entry, timeZone: StatusFixture.zone, now: StatusFixture.now)
        }
    }

    /// waybar's tooltip with nothing open suggests an `add`, which puts a task in the Inbox: not in
    /// a bar that shows a list or a view, where the task would never show (helper-139).
    @Test func theEmptyWaybarTooltipSuggestsAnAddOnlyWhenTheBarShowsEverything() throws {
        var builder = StoreBuilder(created: Fixed.instant("2026-11-01T08:00:00Z"))
        _ = builder.list("Work")
        for (scope, suggests) in [(TaskScope.all, true), (.list("Work"), false)] {
            let line = try StatusFixture.line(.waybar, try StatusFixture.entry(builder.export, scope: scope))
            let tooltip = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])["tooltip"] as? String
            #expect(tooltip?.contains("Add one: taskwidget add") == suggests, "\(scope): \(tooltip ?? "")")
        }
    }

    /// Up to the limit, nesting is fine, and so are parentheses in comments and changed delimiters.
    @Test func templatesNestedUpToTheLimitRender() throws {
        let depth = StatusRenderer.maximumNesting
        let entry = try StatusFixture.entry(StatusFixture.export)
        let nested = String(repeating: "{{#hasTasks}}", count: depth) + "{{open}}" + String(repeating: "{{/hasTasks}}", count: depth)
        let delimited = "{{! " + String(repeating: "(", count: 100) + " }}{{=<% %>=}}<%#hasTasks%><%open%> open<%/hasTasks%>"
        for (text, expected) in [(nested, "7"), (delimited, "7 open")] {
            let renderer = try StatusRenderer(format: .text, template: .init(text: text, source: "deep"))
            #expect(try renderer.line(for: entry, timeZone: StatusFixture.zone, now: StatusFixture.now) == expected)
        }
        expectError(.badTemplate) { try StatusRenderer(format: .text, template: .init(text: "{{= <% =}}x", source: "bad")) }
    }

    @Test func aJSONTemplateThatRendersInvalidJSONIsAnError() throws {
        let folder = try TemporaryFolder()
        let entry = try StatusFixture.entry(StatusFixture.export)
        // A missing brace, and a triple mustache that lets the title's quotes through unescaped.
        for (name, text) in [("brace", #"{"text": "{{overdue}}""#), ("triple", #"{"text": "{{#next}}{{{title}}}{{/next}}"}"#)] {
            let path = folder.path(name + ".mustache")
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
            for format in [StatusFormat.waybar, .i3bar, .json] {
                let renderer = try StatusRenderer(format: format, template: .resolve(format: format, path: path, environment: [:]))
                let error = expectError(.badTemplate) { try renderer.line(for: entry, timeZone: StatusFixture.zone, now: StatusFixture.now) }
                #expect(error?.message.contains(path) == true, "\(error?.message ?? "")")
            }
        }
        // The same triple mustache with a harmless title is valid JSON: the check is on the output.
        let path = folder.path("triple.mustache")
        let renderer = try StatusRenderer(format: .waybar, template: .resolve(format: .waybar, path: path, environment: [:]))
        #expect(try renderer.line(for: try Self.entry(title: "Buy milk"), timeZone: StatusFixture.zone, now: nil) == #"{"text": "Buy milk"}"#)
    }

    /// A JSON line is joined as its lines split at every line break, each without the spaces and
    /// tabs that begin it. Each case would come out differently if breaks were looked for among
    /// characters but not found (CR LF is one), or indentation among bytes: a space that a
    /// combining accent follows is one character with it, and stays.
    @Test(arguments: [
        ("{\n  \"a\": 1,\n\t\"b\": 2\n}", "{\"a\": 1,\"b\": 2}"),
        ("{\r\n  \"a\":\r 1\r\n}", "{\"a\":1}"),
        ("  \"x\n \t ⚠ y\"", "\"x⚠ y\""),
        ("\"x\n \u{301}y\"", "\"x \u{301}y\""),
        ("\n\n \r\n", ""),
    ])
    func jsonLinesAreJoinedWithoutTheirIndentation(text: String, joined: String) {
        #expect(StatusRenderer.joiningLines(text) == joined)
    }

    // MARK: Error lines

    @Test func errorLinesAreValidForEveryHost() throws {
        let message = #"the store /tmp/R&D <x>/"t".sqlite is 100% #1 broken"# + "\n"
        let waybar = try JSONDecoder.decodeLine(WaybarLine.self, StatusFallback.line(format: .waybar, message: message))
        #expect(waybar.class == "error" && waybar.alt == "error" && waybar.text == "⚠ taskwidget" && waybar.percentage == 0)
        let i3bar = try JSONDecoder.decodeLine(I3barBlock.self, StatusFallback.line(format: .i3bar, message: message))
        #expect(i3bar.urgent && i3bar.full_text == "⚠ taskwidget")
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(StatusFallback.line(format: .json, message: message).utf8)) as? [String: String])
        #expect(json == ["error": message])
        for format in StatusFormat.allCases {
            let line = StatusFallback.line(format: format, message: message)
            #expect(!Independent.hasLineBreak(line), "\(format)")
        }
        #expect(Independent.splitPolybar(StatusFallback.line(format: .polybar, message: message)) != nil)
        #expect(Independent.tmuxDrawn(StatusFallback.line(format: .tmux, message: message), tags: Independent.tmuxTags) != nil)
        guard let parsed = try PangoParser.parse([waybar.tooltip, i3bar.full_text]) else { return }
        #expect(parsed[0] == .text(Independent.stripControls(message)))
        #expect(parsed[1] == .text("⚠ taskwidget"))
    }

    /// A comma before `]` or `}` outside strings is found; one inside a string is text.
    @Test(arguments: [
        (#"{"text": "a",}"#, 13), (#"[1, 2 ,  ]"#, 9), (#"{"a": [1,], "b": 2}"#, 9), (#"{"text": "a, }"}"#, nil), (#"{"t": "\", ]"}"#, nil),
        (#"{"a": 1, "b": [2, 3]}"#, nil),
    ] as [(String, Int?)])
    func aTrailingCommaIsFoundOutsideStrings(json: String, offset: Int?) {
        #expect(StatusRenderer.trailingComma(in: Data(json.utf8)) == offset)
    }
}
