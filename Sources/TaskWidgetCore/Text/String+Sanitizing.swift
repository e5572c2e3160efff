extension String {
    /// The text without leading and trailing whitespace and line breaks.
    public var trimmingWhitespace: String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }) else { return "" }
        let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })!
        return String(scalars[first...last])
    }

    /// A sentence as a clause of a longer message (`…: the server does not allow this (403
    /// Forbidden)`): without its final period, its first letter in lower case unless it starts an
    /// acronym (`HTTP …`).
    public var asClause: String {
        let text = hasSuffix(".") ? String(dropLast()) : self
        guard let first = text.first, first.isUppercase, text.dropFirst().first?.isUppercase != true else { return text }
        return first.lowercased() + text.dropFirst()
    }

    /// The text made safe to quote in a one-line error message: control characters dropped, at most
    /// 40 characters and 160 bytes.
    public var sanitizedForMessage: String {
        removingControlCharacters.truncated(to: 40, maxBytesPerUnit: 4)
    }

    /// The text without noncharacters (U+FFFE, U+FDD0, …), which Unicode keeps out of text.
    public var removingNoncharacters: String {
        guard unicodeScalars.contains(where: \.isNoncharacter) else { return self }
        return String(String.UnicodeScalarView(unicodeScalars.filter { !$0.isNoncharacter }))
    }

    /// The text without control characters and line or paragraph separators.
    public var removingControlCharacters: String {
        // Most text has none, and is kept as it is instead of being built again.
        guard unicodeScalars.contains(where: \.isControlOrLineBreak) else { return self }
        return String(String.UnicodeScalarView(unicodeScalars.filter { !$0.isControlOrLineBreak }))
    }
}

extension String {
    /// The text as one word for a POSIX shell: as it is when that is safe, else in single quotes
    /// (for commands that a message suggests: `taskwidget sync --account 'my home'`).
    public var shellQuoted: String {
        let plain = allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "/._-+:@%,=".contains($0)) }
        guard !plain || isEmpty else { return self }
        // By scalar: a quote with a combining mark on it is one Character, but still a quote.
        var quoted = "'"
        for scalar in unicodeScalars {
            if scalar == "'" { quoted += #"'\''"# } else { quoted.unicodeScalars.append(scalar) }
        }
        return quoted + "'"
    }
}

extension Unicode.Scalar {
    /// Control characters (Cc), line or paragraph separators, the explicit direction controls
    /// (embeddings, overrides and isolates, U+202A–U+202E and U+2066–U+2069, which turn the rest of
    /// a line around in a terminal or a bar), and noncharacters (U+FFFE, U+FDD0, …: swaybar then
    /// drew none of its text, helper-139): never allowed in one-line text.
    public var isControlOrLineBreak: Bool {
        // ASCII's controls, without looking the category up in Unicode's tables.
        if isASCII { return value < 0x20 || value == 0x7F }
        if (0x202A...0x202E).contains(value) || (0x2066...0x2069).contains(value) || isNoncharacter { return true }
        return switch properties.generalCategory {
        case .control, .lineSeparator, .paragraphSeparator: true
        default: false
        }
    }

    /// The 66 code points Unicode keeps out of text: U+FDD0–U+FDEF and the last two of each plane.
    var isNoncharacter: Bool {
        (0xFDD0...0xFDEF).contains(value) || value & 0xFFFE == 0xFFFE
    }

    /// What an error names for one of these: "a line break", "a control character (U+0007)",
    /// "a noncharacter (U+FFFE), which is no text" or "a direction control (U+202E), which turns
    /// the text around".
    var refusedKind: String {
        let hex = String(value, radix: 16, uppercase: true)
        let code = "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
        if [0x0A, 0x0B, 0x0C, 0x0D, 0x85, 0x2028, 0x2029].contains(value) { return "a line break" }
        if isNoncharacter { return "a noncharacter (\(code)), which is no text" }
        if !isASCII, value > 0x9F { return "a direction control (\(code)), which turns the text around" }
        return "a control character (\(code))"
    }
}
