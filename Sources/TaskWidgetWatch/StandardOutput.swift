import Glibc
import TaskWidgetCore

/// The reader of standard output closed its end.
struct ReaderGone: Error {}

/// Standard output, written with `write(2)` and never buffered: each line reaches the reader whole.
public struct StandardOutput: LineSink {
    public init() {}

    public mutating func write(_ text: String) throws {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { Glibc.write(STDOUT_FILENO, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                if errno == EPIPE { throw ReaderGone() }
                throw TaskWidgetError.standardOutput(errno)
            }
            bytes = bytes.dropFirst(written)
        }
    }
}
