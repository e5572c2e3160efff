/// The one error type of taskwidget: a kind that decides the exit status and a full-sentence
/// message that says what is wrong and how to fix it.
///
/// ```swift
/// throw TaskWidgetError(.usage, "unknown list “Hoem”: see `taskwidget list ls` for the lists")
/// ```
public struct TaskWidgetError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong, as far as the caller needs to know to react.
    public enum Kind: Sendable, Equatable, CaseIterable {
        /// Bad usage or input on the command line (exit 64, `EX_USAGE`).
        case usage
        /// Bad data: a corrupt or foreign store, a bad import file (exit 65, `EX_DATAERR`).
        case data
        /// Input/output: a missing, unwritable, locked or full store (exit 74, `EX_IOERR`).
        case io

        /// The exit status documented in SPEC §4.
        public var exitStatus: Int32 {
            switch self {
            case .usage: 64
            case .data: 65
            case .io: 74
            }
        }

        /// The kind whose exit status is `status`, if there is one.
        public init?(exitStatus status: Int32) {
            guard let kind = Self.allCases.first(where: { $0.exitStatus == status }) else { return nil }
            self = kind
        }
    }

    public var kind: Kind
    /// One line, without the `taskwidget: ` prefix.
    public var message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }
}
