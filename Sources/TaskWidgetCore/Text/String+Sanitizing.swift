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
        String(String.UnicodeScalarView(unicodeScalars.filter { !$0.isControlOrLineBreak }))
    }
}

extension Unicode.Scalar {
    /// Control characters (Cc) and line or paragraph separators: never allowed in one-line text.
    public var isControlOrLineBreak: Bool {
        switch properties.generalCategory {
        case .control, .lineSeparator, .paragraphSeparator: true
        default: false
        }
    }
}
