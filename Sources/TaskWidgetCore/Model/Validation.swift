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

    /// Trims surrounding whitespace and checks a task title: not empty nor only invisible
    /// characters, no control characters or line breaks, at most ``maximumTitleLength`` characters and 40 bytes of UTF-8 per character
    /// of that limit.
    public static func title(_ text: String, noun: String = "title") throws -> String {
        let trimmed = text.trimmingWhitespace
        guard hasVisibleText(trimmed) else {
            let example = switch noun {
            case "list name": "Home"
            case "habit name": "Drink water"
            case "device name": "kitchen"
            default: "Pay rent"
            }
            throw TaskWidgetError(.invalidInput, "the \(noun) is empty: give some text, e.g. \"\(example)\"")
        }
        if let found = trimmed.unicodeScalars.first(where: \.isControlOrLineBreak) {
            throw TaskWidgetError(.invalidInput, "the \(noun) contains \(found.refusedKind): use plain one-line text")
        }
        guard trimmed.count <= maximumTitleLength else {
            throw TaskWidgetError(
                .invalidInput,
                "the \(noun) is \(trimmed.count) characters long: the limit is \(maximumTitleLength)")
        }
        let byteLimit = maximumTitleLength * maximumBytesPerCharacter
        guard trimmed.utf8.count <= byteLimit else {
            throw TaskWidgetError(
                .invalidInput,
                "the \(noun) is \(trimmed.utf8.count) bytes long in UTF-8: the limit is \(byteLimit) bytes")
        }
        return trimmed
    }

    /// A title or name that came from elsewhere (a CalDAV server: another client's task or
    /// calendar), made to follow the title rules instead of being refused: line breaks and tabs
    /// become spaces, other control characters (direction controls too) go, and it is cut to the
    /// limits; an empty one, or one of invisible characters only, is `fallback`.
    public static func titleFromElsewhere(_ text: String, fallback: String = "Untitled") -> String {
        let spaced = String(
            String.UnicodeScalarView(
                text.unicodeScalars.compactMap { scalar in
                    guard scalar.isControlOrLineBreak else { return scalar }
                    let category = scalar.properties.generalCategory
                    // NEL (U+0085), VT, FF and the separators FS, GS, RS too, which break lines or
                    // paragraphs as LF does: they glued two words (helpers 169, 173).
                    let breaks =
                        "\n\t\r\u{0B}\u{0C}\u{1C}\u{1D}\u{1E}\u{85}".unicodeScalars.contains(scalar) || category == .lineSeparator
                        || category == .paragraphSeparator
                    return breaks ? " " : nil
                }))
        let trimmed = spaced.trimmingWhitespace.truncated(to: maximumTitleLength, maxBytesPerUnit: maximumBytesPerCharacter)
        return hasVisibleText(trimmed) ? trimmed : fallback
    }

    /// Whether `text` has a character that shows: not only white space and invisible ones (a
    /// zero-width space), which would show as a blank row.
    static func hasVisibleText(_ text: String) -> Bool {
        text.unicodeScalars.contains { !$0.properties.isWhitespace && !$0.properties.isDefaultIgnorableCodePoint }
    }

    /// Checks a list or habit name with the title rules; `Inbox` is reserved for tasks without a list.
    public static func listName(_ text: String) throws -> String {
        let name = try title(text, noun: "list name")
        guard !TaskList.isInbox(name) else {
            throw TaskWidgetError(
                .invalidInput, "“Inbox” is reserved for tasks without a list: choose another name")
        }
        return name
    }

    /// Checks a position given to `move --to N` or `list move --to N`: they count from 1.
    public static func position(_ position: Int) throws -> Int {
        guard position >= 1 else {
            throw TaskWidgetError(.invalidInput, "position \(position) is not valid: positions start at 1")
        }
        return position
    }

    /// Normalizes a color to six uppercase hex digits; accepts `#1e90ff`, `1E90FF`.
    public static func colorHex(_ text: String) throws -> String {
        var digits = Substring(text.trimmingWhitespace)
        if digits.hasPrefix("#") { digits = digits.dropFirst() }
        guard digits.count == 6, digits.allSatisfy(\.isHexDigit), digits.allSatisfy(\.isASCII) else {
            throw TaskWidgetError(
                .invalidInput, "“\(text.sanitizedForMessage)” is not a color: use six hex digits like 1E90FF or #1e90ff")
        }
        return digits.uppercased()
    }

    /// Checks a habit icon: a short text or an emoji, one line, that shows.
    public static func icon(_ text: String) throws -> String {
        let trimmed = text.trimmingWhitespace
        // Said as for titles: an ESC was "must be 1 to 8 characters", which it is (helper-87).
        if let found = trimmed.unicodeScalars.first(where: \.isControlOrLineBreak) {
            throw TaskWidgetError(.invalidInput, "the icon contains \(found.refusedKind): use a character that shows, e.g. 💧 or ✓")
        }
        guard hasVisibleText(trimmed), trimmed.count <= maximumIconLength,
            trimmed.utf8.count <= maximumIconLength * maximumBytesPerCharacter
        else {
            throw TaskWidgetError(
                .invalidInput, "the icon must be 1 to \(maximumIconLength) characters that show, e.g. 💧 or ✓")
        }
        return trimmed
    }
}
