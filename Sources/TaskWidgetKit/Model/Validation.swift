/// The input rules for what users type: titles, names, colors and icons. One place for each rule.
public enum Validation {
    /// The longest title or name accepted, in characters.
    public static let maximumTitleLength = 1000
    /// The longest habit icon accepted, in characters.
    public static let maximumIconLength = 8
    /// The most UTF-8 bytes a text may take for each character it is allowed: room for the longest
    /// emoji sequences (35 bytes), not for one "character" built of a million combining marks,
    /// which a count of characters alone lets through and every status line would then carry.
    public static let maximumBytesPerCharacter = 40

    /// Trims surrounding whitespace and checks a task title: not empty, no control characters or
    /// line breaks, at most ``maximumTitleLength`` characters and 40 bytes of UTF-8 per character
    /// of that limit.
    public static func title(_ text: String, noun: String = "title") throws -> String {
        let trimmed = text.trimmingWhitespace
        guard !trimmed.isEmpty else {
            throw TaskWidgetError(.usage, "the \(noun) is empty: give some text, e.g. \"Pay rent\"")
        }
        guard !trimmed.unicodeScalars.contains(where: \.isControlOrLineBreak) else {
            throw TaskWidgetError(
                .usage, "the \(noun) contains a control character or line break: use plain one-line text")
        }
        guard trimmed.count <= maximumTitleLength else {
            throw TaskWidgetError(
                .usage,
                "the \(noun) is \(trimmed.count) characters long: the limit is \(maximumTitleLength)")
        }
        let byteLimit = maximumTitleLength * maximumBytesPerCharacter
        guard trimmed.utf8.count <= byteLimit else {
            throw TaskWidgetError(
                .usage,
                "the \(noun) is \(trimmed.utf8.count) bytes long in UTF-8: the limit is \(byteLimit) bytes")
        }
        return trimmed
    }

    /// Checks a list or habit name with the title rules; `Inbox` is reserved for tasks without a list.
    public static func listName(_ text: String) throws -> String {
        let name = try title(text, noun: "list name")
        guard name.lowercased() != "inbox" else {
            throw TaskWidgetError(
                .usage, "“Inbox” is reserved for tasks without a list: choose another name")
        }
        return name
    }

    /// Normalizes a color to six uppercase hex digits; accepts `#1e90ff`, `1E90FF`.
    public static func colorHex(_ text: String) throws -> String {
        var digits = Substring(text.trimmingWhitespace)
        if digits.hasPrefix("#") { digits = digits.dropFirst() }
        guard digits.count == 6, digits.allSatisfy(\.isHexDigit), digits.allSatisfy(\.isASCII) else {
            throw TaskWidgetError(
                .usage, "“\(text.sanitizedForMessage)” is not a color: use six hex digits like 1E90FF or #1e90ff")
        }
        return digits.uppercased()
    }

    /// Checks a habit icon: a short text or an emoji, one line.
    public static func icon(_ text: String) throws -> String {
        let trimmed = text.trimmingWhitespace
        guard !trimmed.isEmpty, trimmed.count <= maximumIconLength,
            trimmed.utf8.count <= maximumIconLength * maximumBytesPerCharacter,
            !trimmed.unicodeScalars.contains(where: \.isControlOrLineBreak)
        else {
            throw TaskWidgetError(
                .usage, "the icon must be 1 to \(maximumIconLength) characters, e.g. 💧 or ✓")
        }
        return trimmed
    }
}

extension String {
    /// The text without leading and trailing whitespace and line breaks.
    var trimmingWhitespace: String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }) else { return "" }
        let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })!
        return String(scalars[first...last])
    }

    /// The text made safe to quote in a one-line error message: control characters dropped,
    /// at most 40 characters (see ``shortened(to:ellipsis:)``).
    public var sanitizedForMessage: String {
        removingControlCharacters.shortened(to: 40)
    }

    /// At most `limit` characters, the last one `…` when the text was cut, and at most 4 bytes of
    /// UTF-8 for each: one character may carry any number of combining marks, and a message must
    /// stay short whatever it quotes. A character cut by the byte bound loses its last marks.
    func shortened(to limit: Int, ellipsis: Bool = true) -> String {
        guard count > limit || utf8.count > 4 * limit else { return self }
        let kept = ellipsis ? limit - 1 : limit
        var result = String.UnicodeScalarView()
        var bytes = 0
        for scalar in String(prefix(kept)).unicodeScalars {
            bytes += UTF8.width(scalar)
            guard bytes <= 4 * kept else { break }
            result.append(scalar)
        }
        return String(result) + (ellipsis ? "…" : "")
    }

    /// The text without control characters and line or paragraph separators.
    var removingControlCharacters: String {
        String(String.UnicodeScalarView(unicodeScalars.filter { !$0.isControlOrLineBreak }))
    }
}

extension Unicode.Scalar {
    /// Control characters (Cc) and line or paragraph separators: never allowed in one-line text.
    var isControlOrLineBreak: Bool {
        switch properties.generalCategory {
        case .control, .lineSeparator, .paragraphSeparator: true
        default: false
        }
    }
}
