import TaskWidgetCore

/// A user's template as the checks made around the Mustache parser read it: its tags, as
/// swift-mustache finds them (following set-delimiter tags, `{{=<% %>=}}`), and errors that say
/// where in the file they are.
struct TemplateText {
    /// One tag: `{{#top}}` has the sigil `#` and the content `top`.
    struct Tag {
        /// `#`, `^`, `/`, `{`, `&`, `!`, `=`, `>`, `<`, `$`, `%`, or `nil` for a plain `{{name}}`.
        var sigil: Character?
        /// What follows the sigil, up to the closing delimiter.
        var content: ArraySlice<Character>
        /// Where the tag's opening delimiter starts.
        var start: Int
        /// Just past its closing delimiter.
        var end: Int
        /// Where ``content`` starts.
        var contentStart: Int { content.startIndex }
    }

    let characters: [Character]
    let source: String

    init(_ text: String, source: String) {
        self.characters = Array(text)
        self.source = source
    }

    /// `badTemplate`: `template SOURCE:LINE:COLUMN: PROBLEM`, for the character at `offset`.
    func error(at offset: Int, _ problem: String) -> TaskWidgetError {
        let before = characters[..<min(offset, characters.count)]
        let line = before.count(where: \.isNewline) + 1
        let column = offset - (before.lastIndex(where: \.isNewline) ?? -1)
        return Self.error(source: source, line: line, column: column, problem)
    }

    /// `badTemplate`: `template SOURCE:LINE:COLUMN: PROBLEM` (lines and columns count from 1).
    static func error(source: String, line: Int, column: Int, _ problem: String) -> TaskWidgetError {
        TaskWidgetError(.badTemplate, "template \(source):\(line):\(column): \(problem)", context: "template \(source):\(line):\(column)")
    }

    /// Calls `visit` with each tag in order. A tag without its closing delimiter ends the scan (the
    /// parser reports it); a malformed set-delimiter tag is an error.
    func forEachTag(_ visit: (Tag) throws -> Void) throws {
        var (open, close): ([Character], [Character]) = (["{", "{"], ["}", "}"])
        var index = 0
        func starts(_ delimiter: [Character], at position: Int) -> Bool {
            position + delimiter.count <= characters.count
                && characters[position..<position + delimiter.count].elementsEqual(delimiter)
        }
        while index < characters.count {
            guard starts(open, at: index) else {
                index += 1
                continue
            }
            let bodyStart = index + open.count
            guard let bodyEnd = (bodyStart..<characters.count).first(where: { starts(close, at: $0) }) else { return }
            let body = characters[bodyStart..<bodyEnd]
            var next = bodyEnd + close.count
            let sigil = body.first.flatMap { "#^/{&!=><$%".contains($0) ? $0 : nil }
            var content = sigil == nil ? body : body.dropFirst()
            switch sigil {
            case "=":
                // `=START END=`: the delimiters of the tags that follow.
                let delimiters = content.dropLast().split(whereSeparator: \.isWhitespace)
                guard body.count > 2, body.last == "=", delimiters.count == 2 else {
                    throw error(at: index, "a set-delimiter tag is malformed: fix the template")
                }
                (open, close) = (Array(delimiters[0]), Array(delimiters[1]))
            case "{":
                // `{{{name}}}`: the third brace closes after the delimiter, or before another one.
                if content.last == "}" {
                    content = content.dropLast()
                } else if next < characters.count, characters[next] == "}" {
                    next += 1
                }
            default: break
            }
            try visit(Tag(sigil: sigil, content: content, start: index, end: next))
            index = next
        }
    }
}
