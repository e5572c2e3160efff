import Foundation
import Testing

@testable import TaskWidgetCore
@testable import TaskWidgetStore
@testable import TaskWidgetFormats
@testable import TaskWidgetTestSupport

/// The fixed store, clock and zone of the status format tests, the tricky titles, and the checks
/// that decide whether a line is valid for its host, written without the code under test.
enum StatusFixture {
    /// Sunday 22 November 2026, 16:27 in Berlin (the end-to-end sandboxes use the same instant).
    static let nowText = "2026-11-22T16:27:00+01:00"
    static let now = Fixed.instant(nowText)
    static let zoneName = "Europe/Berlin"
    static let zone = Fixed.zone(zoneName)

    static let payRent = #"Pay rent & <stuff> "quoted" 'single'"#
    static let percent = "100% done %{F#f00}red%{F-}"
    static let hashes = "Issue #42 #{pane_id} #(rm -rf /) #[fg=red]"
    static let cjk = "買い物リスト"
    static let arabic = "دفع الإيجار"
    static let emoji = "🎉 Party 👩‍👩‍👧"
    /// 55 characters: cut at 40 it ends inside the family emoji's neighbourhood, never inside it.
    static let long = "Flags 🇩🇪🇫🇷🇯🇵 and the family 👨‍👩‍👧‍👦 at the long table by the window"
    /// A list name with every host's special characters (list names follow the title rules).
    static let labList = "R&D <lab> 100% #1"

    /// Titles the store refuses (control characters and line breaks), so they only reach the
    /// renderer through an in-memory snapshot, as a library user could pass them.
    static let controls = "Line one\nline two\tand a tab\r"
    static let separators = "Separators\u{2028}here\u{2029}and\u{85}NEL\u{0}NUL\u{7F}DEL\u{1B}[31mESC"
    static let alreadyEscaped = #"%% and ## and \ backslash and &amp; entity and \u0041"#

    /// The store: lists Home and R&D; an overdue task, three due later today (one within the
    /// hour), one tomorrow, an active undated one, a long undated one, and one completed today.
    ///
    /// At now: open 7, overdue 1, dueToday 3, dueSoon 1, completedToday 1, inbox 4 (percentage 20).
    static var export: StoreExport {
        var builder = StoreBuilder(created: Fixed.instant("2026-11-01T08:00:00Z"))
        let home = builder.list("Home", color: "34C759")
        let lab = builder.list(labList, color: "FF9500")
        builder.task(payRent, due: Fixed.instant("2026-11-22T09:00:00+01:00"), list: home)
        builder.task(percent, due: Fixed.instant("2026-11-22T17:00:00+01:00"), sortOrder: 1)
        builder.task(hashes, due: Fixed.instant("2026-11-22T18:30:00+01:00"), list: lab, sortOrder: 2)
        builder.task(cjk, due: Fixed.instant("2026-11-23T09:00:00+01:00"), sortOrder: 3)
        builder.task(arabic, due: Fixed.instant("2026-11-22T20:00:00+01:00"), list: home, sortOrder: 4)
        builder.task(emoji, kind: .active, sortOrder: 5)
        builder.task(long, sortOrder: 6)
        builder.task(
            "Buy milk", due: Fixed.instant("2026-11-22T08:00:00+01:00"),
            kind: .completed(Fixed.instant("2026-11-22T10:00:00+01:00")), sortOrder: 7)
        return builder.export
    }

    /// A store with one task due today at 18:00 (so it is `next` and the only one in `top`).
    static func single(_ title: String) -> StoreExport {
        var builder = StoreBuilder(created: Fixed.instant("2026-11-01T08:00:00Z"))
        builder.task(title, due: Fixed.instant("2026-11-22T18:00:00+01:00"))
        return builder.export
    }

    static func entry(_ export: StoreExport, scope: TaskScope = .all) throws -> TimelineEntry {
        try TL.timeline(export, now: now, zone: zone, scope: scope).entries[0]
    }

    static func renderer(_ format: StatusFormat) throws -> StatusRenderer {
        try StatusRenderer(format: format, template: .resolve(format: format, path: nil, environment: [:]))
    }

    /// One line of `format` for `entry`, exactly as `status` computes it at the fixed now.
    static func line(_ format: StatusFormat, _ entry: TimelineEntry, maxWidth: Int = 40) throws -> String {
        try renderer(format).line(for: entry, timeZone: zone, now: now, maxWidth: maxWidth)
    }

    /// The scenarios of the golden files. The end-to-end tests run the first four through the
    /// binary on the same store (imported from `Goldens/store.export.json`) and compare with the
    /// same goldens, so they must keep these names and arguments.
    struct Scenario: Sendable {
        var name: String
        var export: StoreExport
        var scope: TaskScope = .all
        var maxWidth = 40
        /// The title this scenario shows as `next`, for the facts checked beside the golden.
        var nextTitle: String?
    }

    static var scenarios: [Scenario] {
        var result = [
            Scenario(name: "store", export: export, nextTitle: payRent),
            Scenario(name: "store-wide", export: export, maxWidth: 1000, nextTitle: payRent),
            Scenario(name: "list-lab", export: export, scope: .list(labList), nextTitle: hashes),
            Scenario(name: "inbox", export: export, scope: .inbox, nextTitle: percent),
            Scenario(name: "empty", export: StoreExport()),
        ]
        let titles = [
            ("pay-rent", payRent), ("percent", percent), ("hashes", hashes), ("cjk", cjk), ("arabic", arabic),
            ("emoji", emoji), ("controls", controls), ("separators", separators), ("already-escaped", alreadyEscaped),
        ]
        for (name, title) in titles {
            result.append(Scenario(name: "title-" + name, export: single(title), maxWidth: 100, nextTitle: title))
        }
        result.append(Scenario(name: "title-long", export: single(long), nextTitle: long))
        return result
    }
}

// MARK: - Independent rules

/// The hosts' rules written again here, so that the checks do not use the code they check.
enum Independent {
    /// `line` without the isolates that wrap right-to-left values in the line formats, and the
    /// LEFT-TO-RIGHT MARK that leads them in Pango's (waybar, i3bar).
    static func withoutIsolates(_ line: String) -> String {
        let scalars = Array(line.unicodeScalars)
        let kept = scalars.indices.filter { index in
            let scalar = scalars[index]
            let leadsAnIsolate = scalar == "\u{200E}" && index + 1 < scalars.count && scalars[index + 1] == "\u{2068}"
            return scalar != "\u{2068}" && scalar != "\u{2069}" && !leadsAnIsolate
        }
        return String(String.UnicodeScalarView(kept.map { scalars[$0] }))
    }

    /// Cc, Zl, Zp and the direction controls removed: what a one-line plain text may not contain.
    static func stripControls(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.filter { !HostileText.isControl($0) }))
    }

    /// Every scalar a reader might take for a line break.
    static func hasLineBreak(_ text: String) -> Bool {
        text.unicodeScalars.contains { "\n\r\u{0B}\u{0C}\u{85}\u{2028}\u{2029}".unicodeScalars.contains($0) }
    }

    /// `text` cut to `width` grapheme clusters, the last replaced by `…` when cut.
    static func truncated(_ text: String, _ width: Int) -> String {
        let characters = Array(text)
        guard characters.count > width else { return text }
        var kept = characters[0..<(width - 1)]
        while kept.last?.isWhitespace == true { kept.removeLast() }  // `with a…`, not `with a …`
        return String(kept) + "…"
    }

    /// The tags our default templates emit, per host (everything else must come escaped).
    static let pangoTags = ["<b>", "</b>", "<span color='#ff6b6b'>", "</span>"]
    static let pangoEntities = ["&amp;", "&lt;", "&gt;", "&quot;", "&#39;"]
    static let polybarTags = ["%{F#ff6b6b}", "%{F-}"]
    static let tmuxTags = ["#[fg=red,bold]", "#[default]", "#[fg=red]"]

    /// Problems with `markup` beyond what a parser says: a `&` that starts no entity we emit, or a
    /// `<` that starts no tag we emit. Read scalar by scalar, as Pango reads bytes: a mark joined to
    /// a `<` makes one `Character` but leaves the `<` a tag opener.
    static func markupProblems(_ markup: String) -> [String] {
        var problems: [String] = []
        var rest = Substring(markup).unicodeScalars
        while let index = rest.firstIndex(where: { $0 == "&" || $0 == "<" }) {
            let tail = rest[index...]
            let known = tail.first == "&" ? pangoEntities : pangoTags
            if let match = known.first(where: { tail.starts(with: $0.unicodeScalars) }) {
                rest = tail.dropFirst(match.unicodeScalars.count)
            } else {
                problems.append("raw \(tail.first!) at “\(Substring(tail.prefix(12)))”")
                rest = tail.dropFirst()
            }
        }
        return problems
    }

    /// What tmux 3.3 draws for `line`, the output of a `#(…)` job in `status-right`, and the styles
    /// it applies: the output is first expanded as a format (`##` is `#`, but a run of `#`s before
    /// `[` is kept whole; `#[` is kept; a lone `#` before `{`, `(` or a letter would expand), then
    /// drawn (``splitDoubled(_:escape:tags:)`` with `#`). nil when the expansion would run or
    /// insert anything, or the drawing meets a style that is none of `tags`. (Checked against a
    /// real tmux by TmuxStatusTests.)
    static func tmuxDrawn(_ line: String, tags: [String]) -> (text: String, tags: [String])? {
        var expanded = String.UnicodeScalarView()
        var rest = Substring(line).unicodeScalars
        while let scalar = rest.first {
            guard scalar == "#" else {
                expanded.append(scalar)
                rest = rest.dropFirst()
                continue
            }
            let run = rest.prefix(while: { $0 == "#" }).count
            let after = rest.dropFirst(run).first
            if after == "[" {
                expanded.append(contentsOf: rest.prefix(run + 1))
                rest = rest.dropFirst(run + 1)
            } else if run >= 2 {
                expanded.append("#")
                rest = rest.dropFirst(2)
            } else if let after, after == "{" || after == "(" || after.properties.isAlphabetic {
                return nil
            } else {
                expanded.append("#")
                rest = rest.dropFirst()
            }
        }
        return splitDoubled(String(expanded), escape: "#", tags: tags)
    }

    /// Splits a host line into its own tags and the text between them, reading left to right with
    /// `escape` as the doubled escape character: an odd run of escape characters ends with the
    /// start of one of `tags`. Returns nil when a run is odd and no known tag follows. Scalar by
    /// scalar, as the host reads bytes.
    static func splitDoubled(_ line: String, escape: Unicode.Scalar, tags: [String]) -> (text: String, tags: [String])? {
        var text = String.UnicodeScalarView()
        var found: [String] = []
        var rest = Substring(line).unicodeScalars
        while let scalar = rest.first {
            guard scalar == escape else {
                text.append(scalar)
                rest = rest.dropFirst()
                continue
            }
            let run = rest.prefix(while: { $0 == escape }).count
            text.append(contentsOf: repeatElement(escape, count: run / 2))
            rest = rest.dropFirst(run - run % 2)
            if run % 2 == 1 {
                guard let tag = tags.first(where: { rest.starts(with: $0.unicodeScalars) }) else { return nil }
                found.append(tag)
                rest = rest.dropFirst(tag.unicodeScalars.count)
            }
        }
        return (String(text), found)
    }

    /// Splits a polybar line into our own tags and the text between them: a `%` from a title is
    /// followed by a zero-width space (polybar has no escape for `%`), any other `%` must start one
    /// of `tags`. Returns nil for a `%` that is neither.
    static func splitPolybar(_ line: String, tags: [String] = polybarTags) -> (text: String, tags: [String])? {
        var text = ""
        var found: [String] = []
        var rest = Substring(line)
        while let scalar = rest.unicodeScalars.first {
            if scalar != "%" {
                text.unicodeScalars.append(scalar)
                rest = Substring(rest.unicodeScalars.dropFirst())
            } else if rest.unicodeScalars.dropFirst().first == "\u{200B}" {
                text += "%"
                rest = Substring(rest.unicodeScalars.dropFirst(2))
            } else if let tag = tags.first(where: { rest.unicodeScalars.starts(with: $0.unicodeScalars) }) {
                found.append(tag)
                rest = Substring(rest.unicodeScalars.dropFirst(tag.unicodeScalars.count))
            } else {
                return nil
            }
        }
        return (text, found)
    }

    /// The tags of a polybar line as polybar 3.6's tag parser finds them (src/tags/parser.cpp: any
    /// `%{` starts a tag that runs to the next `}`; polybar has no `%%` escape).
    static func polybarParsedTags(_ line: String) -> [String] {
        let scalars = Array(line.unicodeScalars)
        var tags: [String] = []
        var index = 0
        while index + 1 < scalars.count {
            if scalars[index] == "%", scalars[index + 1] == "{", let close = scalars[(index + 2)...].firstIndex(of: "}") {
                tags.append(String(String.UnicodeScalarView(scalars[index...close])))
                index = close + 1
            } else {
                index += 1
            }
        }
        return tags
    }
}

// MARK: - Pango, by the real parser

/// Parses Pango markup with GLib's parser through the system Python (`python3-gi`,
/// `gir1.2-pango-1.0`, installed by scripts/test.sh).
enum PangoParser {
    enum Outcome: Equatable {
        case text(String)
        case error(String)
    }

    static let script = """
        import sys, json
        import gi
        gi.require_version('Pango', '1.0')
        from gi.repository import Pango, GLib
        out = []
        for markup in json.load(sys.stdin):
            try:
                ok, attributes, text, accel = Pango.parse_markup(markup, -1, '\\0')
                out.append({'ok': True, 'text': text})
            except GLib.Error as error:
                out.append({'ok': False, 'error': error.message})
        json.dump(out, sys.stdout)
        """

    /// The plain text of each markup string, or the parser's error; nil (with an issue recorded)
    /// when the parser cannot run.
    static func parse(_ markups: [String], sourceLocation: SourceLocation = #_sourceLocation) throws -> [Outcome]? {
        let input = try JSONSerialization.data(withJSONObject: markups)
        let result = try ProcessRunner.run("/usr/bin/python3", ["-c", script], input: input, environment: ProcessRunner.systemPython)
        guard result.status == 0,
            let array = try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]],
            array.count == markups.count
        else {
            Issue.record(
                """
                cannot run Pango's markup parser (\(result.stderr.split(separator: "\n").last ?? "no output")): \
                run scripts/test.sh, which installs python3-gi and gir1.2-pango-1.0
                """, sourceLocation: sourceLocation)
            return nil
        }
        return array.map { item in
            (item["ok"] as? Bool) == true ? .text(item["text"] as? String ?? "") : .error(item["error"] as? String ?? "?")
        }
    }
}

// MARK: - Decoded bar lines

struct WaybarLine: Decodable, Equatable {
    var text: String
    var tooltip: String
    var `class`: String
    var alt: String
    /// Waybar 0.9.17 reads an unsigned integer: a fraction or a sign fails to decode here.
    var percentage: UInt8
}

struct I3barBlock: Decodable, Equatable {
    var full_text: String
    var short_text: String
    var color: String?
    var urgent: Bool
    var name: String
    var instance: String
    var markup: String?
}

extension JSONDecoder {
    static func decodeLine<T: Decodable>(_ type: T.Type, _ line: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> T {
        do {
            return try JSONDecoder().decode(type, from: Data(line.utf8))
        } catch {
            Issue.record("not a \(type) line: \(error)\n\(line)", sourceLocation: sourceLocation)
            throw error
        }
    }
}

// MARK: - Golden files

/// Golden files under Tests/TaskWidgetFormatsTests/Goldens, compared byte for byte;
/// `TASKWIDGET_RECORD_GOLDENS=1` rewrites them.
enum FormatGoldens {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Goldens")

    static func compare(_ actual: String, toGolden name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        try GoldenFile.compare(actual, to: folder.appendingPathComponent(name), suite: "StatusGoldenTests", sourceLocation: sourceLocation)
    }
}
