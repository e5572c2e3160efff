import Glibc
import TaskWidgetCore

/// The reader of standard output closed its end.
struct ReaderGone: Error {}

/// Standard output, written with `write(2)` and never buffered: each line reaches the reader whole.
public struct StandardOutput: LineSink {
    public init() {}

    public mutating func write(_ text: String) throws {
        do {
            try SystemError.writeAll(Array(text.utf8), to: STDOUT_FILENO)
        } catch {
            if error.code == EPIPE { throw ReaderGone() }
            throw TaskWidgetError.standardOutput(error.code)
        }
    }
}
