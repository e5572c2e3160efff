extension String {
    /// How many terminal columns the text takes: 2 for East Asian wide characters and emoji,
    /// 0 for combining marks and joiners, 1 otherwise.
    var terminalWidth: Int {
        reduce(0) { $0 + $1.terminalWidth }
    }

    /// The text cut to at most `width` columns, ending with `…` when it was cut.
    func truncated(toTerminalWidth width: Int) -> String {
        guard terminalWidth > width else { return self }
        var result = ""
        var used = 0
        for character in self {
            let next = character.terminalWidth
            if used + next > width - 1 { break }
            result.append(character)
            used += next
        }
        return result + "…"
    }

    /// The text padded with spaces to `width` columns.
    func padded(toTerminalWidth width: Int) -> String {
        self + String(repeating: " ", count: max(0, width - terminalWidth))
    }
}

extension Character {
    var terminalWidth: Int {
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
