import Foundation
import Testing

@testable import TaskWidgetCore
@testable import TaskWidgetStore
@testable import TaskWidgetFormats
@testable import TaskWidgetTestSupport

/// Each host's escaping on tricky inputs, with the expected text reasoned from the host's rules,
/// and round trips through the real parsers (JSONSerialization, Pango) for a wider set.
@Suite struct HostEscapingTests {
    /// Inputs that break hosts: markup, format tags, separators, controls, already-escaped text.
    static let tricky: [String] = [
        "", "plain", "&", "a & b", "&amp;", "&#39;", "<b>bold</b>", "a < b > c", #""quoted" 'single'"#,
        "%", "%%", "100% %{F#f00}red%{F-}", "%{A1:xterm:}click%{A}", "#", "##", "#{pane_id} #(rm -rf /) #[fg=red]",
        "line\nbreak", "tab\there", "cr\rlf", "nul\u{0}byte", "del\u{7F}", "esc\u{1B}[31m", "ls\u{2028}ps\u{2029}",
        "nel\u{85}", "bell\u{7}", #"back\slash \u0041 \n"#, "買い物リスト", "دفع الإيجار", "🎉 Party 👩‍👩‍👧", "🇩🇪🇫🇷",
        "e\u{301}", "zero\u{200B}width\u{200D}joiner", "\u{FEFF}bom", "emoji\u{FE0F}",
        // A prepended mark (U+0600) or a combining one (U+0301) joins a special character into one
        // `Character`; the host still reads the special character.
        "\u{600}<b>x\u{600}</b>", "&\u{301}amp;", "<\u{301}i>", "\u{600}%{F#f00}red", "%\u{301}{F-}", "\u{600}#[fg=red]x",
        "\u{600}#\u{600}#(date)", "\u{20EE}\u{301}leading marks", "a trailing prepended mark\u{600}",
    ]

    // MARK: plain

    @Test func plainRemovesControlCharactersAndLineBreaksOnly() {
        #expect(HostEscaping.plain("a\u{0}b\u{7F}c\nd\te\rf\u{2028}g\u{2029}h\u{85}i\u{1B}j\u{9F}k") == "abcdefghijk")
        // Format characters (ZWJ, ZWSP, BOM) are not controls: the family emoji stays whole.
        #expect(HostEscaping.plain("👩‍👩‍👧 a\u{200B}b") == "👩‍👩‍👧 a\u{200B}b")
        for text in Self.tricky {
            #expect(HostEscaping.plain(text) == Independent.stripControls(text), "\(text.debugDescription)")
        }
    }

    // MARK: pango

    @Test func pangoEscapesMarkupCharactersAsEntities() {
        #expect(HostEscaping.pango("&") == "&amp;")
        #expect(HostEscaping.pango("a & b") == "a &amp; b")
        // Text that looks escaped is text: it is escaped again, and shows as typed.
        #expect(HostEscaping.pango("&amp;") == "&amp;amp;")
        #expect(HostEscaping.pango("<b>x</b>") == "&lt;b&gt;x&lt;/b&gt;")
        #expect(HostEscaping.pango(#""q" 'x'"#) == "&quot;q&quot; &#39;x&#39;")
        #expect(HostEscaping.pango("a\nb\u{0}c\u{2028}d") == "abcd")
        #expect(HostEscaping.pango("%% ## 買い物 🎉") == "%% ## 買い物 🎉")
    }

    /// The real Pango parser reads every escaped input back as the input without controls.
    @Test func pangoRoundTripsThroughPangosParser() throws {
        guard let parsed = try PangoParser.parse(Self.tricky.map(HostEscaping.pango)) else { return }
        for (text, outcome) in zip(Self.tricky, parsed) {
            #expect(outcome == .text(Independent.stripControls(text)), "\(text.debugDescription) → \(HostEscaping.pango(text))")
            #expect(Independent.markupProblems(HostEscaping.pango(text)).allSatisfy { !$0.hasPrefix("raw &") })
        }
    }

    // MARK: json

    @Test func jsonEscapesQuotesBackslashesAndEveryControl() {
        #expect(HostEscaping.json(#"say "hi""#) == #"say \"hi\""#)
        #expect(HostEscaping.json(#"back\slash"#) == #"back\\slash"#)
        #expect(HostEscaping.json("a\nb\tc\rd") == #"a\nb\tc\rd"#)
        #expect(HostEscaping.json("nul\u{0}") == #"nul\u0000"#)
        #expect(HostEscaping.json("del\u{7F}") == #"del\u007f"#)
        #expect(HostEscaping.json("esc\u{1B}") == #"esc\u001b"#)
        // U+2028 and U+2029 are valid in JSON but end lines in JavaScript and in line readers.
        #expect(HostEscaping.json("ls\u{2028}ps\u{2029}") == #"ls\u2028ps\u2029"#)
        #expect(HostEscaping.json("買い物 🎉 /") == "買い物 🎉 /")
    }

    /// Any input, quoted, is one JSON string on one line that decodes to the input.
    @Test func jsonRoundTripsThroughJSONSerialization() throws {
        // Foundation's parser drops a U+FEFF inside a string (Python's keeps it): not ours to test.
        #expect(HostEscaping.json("\u{FEFF}bom") == "\u{FEFF}bom")
        for text in Self.tricky where !text.hasPrefix("\u{FEFF}") {
            let quoted = "\"" + HostEscaping.json(text) + "\""
            #expect(!quoted.unicodeScalars.contains { $0.value < 0x20 || $0 == "\u{2028}" || $0 == "\u{2029}" })
            let decoded = try JSONSerialization.jsonObject(with: Data(quoted.utf8), options: .fragmentsAllowed) as? String
            #expect(decoded == text, "\(text.debugDescription) → \(quoted)")
        }
    }

    /// U+0085 (NEL) is a line break to Swift's `Character.isNewline`, which the renderer uses to join
    /// a JSON template's lines: a JSON string must not carry it raw.
    @Test func jsonLeavesNoScalarThatSwiftTakesForANewline() {
        for text in Self.tricky {
            let escaped = HostEscaping.json(text)
            let hasNewline = escaped.contains { $0.isNewline }
            let scalars = escaped.unicodeScalars.map { "U+" + String($0.value, radix: 16, uppercase: true) }
            #expect(!hasNewline, "HostEscaping.json leaves a line break raw: \(scalars.joined(separator: " "))")
        }
    }

    // MARK: polybar and tmux

    /// Polybar has no escape for `%` (`%%` shows two signs and still opens a tag before `{`), so a
    /// zero-width space follows every `%`: no `%{` can come from a title.
    @Test func polybarBreaksEveryPercentAndDropsControls() {
        #expect(HostEscaping.polybar("100%") == "100%\u{200B}")
        #expect(HostEscaping.polybar("%%") == "%\u{200B}%\u{200B}")
        #expect(HostEscaping.polybar("%{F#f00}red%{F-}") == "%\u{200B}{F#f00}red%\u{200B}{F-}")
        #expect(HostEscaping.polybar("a\nb\u{0}c") == "abc")
        #expect(HostEscaping.polybar("# & <") == "# & <")
        for text in Self.tricky {
            let escaped = HostEscaping.polybar(text)
            #expect(!escaped.contains("%{"), "\(text.debugDescription)")
            #expect(Independent.polybarParsedTags(escaped).isEmpty)
            #expect(Independent.splitPolybar(escaped, tags: [])?.text == Independent.stripControls(text), "\(text.debugDescription)")
        }
    }

    /// tmux expands a `#(…)` output and then draws it, and each pass halves a run of `#`s (the
    /// first keeps one before `[`): doubled only, `C##` showed as `C#` (a new user's report).
    @Test func tmuxWritesEachHashForBothPassesAndDropsLineBreaks() {
        #expect(HostEscaping.tmux("Issue #42") == "Issue ####42")
        #expect(HostEscaping.tmux("C## and ###") == "C######## and ############")
        #expect(HostEscaping.tmux("#{pane_id} #(rm -rf /) #[fg=red] ##[b]") == "####{pane_id} ####(rm -rf /) ##[fg=red] ####[b]")
        #expect(HostEscaping.tmux("one\ntwo\u{2028}three") == "onetwothree")
        #expect(HostEscaping.tmux("% & <") == "% & <")
        for text in Self.tricky {
            let escaped = HostEscaping.tmux(text)
            #expect(!Independent.hasLineBreak(escaped))
            #expect(Independent.tmuxDrawn(escaped, tags: [])?.text == Independent.stripControls(text))
        }
    }

    /// Regression: the escaping matched whole characters, so a mark joined to `<`, `&`, `%` or `#`
    /// hid it: `؀<b>` reached Pango as a tag, `؀%{F#f00}` and `؀#[fg=red]` as live formatting.
    @Test func marksJoinedToSpecialCharactersDoNotHideThem() {
        #expect(HostEscaping.pango("\u{600}<b>") == "\u{600}&lt;b&gt;")
        #expect(HostEscaping.pango("&\u{301}") == "&amp;\u{301}")
        #expect(HostEscaping.pango("\u{600}\"\u{600}'") == "\u{600}&quot;\u{600}&#39;")
        #expect(HostEscaping.polybar("\u{600}%{F#f00}") == "\u{600}%\u{200B}{F#f00}")
        #expect(HostEscaping.polybar("%\u{301}") == "%\u{200B}\u{301}")
        #expect(HostEscaping.tmux("\u{600}#[fg=red]") == "\u{600}##[fg=red]")
        #expect(HostEscaping.tmux("\u{600}#{pane_id}") == "\u{600}####{pane_id}")
        #expect(StatusFormat.waybar.escape("\u{600}<b>") == "\u{600}&lt;b&gt;")
    }

    /// Regression: the JSON escaping quoted the text, then dropped the first and the last
    /// `Character`, and with them the combining marks a title starts with (joined to the opening
    /// quote) and a prepended mark it ends with (joined to the closing one): waybar and i3bar
    /// showed `x` for `\u{20EE}x`.
    @Test func jsonKeepsMarksAtEitherEnd() {
        #expect(HostEscaping.json("\u{20EE}\u{301}x").unicodeScalars.elementsEqual("\u{20EE}\u{301}x".unicodeScalars))
        #expect(HostEscaping.json("x\u{600}").unicodeScalars.elementsEqual("x\u{600}".unicodeScalars))
        #expect(StatusFormat.waybar.escape("\u{301}<b>\u{600}").unicodeScalars.elementsEqual("\u{301}&lt;b&gt;\u{600}".unicodeScalars))
    }

    // MARK: Per format

    @Test func eachFormatUsesItsHostsEscaping() {
        let text = #"A & <b> "q" 100% #1"# + "\n"
        #expect(StatusFormat.text.escape(text) == #"A & <b> "q" 100% #1"#)
        #expect(StatusFormat.json.escape(text) == #"A & <b> \"q\" 100% #1\n"#)
        // Pango entities first, then JSON: the quote is an entity, so JSON has nothing to do.
        #expect(StatusFormat.waybar.escape(text) == "A &amp; &lt;b&gt; &quot;q&quot; 100% #1")
        #expect(StatusFormat.i3bar.escape(text) == "A &amp; &lt;b&gt; &quot;q&quot; 100% #1")
        #expect(StatusFormat.polybar.escape(text) == #"A & <b> "q" 100%"# + "\u{200B} #1")
        #expect(StatusFormat.tmux.escape(text) == #"A & <b> "q" 100% ####1"#)
        #expect(StatusFormat.waybar.escape(#"back\slash"#) == #"back\\slash"#)
    }

    /// Text that no rule changes is returned as it is, other text is escaped scalar by scalar: either
    /// way a trailing "é", special to no host, only comes out appended (inside the isolates of
    /// right-to-left text, which are left out here). Checked for each ASCII character between
    /// letters and for the tricky inputs.
    @Test(arguments: StatusFormat.allCases)
    func asciiTextIsEscapedAsTheScalarRulesDo(format: StatusFormat) {
        let texts = (0..<0x80).map { "a" + String(UnicodeScalar(UInt8($0))) + "b" } + Self.tricky
        let isolate: Set<Unicode.Scalar> = ["\u{2068}", "\u{2069}"]
        for text in texts {
            let (fast, scalarByScalar) = (format.escape(text) + "é", format.escape(text + "é"))
            #expect(
                fast.unicodeScalars.filter { !isolate.contains($0) }.elementsEqual(scalarByScalar.unicodeScalars.filter { !isolate.contains($0) }),
                "\(format): \(text.debugDescription)")
        }
    }

    /// A value with a letter of a right-to-left script is isolated in every line format, so that a
    /// bidi display keeps what follows it after it: `(23:30)` was drawn before an Arabic title
    /// (helper-87). JSON is data, and other text is left as it is. In Pango's lines (waybar,
    /// i3bar) a LEFT-TO-RIGHT MARK comes first: Pango takes a line's direction from its first
    /// strong letter, isolates or not, and `⚠ 2 · ⁨פגישה⁩` was laid out right to left (helper-122).
    /// Polybar draws no text by the bidi rules: it warned of each isolate, with the title, in its
    /// log (helper-139).
    @Test(arguments: StatusFormat.allCases)
    func rightToLeftTextIsIsolatedInLines(format: StatusFormat) {
        for text in ["اجتماع الفريق", "שלום עולם", "Call דני"] {
            let escaped = format.escape(text)
            let expected =
                switch format {
                case .json, .polybar: text
                case .waybar, .i3bar: "\u{200E}\u{2068}\(text)\u{2069}"
                case .text, .tmux: "\u{2068}\(text)\u{2069}"
                }
            #expect(escaped == expected, "\(format): \(escaped.debugDescription)")
        }
        for text in ["Pay rent", "買い物リスト", "\u{FEFF}bom", "🎉"] {
            #expect(!format.escape(text).unicodeScalars.contains("\u{2068}"), "\(format): \(text)")
        }
    }
}
