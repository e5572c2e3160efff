public import Foundation

/// The whole store as one JSON document (`export` / `import`): a lossless round trip.
public struct StoreExport: Codable, Sendable, Equatable {
    /// A habit with its completions.
    public struct HabitRecord: Codable, Sendable, Equatable {
        public var habit: Habit
        public var completions: [Completion]

        public init(habit: Habit, completions: [Completion]) {
            self.habit = habit
            self.completions = completions
        }
    }

    /// One day's record of a habit.
    public struct Completion: Codable, Sendable, Equatable {
        public var day: LocalDay
        public var status: HabitStatus

        public init(day: LocalDay, status: HabitStatus) {
            self.day = day
            self.status = status
        }
    }

    /// The format's name and version, checked on import.
    public static let currentSchema = "taskwidget.export/1"

    /// Whether `schema` is this format's of a later version (`taskwidget.export/2`).
    static func isNewer(_ schema: String) -> Bool {
        let prefix = "taskwidget.export/"
        guard schema.hasPrefix(prefix), let version = Int(schema.dropFirst(prefix.count)) else { return false }
        return version > 1
    }

    public var schema: String
    public var lists: [TaskList]
    public var tasks: [TaskItem]
    public var habits: [HabitRecord]

    public init(lists: [TaskList] = [], tasks: [TaskItem] = [], habits: [HabitRecord] = []) {
        self.schema = Self.currentSchema
        self.lists = lists
        self.tasks = tasks
        self.habits = habits
    }

    /// Pretty, key-sorted JSON with UTC instants (see ``InstantFormat``); an empty array is `[]`.
    public func jsonData() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return Self.compactingEmptyArrays(try encoder.encode(self))
    }

    /// Pretty-printed JSON `data` with each empty array as `[]`, where Foundation writes `[`, an
    /// empty line and `]`. JSON text holds raw line breaks only between tokens (a string escapes
    /// its own), so a `[` followed by spaces and line breaks, at least one, then `]` is an empty
    /// array and never text.
    static func compactingEmptyArrays(_ data: Data) -> Data {
        let (newline, space) = (UInt8(ascii: "\n"), UInt8(ascii: " "))
        // Over the raw bytes: through Data's own index, 100 000 tasks (30 MB) took 4 s.
        let bytes = [UInt8](data)
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            result.append(byte)
            index += 1
            guard byte == UInt8(ascii: "[") else { continue }
            var end = index
            while end < bytes.count, bytes[end] == newline || bytes[end] == space { end += 1 }
            if end < bytes.count, bytes[end] == UInt8(ascii: "]"), bytes[index..<end].contains(newline) { index = end }
        }
        return Data(result)
    }

    /// How deep arrays and objects may nest in an export file (an export nests 5 deep).
    static let maximumNesting = 64

    /// Reads an export; a malformed document is a ``TaskWidgetError/Code/badImport`` error naming the
    /// first bad field.
    ///
    /// The file must be UTF-8 (what `export` writes) and nest at most ``maximumNesting`` deep,
    /// checked before Foundation's decoder sees it: that decoder stops at 512 levels, but traps
    /// (SIGILL) when the 513th `[` is the last byte of its input, and it reads UTF-16 and UTF-32
    /// files as other bytes than the ones checked here.
    public static func decode(_ data: Data, source: String) throws -> StoreExport {
        guard data.contains(where: { !" \t\r\n".utf8.contains($0) }) else {
            throw TaskWidgetError(.badImport, "\(source) \(data.isEmpty ? "is empty" : "holds only blank space"): give a file that `taskwidget export` wrote")
        }
        // A store is the file people back up too (helper-101).
        if data.starts(with: Array("SQLite format 3\0".utf8)) {
            throw TaskWidgetError(
                .badImport, "\(source) is an SQLite database, such as a store, not an export: import a store with `taskwidget export --store FILE | taskwidget import -`")
        }
        // A compressed backup: it was "not UTF-8 text: save it as UTF-8" (helper-102).
        if let (format, command) = compression.first(where: { data.starts(with: $0.magic) }).map({ ($0.format, $0.command) }) {
            // A tar archive holds files, not the export (helper-110).
            let isArchive = [".tgz", ".tar.gz", ".tar.xz", ".txz", ".tar.zst", ".tar.bz2", ".tbz2"].contains { source.lowercased().hasSuffix($0) }
            let advice =
                isArchive
                ? "take the export out of the archive (tar xf \(source.shellQuoted)) and import that"
                : source == "standard input" ? "pipe it through `\(command)` first" : "import it with `\(command) \(source.shellQuoted) | taskwidget import -`"
            throw TaskWidgetError(.badImport, "\(source) is compressed with \(format): \(advice)")
        }
        if let bad = Self.firstByteNotUTF8(in: data) {
            // A file cut inside a character is cut short, as one cut between characters is; a
            // bad byte in 5 MB is found by its place (helper-114).
            if bad.isCutShort { throw TaskWidgetError(.badImport, "\(source) is not a taskwidget export: the JSON ends too soon: the file may be cut short") }
            let (line, column) = Self.lineAndColumn(ofOffset: bad.offset, in: data)
            throw TaskWidgetError(
                .badImport, "\(source) is not UTF-8 text (line \(line), column \(column)): save it as UTF-8, as `taskwidget export` writes it")
        }
        if let problem = structureProblem(data) {
            throw TaskWidgetError(.badImport, "\(source) is not a taskwidget export: \(problem)")
        }
        let decoder = JSONDecoder()
        let export: StoreExport
        do {
            export = try decoder.decode(StoreExport.self, from: data)
        } catch let error as DecodingError {
            // Another schema is said before what its fields lack: a newer format's fields are no
            // mistake to point at, and a timeline's JSON names its own schema (helper-101). Read
            // only now, so that a good file is parsed once (an export of 100 000 tasks is 30 MB).
            if let schema = (try? decoder.decode(SchemaOnly.self, from: data))?.schema { try refuseOther(schema, source: source) }
            throw TaskWidgetError(.badImport, "\(source) is not a taskwidget export: \(error.summary(of: data))")
        } catch {
            throw TaskWidgetError(.badImport, "\(source) is not valid JSON: check the file")
        }
        try refuseOther(export.schema, source: source)
        if let (path, key) = unknownField(in: data, decodedAs: export) {
            let advice =
                NameLookup.closest(to: key, among: fieldNames(at: path)).map { "did you mean “\($0)”?" }
                ?? "check its spelling against what `taskwidget export` writes"
            throw TaskWidgetError(
                .badImport, "\(source) is not a taskwidget export: \(path) has a field “\(key.sanitizedForMessage)” that an export does not have: \(advice)")
        }
        return export
    }

    /// The compressed formats a backup may be kept in: the bytes they start with, and the command
    /// that writes a file's contents to standard output.
    private static let compression: [(magic: [UInt8], format: String, command: String)] = [
        ([0x1F, 0x8B], "gzip", "gunzip -c"), ([0xFD, 0x37, 0x7A, 0x58, 0x5A, 0x00], "xz", "xz -dc"),
        ([0x28, 0xB5, 0x2F, 0xFD], "zstd", "zstd -dc"), (Array("BZh".utf8), "bzip2", "bzip2 -dc"),
    ]

    /// An export's `schema` alone, for a file that does not decode as an export.
    private struct SchemaOnly: Decodable {
        var schema: String?
    }

    /// Refuses a `schema` other than ``currentSchema``, with the advice that fits it.
    private static func refuseOther(_ schema: String, source: String) throws(TaskWidgetError) {
        guard schema != currentSchema else { return }
        throw TaskWidgetError(
            .badImport,
            "\(source) has schema “\(schema.sanitizedForMessage)”; this taskwidget reads \(currentSchema)"
                + (isNewer(schema) ? ": a newer taskwidget wrote it, upgrade taskwidget to import it" : ": give a file that `taskwidget export` wrote"))
    }

    /// The first field of `data` that `export`, decoded from it, does not hold: the decoder passes
    /// over names it does not know, and a misspelt `listID` put a task in the Inbox without a word.
    /// The decoded document, encoded again, has every field the format knows that is not null, so
    /// a name `data` has with a value that is not null and the encoding lacks is unknown. Returns
    /// where (`tasks[3]`) and the name.
    static func unknownField(in data: Data, decodedAs export: StoreExport) -> (path: String, key: String)? {
        // The encoding's layout does not matter here: compact is quicker than ``jsonData()``.
        guard let original = try? JSONSerialization.jsonObject(with: data),
            let known = try? JSONSerialization.jsonObject(with: JSONEncoder().encode(export))
        else { return nil }
        func search(_ original: Any, _ known: Any, path: String) -> (path: String, key: String)? {
            if let object = original as? [String: Any], let knownObject = known as? [String: Any] {
                for (key, value) in object.sorted(by: { $0.key < $1.key }) where !(value is NSNull) {
                    guard let knownValue = knownObject[key] else { return (path.isEmpty ? "the document" : path, key) }
                    if let found = search(value, knownValue, path: path.isEmpty ? key : "\(path).\(key)") { return found }
                }
            } else if let array = original as? [Any], let knownArray = known as? [Any] {
                for (index, (element, knownElement)) in zip(array, knownArray).enumerated() {
                    if let found = search(element, knownElement, path: "\(path)[\(index)]") { return found }
                }
            }
            return nil
        }
        return search(original, known, path: "")
    }

    /// The fields the object at `path` (as ``unknownField(in:decodedAs:)`` names it) may have: the
    /// stored properties of its type, whose names are its JSON keys (the coding is synthesized).
    static func fieldNames(at path: String) -> [String] {
        let instant = Instant(secondsSince1970: 0)
        let sample: Any =
            switch path {
            case "the document": StoreExport()
            case _ where path.hasPrefix("tasks[") && !path.contains("."): TaskItem(title: "", createdAt: instant)
            case _ where path.hasPrefix("lists[") && !path.contains("."): TaskList(name: "", createdAt: instant)
            case _ where path.hasSuffix(".habit"): Habit(name: "", icon: "", colorHex: "", createdAt: instant)
            case _ where path.hasSuffix("]") && path.contains(".completions["): Completion(day: LocalDay(year: 1970, month: 1, day: 1), status: .done)
            case _ where path.hasPrefix("habits[") && !path.contains("."): HabitRecord(habit: Habit(name: "", icon: "", colorHex: "", createdAt: instant), completions: [])
            default: ()
            }
        return Mirror(reflecting: sample).children.compactMap(\.label)
    }

    /// The line and column, from 1, of the byte at `offset`: columns in characters, as an editor
    /// counts them.
    static func lineAndColumn(ofOffset offset: Int, in data: Data) -> (line: Int, column: Int) {
        let before = [UInt8](data.prefix(offset))
        let line = before.count { $0 == UInt8(ascii: "\n") } + 1
        let lineStart = before.lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0
        return (line, String(decoding: before[lineStart...], as: UTF8.self).count + 1)
    }

    /// The offset of the first byte of `data` that is not UTF-8, and whether it starts a
    /// character that the data ends in the middle of; `nil` for UTF-8 text.
    static func firstByteNotUTF8(in data: Data) -> (offset: Int, isCutShort: Bool)? {
        guard String(validating: data, as: UTF8.self) == nil else { return nil }  // the fast check first
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = data.makeIterator()
        var offset = 0
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let scalar): offset += scalar.count
            case .emptyInput: return nil
            case .error:
                // Cut short: a lead byte followed only by fewer continuation bytes than it needs.
                let rest = data.dropFirst(offset)
                guard let lead = rest.first, (0xC2...0xF4).contains(lead) else { return (offset, false) }
                let needed = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2
                return (offset, rest.count < needed && rest.dropFirst().allSatisfy { $0 & 0xC0 == 0x80 })
            }
        }
    }

    /// What no export can hold, read from the bytes (brackets inside strings do not count): a NUL
    /// byte, which JSON never allows raw, or arrays and objects nested deeper than ``maximumNesting``.
    static func structureProblem(_ data: Data) -> String? {
        var depth = 0
        var inString = false
        var escaped = false
        for (offset, byte) in data.enumerated() {
            if byte == 0 {
                let (line, column) = lineAndColumn(ofOffset: offset, in: data)
                return "the JSON is malformed at line \(line), column \(column) (a NUL byte)"
            }
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                depth += 1
                if depth > maximumNesting { return "arrays and objects are nested more than \(maximumNesting) deep" }
            case UInt8(ascii: "]"), UInt8(ascii: "}"): depth -= 1
            default: break
            }
        }
        return nil
    }
}

extension StoreExport {
    /// Applies the same rules as the commands, so an import cannot bring in what `add` refuses, and
    /// returns the document with names, titles and colors in their normal form.
    public func normalized(source: String) throws -> StoreExport {
        func check<T>(_ field: String, _ body: () throws -> T) throws -> T {
            do { return try body() } catch let error as TaskWidgetError {
                throw TaskWidgetError(.badImport, "\(source): \(field): \(error.message)")
            }
        }
        // Names as the file has them, ids as exports write them (lower case).
        func ensureUnique<T>(_ values: [T], _ what: String, by key: (T) -> some Hashable, shown: (T) -> String) throws {
            var seen = Set<AnyHashable>()
            if let duplicate = values.first(where: { !seen.insert(AnyHashable(key($0))).inserted }) {
                throw TaskWidgetError(.badImport, "\(what) \(shown(duplicate)) appears twice")
            }
        }
        func ensureUnique(_ ids: [UUID], _ what: String) throws {
            try ensureUnique(ids, what, by: { $0 }, shown: \.lowercasedString)
        }
        func ensureUnique(names: [String], _ what: String) throws {
            try ensureUnique(names, what, by: { $0.lowercased() }, shown: { "“\($0)”" })
        }
        var result = self
        // Noncharacters are dropped, not refused: a store of an earlier taskwidget may hold them,
        // and its export could not be imported again (helper-141).
        for index in lists.indices {
            try check("lists[\(index)]") {
                result.lists[index].name = try Validation.listName(lists[index].name.removingNoncharacters)
                result.lists[index].colorHex = try Validation.colorHex(lists[index].colorHex)
            }
        }
        for (index, task) in tasks.enumerated() {
            try check("tasks[\(index)]") {
                result.tasks[index].title = try Validation.title(task.title.removingNoncharacters)
                guard task.isCompleted == (task.state == .completed), task.isCompleted == (task.completedAt != nil) else {
                    throw TaskWidgetError(.badImport, "isCompleted, state and completedAt disagree")
                }
            }
        }
        for (index, record) in habits.enumerated() {
            try check("habits[\(index)]") {
                result.habits[index].habit.name = try Validation.title(record.habit.name.removingNoncharacters, noun: "habit name")
                result.habits[index].habit.icon = try Validation.icon(record.habit.icon.removingNoncharacters)
                result.habits[index].habit.colorHex = try Validation.colorHex(record.habit.colorHex)
                try ensureUnique(record.completions.map(\.day), "completion day", by: { $0 }, shown: { "\($0)" })
            }
        }
        try check("lists") {
            try ensureUnique(result.lists.map(\.id), "list id")
            try ensureUnique(names: result.lists.map(\.name), "list name")
        }
        try check("tasks") { try ensureUnique(result.tasks.map(\.id), "task id") }
        try check("habits") {
            try ensureUnique(result.habits.map(\.habit.id), "habit id")
            try ensureUnique(names: result.habits.map(\.habit.name), "habit name")
        }
        return result
    }
}

extension DecodingError {
    /// `tasks[3].dueDate: expected an ISO 8601 instant…`: where the document (`data`) is wrong,
    /// and how.
    func summary(of data: Data) -> String {
        func path(_ codingPath: [any CodingKey]) -> String {
            let text = codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
            return text.hasPrefix(".") ? String(text.dropFirst()) : (text.isEmpty ? "the document" : text)
        }
        switch self {
        case .keyNotFound(let key, let context):
            let missing = "\(path(context.codingPath + [key])) is missing"
            // A misspelt name (`titel`) is the likely cause when the object has one near it.
            let others = Self.keys(at: context.codingPath, in: data).filter { $0 != key.stringValue }
            guard let typo = NameLookup.closest(to: key.stringValue, among: others) else {
                // `{}`, or a document of another program: no field of it is the problem.
                return context.codingPath.isEmpty ? "\(missing): give a file that `taskwidget export` wrote" : missing
            }
            return "\(missing), and \(path(context.codingPath)) has “\(typo.sanitizedForMessage)”: check its spelling against what `taskwidget export` writes"
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            // `ls --format json` writes an array (helper-101).
            guard !context.codingPath.isEmpty else { return "the document is not a JSON object, as an export is: give a file that `taskwidget export` wrote" }
            return "\(path(context.codingPath)) has the wrong type"
        case .dataCorrupted(let context):
            // The description may quote the bad value (Foundation's does for an unknown enum case):
            // keep the message one short line whatever the file holds.
            let description = context.debugDescription.removingControlCharacters
            guard !context.codingPath.isEmpty else { return Self.jsonProblem(data) }
            let field = path(context.codingPath)
            // Foundation's wording for a UUID and for a value an enum does not have.
            if description.hasPrefix("Attempted to decode UUID") {
                return "\(field) is not an id: ids are UUIDs, such as 3f2a4b6c-1d2e-4f30-8a1b-2c3d4e5f6071"
            }
            if let range = description.firstRange(of: "from invalid String value ") {
                let value = String(description[range.upperBound...]).sanitizedForMessage
                return "\(field) is “\(value)”, which is not a value it takes: compare it with what `taskwidget export` writes"
            }
            return "\(field): \(description.truncated(to: 100, maxBytesPerUnit: 4))"
        @unknown default:
            return "the document is malformed"
        }
    }

    /// The offset of the first `\uD800`…`\uDFFF` escape in `data` that is not a high and a low
    /// surrogate's pair.
    static func loneSurrogate(in data: Data) -> Int? {
        let text = String(decoding: data, as: UTF8.self)
        for match in text.matches(of: /(?i)\\ud([89a-f])[0-9a-f]{2}(\\ud[c-f][0-9a-f]{2})?/) {
            let isHigh = "89abAB".contains(match.output.1)
            if !isHigh || match.output.2 == nil { return text.utf8.distance(from: text.startIndex, to: match.range.lowerBound) }
        }
        return nil
    }

    /// The names in the JSON object at `codingPath` of `data`; none when there is no object there.
    static func keys(at codingPath: [any CodingKey], in data: Data) -> [String] {
        var value = try? JSONSerialization.jsonObject(with: data, options: .fragmentsAllowed)
        for key in codingPath {
            if let index = key.intValue {
                value = (value as? [Any]).flatMap { index < $0.count ? $0[index] : nil }
            } else {
                value = (value as? [String: Any])?[key.stringValue]
            }
        }
        return (value as? [String: Any]).map { Array($0.keys).sorted() } ?? []
    }

    /// The path (`tasks[0].sortOrder`) of the first number in `value` that is no whole number a
    /// field can hold (every number of the document is one); keys are taken in order.
    private static func misfitNumber(in value: Any, at path: String) -> String? {
        switch value {
        case let object as [String: Any]:
            for key in object.keys.sorted() {
                if let found = misfitNumber(in: object[key]!, at: path.isEmpty ? key : "\(path).\(key)") { return found }
            }
        case let array as [Any]:
            for (index, element) in array.enumerated() {
                if let found = misfitNumber(in: element, at: "\(path)[\(index)]") { return found }
            }
        case let number as NSNumber:
            if number != NSNumber(value: number.int64Value) { return path.isEmpty ? "the document" : path }
        default:
            break
        }
        return nil
    }

    /// What is wrong with a document the decoder refused without naming a field: JSON that does
    /// not parse (where), or cut short, or a number its field cannot take (`"sortOrder": 1.5`),
    /// which Foundation's decoder reports as invalid JSON.
    static func jsonProblem(_ data: Data) -> String {
        do {
            let document = try JSONSerialization.jsonObject(with: data, options: .fragmentsAllowed)
            let field = misfitNumber(in: document, at: "").map { "\($0) is a number that does not fit" } ?? "a number does not fit its field"
            return "\(field) (a fraction where a whole number goes, or one too large): compare it with what `taskwidget export` writes"
        } catch {
            let description = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? ""
            // Half a character escaped (`\ud800` alone): it was "ends too soon", or "malformed"
            // with no place (helper-135).
            if description.contains("surrogate") || description.contains("no high character") {
                let place = loneSurrogate(in: data).map { offset in
                    let (line, column) = StoreExport.lineAndColumn(ofOffset: offset, in: data)
                    return " at line \(line), column \(column)"
                }
                return "the JSON is malformed\(place ?? ""): a \\u escape there is half of a character (a lone surrogate): write the whole character"
            }
            if description.contains("end of file") { return "the JSON ends too soon: the file may be cut short" }
            // `Number 1e400 is not representable in Swift.`: valid JSON, out of any field's range,
            // which was "malformed" with no place (helper-114).
            if description.hasPrefix("Number "), description.hasSuffix(" is not representable in Swift."),
                let literal = description.dropFirst("Number ".count).split(separator: " ").first,
                let range = data.firstRange(of: Data(literal.utf8))
            {
                let (line, column) = StoreExport.lineAndColumn(ofOffset: range.lowerBound - data.startIndex, in: data)
                return "the number at line \(line), column \(column) is too large for any field: compare it with what `taskwidget export` writes"
            }
            // "Unescaped control character around character 8.": the place is the last number.
            guard let range = description.ranges(of: "character ").last,
                let offset = Int(description[range.upperBound...].prefix { $0.isNumber }), offset <= data.count
            else { return "the JSON is malformed" }
            // Counted after the byte-order mark, which the parser skips (helper-137: 3 columns short).
            let bom = data.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
            let (line, column) = StoreExport.lineAndColumn(ofOffset: min(offset + bom, data.count), in: data)
            let what = description.hasPrefix("Unescaped control character") ? " (a control character, which a string holds only escaped)" : ""
            return "the JSON is malformed at line \(line), column \(column)\(what)"
        }
    }
}
