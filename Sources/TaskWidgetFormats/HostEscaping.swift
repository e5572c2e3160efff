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
