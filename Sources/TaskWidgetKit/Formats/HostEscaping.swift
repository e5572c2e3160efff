import Mustache

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
        var output = String.UnicodeScalarView()
        for scalar in plain(text).unicodeScalars {
            switch scalar {
            case "&": output.append(contentsOf: "&amp;".unicodeScalars)
            case "<": output.append(contentsOf: "&lt;".unicodeScalars)
            case ">": output.append(contentsOf: "&gt;".unicodeScalars)
            case "'": output.append(contentsOf: "&#39;".unicodeScalars)
            case "\"": output.append(contentsOf: "&quot;".unicodeScalars)
            default: output.append(scalar)
            }
        }
        return String(output)
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
        replacing("%", with: "%\u{200B}", in: plain(text))
    }

    /// tmux: `#` doubled, so that no `#[style]`, `#{format}` or `#(command)` can come from a title.
    public static func tmux(_ text: String) -> String {
        replacing("#", with: "##", in: plain(text))
    }

    /// `text` with every `scalar` replaced by `replacement`, scalar by scalar (see ``pango(_:)``:
    /// `String.replacing` matches whole characters, and misses a `%` that a mark joins).
    private static func replacing(_ scalar: Unicode.Scalar, with replacement: String, in text: String) -> String {
        var output = String.UnicodeScalarView()
        for next in text.unicodeScalars {
            if next == scalar { output.append(contentsOf: replacement.unicodeScalars) } else { output.append(next) }
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
