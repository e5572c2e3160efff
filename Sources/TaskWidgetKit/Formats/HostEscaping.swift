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
    public static func pango(_ text: String) -> String {
        var output = ""
        for character in plain(text) {
            switch character {
            case "&": output += "&amp;"
            case "<": output += "&lt;"
            case ">": output += "&gt;"
            case "'": output += "&#39;"
            case "\"": output += "&quot;"
            default: output.append(character)
            }
        }
        return output
    }

    /// The inside of a JSON string (without the quotes).
    public static func json(_ text: String) -> String {
        var quoted = ""
        JSONValue.writeQuoted(text, to: &quoted)
        return String(quoted.dropFirst().dropLast())
    }

    /// Polybar: a zero-width space after every `%`, so that no `%{…}` formatting tag can come from a
    /// title, whatever follows it. Polybar (3.6, Debian 12, and later) has no escape for `%`: `%%`
    /// shows two signs and still starts a tag when `{` follows (polybar/polybar#2748).
    public static func polybar(_ text: String) -> String {
        plain(text).replacing("%", with: "%\u{200B}")
    }

    /// tmux: `#` doubled, so that no `#[style]`, `#{format}` or `#(command)` can come from a title.
    public static func tmux(_ text: String) -> String {
        plain(text).replacing("#", with: "##")
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
