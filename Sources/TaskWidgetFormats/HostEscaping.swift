import Mustache
import TaskWidgetCore

/// How text from the store is made safe for each host that shows it: the one place for each rule.
/// Every `{{value}}` of a status template goes through its format's escaping (as a Mustache content
/// type), so a template author never escapes anything.
public enum HostEscaping {
    /// Control characters and line breaks removed: for one line of plain text.
    public static func plain(_ text: String) -> String {
        text.removingControlCharacters
    }

    /// `text` between FIRST STRONG ISOLATE and POP DIRECTIONAL ISOLATE when it holds a letter of a
    /// right-to-left script (Hebrew, Arabic, …), for the line formats. Where the line is drawn by
    /// the Unicode bidi rules (Pango in waybar and i3bar, a browser), an Arabic title took the due
    /// time after it, `(23:30)`, into its own run, and drew the time before the title
    /// (helper-87). The marks draw nothing; other text is left as it is. `markingLeftToRight`
    /// puts a LEFT-TO-RIGHT MARK before them, for a display that takes the line's direction from
    /// its first strong letter, isolated or not (Pango).
    public static func isolatingRightToLeft(_ text: String, markingLeftToRight: Bool = false) -> String {
        // 0xD6 leads the UTF-8 of U+0590, where right-to-left scripts begin.
        guard text.utf8.contains(where: { $0 >= 0xD6 }), text.unicodeScalars.contains(where: isRightToLeft) else { return text }
        return (markingLeftToRight ? "\u{200E}\u{2068}" : "\u{2068}") + text + "\u{2069}"
    }

    /// A letter of a right-to-left script's blocks (not their digits, marks and signs).
    private static func isRightToLeft(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0590...0x08FF, 0xFB1D...0xFDFF, 0xFE70...0xFEFC, 0x10800...0x10FFF, 0x1E800...0x1EFFF: scalar.properties.isAlphabetic
        default: false
        }
    }

    /// ``plain(_:)`` for a whole line: the isolates ``isolatingRightToLeft(_:)`` put in stay.
    static func plainLine(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: \.isControlOrLineBreak) else { return text }
        let isolates: ClosedRange<Unicode.Scalar> = "\u{2068}"..."\u{2069}"
        return String(String.UnicodeScalarView(text.unicodeScalars.filter { !$0.isControlOrLineBreak || isolates.contains($0) }))
    }

    /// Pango markup: `& < > ' "` as entities (what `g_markup_escape_text` does).
    ///
    /// Hosts read bytes, not grapheme clusters, so every rule here works on Unicode scalars: a `<`
    /// after a prepended mark (U+0600) or before a combining one is one `Character` to Swift, and
    /// still a `<` to Pango.
    public static func pango(_ text: String) -> String {
        mapScalars(of: plain(text)) { scalar in
            switch scalar {
            case "&": "&amp;"
            case "<": "&lt;"
            case ">": "&gt;"
            case "'": "&#39;"
            case "\"": "&quot;"
            default: nil
            }
        }
    }

    /// The inside of a JSON string (without the quotes).
    public static func json(_ text: String) -> String {
        var escaped = ""
        JSONValue.writeEscaped(text, to: &escaped)
        return escaped
    }

    /// Polybar: a zero-width space after every `%`, so that no `%{…}` formatting tag can come from a
    /// title, whatever follows it. Polybar (3.6, Debian 12, and later) has no escape for `%`: `%%`
    /// shows two signs and still starts a tag when `{` follows (polybar/polybar#2748).
    public static func polybar(_ text: String) -> String {
        mapScalars(of: plain(text)) { $0 == "%" ? "%\u{200B}" : nil }
    }

    /// tmux, for a line shown through `#(…)` in `status-right` (tmux 3.3): the job's output is
    /// expanded as a format and then drawn, and each pass turns `##` into `#`, except that the
    /// first keeps a run of `#`s before `[` whole for the drawing. So each run of `#`s is written
    /// four times over, or twice before a `[`: a title shows as typed, and no `#[style]`,
    /// `#{format}` or `#(command)` can come from it. (Only doubled, `C##` showed as `C#`.)
    public static func tmux(_ text: String) -> String {
        let text = plain(text)
        guard text.unicodeScalars.contains("#") else { return text }
        var output = String.UnicodeScalarView()
        var run = 0
        func endRun(before next: Unicode.Scalar?) {
            output.append(contentsOf: repeatElement("#" as Unicode.Scalar, count: run * (next == "[" ? 2 : 4)))
            run = 0
        }
        for scalar in text.unicodeScalars {
            if scalar == "#" {
                run += 1
            } else {
                endRun(before: scalar)
                output.append(scalar)
            }
        }
        endRun(before: nil)
        return String(output)
    }

    /// `text` with each scalar that `replacement` maps replaced, scalar by scalar (see ``pango(_:)``:
    /// `String.replacing` matches whole characters, and misses a `%` that a mark joins).
    private static func mapScalars(of text: String, _ replacement: (Unicode.Scalar) -> String?) -> String {
        // Most text has nothing to replace, and is kept as it is instead of being built again.
        guard text.unicodeScalars.contains(where: { replacement($0) != nil }) else { return text }
        var output = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if let replaced = replacement(scalar) { output.append(contentsOf: replaced.unicodeScalars) } else { output.append(scalar) }
        }
        return String(output)
    }

    /// Registers one Mustache content type per format (`TASKWIDGET_WAYBAR`, …); idempotent.
    static let registerContentTypes: Void = {
        for format in StatusFormat.allCases {
            MustacheContentTypes.register(HostContentType(format: format), named: format.contentTypeName)
        }
    }()
}

private struct HostContentType: MustacheContentType {
    let format: StatusFormat

    func escapeText(_ text: String) -> String {
        format.escape(text)
    }
}
