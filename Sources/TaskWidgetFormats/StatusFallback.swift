import TaskWidgetCore

/// What `status` and `watch` show when there is no entry to show (SPEC §6): the one policy for it.
/// A bar never shows garbage: it gets one valid line of its format, and `status` still exits 0.
public enum StatusFallback {
    /// Whether `status` exits 0 after printing the fallback line (the error then goes to stderr):
    /// bars do, `text` and `json` exit with the error's status.
    public static func exitsNormally(format: StatusFormat) -> Bool {
        switch format {
        case .waybar, .i3bar, .polybar, .tmux: true
        case .text, .json: false
        }
    }

    /// The line a bar shows when the store cannot be read: `⚠ taskwidget`, the error as tooltip.
    public static func line(format: StatusFormat, message: String) -> String {
        let text = "⚠ taskwidget"
        switch format {
        case .text: return text + ": " + HostEscaping.plain(message)
        case .json: return JSONValue.object([("error", .string(message))]).compactText
        case .waybar:
            return JSONValue.object([
                ("text", .string(text)), ("tooltip", .string(HostEscaping.pango(message))), ("class", .string("error")),
                ("alt", .string("error")), ("percentage", .int(0)),
            ]).compactText
        case .i3bar:
            return JSONValue.object([
                ("full_text", .string(text)), ("short_text", .string("⚠")), ("color", .string("#FF6B6B")),
                ("urgent", .bool(true)), ("name", .string("taskwidget")), ("instance", .string("error")),
                ("markup", .string("pango")),
            ]).compactText
        case .polybar: return "%{F#ff6b6b}" + text + "%{F-}"
        case .tmux: return "#[fg=red]" + text + "#[default]"
        }
    }
}
