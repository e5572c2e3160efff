import TaskWidgetCore

/// The formats of `status` and `watch` (SPEC §6), each for one kind of host.
public enum StatusFormat: String, Sendable, CaseIterable {
    case text
    case json
    case waybar
    case i3bar
    case polybar
    case tmux

    /// Whether the output is one JSON object (checked after rendering).
    var isJSON: Bool { self == .json || self == .waybar || self == .i3bar }

    var contentTypeName: String { "TASKWIDGET_" + rawValue.uppercased() }

    /// The host's escaping of one value taken from the store; in a line (all but JSON, which is
    /// data, and polybar's), right-to-left text is isolated (``HostEscaping/isolatingRightToLeft(_:)``).
    func escape(_ text: String) -> String {
        switch self {
        case .text: HostEscaping.isolatingRightToLeft(HostEscaping.plain(text))
        case .json: HostEscaping.json(text)
        // Both show the text as Pango markup inside a JSON string. Pango takes a paragraph's
        // direction from its first strong letter, not skipping isolates: a line that starts with
        // `⚠ 2 · ` and a Hebrew title was laid out right to left, so a LEFT-TO-RIGHT MARK goes
        // first (helper-122).
        case .waybar, .i3bar: HostEscaping.json(HostEscaping.isolatingRightToLeft(HostEscaping.pango(text), markingLeftToRight: true))
        // Polybar draws no text by the bidi rules, and warned of each isolate, with the title, in
        // its log (helper-139).
        case .polybar: HostEscaping.polybar(text)
        case .tmux: HostEscaping.isolatingRightToLeft(HostEscaping.tmux(text))
        }
    }
}
