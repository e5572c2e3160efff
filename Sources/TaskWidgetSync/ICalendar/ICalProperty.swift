/// A property parameter such as `TZID=Europe/Berlin` or `MEMBER="mailto:a@x","mailto:b@x"`.
///
/// Values are kept as written between the quotes (RFC 6868 `^` escapes are not decoded), so a
/// parameter read and written again is the same text. Names compare case-insensitively
/// (``hasName(_:)``) but are written as they were read.
public struct ICalParameter: Sendable, Hashable {
    /// The name as written, e.g. `TZID` or `x-apple-foo`.
    public var name: String
    /// One or more values, without their quotes.
    public var values: [String]

    /// A parameter with several values: `ICalParameter("MEMBER", values: ["a", "b"])`.
    public init(_ name: String, values: [String]) {
        self.name = name
        self.values = values
    }

    /// A parameter with one value: `ICalParameter("VALUE", "DATE")`.
    public init(_ name: String, _ value: String) {
        self.init(name, values: [value])
    }

    /// The values joined by commas, as most single-valued parameters are read.
    public var value: String { values.joined(separator: ",") }

    /// Whether the parameter is called `name`, ignoring ASCII case.
    public func hasName(_ name: String) -> Bool { asciiCaseInsensitiveEqual(self.name, name) }
}

/// One content line: a name, parameters and a raw value, e.g.
/// `DUE;TZID=Europe/Berlin:20261127T170000`.
///
/// The value is kept raw, exactly as written (TEXT escapes included); ``textValue`` reads and
/// writes it as text. A property read from a file remembers its original, possibly folded, bytes
/// and is written back with them as long as its name, parameters and value are not changed, so
/// the properties that taskwidget does not touch reach the server byte for byte.
///
/// ```swift
/// var summary = ICalProperty("SUMMARY", text: "Buy milk; eggs")
/// summary.value          // "Buy milk\\; eggs"
/// summary.textValue      // "Buy milk; eggs"
/// ```
public struct ICalProperty: Sendable, Equatable {
    /// The name as written (`SUMMARY`, `X-APPLE-SORT-ORDER`); compare with ``hasName(_:)``.
    public var name: String {
        didSet { if name != oldValue { source = nil } }
    }
    /// The parameters, in their order.
    public var parameters: [ICalParameter] {
        didSet { if parameters != oldValue { source = nil } }
    }
    /// The value as written after the `:`, unfolded but not unescaped.
    public var value: String {
        didSet { if value != oldValue { source = nil } }
    }
    /// The original content line(s) joined by CRLF, while the property is unchanged since parsing.
    var source: [UInt8]?

    /// A property with a raw value (written as given; it must already be escaped if it is TEXT).
    public init(_ name: String, parameters: [ICalParameter] = [], value: String) {
        self.name = name
        self.parameters = parameters
        self.value = value
        self.source = nil
    }

    /// A TEXT property: `text` is escaped (RFC 5545 §3.3.11).
    public init(_ name: String, parameters: [ICalParameter] = [], text: String) {
        self.init(name, parameters: parameters, value: ICalText.escape(text))
    }

    init(name: String, parameters: [ICalParameter], value: String, source: [UInt8]) {
        self.name = name
        self.parameters = parameters
        self.value = value
        self.source = source
    }

    /// Whether the property is written back with the bytes it was read from.
    public var isVerbatim: Bool { source != nil }

    /// Whether the property is called `name`, ignoring ASCII case.
    public func hasName(_ name: String) -> Bool { asciiCaseInsensitiveEqual(self.name, name) }

    /// The first parameter called `name` (ignoring case).
    public func parameter(_ name: String) -> ICalParameter? {
        parameters.first { $0.hasName(name) }
    }

    /// The value of the first parameter called `name` (ignoring case), e.g. `"Europe/Berlin"` for
    /// `TZID`.
    public func parameterValue(_ name: String) -> String? { parameter(name)?.value }

    /// Sets the parameter `name` to `values` in place (or appends it); an empty array removes it.
    public mutating func setParameter(_ name: String, values: [String]) {
        var updated: [ICalParameter] = []
        var placed = values.isEmpty
        for parameter in parameters {
            guard parameter.hasName(name) else {
                updated.append(parameter)
                continue
            }
            // The first one keeps its place and spelling; duplicates go.
            if !placed {
                updated.append(ICalParameter(parameter.name, values: values))
                placed = true
            }
        }
        if !placed { updated.append(ICalParameter(name, values: values)) }
        parameters = updated
    }

    /// Sets the parameter `name` to one value, or removes it when `value` is `nil`.
    public mutating func setParameter(_ name: String, _ value: String?) {
        setParameter(name, values: value.map { [$0] } ?? [])
    }

    /// The value read as TEXT (escapes resolved); setting it escapes the new text.
    public var textValue: String {
        get { ICalText.unescape(value) }
        set { value = ICalText.escape(newValue) }
    }

    /// The value read as a comma-separated list of TEXT (CATEGORIES, RESOURCES).
    public var textValues: [String] { ICalText.splitList(value).map(ICalText.unescape) }

    /// Equal when name, parameters and value are equal; where the property came from does not count.
    public static func == (lhs: ICalProperty, rhs: ICalProperty) -> Bool {
        lhs.name == rhs.name && lhs.parameters == rhs.parameters && lhs.value == rhs.value
    }
}

/// RFC 5545 TEXT escaping (§3.3.11): `\\`, `\;`, `\,` and `\n` (or `\N`) for a line break.
public enum ICalText {
    /// Escapes `text` for a TEXT value. CRLF, CR and LF all become `\n`.
    ///
    /// `ICalText.escape("a;b,c\\d\ne")` is `a\;b\,c\\d\ne` (with single backslashes).
    public static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        var previousWasCR = false
        for scalar in text.unicodeScalars {
            defer { previousWasCR = scalar == "\r" }
            switch scalar {
            case "\\": out += "\\\\"
            case ";": out += "\\;"
            case ",": out += "\\,"
            case "\r": out += "\\n"
            case "\n": if !previousWasCR { out += "\\n" }
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// Resolves the escapes of a TEXT value. An unknown escape such as `\:` (written by some
    /// producers) yields the character alone; a lone trailing backslash is kept.
    public static func unescape(_ raw: String) -> String {
        guard raw.utf8.contains(UInt8(ascii: "\\")) else { return raw }
        var out = ""
        out.reserveCapacity(raw.utf8.count)
        var escaping = false
        for scalar in raw.unicodeScalars {
            if escaping {
                escaping = false
                switch scalar {
                case "n", "N": out += "\n"
                default: out.unicodeScalars.append(scalar)
                }
            } else if scalar == "\\" {
                escaping = true
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        if escaping { out += "\\" }
        return out
    }

    /// Splits a raw list value at the commas that are not escaped; the parts stay escaped.
    public static func splitList(_ raw: String) -> [String] {
        var parts: [String] = []
        var current = ""
        var escaping = false
        for scalar in raw.unicodeScalars {
            if escaping {
                escaping = false
            } else if scalar == "\\" {
                escaping = true
            } else if scalar == "," {
                parts.append(current)
                current = ""
                continue
            }
            current.unicodeScalars.append(scalar)
        }
        parts.append(current)
        return parts
    }
}

/// ASCII case-insensitive equality: iCalendar names are case-insensitive (RFC 5545 §2).
func asciiCaseInsensitiveEqual(_ lhs: String, _ rhs: String) -> Bool {
    let left = lhs.utf8
    let right = rhs.utf8
    guard left.count == right.count else { return false }
    for (a, b) in zip(left, right) where a != b {
        guard asciiLowercased(a) == asciiLowercased(b) else { return false }
    }
    return true
}

@inline(__always)
func asciiLowercased(_ byte: UInt8) -> UInt8 {
    (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte | 0x20 : byte
}
