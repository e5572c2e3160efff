/// The one error type of taskwidget: a closed ``Code`` that decides the exit status, a one-line
/// message for the user that says what is wrong and how to fix it, the underlying cause (an SQLite
/// or system error, shown with `--verbose`), and a ``logDescription`` that is safe to log.
///
/// The message may quote what the user typed or stored (a list's name, a task's title); logs get
/// ``logDescription`` only, which is built from the code and the cause and never carries either.
///
/// ```swift
/// throw TaskWidgetError(.notFound, "no list is named “Hoem”: the lists are Home, Work")
/// ```
public struct TaskWidgetError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, as far as a caller needs to know to react (SPEC §4, §12).
    public enum Code: String, Sendable, CaseIterable {
        /// A value given on the command line or in a user file is not valid (exit 64).
        case invalidInput
        /// No task, list or habit has the id or name given (exit 64).
        case notFound
        /// An id prefix matches several tasks (exit 64).
        case ambiguous
        /// The name is taken by another list or habit (exit 64).
        case nameTaken
        /// A user's status template cannot be used (exit 64).
        case badTemplate
        /// A configuration file cannot be used (exit 64).
        case badConfig
        /// The command would delete much, and runs only with a flag that confirms it (exit 64).
        case needsConfirmation
        /// An import file is not a valid export (exit 65).
        case badImport
        /// The store is damaged, empty, or not a taskwidget store (exit 65).
        case damagedStore
        /// The store was written by a newer taskwidget, or needs an upgrade first (exit 65).
        case storeVersion
        /// There is no store at the path (exit 74).
        case storeMissing
        /// Another program holds the store's lock longer than the wait allows (exit 74).
        case storeLocked
        /// The disk is full (exit 74).
        case diskFull
        /// A file or folder cannot be read or written for its permissions (exit 74).
        case permissionDenied
        /// The path names a folder, a device or a broken link where a file belongs (exit 74).
        case notAFile
        /// Reading or writing a file or standard output failed (exit 74).
        case ioFailure
        /// The PNG renderer is missing, from another build, or failed to draw (exit 74).
        case rendererFailed
        /// A server (CalDAV, D-Bus) cannot be reached or refused the request (exit 69).
        case unavailable
        /// A server failed in a way that a later retry may fix (exit 75).
        case temporaryFailure

        /// What went wrong in a few words that name nothing of the user's: what logs say.
        public var summary: String {
            switch self {
            case .invalidInput: "a value given is not valid"
            case .notFound: "no task, list or habit has the id or name given"
            case .ambiguous: "an id matches several tasks"
            case .nameTaken: "the name is taken"
            case .badTemplate: "the status template cannot be used"
            case .badConfig: "the configuration cannot be used"
            case .needsConfirmation: "the change needs a flag that confirms it"
            case .badImport: "the file is not a valid export"
            case .damagedStore: "the store is damaged or not a taskwidget store"
            case .storeVersion: "the store is of another taskwidget version"
            case .storeMissing: "there is no store"
            case .storeLocked: "the store is locked by another program"
            case .diskFull: "the disk is full"
            case .permissionDenied: "permission denied"
            case .notAFile: "the path is not a regular file"
            case .ioFailure: "reading or writing failed"
            case .rendererFailed: "the PNG renderer failed"
            case .unavailable: "the server cannot be reached"
            case .temporaryFailure: "the server failed for now"
            }
        }

        /// The exit status documented in SPEC §4: 64 usage, 65 data, 69 unavailable, 74 I/O,
        /// 75 temporary failure (the values of `sysexits.h`).
        public var exitStatus: Int32 {
            switch self {
            case .invalidInput, .notFound, .ambiguous, .nameTaken, .badTemplate, .badConfig, .needsConfirmation: 64
            case .badImport, .damagedStore, .storeVersion: 65
            case .unavailable: 69
            case .storeMissing, .storeLocked, .diskFull, .permissionDenied, .notAFile, .ioFailure, .rendererFailed: 74
            case .temporaryFailure: 75
            }
        }
    }

    public var code: Code
    /// One line for the user, without the `taskwidget: ` prefix. May quote titles and names.
    public var message: String
    /// The error underneath (SQLite's, the system's), for `--verbose`; never shown otherwise.
    public var cause: (any Error)?
    /// Log-safe facts about the failure (a path, a count, an errno name), never a title or name.
    public var context: String?

    public init(_ code: Code, _ message: String, context: String? = nil, cause: (any Error)? = nil) {
        self.code = code
        self.message = message
        self.context = context
        self.cause = cause
    }

    public var description: String { message }

    /// What a log may say about this error: the code's summary, the log-safe context and the
    /// cause's own description (SQLite's and the system's carry no row values), never the message:
    /// `there is no store [storeMissing] (/home/u/.local/share/taskwidget/tasks.sqlite)`.
    public var logDescription: String {
        var text = "\(code.summary) [\(code.rawValue)]"
        if let context { text += " (\(context))" }
        if let cause { text += ": \(cause)".removingControlCharacters }
        return text
    }
}
