import PropertyBased

/// Text that hosts and parsers find hard: what the title, date and fuzz properties draw from.
enum HostileText {
    /// Scalar ranges a title draws from, each as likely as the others.
    static let scalarRanges: [ClosedRange<UInt32>] = [
        0x20...0x7E, 0x20...0x7E, 0x20...0x7E,  // ASCII, three times as likely
        0x200E...0x200F, 0x061C...0x061C,  // bidi marks
        0x0300...0x036F, 0x20D0...0x20F0,  // combining marks
        0x0600...0x0605, 0x06DD...0x06DD, 0x070F...0x070F, 0x110BD...0x110BD,  // prepended marks
        0x200B...0x200D, 0xFE0F...0xFE0F, 0xFEFF...0xFEFF, 0xE0020...0xE007F,  // format, tags
        0x1F300...0x1FAFF, 0x1F1E6...0x1F1FF, 0x1F3FB...0x1F3FF,  // emoji, flags, skin tones
        0x4E00...0x9FFF, 0x0620...0x064A, 0x05D0...0x05EA, 0x0E00...0x0E7F,  // CJK, Arabic, Hebrew, Thai
        0x00A0...0x00A0, 0x1680...0x1680, 0x2000...0x200A, 0x3000...0x3000,  // spaces
        0xFFFD...0xFFFD, 0xE000...0xE000,  // replacement, private use
    ]
    /// What a title may not contain (controls, line breaks, direction overrides, embeddings and
    /// isolates, noncharacters), and anything at all (surrogates become U+FFFD).
    static let controlRanges: [ClosedRange<UInt32>] = [
        0x00...0x1F, 0x7F...0x9F, 0x2028...0x2029, 0x202A...0x202E, 0x2066...0x2069, 0xFDD0...0xFDEF, 0x0000...0x10FFFF,
    ]
    /// Cc, Zl, Zp, noncharacters and the direction controls other than the marks (LRM, RLM, ALM):
    /// what one line of text may not contain. Written here, apart from the code the tests check.
    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.properties.isNoncharacterCodePoint { return true }
        if scalar.properties.isBidiControl { return !["\u{200E}", "\u{200F}", "\u{061C}"].contains(scalar) }
        return switch scalar.properties.generalCategory {
        case .control, .lineSeparator, .paragraphSeparator: true
        default: false
        }
    }

    /// What hosts would read as markup, tags, escapes or template syntax.
    static let tokens = [
        "&", "&amp;", "&#39;", "&lt;", "<", ">", "<b>", "</span>", "<span color='red'>", "'", "\"", "\\", "\\u0041",
        "\\n", "%", "%%", "%{F#f00}", "%{A1:reboot:}", "%{F-}", "#", "##", "#[fg=red]", "#(reboot)", "#{pane_id}",
        "{{title}}", "{{{entryJSON}}}", "}}", "…", " · ", "👩‍👩‍👧", "🇩🇪", "e\u{301}", "\u{600}<", "\u{600}%{", "\u{600}#[",
    ]

    /// Pieces drawn one by one: a token, or one to four scalars of one range (with `controls`, also
    /// of the control ranges). Once in 50 a title is long (300 to 1100 pieces), once in 50 it is
    /// one character with 50 KB of combining marks (more than the 40 000 bytes a title may take).
    static func title(controls: Bool) -> Generator<String, Shrink.None<String>> {
        let ranges = controls ? scalarRanges + controlRanges : scalarRanges
        return Generator { random in
            let roll = Int.random(in: 0..<50, using: &random)
            if roll == 0 { return "x" + String(repeating: "\u{301}", count: 25_000) }
            let pieceCount = roll < 2 ? Int.random(in: 300...1100, using: &random) : Int.random(in: 0...24, using: &random)
            var text = String.UnicodeScalarView()
            for _ in 0..<pieceCount {
                if Int.random(in: 0..<4, using: &random) == 0 {
                    text.append(contentsOf: tokens.randomElement(using: &random)!.unicodeScalars)
                    continue
                }
                let range = ranges.randomElement(using: &random)!
                for _ in 0..<Int.random(in: 1...4, using: &random) {
                    var value = UInt32.random(in: range, using: &random)
                    if (0xD800...0xDFFF).contains(value) { value = 0xFFFD }
                    text.append(Unicode.Scalar(value)!)
                }
            }
            return String(text)
        }
    }

    /// Pieces of the grammar, near misses and hostile scalars, glued in any order.
    static let datePieces = [
        "in ", "+", "-", " ", "  ", "\t", ":", ".", ",", "t", "z", "0", "2", "9", "12", "24", "59", "60", "2026", "9999",
        "0000", "-02-29", "-11-23", "-13-01", "h", "m", "d", "w", "min", "hours", "days", "weeks", "am", "pm", "noon",
        "today", "tomorrow", "tonight", "fri", "friday", "thu", "sunday", "999999", "0000000", "+14:00", "-23:59", "z",
        "\u{0}", "\n", "\u{85}", "\u{2028}", "\u{301}", "\u{600}", "\u{200D}", "\u{FEFF}", "٣", "１", "Ⅻ", "ﬀ", "İ", "🇩🇪",
        "\u{FFFD}",
    ]
}
