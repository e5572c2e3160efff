extension String {
    /// The text without leading and trailing whitespace and line breaks.
    public var trimmingWhitespace: String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }) else { return "" }
        let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })!
        return String(scalars[first...last])
    }

    /// The text made safe to quote in a one-line error message: control characters dropped, at most
    /// 40 characters and 160 bytes.
    public var sanitizedForMessage: String {
        removingControlCharacters.truncated(to: 40, maxBytesPerUnit: 4)
    }

    /// The text without control characters and line or paragraph separators.
    public var removingControlCharacters: String {
        // Most text has none, and is kept as it is instead of being built again.
        guard unicodeScalars.contains(where: \.isControlOrLineBreak) else { return self }
        return String(String.UnicodeScalarView(unicodeScalars.filter { !$0.isControlOrLineBreak }))
    }
}

extension Unicode.Scalar {
    /// Control characters (Cc) and line or paragraph separators: never allowed in one-line text.
    public var isControlOrLineBreak: Bool {
        // ASCII's controls, without looking the category up in Unicode's tables.
        if isASCII { return value < 0x20 || value == 0x7F }
        return switch properties.generalCategory {
        case .control, .lineSeparator, .paragraphSeparator: true
        default: false
        }
    }
}
