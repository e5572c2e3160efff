import TaskWidgetCore

/// Checks, when a template is loaded, that every name it uses is one its context has (SPEC §6),
/// so that a typo is refused with its line and column instead of rendering blank:
/// `template waybar.mustache:1:12: unknown name “cuonts.today”: did you mean “counts.dueToday”?`
///
/// Names are looked up as swift-mustache looks them up: in the object of each section open around
/// the tag, innermost first (`{{#top}}{{title}} of {{open}}{{/top}}`), a dotted name from its first
/// part (`counts.overdue`), a name that starts with a dot in the innermost object only.
enum TemplateNames {
    /// The transforms of swift-mustache (`{{uppercased(title)}}`, `{{^last()}}` in a list).
    static let transforms: Set<String> = [
        "capitalized", "count", "empty", "enumerated", "equalzero", "even", "first", "index", "last", "lowercased",
        "minusone", "odd", "plusone", "reversed", "sorted", "uppercased",
    ]

    static func check(_ text: TemplateText, names root: [String: ContextShape]) throws {
        // The names of each object open around the current tag, outermost first, and the name of
        // each section open (beside the root's `nil`).
        var scopes = [root]
        var sections: [String?] = [nil]
        try text.forEachTag { tag in
            switch tag.sigil {
            case "!", "=", "%": return
            case ">", "<":
                throw text.error(at: tag.start, "partials ({{>name}}, {{<name}}) are not supported: put their text in the template")
            case "/":
                if scopes.count > 1 {
                    scopes.removeLast()
                    sections.removeLast()
                }
                return
            case "$":
                // A block: its default text sees what the tag sees.
                scopes.append(scopes[scopes.count - 1])
                sections.append(nil)
                return
            default: break
            }
            let shape = try self.shape(of: tag, in: scopes, text: text)
            let name = String(tag.content).trimmingWhitespace
            switch tag.sigil {
            case "#":
                // The list again for each of its items: eight deep, a line took 15 s and 490 MB
                // (helper-122).
                if case .list = shape, sections.contains(name) {
                    throw text.error(
                        at: tag.start,
                        "{{#\(name.sanitizedForMessage)}} inside {{#\(name.sanitizedForMessage)}} goes over the whole list again for each of its items: close the first one before")
                }
                scopes.append(names(inside: shape))
                sections.append(name)
            case "^":
                scopes.append(scopes[scopes.count - 1])
                sections.append(nil)
            default:
                // A list or an object shown as a value printed Swift's description of it, or
                // nothing (helper-122). `.` is what the section goes over, shown as it is.
                guard name != "." else { break }
                switch shape {
                case .list: throw text.error(at: tag.start, "“\(name.sanitizedForMessage)” is a list: go over it with a section, {{#\(name.sanitizedForMessage)}}…{{/\(name.sanitizedForMessage)}}")
                case .object: throw text.error(at: tag.start, "“\(name.sanitizedForMessage)” is an object: show one of its names ({{\(name.sanitizedForMessage).NAME}}), or open it as a section")
                case .value: break
                }
            }
        }
    }

    /// What the name of `tag` holds, after its transforms (`first(top)` is a task).
    private static func shape(of tag: TemplateText.Tag, in scopes: [[String: ContextShape]], text: TemplateText) throws -> ContextShape {
        let leadingSpace = tag.content.prefix(while: \.isWhitespace).count
        let expression = String(tag.content.dropFirst(leadingSpace)).trimmingWhitespace
        // `outer(inner(name))`: the transforms outermost first, then the name.
        let parts = expression.split(separator: "(", omittingEmptySubsequences: false)
        let transforms = parts.dropLast().map(String.init)
        let name = String(parts[parts.count - 1].prefix { $0 != ")" })
        let nameStart = tag.contentStart + leadingSpace + transforms.reduce(0) { $0 + $1.count + 1 }
        if let unknown = transforms.first(where: { !Self.transforms.contains($0) }) {
            throw text.error(
                at: nameStart - unknown.count - 1,
                "unknown transform “\(unknown)”: the transforms are \(Self.transforms.sorted().joined(separator: ", ")): fix the template")
        }
        // `.` is the current object; a transform without a name applies to the list being iterated.
        if name == "." || (name.isEmpty && !transforms.isEmpty) { return transforms.isEmpty ? .object(scopes[scopes.count - 1]) : .value }
        let path = name.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        let searched = name.hasPrefix(".") ? [scopes[scopes.count - 1]] : scopes.reversed()
        let components = name.hasPrefix(".") ? Array(path.dropFirst()) : path
        guard let shape = searched.lazy.compactMap({ resolve(components, in: $0) }).first else {
            let dot = name.hasPrefix(".") ? "." : ""
            let advice = suggestion(for: components, in: searched).map { ": did you mean “\(dot)\($0)”?" }
                ?? listHolding(components, in: scopes[scopes.count - 1]).map {
                    ": it is a name of each of “\($0)”: put it inside {{#\($0)}}…{{/\($0)}}"
                }
                ?? ((dot.isEmpty ? ": the entry has no such name, nor do the convenience names" : ": the section's object has no such name")
                    + ": fix the template")
            throw text.error(at: nameStart, "unknown name “\(name)”" + advice)
        }
        return transforms.reversed().reduce(shape) { shape, transform in
            switch (shape, transform) {
            case (.list(let element), "first"), (.list(let element), "last"): element
            case (.list, "reversed"), (.list, "sorted"): shape
            default: .value
            }
        }
    }

    /// The list of `names` whose items have the name `components` (`items`, inside `{{#habits}}`,
    /// for `name`: the form of the habits before they became an object).
    private static func listHolding(_ components: [String], in names: [String: ContextShape]) -> String? {
        names.keys.sorted().first { key in
            guard case .list(.object(let fields)) = names[key] else { return false }
            return resolve(components, in: fields) != nil
        }
    }

    private static func resolve(_ components: [String], in names: [String: ContextShape]) -> ContextShape? {
        var shape = ContextShape.object(names)
        for component in components {
            guard case .object(let names) = shape, let next = names[component] else { return nil }
            shape = next
        }
        return shape
    }

    /// The names seen inside a section over a value of `shape`: an object's, or each element's.
    private static func names(inside shape: ContextShape) -> [String: ContextShape] {
        switch shape {
        case .object(let names), .list(.object(let names)): names
        default: [:]
        }
    }

    /// The known name closest to `components`, part by part (`cuonts.today` → `counts.dueToday`),
    /// when each part is close enough to one to be a typo of it.
    private static func suggestion(for components: [String], in scopes: [[String: ContextShape]]) -> String? {
        var names = scopes.reduce(into: [String: ContextShape]()) { names, scope in names.merge(scope) { inner, _ in inner } }
        var guessed: [String] = []
        for component in components {
            let typed = component.lowercased()
            let candidates = names.keys.filter { name in
                let known = name.lowercased()
                return editDistance(typed, known) <= max(1, typed.count / 3) || (typed.count >= 3 && known.contains(typed))
            }
            guard let best = candidates.min(by: { (editDistance(typed, $0.lowercased()), $0) < (editDistance(typed, $1.lowercased()), $1) })
            else { return nil }
            guessed.append(best)
            if case .object(let inner) = names[best] { names = inner } else { names = [:] }
        }
        return guessed == components ? nil : guessed.joined(separator: ".")
    }

    /// Edits (insertions, deletions, substitutions, swaps of neighbours) that turn `a` into `b`.
    private static func editDistance(_ a: String, _ b: String) -> Int {
        let (a, b) = (Array(a), Array(b))
        guard !a.isEmpty, !b.isEmpty else { return max(a.count, b.count) }
        var rows = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { rows[i][0] = i }
        for j in 0...b.count { rows[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                rows[i][j] = min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { rows[i][j] = min(rows[i][j], rows[i - 2][j - 2] + 1) }
            }
        }
        return rows[a.count][b.count]
    }
}
