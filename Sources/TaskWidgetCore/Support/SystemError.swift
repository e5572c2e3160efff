import Foundation

/// An `errno` from a system call, as the cause of a ``TaskWidgetError``: `No space left on device`.
public struct SystemError: Error, Sendable, CustomStringConvertible {
    public var code: Int32

    public init(_ code: Int32) {
        self.code = code
    }

    public var description: String { String(cString: strerror(code)) }

    /// The ``TaskWidgetError/Code`` that fits this error: a full disk, a permission, or another
    /// input/output failure.
    public var errorCode: TaskWidgetError.Code {
        switch code {
        case ENOSPC, EDQUOT: .diskFull
        case EACCES, EPERM, EROFS: .permissionDenied
        default: .ioFailure
        }
    }
}

extension TaskWidgetError {
    /// The error for a system call that failed with `errno` `code`: `what` says what could not be
    /// done (`cannot write /path`), followed by the system's reason and `advice`.
    public static func system(_ code: Int32, _ what: String, advice: String, context: String? = nil) -> TaskWidgetError {
        let cause = SystemError(code)
        return TaskWidgetError(cause.errorCode, "\(what): \(cause.description.lowercased()): \(advice)", context: context, cause: cause)
    }
}

extension TaskWidgetError {
    /// Standard output could not be written (a full disk, a closed file):
    /// `cannot write to standard output: no space left on device` (the reason in lower case, as
    /// ``system(_:_:advice:context:)`` writes it).
    public static func standardOutput(_ code: Int32) -> TaskWidgetError {
        let cause = SystemError(code)
        return TaskWidgetError(cause.errorCode, "cannot write to standard output: \(cause.description.lowercased())", context: "stdout", cause: cause)
    }

    /// Whether this is a ``standardOutput(_:)`` failure because its reader went away (EPIPE).
    public var isStandardOutputReaderGone: Bool {
        context == "stdout" && (cause as? SystemError)?.code == EPIPE
    }
}
