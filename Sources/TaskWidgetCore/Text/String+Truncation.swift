extension String {
    /// What a length limit counts.
    public enum TextUnit: Sendable {
        /// Characters (grapheme clusters): what a status bar or a message counts.
        case characters
        /// Terminal columns: 2 for East Asian wide characters and emoji, 0 for combining marks.
        case terminalColumns
    }

    /// The one way taskwidget shortens text: at most `limit` units, the last one `…` when the text
    /// was cut (unless `ellipsis` is false). With `maxBytesPerUnit`, also at most that many bytes of
    /// UTF-8 per unit of the limit: one character may carry any number of combining marks, and a
    /// message must stay short whatever it quotes (a character cut by the bytes loses its last marks).
    ///
    /// ```swift
    /// "Buy milk and eggs".truncated(to: 8)                       // "Buy mil…"
    /// "田中さんへの贈り物".truncated(to: 7, in: .terminalColumns)  // "田中さ…"
    /// ```
    public func truncated(to limit: Int, in unit: TextUnit = .characters, maxBytesPerUnit: Int? = nil, ellipsis: Bool = true) -> String {
        let isTooLong = unit == .characters ? count > limit : terminalWidth > limit
        guard isTooLong || maxBytesPerUnit.map({ utf8.count > $0 * limit }) == true else { return self }
        let room = ellipsis ? limit - 1 : limit
        let byteRoom = maxBytesPerUnit.map { $0 * room } ?? Int.max
        var result = String.UnicodeScalarView()
        var (used, bytes) = (0, 0)
        characters: for character in self {
            used += unit == .characters ? 1 : character.terminalWidth
            if used > room { break }
            for scalar in character.unicodeScalars {
                bytes += UTF8.width(scalar)
                if bytes > byteRoom { break characters }
                result.append(scalar)
            }
        }
        return String(result) + (ellipsis ? "…" : "")
    }

    /// How many terminal columns the text takes.
    public var terminalWidth: Int {
        // ASCII text, most of a table, takes a column a character.
        if utf8.allSatisfy({ $0 < 0x80 }) { return count }
        return reduce(0) { $0 + $1.terminalWidth }
    }

    /// The text padded with spaces to `width` columns.
    public func padded(toTerminalWidth width: Int) -> String {
        self + String(repeating: " ", count: max(0, width - terminalWidth))
    }
}

extension Character {
    /// 2 for East Asian wide characters and emoji, 0 for combining marks and joiners, 1 otherwise.
    var terminalWidth: Int {
        if isASCII { return 1 }
        guard let scalar = unicodeScalars.first else { return 0 }
        if unicodeScalars.contains(where: { $0.properties.isEmojiPresentation })
            || unicodeScalars.contains(where: { $0.value == 0xFE0F })
        {
            return 2
        }
        switch scalar.value {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
            0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
            0xFFE0...0xFFE6, 0x20000...0x3FFFD:
            return 2
        default:
            return scalar.properties.generalCategory == .nonspacingMark ? 0 : 1
        }
    }
}
