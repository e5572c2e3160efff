public import Foundation

/// How a program that draws widgets talks to the one that asks (`taskwidget-render`, the helper
/// that `render` and `watch --render-dir` start so that taskwidget itself never loads Cairo).
///
/// The helper is started without arguments. Its first line on standard input is the widget it
/// draws (``specLine(for:)``); then it reads one timeline entry per line, as the documented entry
/// JSON (``TimelineJSON/value(of:in:)``, compact), or `unavailable MESSAGE` for the widget's notice
/// that the tasks cannot be shown (``unavailableRequest(message:)``), and answers each with a
/// header line, then data:
/// - `png LENGTH` and the PNG's LENGTH bytes, or
/// - `error CODE MESSAGE` (a ``TaskWidgetError/Code`` and its one-line message), nothing after.
///
/// It exits 0 at the end of its input. Since the widget comes in its input, a program can start
/// the helper before it knows what to draw, so that the helper's start overlaps its own.
public enum DrawingProtocol {
    /// The first line: `spec`'s ``WidgetImageSpec/arguments``, separated by spaces (no value has one).
    public static func specLine(for spec: WidgetImageSpec) -> Data {
        Data((spec.arguments.joined(separator: " ") + "\n").utf8)
    }

    /// Reads the first line (without its line feed); an ``TaskWidgetError/Code/invalidInput`` error
    /// when it is not a spec.
    public static func spec(fromLine line: String) throws -> WidgetImageSpec {
        try WidgetImageSpec(arguments: line.split(separator: " ").map(String.init))
    }

    /// The request line for `entry`.
    public static func request(for entry: TimelineEntry, in zone: TimeZone) -> Data {
        Data((TimelineJSON.value(of: entry, in: zone).compactText + "\n").utf8)
    }

    /// The request line for the notice that the tasks cannot be shown, and why.
    public static func unavailableRequest(message: String) -> Data {
        Data((unavailablePrefix + message.removingControlCharacters + "\n").utf8)
    }

    /// The message of an ``unavailableRequest(message:)`` line (without its line feed); `nil` for
    /// an entry's line.
    public static func unavailableMessage(inLine line: String) -> String? {
        line.hasPrefix(unavailablePrefix) ? String(line.dropFirst(unavailablePrefix.count)) : nil
    }

    private static let unavailablePrefix = "unavailable "

    /// The header that precedes `count` bytes of PNG.
    public static func imageHeader(count: Int) -> Data {
        Data("png \(count)\n".utf8)
    }

    /// The header line that reports `error`.
    public static func errorHeader(_ error: TaskWidgetError) -> Data {
        Data("error \(error.code.rawValue) \(error.message.removingControlCharacters)\n".utf8)
    }

    /// What a header line announces.
    public enum Header: Equatable, Sendable {
        case image(count: Int)
        case failure(code: TaskWidgetError.Code, message: String)
    }

    /// Reads a header line (without its line feed); `nil` when it is not one.
    public static func header(_ line: String) -> Header? {
        let parts = line.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
        switch parts.first {
        case "png":
            guard parts.count == 2, let count = Int(parts[1]), count >= 0 else { return nil }
            return .image(count: count)
        case "error":
            guard parts.count == 3, let code = TaskWidgetError.Code(rawValue: String(parts[1])) else { return nil }
            return .failure(code: code, message: String(parts[2]))
        default:
            return nil
        }
    }
}
