import Foundation
import Testing

@testable import TaskWidgetCore
@testable import TaskWidgetStore
@testable import TaskWidgetFormats
@testable import TaskWidgetTestSupport

/// Every status format on the fixed store and on one-task stores with each tricky title, as golden
/// files (Goldens/<format>.txt, one `=== scenario` header and one line each) compared byte for
/// byte; `TASKWIDGET_RECORD_GOLDENS=1 swift test --filter StatusGoldenTests` rewrites them. Beside
/// each golden, the line is checked for its host in code: JSON that parses on one line, markup that
/// Pango's own parser accepts, no tag or `#` that came from a title, no control characters.
@Suite struct StatusGoldenTests {
    typealias Scenario = StatusFixture.Scenario

    static func lines(_ format: StatusFormat) throws -> [(Scenario, String)] {
        try StatusFixture.scenarios.map { scenario in
            let entry = try StatusFixture.entry(scenario.export, scope: scenario.scope)
            return (scenario, try StatusFixture.line(format, entry, maxWidth: scenario.maxWidth))
        }
    }

    static func golden(_ lines: [(Scenario, String)]) -> String {
        lines.map { "=== \($0.0.name)\n\($0.1)\n" }.joined()
    }

    /// The store every end-to-end golden run imports: the fixture as an export file.
    @Test func storeExportMatchesGolden() throws {
        let export = StatusFixture.export
        try FormatGoldens.compare(String(decoding: try export.jsonData(), as: UTF8.self), toGolden: "store.export.json")
        // The file is a valid import: the store accepts every title and list name of the fixture.
        let store = try TemporaryStore()
        #expect(try store.store.importing(export, source: "fixture") == ImportSummary(lists: 2, tasks: 8, habits: 0, added: 8))
        #expect(Set(try store.store.export().tasks.map(\.title)) == Set(export.tasks.map(\.title)))
    }

    /// What the fixture's entry holds, checked by hand from its definition.
    @Test func fixtureCountsAreWhatTheStoreSays() throws {
        let entry = try StatusFixture.entry(StatusFixture.export)
        #expect(entry.counts == TaskCounts(open: 7, overdue: 1, dueToday: 3, dueSoon: 1, completedToday: 1, inbox: 4))
        // By due date (the overdue one first), then the undated ones, the active one first.
        #expect(entry.top.map(\.title) == [
            StatusFixture.payRent, StatusFixture.percent, StatusFixture.hashes, StatusFixture.arabic, StatusFixture.cjk,
            StatusFixture.emoji, StatusFixture.long,
        ])
        #expect(entry.next?.title == StatusFixture.payRent)
        let lab = try StatusFixture.entry(StatusFixture.export, scope: .list(StatusFixture.labList))
        #expect(lab.counts.open == 1 && lab.counts.overdue == 0 && lab.counts.dueSoon == 0 && lab.scopeTitle == StatusFixture.labList)
        let inbox = try StatusFixture.entry(StatusFixture.export, scope: .inbox)
        #expect(inbox.counts.dueSoon == 1 && inbox.counts.overdue == 0 && inbox.counts.completedToday == 1)
    }

    // MARK: Per format

    @Test func textMatchesGoldenAndHasNoControlCharacters() throws {
        let rendered = try Self.lines(.text)
        try FormatGoldens.compare(Self.golden(rendered), toGolden: "text.txt")
        // The isolates around right-to-left titles are HostEscapingTests' to check.
        let lines = rendered.map { ($0.0, Independent.withoutIsolates($0.1)) }
        for (scenario, line) in lines {
            #expect(!line.unicodeScalars.contains(where: HostileText.isControl), "\(scenario.name): \(line.debugDescription)")
            #expect(!line.isEmpty && line == line.trimmingCharacters(in: .whitespaces))
            if let title = scenario.nextTitle {
                let shown = Independent.stripControls(Independent.truncated(title, scenario.maxWidth))
                #expect(line.contains("next: " + shown + " ("), "\(scenario.name): \(line)")
            }
        }
        let byName = Dictionary(uniqueKeysWithValues: lines.map { ($0.0.name, $0.1) })
        // 16:27 against 09:00: 7 h 27 min overdue, said in whole hours.
        #expect(byName["store"]?.hasPrefix("1 overdue · 3 today · next: ") == true)
        #expect(byName["store"]?.hasSuffix(" (7 h overdue)") == true)
        #expect(byName["empty"] == "No open tasks")
    }

    @Test func jsonMatchesGoldenAndIsTheEntryOnOneLine() throws {
        let lines = try Self.lines(.json)
        try FormatGoldens.compare(Self.golden(lines), toGolden: "json.txt")
        for (scenario, line) in lines {
            #expect(!Independent.hasLineBreak(line), "\(scenario.name) is not one line")
            let object = try #require(
                try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(scenario.name): not a JSON object")
            let entry = try StatusFixture.entry(scenario.export, scope: scenario.scope)
            let counts = try #require(object["counts"] as? [String: Int])
            #expect(counts["overdue"] == entry.counts.overdue && counts["dueToday"] == entry.counts.dueToday)
            #expect(object["date"] as? String == StatusFixture.nowText)
            // JSON carries titles exactly, whatever they hold: no host rule applies to it.
            let titles = (object["top"] as? [[String: Any]] ?? []).compactMap { $0["title"] as? String }
            #expect(titles == entry.top.map(\.title), "\(scenario.name)")
        }
    }

    @Test func waybarMatchesGoldenIsOneJSONLineAndItsMarkupParses() throws {
        let rendered = try Self.lines(.waybar)
        try FormatGoldens.compare(Self.golden(rendered), toGolden: "waybar.txt")
        // The isolates around right-to-left titles are HostEscapingTests' to check.
        let lines = rendered.map { ($0.0, Independent.withoutIsolates($0.1)) }
        var decoded: [(Scenario, WaybarLine)] = []
        for (scenario, line) in lines {
            #expect(!Independent.hasLineBreak(line), "\(scenario.name) is not one line")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            #expect(Set(object.keys) == ["text", "tooltip", "class", "alt", "percentage"])
            let waybar = try JSONDecoder.decodeLine(WaybarLine.self, line)
            #expect(["overdue", "due-soon", "ok", "empty"].contains(waybar.class) && waybar.alt == waybar.class)
            for markup in [waybar.text, waybar.tooltip] {
                #expect(Independent.markupProblems(markup).isEmpty, "\(scenario.name): \(Independent.markupProblems(markup)) in \(markup)")
            }
            decoded.append((scenario, waybar))
        }
        let markups = decoded.flatMap { [$0.1.text, $0.1.tooltip] }
        guard let parsed = try PangoParser.parse(markups) else { return }
        for (index, (scenario, waybar)) in decoded.enumerated() {
            guard case .text(let text) = parsed[2 * index], case .text(let tooltip) = parsed[2 * index + 1] else {
                Issue.record("\(scenario.name): Pango refuses \(parsed[2 * index]) / \(parsed[2 * index + 1]) for \(waybar)")
                continue
            }
            if let title = scenario.nextTitle {
                let shown = Independent.stripControls(Independent.truncated(title, scenario.maxWidth))
                #expect(text.hasSuffix(" · " + shown), "\(scenario.name): \(text)")
            }
            // The tooltip lists every top task, each title as the user typed it (cut to the width),
            // an active one marked; with none, how to add one.
            let entry = try StatusFixture.entry(scenario.export, scope: scenario.scope)
            let tooltipLines = tooltip.split(separator: "\n").map(String.init)
            guard entry.counts.open > 0 else {
                #expect(tooltipLines == ["No open tasks", #"Add one: taskwidget add "Buy milk" --due today"#], "\(tooltip)")
                continue
            }
            let header = scenario.scope == .all ? 1 : 2  // the scope's name, then the counts
            #expect(tooltipLines.count == header + entry.top.count + (entry.counts.open > entry.top.count ? 1 : 0), "\(tooltip)")
            for (task, tooltipLine) in zip(entry.top, tooltipLines.dropFirst(header)) {
                let shown = Independent.stripControls(Independent.truncated(task.title, scenario.maxWidth))
                let mark = task.state == .active ? "▶ " : ""
                #expect(tooltipLine == mark + shown + (task.dueLabel.map { " · " + $0 } ?? ""), "\(scenario.name)")
            }
        }
        let store = try #require(decoded.first { $0.0.name == "store" }?.1)
        #expect(store.class == "overdue" && store.percentage == 20)
        #expect(decoded.first { $0.0.name == "list-lab" }?.1.class == "ok")
        #expect(decoded.first { $0.0.name == "inbox" }?.1.class == "due-soon")
        #expect(decoded.first { $0.0.name == "empty" }?.1.class == "empty")
    }

    @Test func i3barMatchesGoldenIsOneJSONBlockAndItsMarkupParses() throws {
        let rendered = try Self.lines(.i3bar)
        try FormatGoldens.compare(Self.golden(rendered), toGolden: "i3bar.txt")
        // The isolates around right-to-left titles are HostEscapingTests' to check.
        let lines = rendered.map { ($0.0, Independent.withoutIsolates($0.1)) }
        var decoded: [(Scenario, I3barBlock)] = []
        for (scenario, line) in lines {
            #expect(!Independent.hasLineBreak(line), "\(scenario.name) is not one line")
            let block = try JSONDecoder.decodeLine(I3barBlock.self, line)
            let entry = try StatusFixture.entry(scenario.export, scope: scenario.scope)
            #expect(block.urgent == (entry.counts.overdue > 0))
            // The counts only, whatever the titles.
            let counts = entry.counts
            let shortParts = (counts.overdue > 0 ? ["⚠ \(counts.overdue)"] : []) + (counts.dueToday > 0 ? ["\(counts.dueToday) today"] : [])
            let allDone = counts.open == 0 && counts.completedToday > 0
            #expect(block.short_text == (!shortParts.isEmpty ? shortParts.joined(separator: " · ") : allDone ? "✓" : "\(counts.open) open"))
            #expect(block.name == "taskwidget" && block.markup == "pango")
            // Not shown but sent back with clicks: the list's name as it is, not Pango markup.
            #expect(block.instance == (entry.scopeTitle ?? "all"), "\(scenario.name): \(block.instance)")
            #expect(Independent.markupProblems(block.full_text).isEmpty, "\(scenario.name): \(block.full_text)")
            decoded.append((scenario, block))
        }
        guard let parsed = try PangoParser.parse(decoded.map(\.1.full_text)) else { return }
        for ((scenario, block), outcome) in zip(decoded, parsed) {
            guard case .text(let text) = outcome else {
                Issue.record("\(scenario.name): Pango refuses \(block.full_text): \(outcome)")
                continue
            }
            if let title = scenario.nextTitle {
                #expect(text.hasSuffix(" · " + Independent.stripControls(Independent.truncated(title, scenario.maxWidth))), "\(text)")
            }
        }
    }

    @Test func polybarMatchesGoldenAndEveryPercentFromATitleIsBroken() throws {
        let rendered = try Self.lines(.polybar)
        try FormatGoldens.compare(Self.golden(rendered), toGolden: "polybar.txt")
        // No isolates either: polybar draws no text by the bidi rules (helper-139).
        for (scenario, line) in rendered {
            #expect(!line.unicodeScalars.contains(where: HostileText.isControl), "\(scenario.name)")
            // Read as the template wrote it: our two tags, and every other `%` followed by U+200B.
            let split = try #require(
                Independent.splitPolybar(line),
                "\(scenario.name): a % that is neither escaped nor one of our tags: \(line)")
            let entry = try StatusFixture.entry(scenario.export, scope: scenario.scope)
            #expect(split.tags == (entry.counts.overdue > 0 ? Independent.polybarTags : []), "\(scenario.name)")
            if let title = scenario.nextTitle {
                let shown = Independent.stripControls(Independent.truncated(title, scenario.maxWidth))
                #expect(split.text.hasSuffix(" · " + shown), "\(scenario.name): \(split.text)")
            }
        }
    }

    @Test func tmuxMatchesGoldenIsOneLineAndEveryHashFromATitleShowsAsTyped() throws {
        let rendered = try Self.lines(.tmux)
        try FormatGoldens.compare(Self.golden(rendered), toGolden: "tmux.txt")
        // The isolates around right-to-left titles are HostEscapingTests' to check.
        let lines = rendered.map { ($0.0, Independent.withoutIsolates($0.1)) }
        for (scenario, line) in lines {
            #expect(!Independent.hasLineBreak(line) && !line.unicodeScalars.contains(where: HostileText.isControl), "\(scenario.name)")
            let split = try #require(
                Independent.tmuxDrawn(line, tags: Independent.tmuxTags),
                "\(scenario.name): a single # that starts none of our styles: \(line)")
            let entry = try StatusFixture.entry(scenario.export, scope: scenario.scope)
            #expect(split.tags == (entry.counts.overdue > 0 ? ["#[fg=red,bold]", "#[default]"] : []), "\(scenario.name)")
            if let title = scenario.nextTitle {
                let shown = Independent.stripControls(Independent.truncated(title, scenario.maxWidth))
                #expect(split.text.hasSuffix(" · " + shown), "\(scenario.name): \(split.text)")
            }
        }
    }

    // MARK: As the real polybar reads it

    /// Polybar 3.6 (Debian 12) has no `%%` escape: its tag parser (src/tags/parser.cpp,
    /// `parser::parse_step`) starts a tag at any `%{`, so `%%{F#f00}` is a `%` and then a real
    /// colour tag. A title must not add a tag to the line as polybar parses it.
    @Test func polybarParsesNoTagFromATitle() throws {
        for (scenario, line) in try Self.lines(.polybar) {
            let entry = try StatusFixture.entry(scenario.export, scope: scenario.scope)
            let ours = entry.counts.overdue > 0 ? Independent.polybarTags : []
            #expect(
                Independent.polybarParsedTags(line) == ours,
                "\(scenario.name): polybar reads the tags \(Independent.polybarParsedTags(line)) in \(line)")
        }
    }

    // MARK: The checks can fail

    @Test func theHostChecksRejectBrokenLines() throws {
        #expect(Independent.markupProblems("a & b").count == 1)
        #expect(Independent.markupProblems("<i>x</i>").count == 2)
        #expect(Independent.markupProblems("<b>a &amp; b</b>").isEmpty)
        #expect(Independent.splitPolybar("100% done") == nil)
        #expect(Independent.splitPolybar("100%% done") == nil)
        #expect(Independent.splitPolybar("%{F#ff6b6b}1%{F-} 100%\u{200B} %\u{200B}{F#f00}")?.text == "1 100% %{F#f00}")
        #expect(Independent.polybarParsedTags("%{F#ff6b6b}1%{F-} 100%\u{200B} %\u{200B}{F#f00}") == ["%{F#ff6b6b}", "%{F-}"])
        #expect(Independent.tmuxDrawn("Issue #42", tags: Independent.tmuxTags) == nil)
        #expect(Independent.tmuxDrawn("Issue ##42 C####", tags: Independent.tmuxTags) == nil)
        #expect(Independent.tmuxDrawn("#{pane_id}", tags: []) == nil && Independent.tmuxDrawn("#S", tags: []) == nil)
        #expect(Independent.tmuxDrawn("####{pane_id} ##[b] C########", tags: [])?.text == "#{pane_id} #[b] C##")
        #expect(Independent.polybarParsedTags("100%% %%{F#f00}red%%{F-}") == ["%{F#f00}", "%{F-}"])
        guard let parsed = try PangoParser.parse(["a & b", "<b>x", "<b>a &amp; &#39;b&#39;</b>"]) else { return }
        #expect(parsed[0] != .text("a & b") && parsed[1] != .text("x"))
        #expect(parsed[2] == .text("a & 'b'"))
    }
}
