import Foundation
import PropertyBased
import Testing

@testable import TaskWidgetCore
@testable import TaskWidgetStore
@testable import TaskWidgetFormats
@testable import TaskWidgetTestSupport

/// Any Unicode text as a task title: NUL and other controls, line and paragraph separators, bidi
/// controls, combining and prepended marks, emoji sequences, noncharacters, markup and format
/// tags of every host. It is accepted exactly when the title rules say (and then survives add,
/// the store, export and import byte for byte), and every status format shows it escaped for its
/// host, checked by Python's JSON parser and Pango's markup parser rather than by our own code.
@Suite struct TitleProperties {
    // MARK: Validation

    /// The title rules, written again on scalars: trimmed of white space, not empty nor only
    /// invisible (default-ignorable) scalars, no control character, line break or direction
    /// control, at most 1000 characters and 40 000 bytes.
    static func expectedTitle(_ text: String) -> String? {
        let scalars = Array(text.unicodeScalars)
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
            let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })
        else { return nil }
        let trimmed = String(String.UnicodeScalarView(scalars[first...last]))
        guard trimmed.unicodeScalars.contains(where: { !$0.properties.isWhitespace && !$0.properties.isDefaultIgnorableCodePoint }),
            !trimmed.unicodeScalars.contains(where: HostileText.isControl), trimmed.count <= 1000, trimmed.utf8.count <= 40_000
        else { return nil }
        return trimmed
    }

    @Test func anyTextIsAValidTitleExactlyWhenTheRulesSaySo() async {
        await SeededProperty.check(count: 2000, seed: 0x717_1E01, input: HostileText.title(controls: true)) { text in
            do {
                let title = try Validation.title(text)
                #expect(title == Self.expectedTitle(text))
                #expect(title.unicodeScalars.elementsEqual(Self.expectedTitle(text)?.unicodeScalars ?? "".unicodeScalars))
            } catch let error as TaskWidgetError {
                #expect(Self.expectedTitle(text) == nil, "refused: \(error.message)")
                #expect(FuzzOracle.errorProblem(error, expected: .invalidInput, maxCharacters: 199) == nil)
            }
        }
    }

    // MARK: add → store → export → import

    @Test func acceptedTitlesSurviveAddExportAndImport() async throws {
        let fixture = try TemporaryStore()
        let now = Fixed.instant("2026-11-22T16:27:00Z")
        var accepted: [String] = []
        await SeededProperty.check(count: 120, seed: 0x717_1E02, input: HostileText.title(controls: false)) { text in
            guard let expected = Self.expectedTitle(text) else { return }
            let task = try fixture.store.addTask(NewTask(title: text), now: now).task
            #expect(task.title.unicodeScalars.elementsEqual(expected.unicodeScalars))
            #expect(try fixture.store.task(withID: task.id.uuidString).title.unicodeScalars.elementsEqual(expected.unicodeScalars))
            accepted.append(expected)
        }
        #expect(accepted.count > 80, "too few titles were valid to test the round trip: \(accepted.count)")
        let exported = try fixture.store.export()
        #expect(exported.tasks.map { Array($0.title.unicodeScalars) } == accepted.map { Array($0.unicodeScalars) })
        let json = try exported.jsonData()
        let decoded = try StoreExport.decode(json, source: "export.json")
        #expect(decoded == exported)
        let other = try TemporaryStore()
        try other.store.importing(decoded, source: "export.json")
        #expect(try other.store.export().jsonData() == json)
    }

    // MARK: Every status format

    /// Valid titles, and (as a library user may pass them to the renderer) raw text of any kind.
    @Test(arguments: [false, true])
    func everyStatusFormatShowsTheTitleEscapedForItsHost(rawText: Bool) async throws {
        let cases = SeededProperty.cases(rawText ? 200 : 560, seed: rawText ? 0x717_1E04 : 0x717_1E03, from: HostileText.title(controls: true))
            .compactMap { item -> (label: String, title: String)? in
                // Raw text within what one status line shows uncut (1000 characters).
                if rawText { return item.value.count <= 1000 ? (item.label, item.value) : nil }
                return Self.expectedTitle(item.value).map { (item.label, $0) }
            }
        var jsonLines: [(label: String, title: String, format: StatusFormat, line: String)] = []
        for (label, title) in cases {
            let entry = try StatusFixture.entry(StatusFixture.single(title))
            let shown = Independent.stripControls(title)
            // Where the title ends the line, the renderer trims the line's trailing spaces and tabs.
            let atTheEnd = (" · " + shown).trimmingCharacters(in: CharacterSet(charactersIn: " \t"))
            for format in StatusFormat.allCases {
                // (The isolates around a right-to-left title are HostEscapingTests' to check; a raw
                // title's trailing space, inside them, is left when the line is trimmed.)
                let rendered = try StatusFixture.line(format, entry, maxWidth: 1000)
                let line = format == .json ? rendered : Independent.withoutIsolates(rendered).trimmingCharacters(in: CharacterSet(charactersIn: " \t"))
                #expect(!Independent.hasLineBreak(line), "\(label) \(format): \(line.debugDescription)")
                switch format {
                case .text:
                    #expect(!line.unicodeScalars.contains(where: HostileText.isControl), "\(label)")
                    #expect(Self.scalars(of: line, endWith: "next: " + shown + " (in 2 h)"), "\(label): \(line.debugDescription)")
                case .polybar:
                    // No tag at all: nothing is overdue, and a title's `%` never opens one.
                    #expect(Independent.polybarParsedTags(line).isEmpty, "\(label): \(line.debugDescription)")
                    let split = Independent.splitPolybar(line)
                    #expect(split.map { Self.scalars(of: $0.text, endWith: atTheEnd) } == true, "\(label): \(line.debugDescription)")
                case .tmux:
                    let split = Independent.tmuxDrawn(line, tags: Independent.tmuxTags)
                    #expect(split?.tags.isEmpty == true, "\(label): \(line.debugDescription)")
                    #expect(split.map { Self.scalars(of: $0.text, endWith: atTheEnd) } == true, "\(label): \(line.debugDescription)")
                case .json, .waybar, .i3bar:
                    jsonLines.append((label, title, format, line))
                }
            }
        }
        #expect(cases.count > (rawText ? 150 : 120), "too few titles: \(cases.count)")
        // JSON by Python's parser, markup by Pango's, all lines in one run.
        guard let results = try HostParsers.read(jsonLines.map { ($0.format.rawValue, $0.line) }) else { return }
        for (item, result) in zip(jsonLines, results) {
            let shown = Independent.stripControls(item.title)
            switch result {
            case .failure(let problem):
                Issue.record("\(item.label) \(item.format): \(problem): \(item.line.debugDescription)")
            case .success(let fields):
                switch item.format {
                case .json:
                    // The entry itself: the title exactly as stored, controls and all.
                    #expect(fields["title"].map { Self.same($0, item.title) } == true, "\(item.label): \(item.line.debugDescription)")
                case .waybar:
                    #expect(fields["text"].map { Self.scalars(of: $0, endWith: " · " + shown) } == true, "\(item.label): \(Self.dump(fields["text"])) \(Self.dump(shown))")
                    #expect(fields["tooltip"].map { Self.scalars(of: $0, endWith: "\n" + shown + " · 18:00") } == true, "\(item.label): \(Self.dump(fields["tooltip"]))")
                default:
                    #expect(fields["full_text"].map { Self.scalars(of: $0, endWith: " · " + shown) } == true, "\(item.label): \(Self.dump(fields["full_text"]))")
                }
            }
        }
    }

    /// The scalars of `text`, as `U+…` numbers, for a failure message.
    static func dump(_ text: String?) -> String {
        (text ?? "nil").unicodeScalars.map { String($0.value, radix: 16, uppercase: true) }.joined(separator: " ")
    }

    static func same(_ a: String, _ b: String) -> Bool { a.unicodeScalars.elementsEqual(b.unicodeScalars) }

    /// Whether `text` ends with `suffix`, scalar for scalar (String comparison would equate
    /// canonically equivalent text, which hosts do not).
    static func scalars(of text: String, endWith suffix: String) -> Bool {
        let text = Array(text.unicodeScalars)
        let suffix = Array(suffix.unicodeScalars)
        return text.count >= suffix.count && Array(text.suffix(suffix.count)) == suffix
    }
}

/// Reads status lines with the hosts' own parsers through the system Python: `json.loads`, and
/// for waybar and i3bar Pango's markup parser on the fields Pango reads (`python3-gi`, installed
/// by scripts/test.sh).
enum HostParsers {
    static let script = """
        import sys, json
        import gi
        gi.require_version('Pango', '1.0')
        from gi.repository import Pango, GLib
        def plain(markup):
            ok, attributes, text, accel = Pango.parse_markup(markup, -1, '\\0')
            return text
        out = []
        for fmt, line in json.load(sys.stdin):
            try:
                value = json.loads(line)
                if fmt == 'json':
                    fields = {'title': value['top'][0]['title']}
                elif fmt == 'waybar':
                    fields = {'text': plain(value['text']), 'tooltip': plain(value['tooltip'])}
                else:
                    fields = {'full_text': plain(value['full_text'])}
                out.append({'fields': {key: text.encode('utf-8', 'surrogatepass').hex() for key, text in fields.items()}})
            except Exception as error:
                out.append({'error': type(error).__name__ + ': ' + str(error)})
        json.dump(out, sys.stdout)
        """

    /// For each (format, line), the fields as the host reads them, or what the parser said.
    static func read(_ lines: [(String, String)], sourceLocation: SourceLocation = #_sourceLocation) throws -> [Result<[String: String], Problem>]? {
        let input = try JSONSerialization.data(withJSONObject: lines.map { [$0.0, $0.1] })
        let result = try ProcessRunner.run("/usr/bin/python3", ["-c", script], input: input, environment: ProcessRunner.systemPython)
        guard result.status == 0, let array = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]],
            array.count == lines.count
        else {
            Issue.record(
                "cannot run the hosts' parsers (\(result.stderr.split(separator: "\n").last ?? "no output")): run scripts/test.sh, which installs python3-gi",
                sourceLocation: sourceLocation)
            return nil
        }
        return array.map { item in
            // The fields come as hex UTF-8: Foundation's JSON reader would drop a U+FEFF.
            if let fields = item["fields"] as? [String: String] { return .success(fields.mapValues(decodeHex)) }
            return .failure(Problem(description: item["error"] as? String ?? "?"))
        }
    }

    static func decodeHex(_ hex: String) -> String {
        let digits = Array(hex.utf8)
        let bytes = stride(from: 0, to: digits.count - 1, by: 2).map { UInt8(String(decoding: digits[$0...$0 + 1], as: UTF8.self), radix: 16)! }
        return String(decoding: bytes, as: UTF8.self)
    }

    struct Problem: Error, CustomStringConvertible {
        var description: String
    }
}
