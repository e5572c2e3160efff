public import Foundation

/// An iCalendar stream (RFC 5545): its top-level components, normally one `VCALENDAR`.
///
/// Parsing is lossless: every property keeps its original bytes until it is changed, and children
/// keep their order, so ``serializedData()`` of a calendar nobody changed gives back the input,
/// with two normalizations only:
/// - every line ends in CRLF (LF-only input is accepted);
/// - empty lines are dropped, a UTF-8 byte order mark is dropped, and `BEGIN:`/`END:` lines are
///   rewritten from the component's name (as it was spelled).
/// Untouched properties keep their original folding (even lines longer than 75 octets); changed
/// and new properties are folded at 75 octets without splitting a UTF-8 sequence.
///
/// ```swift
/// let calendar = try ICalendar(parsing: text)
/// let todo = calendar.components.first?.components("VTODO").first
/// let data = calendar.serializedData()  // CRLF, ready for a PUT
/// ```
public struct ICalendar: Sendable, Equatable {
    /// The deepest nesting the parser accepts by default (VCALENDAR > VTODO > VALARM is 3).
    public static let defaultMaximumDepth = 32

    /// The top-level components, in order.
    public var components: [ICalComponent]

    /// A calendar built in code, e.g. `ICalendar(components: [ICalComponent("VCALENDAR", ...)])`.
    /// Names must be valid iCalendar names: the writer does not check them.
    public init(components: [ICalComponent]) {
        self.components = components
    }

    /// Parses iCalendar text.
    ///
    /// Work is linear in the size of the input and bounded in depth; malformed input gives an
    /// ``ICalError`` with the line where the problem starts, never a crash.
    public init(parsing text: String, maximumDepth: Int = defaultMaximumDepth) throws(ICalError) {
        self.components = try ICalParser(maximumDepth: maximumDepth).parse(Array(text.utf8))
    }

    /// Parses iCalendar bytes (UTF-8), e.g. the body of a CalDAV `GET`.
    public init(parsing data: Data, maximumDepth: Int = defaultMaximumDepth) throws(ICalError) {
        self.components = try ICalParser(maximumDepth: maximumDepth).parse(Array(data))
    }

    /// The first `VCALENDAR` component.
    public var vcalendar: ICalComponent? { components.first { $0.hasName("VCALENDAR") } }

    /// The calendar as bytes with CRLF line endings.
    public func serializedData() -> Data {
        var writer = ICalWriter()
        for component in components { writer.write(component) }
        return Data(writer.bytes)
    }

    /// The calendar as text with CRLF line endings. Prefer ``serializedData()``: bytes that a
    /// producer folded inside a UTF-8 sequence survive only there.
    public func serialized() -> String {
        var writer = ICalWriter()
        for component in components { writer.write(component) }
        return String(decoding: writer.bytes, as: UTF8.self)
    }
}

/// Reads content lines into components: unfolds, splits name, parameters and value, and keeps
/// each property's original bytes.
struct ICalParser {
    var maximumDepth: Int

    private struct Frame {
        var component: ICalComponent
        var line: Int
    }

    func parse(_ bytes: [UInt8]) throws(ICalError) -> [ICalComponent] {
        var roots: [ICalComponent] = []
        var stack: [Frame] = []
        var content: [UInt8] = []
        var source: [UInt8] = []
        // The line where the pending logical line starts; 0 when none is pending.
        var pendingLine = 0
        var lineNumber = 0
        var start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0

        while start < bytes.count {
            lineNumber += 1
            let newline = bytes[start...].firstIndex(of: 0x0A) ?? bytes.count
            var end = newline
            if end > start, bytes[end - 1] == 0x0D { end -= 1 }
            let first: UInt8? = end > start ? bytes[start] : nil

            if first == 0x20 || first == 0x09 {
                guard pendingLine != 0 else { throw ICalError(.continuationWithoutLine, line: lineNumber) }
                content.append(contentsOf: bytes[(start + 1)..<end])
                source.append(contentsOf: [0x0D, 0x0A])
                source.append(contentsOf: bytes[start..<end])
            } else {
                if pendingLine != 0 {
                    try take(content, source, line: pendingLine, stack: &stack, roots: &roots)
                }
                content.removeAll(keepingCapacity: true)
                source.removeAll(keepingCapacity: true)
                if first == nil {
                    pendingLine = 0  // an empty line: tolerated, dropped
                } else {
                    pendingLine = lineNumber
                    content.append(contentsOf: bytes[start..<end])
                    source.append(contentsOf: bytes[start..<end])
                }
            }
            start = newline + 1
        }
        if pendingLine != 0 {
            try take(content, source, line: pendingLine, stack: &stack, roots: &roots)
        }
        if let open = stack.last { throw ICalError(.unclosedComponent, line: open.line) }
        guard !roots.isEmpty else { throw ICalError(.empty) }
        return roots
    }

    /// Files one logical line: opens or closes a component, or adds a property to the open one.
    private func take(
        _ content: [UInt8], _ source: [UInt8], line: Int, stack: inout [Frame], roots: inout [ICalComponent]
    ) throws(ICalError) {
        let property = try Self.property(content, source: source, line: line)
        if property.hasName("BEGIN") {
            let name = property.value.trimmingCharacters(in: .whitespaces)
            guard Self.isName(name.utf8[...]) else { throw ICalError(.invalidName, line: line) }
            guard stack.count < maximumDepth else { throw ICalError(.nestingTooDeep, line: line) }
            stack.append(Frame(component: ICalComponent(name), line: line))
        } else if property.hasName("END") {
            guard let frame = stack.popLast() else { throw ICalError(.unexpectedEnd, line: line) }
            guard frame.component.hasName(property.value.trimmingCharacters(in: .whitespaces)) else {
                throw ICalError(.mismatchedEnd, line: line)
            }
            if stack.isEmpty {
                roots.append(frame.component)
            } else {
                stack[stack.count - 1].component.children.append(.component(frame.component))
            }
        } else {
            guard !stack.isEmpty else { throw ICalError(.propertyOutsideComponent, line: line) }
            stack[stack.count - 1].component.children.append(.property(property))
        }
    }

    /// Splits `name *(";" param) ":" value` (RFC 5545 §3.1).
    static func property(_ bytes: [UInt8], source: [UInt8], line: Int) throws(ICalError) -> ICalProperty {
        guard String(validating: bytes, as: UTF8.self) != nil else { throw ICalError(.invalidUTF8, line: line) }
        let semicolon = UInt8(ascii: ";")
        let colon = UInt8(ascii: ":")
        let comma = UInt8(ascii: ",")
        let quote = UInt8(ascii: "\"")
        let equals = UInt8(ascii: "=")
        let count = bytes.count

        var index = 0
        while index < count, bytes[index] != semicolon, bytes[index] != colon { index += 1 }
        let name = bytes[0..<index]
        guard isName(name) else { throw ICalError(.invalidName, line: line) }
        guard index < count else { throw ICalError(.missingColon, line: line) }

        var parameters: [ICalParameter] = []
        while bytes[index] == semicolon {
            index += 1
            let nameStart = index
            while index < count, bytes[index] != equals, bytes[index] != colon, bytes[index] != semicolon {
                index += 1
            }
            guard index < count else { throw ICalError(.missingColon, line: line) }
            guard bytes[index] == equals else { throw ICalError(.invalidParameter, line: line) }
            let parameterName = bytes[nameStart..<index]
            guard isName(parameterName) else { throw ICalError(.invalidName, line: line) }
            index += 1
            var values: [String] = []
            while true {
                if index < count, bytes[index] == quote {
                    let valueStart = index + 1
                    guard let close = bytes[valueStart...].firstIndex(of: quote) else {
                        throw ICalError(.unterminatedQuote, line: line)
                    }
                    values.append(string(bytes[valueStart..<close]))
                    index = close + 1
                } else {
                    let valueStart = index
                    while index < count, bytes[index] != comma, bytes[index] != semicolon, bytes[index] != colon {
                        index += 1
                    }
                    values.append(string(bytes[valueStart..<index]))
                }
                guard index < count else { throw ICalError(.missingColon, line: line) }
                guard bytes[index] == comma else { break }
                index += 1
            }
            guard bytes[index] == semicolon || bytes[index] == colon else {
                throw ICalError(.invalidParameter, line: line)
            }
            parameters.append(ICalParameter(string(parameterName), values: values))
        }
        return ICalProperty(
            name: string(name), parameters: parameters, value: string(bytes[(index + 1)...]), source: source)
    }

    /// iana-token / x-name: letters, digits and `-` (RFC 5545 §3.1); `_` is tolerated because
    /// some producers write it.
    static func isName(_ bytes: some Collection<UInt8>) -> Bool {
        !bytes.isEmpty
            && bytes.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"):
                    true
                default: false
                }
            }
    }

    private static func string(_ bytes: ArraySlice<UInt8>) -> String { String(decoding: bytes, as: UTF8.self) }
}

/// Writes components as CRLF content lines, folding at 75 octets.
struct ICalWriter {
    /// RFC 5545 §3.1: lines SHOULD NOT be longer than 75 octets, excluding the line break.
    static let lineLimit = 75

    private(set) var bytes: [UInt8] = []

    mutating func write(_ component: ICalComponent) {
        appendFolded(Array("BEGIN:\(component.name)".utf8))
        for child in component.children {
            switch child {
            case .property(let property):
                if let source = property.source {
                    bytes.append(contentsOf: source)
                    bytes.append(contentsOf: [0x0D, 0x0A])
                } else {
                    appendFolded(Self.contentLine(property))
                }
            case .component(let sub):
                write(sub)
            }
        }
        appendFolded(Array("END:\(component.name)".utf8))
    }

    /// `name;param=value:value`, quoting parameter values that hold `:`, `;` or `,`.
    static func contentLine(_ property: ICalProperty) -> [UInt8] {
        var line = Array(property.name.utf8)
        for parameter in property.parameters {
            line.append(UInt8(ascii: ";"))
            line.append(contentsOf: parameter.name.utf8)
            line.append(UInt8(ascii: "="))
            for (offset, value) in parameter.values.enumerated() {
                if offset > 0 { line.append(UInt8(ascii: ",")) }
                line.append(contentsOf: parameterValue(value))
            }
        }
        line.append(UInt8(ascii: ":"))
        // A raw value must not break the line; a line break in it can only mean a TEXT newline.
        let value = Array(property.value.utf8)
        var index = 0
        while index < value.count {
            let byte = value[index]
            if byte == 0x0D || byte == 0x0A {
                line.append(contentsOf: Array("\\n".utf8))
                if byte == 0x0D, index + 1 < value.count, value[index + 1] == 0x0A { index += 1 }
            } else {
                line.append(byte)
            }
            index += 1
        }
        return line
    }

    /// A parameter value, quoted when needed; `"` and line breaks, which no parameter value can
    /// hold, are written with RFC 6868's `^'` and `^n`.
    private static func parameterValue(_ value: String) -> [UInt8] {
        var needsQuotes = false
        var encoded: [UInt8] = []
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: ":"), UInt8(ascii: ";"), UInt8(ascii: ","):
                needsQuotes = true
                encoded.append(byte)
            case UInt8(ascii: "\""): encoded.append(contentsOf: Array("^'".utf8))
            case 0x0A, 0x0D: encoded.append(contentsOf: Array("^n".utf8))
            default: encoded.append(byte)
            }
        }
        return needsQuotes ? [UInt8(ascii: "\"")] + encoded + [UInt8(ascii: "\"")] : encoded
    }

    /// Appends one logical line folded at 75 octets; a fold never falls inside a UTF-8 sequence.
    mutating func appendFolded(_ line: [UInt8]) {
        var start = 0
        var limit = Self.lineLimit
        while line.count - start > limit {
            var cut = start + limit
            while cut > start, line[cut] & 0xC0 == 0x80 { cut -= 1 }
            if cut == start { cut = start + limit }  // not UTF-8 at all: cut anywhere
            bytes.append(contentsOf: line[start..<cut])
            bytes.append(contentsOf: [0x0D, 0x0A, 0x20])
            start = cut
            limit = Self.lineLimit - 1  // the leading space counts
        }
        bytes.append(contentsOf: line[start...])
        bytes.append(contentsOf: [0x0D, 0x0A])
    }
}
