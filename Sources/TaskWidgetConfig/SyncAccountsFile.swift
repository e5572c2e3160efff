import Foundation
import TaskWidgetCore

/// Adds, replaces and removes `[sync.accounts.NAME]` tables in the user's `config.toml` without
/// rewriting the rest of it: `add` appends the table's text (or puts it in place of the account's
/// table), `remove` cuts exactly that table's lines, so the
/// user's comments, order and spelling stay. The result is parsed before it replaces the file, and
/// the file is replaced whole (``AtomicFile``), readable by its owner only (or stricter).
///
/// ```swift
/// try SyncAccountsFile.add(SyncAccount(name: "home", url: "https://dav.example.com/"), toConfigAt: path)
/// ```
public enum SyncAccountsFile {
    /// Appends the account's table. An account of that name already there is an error, unless
    /// `replacing`: then its table becomes the account's where it is, so that it keeps its place
    /// in the order (the first account receives new lists and Inbox tasks); its user, password
    /// and inbox stay as they were unless `account` gives them. Replacing an account that is not
    /// there is an error (a typo would add another).
    public static func add(_ account: SyncAccount, toConfigAt path: String, home: String? = nil, replacing: Bool = false) throws {
        let text = try currentText(path)
        let configuration = try Configuration.parse(text, path: path, home: home, using: .sync)
        if let existing = configuration.syncAccounts.first(where: { $0.name == account.name }) {
            guard replacing else {
                throw TaskWidgetError(
                    .nameTaken,
                    "\(path) already has an account “\(account.name)”: add --replace to change it where it is "
                        + "(it keeps its place in the order), or remove it first with `taskwidget sync account rm \(account.name)`")
            }
            var merged = account
            merged.user = account.user ?? existing.user
            if account.passwordCommand == nil && account.passwordFile == nil {
                (merged.passwordCommand, merged.passwordFile) = (existing.passwordCommand, existing.passwordFile)
            }
            merged.inbox = account.inbox ?? existing.inbox
            var lines = lines(of: text)
            let ending = carriageReturn(in: text)
            lines.replaceSubrange(
                try tableLines(named: account.name, in: lines, path: path),
                with: table(of: merged).dropLast().components(separatedBy: "\n").map { $0 + ending })
            try replace(path, with: lines.joined(separator: "\n"), home: home)
            return
        }
        if replacing {
            let names = configuration.syncAccounts.map(\.name)
            throw TaskWidgetError(
                .notFound,
                "there is no sync account “\(account.name.sanitizedForMessage)” to replace: "
                    + (names.isEmpty ? "there are none yet (leave out --replace to add it)" : "the accounts are \(names.joined(separator: ", "))"))
        }
        // In the file's line endings: CRLF ones were mixed with LF (helper-168).
        let newLine = carriageReturn(in: text) + "\n"
        var newText = text
        if !newText.isEmpty && newText.unicodeScalars.last != "\n" { newText += newLine }
        if !newText.isEmpty { newText += newLine }
        newText += table(of: account).replacingOccurrences(of: "\n", with: newLine)
        try replace(path, with: newText, home: home)
    }

    /// The account's table as `add` writes it, ending in a line break.
    private static func table(of account: SyncAccount) -> String {
        var table = "[sync.accounts.\(key(account.name))]\n"
        table += "url = \(quoted(account.url))\n"
        if let user = account.user { table += "user = \(quoted(user))\n" }
        if let command = account.passwordCommand { table += "password_command = \(quoted(command))\n" }
        if let file = account.passwordFile { table += "password_file = \(quoted(file))\n" }
        if let inbox = account.inbox { table += "inbox = \(quoted(inbox))\n" }
        return table
    }

    /// Removes the account's table: its header, its keys, and the blank line before it; comments
    /// after its last key (which may introduce the next table) stay. A table with a mistake of its
    /// own is removed too (the file is checked once it is gone).
    public static func remove(named name: String, fromConfigAt path: String, home: String? = nil) throws {
        let text = try currentText(path)
        var lines = lines(of: text)
        if !lines.contains(where: { headerPath($0) == ["sync", "accounts", name] }) {
            let configuration = try Configuration.parse(text, path: path, home: home, using: .sync)
            guard configuration.syncAccounts.contains(where: { $0.name == name }) else {
                let names = configuration.syncAccounts.map(\.name)
                throw TaskWidgetError(
                    .notFound,
                    names.isEmpty
                        ? "there is no sync account “\(name.sanitizedForMessage)”: there are none yet"
                        : "there is no sync account “\(name.sanitizedForMessage)”: the accounts are \(names.joined(separator: ", "))")
            }
        }
        let table = try tableLines(named: name, in: lines, path: path)
        var start = table.lowerBound
        if start > 0 && lines[start - 1].trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { start -= 1 }
        lines.removeSubrange(start...table.upperBound)
        // Only the file's syntax is checked: a mistake in another account's table was there
        // before, and with two such tables neither could be removed.
        try replace(path, with: lines.joined(separator: "\n"), home: home, checking: [])
    }

    /// The lines of `text`, split at each line feed; a carriage return before it stays on its
    /// line, so that a file with CRLF line endings is written back with them. (Swift takes CRLF
    /// for one character: split by characters, such a file was one line, and every account but
    /// the first was "not a table of its own", helper-168.)
    private static func lines(of text: String) -> [String] {
        text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false).map { String(String.UnicodeScalarView($0)) }
    }

    /// `"\r"` for a file whose lines end in CRLF, else `""`.
    private static func carriageReturn(in text: String) -> String {
        text.contains("\r\n") ? "\r" : ""
    }

    /// The lines of the account's table, from its header to its last key, with its sub-tables
    /// (`[sync.accounts.home.extra]`: left behind, it made the file one no command could read)
    /// but not the comments after its last key (which may introduce the next table).
    private static func tableLines(named name: String, in lines: [String], path: String) throws -> ClosedRange<Int> {
        let accountPath = ["sync", "accounts", name]
        let headers = lines.indices.filter { headerPath(lines[$0]) == accountPath }
        guard let header = headers.first else {
            throw TaskWidgetError(
                .badConfig, "\(path): the account “\(name.sanitizedForMessage)” is not a [sync.accounts.NAME] table of its own: edit the file by hand")
        }
        // TOML refuses a table defined twice; only its first copy went (helper-168).
        guard headers.count == 1 else {
            throw TaskWidgetError(.badConfig, "\(path): the table [sync.accounts.\(key(name))] is in the file twice: fix the file by hand")
        }
        var end = header + 1
        var lastKey = header
        var inMultiline = false
        while end < lines.count {
            let line = lines[end].trimmingCharacters(in: .whitespacesAndNewlines)
            if !inMultiline && line.hasPrefix("[") {
                // A header: the account's sub-tables (and arrays of them) are its own, any other ends it.
                let path = headerPath(line) ?? headerPath(String(line.dropFirst()))
                guard let path, path.count > accountPath.count, Array(path.prefix(accountPath.count)) == accountPath else { break }
                lastKey = end
                end += 1
                continue
            }
            if !inMultiline && !line.isEmpty && !line.hasPrefix("#") { lastKey = end }
            if inMultiline { lastKey = end }
            // A `"""` or `'''` string spans lines until its closing delimiter.
            for delimiter in ["\"\"\"", "'''"] where line.components(separatedBy: delimiter).count % 2 == 0 {
                inMultiline.toggle()
            }
            end += 1
        }
        return header...lastKey
    }

    /// The table path of a header line (`[sync.accounts."my home"]` → sync, accounts, my home),
    /// or `nil` for any other line.
    static func headerPath(_ line: String) -> [String]? {
        var text = Substring(line.trimmingCharacters(in: .whitespaces))
        guard text.hasPrefix("["), !text.hasPrefix("[[") else { return nil }
        text = text.dropFirst()
        var parts: [String] = []
        var current = ""
        var quote: Character?
        while let character = text.first {
            text = text.dropFirst()
            if let open = quote {
                if character == open {
                    quote = nil
                } else if character == "\\" && open == "\"", let next = text.first {
                    current.append(next)
                    text = text.dropFirst()
                } else {
                    current.append(character)
                }
            } else if character == "\"" || character == "'" {
                quote = character
            } else if character == "." {
                parts.append(current.trimmingCharacters(in: .whitespaces))
                current = ""
            } else if character == "]" {
                parts.append(current.trimmingCharacters(in: .whitespaces))
                return parts
            } else {
                current.append(character)
            }
        }
        return nil
    }

    /// A TOML key: bare when it can be, else a basic string.
    static func key(_ name: String) -> String {
        let bare = !name.isEmpty && name.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-" || $0 == "_") }
        return bare ? name : quoted(name)
    }

    /// A TOML basic string with `"`, `\` and control characters escaped.
    static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\t": result += "\\t"
            case "\r": result += "\\r"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7f {
                    result += String(format: "\\u%04X", scalar.value)
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }

    /// The file's text, checked as ``Configuration/load(path:environment:)`` checks it: an account
    /// added to a file others may change would make their edits trusted once it is made private.
    private static func currentText(_ path: String) throws -> String {
        try Configuration.text(at: path) ?? ""
    }

    /// Checks the new text (its syntax, `store`, and the tables of `sections`), then writes it in
    /// place of the file (creating its folder, 0700).
    private static func replace(_ path: String, with text: String, home: String?, checking sections: Configuration.Sections = .sync) throws {
        _ = try Configuration.parse(text, path: path, home: home, using: sections)
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent().path
        try AtomicFile.makeFolder(folder, permissions: 0o700)
        // Private, or stricter if it was: it names commands and where passwords go. (The mode was
        // copied from the path itself, which for a link is 0777, and chmod then opened the file
        // the link names to everyone.)
        try AtomicFile.write(Data(text.utf8), to: url, permissions: 0o600)
        SavedChanges.note()
    }
}
