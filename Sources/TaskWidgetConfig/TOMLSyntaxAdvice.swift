import Foundation
import TaskWidgetCore
import TOMLKit

extension TOMLParseError {
    /// What is wrong with the file, in words a newcomer acts on, for the mistakes people make
    /// (`text`, the file, gives the line): text without quotes, which TOML++ reads as a misspelt
    /// `true` (`Error while parsing boolean: expected 'true', saw 'T'`, helper-129), a table
    /// written twice, a text left open. Other errors keep TOML++'s own words.
    func advice(in text: String) -> String {
        let message = description.removingControlCharacters
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let line = (1...lines.count).contains(Int(source.begin.line)) ? String(lines[Int(source.begin.line) - 1]) : ""
        let valueErrors = ["parsing boolean", "could not determine value type", "parsing decimal integer", "parsing integer", "parsing floating-point"]
        if valueErrors.contains(where: message.contains), let equals = line.firstIndex(of: "=") {
            let key = String(line[..<equals]).trimmingWhitespace
            let rest = line[line.index(after: equals)...]
            let value = String(rest[..<(rest.range(of: " #")?.lowerBound ?? rest.endIndex)]).trimmingWhitespace
            if ["yes", "no", "on", "off"].contains(value.lowercased()) {
                return "the value of \(key) is \(value): TOML says yes and no as true and false"
            }
            // `True` was sent to quotes, which then failed as no true or false (helper-133).
            if ["true", "false"].contains(value.lowercased()) {
                return "the value of \(key) is \(value): TOML writes it in lower case, \(key) = \(value.lowercased())"
            }
            if !key.isEmpty, !value.isEmpty, !value.hasPrefix("\""), !value.hasPrefix("'"), !value.hasPrefix("[") {
                return "the value of \(key) is not in quotes: write text as \(key) = \"\(value)\""
            }
        }
        if let table = message.firstMatch(of: /cannot redefine existing table '([^']*)'/)?.output.1 {
            // As the file writes it: TOML++ garbles a quoted name ([views."ababc"], helper-174).
            let header = line.trimmingWhitespace
            let written = header.hasPrefix("[") && header.hasSuffix("]") ? header : "[\(table)]"
            return "the table \(written) is in the file twice: keep one, with all of its keys"
        }
        // `[views.été]`: a name beyond ASCII letters, digits, _ and - goes in quotes (helper-169).
        if message.contains(/saw '[^\x{00}-\x{7F}]/) {
            let quoted = { (name: Substring) -> String in
                let name = String(name).trimmingWhitespace
                return name.hasPrefix("\"") ? name : SyncAccountsFile.key(name)
            }
            let trimmed = line.trimmingWhitespace
            if trimmed.hasPrefix("["), trimmed.hasSuffix("]"), !trimmed.hasPrefix("[[") {
                return "a name with letters beyond ASCII or spaces goes in quotes: [\(trimmed.dropFirst().dropLast().split(separator: ".").map(quoted).joined(separator: "."))]"
            }
            if let equals = line.firstIndex(of: "=") {
                return "a name with letters beyond ASCII or spaces goes in quotes: \(quoted(line[..<equals])) = …"
            }
        }
        if message.contains("parsing string") || message.contains("parsing literal string"), message.contains("control characters") {
            return "a text in quotes is not closed on its line: end it with the quote it starts with"
        }
        return message
    }
}
