/// Why an iCalendar text could not be read, or why a calendar object cannot be a task.
///
/// The description is safe to log: it names the problem and the line, never the text itself,
/// because iCalendar lines carry task titles and notes (SPEC §2, privacy).
///
/// ```swift
/// do {
///     _ = try ICalendar(parsing: "BEGIN:VCALENDAR\r\nSUMMARY\r\n")
/// } catch {
///     print(error)  // "line 2: a content line has no “:” between its name and its value"
/// }
/// ```
public struct ICalError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong. Closed: callers switch over it.
    public enum Code: String, Sendable, Equatable, CaseIterable {
        /// The input holds no component at all.
        case empty
        /// A content line is not valid UTF-8 once unfolded.
        case invalidUTF8
        /// A content line has no `:` between its name (and parameters) and its value.
        case missingColon
        /// A property, parameter or component name is empty or holds characters names cannot hold.
        case invalidName
        /// A parameter has no `=`, or text follows a quoted value.
        case invalidParameter
        /// A quoted parameter value has no closing `"`.
        case unterminatedQuote
        /// The text starts with a folded continuation line (space or tab) that continues nothing.
        case continuationWithoutLine
        /// A property appears outside every `BEGIN`/`END` pair.
        case propertyOutsideComponent
        /// An `END` appears with no component open.
        case unexpectedEnd
        /// An `END` names another component than the one open.
        case mismatchedEnd
        /// The text ends while a component is still open.
        case unclosedComponent
        /// Components are nested deeper than the parser allows.
        case nestingTooDeep
        /// The calendar holds no VTODO.
        case noTodo
        /// The VTODO has no UID (or an empty one).
        case missingUID
        /// Fields were applied to a VTODO with another UID.
        case uidMismatch
    }

    /// What is wrong.
    public var code: Code
    /// The 1-based physical line where the problem starts, when it has one.
    public var line: Int?

    /// An error of `code`, found at `line` when it has one: `ICalError(.missingColon, line: 2)`.
    public init(_ code: Code, line: Int? = nil) {
        self.code = code
        self.line = line
    }

    /// One line that never quotes the input.
    public var description: String {
        let what =
            switch code {
            case .empty: "the iCalendar text holds no component"
            case .invalidUTF8: "a content line is not valid UTF-8"
            case .missingColon: "a content line has no “:” between its name and its value"
            case .invalidName: "a name is empty or holds characters other than letters, digits and “-”"
            case .invalidParameter: "a parameter has no “=” or has text after its quoted value"
            case .unterminatedQuote: "a quoted parameter value has no closing quote"
            case .continuationWithoutLine: "a folded continuation line continues no content line"
            case .propertyOutsideComponent: "a property appears outside every BEGIN/END pair"
            case .unexpectedEnd: "an END has no matching BEGIN"
            case .mismatchedEnd: "an END names another component than the one that is open"
            case .unclosedComponent: "a component is never closed by its END"
            case .nestingTooDeep: "components are nested too deeply"
            case .noTodo: "the calendar object holds no VTODO"
            case .missingUID: "the VTODO has no UID"
            case .uidMismatch: "the fields belong to another UID than the VTODO"
            }
        guard let line else { return what }
        return "line \(line): \(what)"
    }
}
