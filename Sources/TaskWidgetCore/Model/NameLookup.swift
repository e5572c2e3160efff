import Foundation

/// How lists and habits are found by name: case-insensitively (Unicode case folding, so “Ärger”
/// and “ärger”, “Straße” and “STRASSE” are one name), ignoring surrounding spaces, control
/// characters and invisible ones. The one place for that rule.
public enum NameLookup {
    /// Whether two names are one. Control characters do not count: no command writes them, and
    /// no terminal shows them, so a name written into the store by hand is found as `ls` shows it.
    public static func isSame(_ lhs: String, _ rhs: String) -> Bool {
        key(lhs) == key(rhs)
    }

    /// The form names are compared in: without control characters and Unicode's invisible
    /// (default-ignorable) ones, such as zero-width spaces and joiners, the BOM and soft hyphens,
    /// nor surrounding spaces; case-folded. A name that differed from another in these only was
    /// a second list that `list ls` showed the same, and `STRASSE` beside `Straße` or `ΟΔΌΣ` beside
    /// `Οδός` were two (helper-128). (A dotted capital İ stays apart from i, as Unicode folds it.)
    static func key(_ name: String) -> String {
        let hidden = { (scalar: Unicode.Scalar) in scalar.isControlOrLineBreak || scalar.properties.isDefaultIgnorableCodePoint }
        let shown = name.unicodeScalars.contains(where: hidden) ? String(String.UnicodeScalarView(name.unicodeScalars.filter { !hidden($0) })) : name
        return shown.trimmingWhitespace.folding(options: [.caseInsensitive], locale: nil)
    }

    /// The item called `name`; an unknown name is a ``TaskWidgetError/Code/notFound`` error that
    /// suggests the closest name there is (a typo such as “Wrok” for “Work”), or lists the names.
    /// `kind` is `list` or `habit`, as in `taskwidget list add NAME`; `creation` says how to make
    /// one (by default that command). Without `namingOthers`, the error names no other item.
    ///
    /// ```swift
    /// try NameLookup.find("Wrok", in: lists, named: \.name, kind: "list")
    /// // no list is named “Wrok”: did you mean “Work”? (create one with `taskwidget list add NAME`)
    /// ```
    public static func find<Item>(
        _ name: String, in items: [Item], named: (Item) -> String, kind: String, creation: String? = nil, namingOthers: Bool = true
    ) throws -> Item {
        // The name exactly as typed first: sync accounts are named case-sensitively, and `home`
        // beside `Home` is two accounts (helper-97). Then in any case, and then as `ls` shows it:
        // `Work` beside a hand-written `Wo\u{7}rk` is that one.
        if let item = items.first(where: { named($0) == name }) { return item }
        // `--list ""` (a variable not set) named no list “” (helper-119).
        guard !name.removingControlCharacters.trimmingWhitespace.isEmpty else {
            // The Inbox is named as a list where one is asked (helper-120).
            let inbox = kind == "list" ? ", or inbox for the Inbox" : ""
            throw TaskWidgetError(
                .invalidInput, "the \(kind) name is empty: give one\(inbox) (`taskwidget \(kind) ls` shows them)", context: "\(kind) name empty")
        }
        let typed = name.trimmingWhitespace.lowercased()
        var matches = items.filter { named($0).trimmingWhitespace.lowercased() == typed }
        if matches.isEmpty { matches = items.filter { isSame(named($0), name) } }
        if matches.count == 1 { return matches[0] }
        let names = items.map(named)
        guard matches.isEmpty || !namingOthers else {
            // `HOME` beside accounts `Home` and `home`: neither is more meant than the other (the
            // first was taken, helper-102).
            let quoted = matches.prefix(namesListed).map { "“\(named($0).sanitizedForMessage)”" }
            let candidates = quoted.dropLast().joined(separator: ", ") + " and " + quoted.last!
            throw TaskWidgetError(
                .notFound, "“\(name.sanitizedForMessage)” matches the \(kind)s \(candidates), which differ in case only: give the name exactly as written",
                context: "\(kind) name is ambiguous: `taskwidget \(kind) ls` shows the names")
        }
        // Each cut as any text a message quotes: eight names of 1000 characters made a line of 8 KB (helper-87).
        // Not "it is gone": a list a view names may never have been in this store (helper-170).
        let known =
            if !namingOthers {
                "this store has none of that name"
            } else if let closest = closest(to: name, among: names) ?? beginning(with: name, among: names) {
                "did you mean “\(closest.sanitizedForMessage)”?"
            } else if names.isEmpty {
                "there are no \(kind)s yet"
            } else if names.count <= namesListed {
                "the \(kind)s are " + names.map(\.sanitizedForMessage).joined(separator: ", ")
            } else {
                // One line stays readable: the rest are in `ls`.
                "the \(kind)s include " + names.prefix(namesListed).map(\.sanitizedForMessage).joined(separator: ", ")
                    + " and \(names.count - namesListed) more, which `taskwidget \(kind) ls` shows"
            }
        throw TaskWidgetError(
            .notFound, "no \(kind) is named “\(name.sanitizedForMessage)”: \(known) (\(creation ?? "create one with `taskwidget \(kind) add NAME`"))",
            // Logs carry no names: the context says where to look.
            context: "\(kind) not found: `taskwidget \(kind) ls` shows the names")
    }

    /// The most names an error lists.
    static let namesListed = 8

    /// The name in `names` nearest to `name` in edit distance (case-insensitive; swapping two
    /// neighbouring letters is one edit), if it is near enough to be a typo: at most one edit in
    /// three letters. Names with different numbers (“Project 2” beside “Project 1”, “2025” beside
    /// “2026”, “Sprnt 13” beside “Sprint 12”) are no typo of each other: a number is not mistyped
    /// as one. Of equally near names none is meant (nil), unless `preferringLettersKept`: then
    /// one that holds every letter typed, in order, is (a letter left out of an option's name:
    /// `--listn` is `--listen`, which takes the address it is given, rather than `--list`).
    public static func closest(to name: String, among names: [String], preferringLettersKept: Bool = false) -> String? {
        let typed = Array(withoutAccents(name.trimmingWhitespace))
        var nearest: (name: String, letters: [Character], distance: Int, holdsTyped: Bool)?
        var isTied = false
        for candidate in names {
            let letters = Array(withoutAccents(candidate))
            guard letters == typed || numbers(in: letters) == numbers(in: typed) else { continue }
            // Never every letter: one character is a typo of any other (`車` of `家`, helper-174).
            let allowed = min(max(1, max(typed.count, letters.count) / 3), max(typed.count, letters.count) - 1)
            // The distance is at least the difference in length: skip the long computation then.
            guard abs(typed.count - letters.count) <= allowed else { continue }
            let distance = editDistance(typed, letters)
            guard distance <= allowed else { continue }
            let holdsTyped = preferringLettersKept && typed.isSubsequence(of: letters)
            if distance < nearest?.distance ?? .max || (distance == nearest?.distance && holdsTyped && !nearest!.holdsTyped) {
                nearest = (candidate, letters, distance, holdsTyped)
                isTied = false
            } else if distance == nearest?.distance, holdsTyped == nearest?.holdsTyped, letters != nearest?.letters {
                isTied = true
            }
        }
        // Two as near (`Work A` and `Work B` for `Work`): neither is more meant (helper-174).
        return isTied ? nil : nearest?.name
    }

    /// `text` in lower case and without its accents, for suggestions: “ete” is a typo of “été”,
    /// “Zurich” of “Zürich” (helper-169).
    private static func withoutAccents(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
    }

    /// The numbers a name holds, in order, by value (“List 02” holds the 2 of “List 2”).
    private static func numbers(in name: [Character]) -> [Int] {
        var numbers: [Int] = []
        var current: Int?
        for character in name {
            if let digit = character.wholeNumberValue {
                current = (current ?? 0).multipliedReportingOverflow(by: 10).partialValue &+ digit
            } else if let number = current {
                numbers.append(number)
                current = nil
            }
        }
        return numbers + (current.map { [$0] } ?? [])
    }

    /// The one name in `names` that begins with `name` or holds it as a word (“side” for “Side
    /// project”), accents aside, when only one does and `name` has three letters or more (two of
    /// a script whose letters are words or syllables, as Chinese and Japanese, where a part
    /// anywhere counts: “水を” or “飲む” for “水を飲む”, helper-169): part of a longer name, typed alone.
    static func beginning(with name: String, among names: [String]) -> String? {
        let typed = withoutAccents(key(name))
        let isWide = typed.unicodeScalars.allSatisfy { $0.value >= 0x2E80 }
        guard typed.count >= (isWide ? 2 : 3) else { return nil }
        let matches = names.filter { candidate in
            let candidate = withoutAccents(key(candidate))
            // Words of such scripts are not set apart by spaces: a part anywhere is one.
            return candidate.hasPrefix(typed) || candidate.split(separator: " ").contains { $0 == typed } || (isWide && candidate.contains(typed))
        }
        return matches.count == 1 ? matches[0] : nil
    }

    /// The optimal string alignment distance: insertions, deletions, substitutions and swaps of
    /// neighbours, each one edit.
    private static func editDistance(_ lhs: [Character], _ rhs: [Character]) -> Int {
        guard !lhs.isEmpty, !rhs.isEmpty else { return max(lhs.count, rhs.count) }
        // rows[i][j]: the distance between the first i letters of lhs and the first j of rhs.
        var rows = [[Int]](repeating: [Int](repeating: 0, count: rhs.count + 1), count: lhs.count + 1)
        for i in 0...lhs.count { rows[i][0] = i }
        for j in 0...rhs.count { rows[0][j] = j }
        for i in 1...lhs.count {
            for j in 1...rhs.count {
                let substitution = rows[i - 1][j - 1] + (lhs[i - 1] == rhs[j - 1] ? 0 : 1)
                rows[i][j] = min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, substitution)
                if i > 1, j > 1, lhs[i - 1] == rhs[j - 2], lhs[i - 2] == rhs[j - 1] {
                    rows[i][j] = min(rows[i][j], rows[i - 2][j - 2] + 1)
                }
            }
        }
        return rows[lhs.count][rhs.count]
    }
}

extension Array where Element == Character {
    /// Whether every letter of this word is in `other`, in order (`listn` in `listen`).
    fileprivate func isSubsequence(of other: [Character]) -> Bool {
        var remaining = self[...]
        for letter in other where letter == remaining.first { remaining = remaining.dropFirst() }
        return remaining.isEmpty
    }
}
