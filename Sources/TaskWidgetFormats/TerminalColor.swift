/// Whether tables for people (`ls`) are coloured: `--color auto|always|never`.
///
/// `auto` colours only a terminal, and never when `NO_COLOR` is set to anything but the empty
/// string (no-color.org) or `TERM` is `dumb`; `always` and `never` are what the user asked for,
/// `NO_COLOR` included.
public enum ColorChoice: String, Sendable, CaseIterable {
    case auto, always, never

    /// Whether to colour output that goes to a terminal (`isTerminal`) or not, in `environment`.
    public func usesColor(isTerminal: Bool, environment: [String: String]) -> Bool {
        switch self {
        case .always: true
        case .never: false
        case .auto: isTerminal && (environment["NO_COLOR"] ?? "").isEmpty && environment["TERM"] != "dumb"
        }
    }
}

/// The ANSI styles of coloured tables (SGR escape sequences).
enum TerminalColor {
    /// `text` in red (overdue).
    static func red(_ text: String) -> String {
        "\u{1B}[31m" + text + reset
    }

    /// `text` in the colour `hex` (`RRGGBB`, a list's colour) as 24-bit colour; unchanged when
    /// `hex` is not six hex digits.
    static func colored(_ text: String, hex: String) -> String {
        guard hex.count == 6, let value = Int(hex, radix: 16) else { return text }
        return "\u{1B}[38;2;\(value >> 16);\(value >> 8 & 0xFF);\(value & 0xFF)m" + text + reset
    }

    private static let reset = "\u{1B}[0m"
}
