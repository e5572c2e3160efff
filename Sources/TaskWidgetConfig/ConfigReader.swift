import Foundation
import TaskWidgetCore
import TOMLKit

/// The text of a configuration file, to find the line of a key for an error message.
struct ConfigSource: Sendable {
    var path: String
    var text: String
    var home: String?

    /// The line (from 1) where `key` of the table at `tablePath` is set (or the first table under it
    /// begins, `[view.work]` for `view`), or where the table begins when `key` is nil; nil when it
    /// cannot be told (dotted keys, inline tables).
    ///
    /// It trims with sets of `Character`s: Foundation's `trimmingCharacters(in:)` made the scan of
    /// a 15-line file cost 0.5 M instructions, and ordering three views 3.5 M, on every `--view`.
    func line(of key: String?, in tablePath: [String]) -> Int? {
        var current: [String] = []
        var headerLine: Int?
        // "\r\n" is one Character: a Windows line end is a separator of its own.
        for (index, rawLine) in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }).enumerated() {
            let line = Self.trimmed(rawLine, Self.blanks)
            if line.hasPrefix("[") {
                // `[views.work]`, `[[x]]`, `[ "views" . 'work' ]  # a comment`
                current = Self.keys(ofHeader: line)
                if current == tablePath { headerLine = index + 1 }
                if let key, current.count > tablePath.count, Array(current.prefix(tablePath.count + 1)) == tablePath + [key] {
                    return index + 1
                }
                continue
            }
            guard current == tablePath else { continue }
            if let key, let name = line.split(separator: "=", maxSplits: 1).first, Self.trimmed(name, Self.quotesAndBlanks) == key {
                return index + 1
            }
        }
        return headerLine
    }

    /// The keys of a table header such as `[sync.accounts."Q\"s.x"]`: bare keys, basic strings
    /// (with their escapes) and literal strings, between dots. Split at every dot and trimmed of
    /// quotes, an account named with a quote or a dot was not found, and came last in the order.
    static func keys(ofHeader line: Substring) -> [String] {
        var keys: [String] = []
        var characters = line.drop { $0 == "[" }.makeIterator()
        var key = ""
        var quote: Character?
        while let character = characters.next() {
            if let open = quote {
                if character == open {
                    quote = nil
                } else if open == "\"", character == "\\", let escaped = characters.next() {
                    key.append(Self.unescaped(escaped, from: &characters))
                } else {
                    key.append(character)
                }
            } else if character == "\"" || character == "'" {
                quote = character
            } else if character == "." || character == "]" {
                keys.append(key)
                key = ""
                if character == "]" { return keys }
            } else if !blanks.contains(character) {
                key.append(character)
            }
        }
        return keys + [key]
    }

    /// The character a basic string's `\` escape stands for (`\u00e9`, `\"`, `\n`, …).
    private static func unescaped(_ escaped: Character, from characters: inout Substring.Iterator) -> Character {
        switch escaped {
        case "n": return "\n"
        case "t": return "\t"
        case "r": return "\r"
        case "b": return "\u{8}"
        case "f": return "\u{C}"
        case "e": return "\u{1B}"
        case "u", "U":
            var digits = ""
            for _ in 0..<(escaped == "u" ? 4 : 8) { if let digit = characters.next() { digits.append(digit) } }
            return UInt32(digits, radix: 16).flatMap(Unicode.Scalar.init).map(Character.init) ?? "\u{FFFD}"
        default: return escaped
        }
    }

    private static let blanks: Set<Character> = [" ", "\t"]
    private static let quotesAndBlanks = blanks.union(["\"", "'"])

    /// `text` without the `characters` at either end.
    private static func trimmed(_ text: Substring, _ characters: Set<Character>) -> Substring {
        var text = text
        while let first = text.first, characters.contains(first) { text.removeFirst() }
        while let last = text.last, characters.contains(last) { text.removeLast() }
        return text
    }
}

/// Reads one table of a configuration with the checks every section needs: known keys only, the
/// right type, and errors that say where.
struct ConfigReader {
    let table: TOMLTable
    let keyPath: [String]
    let source: ConfigSource

    /// `views.work` for messages.
    var name: String { keyPath.joined(separator: ".") }

    /// The error for `key` of this table: `config.toml:12: views.work.list: MESSAGE`.
    func error(_ key: String?, _ message: String) -> TaskWidgetError {
        let line = source.line(of: key, in: keyPath).map { ":\($0)" } ?? ""
        let where_ = (keyPath + (key.map { [$0] } ?? [])).joined(separator: ".")
        return TaskWidgetError(
            .badConfig, "\(source.path)\(line): \(where_.isEmpty ? "" : where_ + ": ")\(message)", context: "\(source.path)\(line)")
    }

    /// Refuses keys other than `keys` (a typo must not be ignored silently), naming the one meant
    /// when it is near (`view` for `views`).
    func allowKeys(_ keys: Set<String>) throws {
        for (key, _) in table where !keys.contains(key) {
            let known = keys.sorted()
            let list = "the keys here are " + known.joined(separator: ", ")
            throw error(key, "unknown key: " + (NameLookup.closest(to: key, among: known).map { "did you mean “\($0)”? (\(list))" } ?? list))
        }
    }

    func string(_ key: String) throws -> String? {
        guard let value = table[key] else { return nil }
        guard let text = value.string else { throw error(key, "expected text in quotes") }
        return text
    }

    func bool(_ key: String) throws -> Bool? {
        guard let value = table[key] else { return nil }
        guard let flag = value.bool else { throw error(key, "expected true or false") }
        return flag
    }

    func int(_ key: String, in range: ClosedRange<Int>) throws -> Int? {
        guard let value = table[key] else { return nil }
        guard let number = value.int, range.contains(number) else {
            throw error(key, "expected a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return number
    }

    /// A file path: absolute, or from the home folder (`~/`). A relative one is refused, as one
    /// without a HOME: a bar, a timer and a shell each start in another folder (a relative
    /// `token_file` let serve start in one folder only, helper-83).
    func path(_ key: String) throws -> String? {
        guard let text = try string(key) else { return nil }
        if text.hasPrefix("~/") {
            guard let home = source.home else { throw error(key, "HOME is not set, so ~/ names no folder: give an absolute path") }
            return home + text.dropFirst(1)
        }
        guard text.hasPrefix("/") else { throw error(key, "give the file as an absolute path or one starting with ~/") }
        return text
    }

    /// A duration such as `30m`, `24h`, `2d` or `1w`, in seconds.
    func duration(_ key: String) throws -> Int64? {
        guard let text = try string(key) else { return nil }
        guard let seconds = DurationText.seconds(text) else {
            // `99999999w`: a duration, past the million units taskwidget takes.
            let isTooLong = text.trimmingWhitespace.first?.isNumber == true && DurationText.seconds("1" + text.trimmingWhitespace.drop { $0.isNumber }) != nil
            // A capital M alone may mean months: it was refused without a word of why (helper-106).
            let isMonthsOrMinutes = text.trimmingWhitespace.drop { $0.isNumber || $0 == " " } == "M"
            if let hours = DurationText.hoursInstead(of: text) {
                throw error(key, "days and weeks do not combine with hours or minutes: write \(text.trimmingWhitespace.sanitizedForMessage) as \(hours)")
            }
            throw error(
                key,
                isTooLong
                    ? "the duration is too long: give at most 1000000 of its unit"
                    : isMonthsOrMinutes
                        ? "M may mean months or minutes: write minutes as m, e.g. 30m"
                        : "expected a duration such as \(DurationText.examples)")
        }
        return seconds
    }

    /// A list of texts, `["work", "home"]`.
    func strings(_ key: String) throws -> [String]? {
        guard let value = table[key] else { return nil }
        let texts = value.array?.compactMap(\.string)
        guard let texts, texts.count == value.array?.count else {
            throw error(key, "expected a list of texts in quotes, e.g. [\"work\", \"home\"]")
        }
        return texts
    }

    /// The sub-table `key`, if there is one.
    func table(_ key: String) throws -> ConfigReader? {
        guard let value = table[key] else { return nil }
        guard let table = value.table else { throw error(key, "expected a table, [\((keyPath + [key]).joined(separator: "."))]") }
        return ConfigReader(table: table, keyPath: keyPath + [key], source: source)
    }

    /// The sub-tables of `key` (`[views.work]`, `[views.home]`), in the order of the file.
    func tables(_ key: String) throws -> [ConfigReader] {
        guard let parent = try table(key) else { return [] }
        var children: [ConfigReader] = []
        for (name, value) in parent.table {
            guard let table = value.table else { throw parent.error(name, "expected a table, [\(parent.name).\(name)]") }
            children.append(ConfigReader(table: table, keyPath: parent.keyPath + [name], source: source))
        }
        // Each table's line found once, not twice per comparison.
        return children.map { (line: source.line(of: nil, in: $0.keyPath) ?? .max, reader: $0) }
            .sorted { $0.line < $1.line }.map(\.reader)
    }
}
