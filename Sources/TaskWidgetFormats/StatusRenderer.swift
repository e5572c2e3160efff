public import Foundation
import Mustache
public import TaskWidgetCore
import TaskWidgetTemplates

/// Renders timeline entries as one line of a status format from a Mustache template (SPEC §6).
///
/// ```swift
/// let renderer = try StatusRenderer(format: .waybar, template: .resolve(format: .waybar, path: nil, environment: env))
/// print(try renderer.line(for: entry, timeZone: zone, now: now))
/// ```
public struct StatusRenderer: Sendable {
    /// A template's text and where it came from (for error messages).
    public struct Template: Sendable {
        public var text: String
        public var source: String
        /// A default compiled into taskwidget: known to be good, so not checked again at every run.
        var isBuiltIn = false

        /// A template given as text; `source` names it in error messages.
        public init(text: String, source: String) {
            self.text = text
            self.source = source
        }

        init(text: String, source: String, isBuiltIn: Bool) {
            self.text = text
            self.source = source
            self.isBuiltIn = isBuiltIn
        }

        /// `--template FILE`, else `$XDG_CONFIG_HOME/taskwidget/templates/<format>.mustache`
        /// (`~/.config/…`), else the default compiled into taskwidget.
        public static func resolve(format: StatusFormat, path: String?, environment: [String: String]) throws -> Template {
            if let path { return try read(try PathText.expandingHome(path, in: "--template", environment: environment)) }
            if let configHome = XDGPaths(environment: environment).configHome {
                let userPath = XDGPaths.taskwidgetFolder(in: configHome) + "/templates/\(format.rawValue).mustache"
                if FileManager.default.fileExists(atPath: userPath) { return try read(userPath) }
            }
            return Template(
                text: DefaultTemplates.text(for: format.rawValue)!, source: "the default \(format.rawValue) template", isBuiltIn: true)
        }

        /// The template at `path`, without the byte order mark an editor may put first: it would
        /// begin every line (and make a JSON line invalid).
        private static func read(_ path: String) throws -> Template {
            let (data, status) = try InputFile.readWithStatus(path, named: "the template \(path)", limit: 4 << 20) {
                TaskWidgetError(.badTemplate, "the template \(path) holds more than 4 MiB: a status line's template is a few lines", context: "template")
            }
            // Its text reaches the bar as it is: tmux runs a `#(…)` of it, polybar a `%{A:…:}`.
            if path != "-" {
                try InputFile.refuseIfOthersCanChange(
                    path, status: status, why: "its text reaches the bar as it is, and tmux or polybar run the commands it may hold",
                    code: .badTemplate, context: "template")
            }
            guard let text = String(validating: data, as: UTF8.self) else {
                throw TaskWidgetError(.badTemplate, "the template \(path) is not UTF-8 text: save it as UTF-8", context: "template not UTF-8")
            }
            return Template(text: text.first == "\u{FEFF}" ? String(text.dropFirst()) : text, source: path)
        }
    }

    public let format: StatusFormat
    private let template: MustacheTemplate
    private let source: String
    /// The template's text, for an error's hint about values put in unescaped.
    private let text: String

    /// Parses the template; a syntax error, or a name the context does not have (SPEC §6), names
    /// the file, line and column.
    public init(format: StatusFormat, template: Template) throws {
        HostEscaping.registerContentTypes
        self.format = format
        self.source = template.source
        self.text = template.text
        // The defaults are known to be good: they are not scanned again at every run.
        let text = template.isBuiltIn ? nil : TemplateText(template.text, source: template.source)
        if let text {
            try Self.checkNesting(of: text)
            try Self.checkContentType(of: text, format: format)
            try Self.checkHostSign(of: text, format: format)
        }
        do {
            // Every `{{value}}` is escaped for the host by the format's content type.
            self.template = try MustacheTemplate(string: "{{% CONTENT_TYPE: \(format.contentTypeName)}}\n" + template.text)
        } catch let error as MustacheTemplate.ParserError {
            // The parser does not say which names differ (helper-110).
            if case .sectionCloseNameIncorrect? = error.error as? MustacheTemplate.Error, let text, let (close, opened) = try Self.firstMisnamedClose(in: text) {
                throw text.error(at: close.start, "{{/\(close.name)}} closes the section {{\(opened)}}: give it that name, {{/\(opened.dropFirst())}}")
            }
            // A name with a letter the parser does not take (`{{summäry}}`, `{{sum mary}}`) is
            // "not finished" to it: it is an unknown name, with the one meant (helper-169).
            if case .unfinishedName? = error.error as? MustacheTemplate.Error, let text {
                try TemplateNames.check(text, names: StatusContext.fields.mapValues(\.shape))
            }
            throw TemplateText.error(
                source: template.source, line: error.context.lineNumber - 1, column: error.context.columnNumber,
                "\(Self.describe(error.error)): fix the template")
        }
        if let text { try TemplateNames.check(text, names: StatusContext.fields.mapValues(\.shape)) }
    }

    /// The offset of a `]` or `}` that follows a comma in `json` (outside strings), which JSON
    /// forbids; `nil` when there is none.
    static func trailingComma(in json: Data) -> Int? {
        json.withUnsafeBytes { trailingComma(in: $0) }
    }

    private static func trailingComma(in json: UnsafeRawBufferPointer) -> Int? {
        var (inString, escaped, afterComma) = (false, false, false)
        for (offset, byte) in json.enumerated() {
            if inString {
                if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): (inString, afterComma) = (true, false)
            case UInt8(ascii: ","): afterComma = true
            case UInt8(ascii: "]"), UInt8(ascii: "}"): if afterComma { return offset }
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"): break
            default: afterComma = false
            }
        }
        return nil
    }

    /// How deep sections (`{{#…}}`, `{{^…}}`, `{{$…}}`, `{{<…}}`) and transforms (`(` in a name) may
    /// nest. The Mustache parser recurses once per level with a frame of kilobytes, so a template
    /// nested a few hundred levels deep overflows the stack; a status line needs a handful.
    public static let maximumNesting = 16

    /// Throws the usage error the parser would have given if it did not crash: where the template
    /// nests deeper than ``maximumNesting``; and where a section is closed that is not open, which
    /// the parser words as a misnamed close. Reads tags as the parser does, and leaves every other
    /// mistake to the parser.
    /// Refuses a `{{% CONTENT_TYPE: …}}` tag that names another content type than the format's:
    /// swift-mustache's own TEXT and HTML, or another host's, escaped titles for another host or
    /// not at all (a title's `#{host}` ran in tmux: helper-122). A JSON format may switch to JSON
    /// escaping alone, as the default i3bar template does for `instance`, which is not shown.
    static func checkContentType(of text: TemplateText, format: StatusFormat) throws {
        let allowed = [format.contentTypeName] + (format.isJSON ? [StatusFormat.json.contentTypeName] : [])
        try text.forEachTag { tag in
            guard tag.sigil == "%" else { return }
            let setting = String(tag.content).split(separator: ":", maxSplits: 1).map { String($0).trimmingWhitespace }
            // An unknown name is the parser's error, which lists the known ones.
            let known = ["TEXT", "HTML"] + StatusFormat.allCases.map(\.contentTypeName)
            guard setting.count == 2, setting[0] == "CONTENT_TYPE", known.contains(setting[1]), !allowed.contains(setting[1]) else { return }
            throw text.error(
                at: tag.start,
                "{{% CONTENT_TYPE: \(setting[1].sanitizedForMessage)}} would escape titles for another host than \(format.rawValue), or not at all: leave the tag out (the format sets \(format.contentTypeName))")
        }
    }

    /// Refuses a tag right after tmux's `#` (an odd run of them: `##` is the sign) or polybar's
    /// `%` (any: polybar has no escape for it): a title there finishes the host's format, which no
    /// escaping inside the title can stop (`#{{title}}` with the title `[fg=red]` styled the bar,
    /// helper-139).
    static func checkHostSign(of text: TemplateText, format: StatusFormat) throws {
        let (sign, example, fix): (Character, String, String)
        switch format {
        case .tmux:
            (sign, example, fix) = (
                "#", "a title [fg=red] would style the bar, and one that starts with H would show the host name",
                "write ## for the sign itself, or put a space between"
            )
        case .polybar: (sign, example, fix) = ("%", "a title {F#f00} would color the bar", "put a space between (polybar has no escape for %)")
        default: return
        }
        // The signs right before each tag, counted across the tags that print nothing (a comment,
        // a set-delimiter tag), which `#{{! note }}{{title}}` put in between (helper-141).
        var (run, previousEnd, lastSign) = (0, 0, 0)
        try text.forEachTag { tag in
            let between = text.characters[previousEnd..<tag.start]
            let signs = between.reversed().prefix { $0 == sign }.count
            run = signs == between.count ? run + signs : signs
            if signs > 0 { lastSign = tag.start - 1 }
            previousEnd = tag.end
            guard tag.sigil != "!", tag.sigil != "=" else { return }
            defer { run = 0 }
            guard format == .polybar ? run > 0 : run % 2 == 1 else { return }
            let shown = "{{" + (tag.sigil.map(String.init) ?? "") + String(tag.content).trimmingWhitespace.sanitizedForMessage + "}}"
            throw text.error(at: lastSign, "the \(sign) right before \(shown) lets a title finish a \(format.rawValue) format (\(example)): \(fix)")
        }
    }

    static func checkNesting(of text: TemplateText) throws {
        var depth = 0
        try text.forEachTag { tag in
            switch tag.sigil {
            case "#", "^", "$", "<": depth += 1
            case "/":
                // The parser calls it closed "with another name" (helper-106).
                guard depth > 0 else {
                    let name = String(tag.content).trimmingWhitespace.sanitizedForMessage
                    throw text.error(at: tag.start, "{{/\(name)}} closes a section that is not open: remove it, or open the section with {{#\(name)}}")
                }
                depth -= 1
            default: break
            }
            if depth > maximumNesting || (tag.sigil != "!" && tag.content.count(where: { $0 == "(" }) > maximumNesting) {
                throw text.error(at: tag.start, "sections or transforms are nested more than \(maximumNesting) deep: fix the template")
            }
        }
    }

    /// The first `{{/name}}` whose name is not that of the section open there, and that section's
    /// opening tag's sigil and name (`#top`).
    static func firstMisnamedClose(in text: TemplateText) throws -> (close: (start: Int, name: String), opened: String)? {
        var open: [String] = []
        var found: (close: (start: Int, name: String), opened: String)?
        try text.forEachTag { tag in
            guard found == nil else { return }
            let name = String(tag.content).trimmingWhitespace
            switch tag.sigil {
            case "#", "^", "$", "<": open.append(String(tag.sigil!) + name)
            case "/":
                guard let last = open.popLast() else { return }
                if last.dropFirst() != name { found = ((tag.start, name.sanitizedForMessage), last.sanitizedForMessage) }
            default: break
            }
        }
        return found
    }

    private static func describe(_ error: any Error) -> String {
        switch error as? MustacheTemplate.Error {
        case .expectedSectionEnd: "a section is never closed ({{/name}} is missing)"
        case .sectionCloseNameIncorrect: "a section is closed with another name than it was opened with"
        case .unfinishedName: "a tag is not finished (}} is missing)"
        case .invalidSetDelimiter: "a set-delimiter tag is malformed"
        case .invalidConfigVariableSyntax: "a {{% …}} tag is malformed (taskwidget sets the content type itself: leave it out)"
        // Its value may be a typo of a content type the docs name (`TASKWIDGET_JSN`, helper-110).
        case .unrecognisedConfigVariable:
            "a {{% …}} tag names an unknown setting: the content types are "
                + StatusFormat.allCases.map(\.contentTypeName).joined(separator: ", ") + " (or leave the tag out: each format sets its own)"
        case .transformAppliedToInheritanceSection: "a transform is applied to an inheritance section ({{<…}} or {{$…}})"
        case .illegalTokenInsideInheritSection, .textInsideInheritSection:
            "a partial's inheritance section ({{<…}}) holds something other than blocks ({{$…}})"
        // The parser's own error, which is not public: the text ended inside a tag.
        default: "\(error)" == "overflow" ? "the template ends inside a tag (}} is missing)" : "the template cannot be read (\(error))"
        }
    }

    /// The characters a title is cut to when no `--max-width` is given.
    public static let defaultMaxWidth = 40

    /// One line for `entry`. `now` is the exact moment of a one-shot status (for "in 15 min");
    /// `nil` in watch mode. JSON formats are checked to parse; a broken user template is an error.
    public func line(for entry: TimelineEntry, timeZone: TimeZone, now: Instant?, maxWidth: Int = defaultMaxWidth) throws -> String {
        let context = StatusContext(entry: entry, timeZone: timeZone, now: now, maxWidth: maxWidth)
        var output = template.render(context.object)
        // One line: raw line breaks are layout in a JSON template, and separators elsewhere.
        if format.isJSON {
            // JSON strings hold no raw line breaks, so breaks and the indentation after them are layout.
            output = Self.joiningLines(output)
            // Data(buffer:) copies the bytes; Data(output.utf8) would first ask whether the view
            // conforms to ContiguousBytes, a walk over every conformance record of the program.
            let bytes = output.withUTF8 { Data(buffer: $0) }
            // One object: a bare value was "not valid JSON", and an i3bar array, which `status`
            // printed, became an array in an array under watch, which swaybar drew as nothing
            // (helper-122).
            guard bytes.first(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D }) == UInt8(ascii: "{") else {
                throw TaskWidgetError(
                    .badTemplate, "template \(source) renders no JSON object for \(format.rawValue): a line is one object, {…}: fix the template",
                    context: "template \(source), no object")
            }
            // Where the line it rendered stops being JSON (`around character 19`), never the line
            // itself, which holds titles. Foundation's parser takes a comma before `]` or `}`,
            // which bars' parsers refuse.
            var offset = Self.trailingComma(in: bytes)
            if offset == nil {
                do {
                    _ = try JSONSerialization.jsonObject(with: bytes)
                } catch {
                    offset = ((error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String)?.firstMatch(of: /character (\d+)/).flatMap { Int($0.output.1) } ?? -1
                }
            }
            if let offset {
                throw TaskWidgetError(
                    .badTemplate,
                    "template \(source) does not render valid JSON for \(format.rawValue)"
                        + (offset >= 0 ? " (the line it renders breaks at character \(offset + 1))" : "") + ": fix the template"
                        + (text.contains("{{{") || text.contains("{{&") ? " (a value in {{{…}}} is put in unescaped)" : ""),
                    context: "template \(source), no JSON" + (offset >= 0 ? " at character \(offset + 1)" : ""))
            }
        } else {
            output = output.split(whereSeparator: \.isNewline).map(String.init).joined(separator: " ")
            output = HostEscaping.plainLine(output)
        }
        // Spaces and tabs only: Foundation's `.whitespaces` holds U+200B, the zero-width space that
        // follows every `%` of a title in polybar's escaping, and would cut it off a title ending a line.
        // (Compared by scalar: `trimmingCharacters(in:)` builds a CharacterSet, a quarter as long as the rest.)
        let scalars = output.unicodeScalars
        let isContent = { (scalar: Unicode.Scalar) in scalar != " " && scalar != "\t" }
        guard let first = scalars.firstIndex(where: isContent), let last = scalars.lastIndex(where: isContent) else { return "" }
        return String(scalars[first...last])
    }

    /// `text` without its line breaks (LF, CR and CR LF), nor the spaces and tabs that begin each
    /// of its lines. Line breaks are found in the UTF-8 bytes, as they always end a character:
    /// splitting the characters took about 0.4 M instructions for the default waybar line.
    static func joiningLines(_ text: String) -> String {
        var joined = ""
        joined.reserveCapacity(text.utf8.count)
        for line in text.utf8.split(whereSeparator: { $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\r") }) {
            joined += Substring(line).drop(while: { $0 == " " || $0 == "\t" })
        }
        return joined
    }
}
