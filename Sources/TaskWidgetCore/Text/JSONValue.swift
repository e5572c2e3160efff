/// A JSON document built in code and written with its keys in the order given, so that output is
/// byte-identical run after run. The one place where taskwidget escapes strings for JSON.
public enum JSONValue: Sendable, Equatable {
    case object([(String, JSONValue)])
    case array([JSONValue])
    case string(String)
    case int(Int64)
    case bool(Bool)
    case null

    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        lhs.compactText == rhs.compactText
    }

    /// `"text"` or `null`.
    public static func optional(_ text: String?) -> JSONValue {
        text.map(JSONValue.string) ?? .null
    }

    /// One line, no spaces.
    public var compactText: String {
        var output = ""
        write(to: &output, indent: nil)
        return output
    }

    /// Two-space indentation; objects and arrays of scalars are kept short.
    public var prettyText: String {
        var output = ""
        write(to: &output, indent: "")
        return output
    }

    private func write(to output: inout String, indent: String?) {
        switch self {
        case .string(let text): Self.writeQuoted(text, to: &output)
        case .int(let value): output += String(value)
        case .bool(let value): output += value ? "true" : "false"
        case .null: output += "null"
        case .array(let values):
            writeContainer(values.map { (nil, $0) }, open: "[", close: "]", to: &output, indent: indent)
        case .object(let members):
            writeContainer(members.map { ($0.0, $0.1) }, open: "{", close: "}", to: &output, indent: indent)
        }
    }

    private func writeContainer(
        _ members: [(String?, JSONValue)], open: String, close: String, to output: inout String, indent: String?
    ) {
        output += open
        guard !members.isEmpty else { return output += close }
        // Containers of scalars only stay on one line even when pretty.
        let nested = members.contains { if case .object = $0.1 { true } else if case .array = $0.1 { true } else { false } }
        let inner = indent.map { nested ? $0 + "  " : $0 }
        for (index, (key, value)) in members.enumerated() {
            if index > 0 { output += "," }
            if let inner, nested { output += "\n" + inner } else if indent != nil, index > 0 { output += " " }
            if let key {
                Self.writeQuoted(key, to: &output)
                output += indent == nil ? ":" : ": "
            }
            value.write(to: &output, indent: inner)
        }
        if let indent, nested { output += "\n" + indent }
        output += close
    }

    /// JSON string escaping: quotes, backslashes, control characters (C0, DEL and C1, so that no
    /// line break of any kind, NEL included, reaches a line-based reader), and U+2028/U+2029 (which
    /// break JavaScript consumers); everything else is written as UTF-8.
    static func writeQuoted(_ text: String, to output: inout String) {
        output += "\""
        writeEscaped(text, to: &output)
        output += "\""
    }

    /// The inside of a JSON string: ``writeQuoted(_:to:)`` without the quotes.
    public static func writeEscaped(_ text: String, to output: inout String) {
        // Most text needs no escape, and is appended whole instead of scalar by scalar.
        guard text.unicodeScalars.contains(where: { escape($0) != nil }) else {
            output += text
            return
        }
        for scalar in text.unicodeScalars {
            if let escaped = escape(scalar) { output += escaped } else { output.unicodeScalars.append(scalar) }
        }
    }

    /// How `scalar` is written inside a JSON string, or nil when it is written as it is.
    private static func escape(_ scalar: Unicode.Scalar) -> String? {
        switch scalar {
        case "\"": return "\\\""
        case "\\": return "\\\\"
        case "\n": return "\\n"
        case "\r": return "\\r"
        case "\t": return "\\t"
        case "\u{8}": return "\\b"
        case "\u{C}": return "\\f"
        case "\u{2028}", "\u{2029}": return "\\u" + String(scalar.value, radix: 16)
        case _ where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value):
            let hex = String(scalar.value, radix: 16)
            return "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        default: return nil
        }
    }
}
