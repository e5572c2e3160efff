public import Foundation

extension SystemError {
    /// Writes all of `bytes` to `descriptor` with `write(2)`: on after a short write, again after
    /// a signal interrupts it. Throws the system's error of the write that failed.
    public static func writeAll(_ bytes: some ContiguousBytes, to descriptor: Int32) throws(SystemError) {
        let failure = bytes.withUnsafeBytes { buffer -> SystemError? in
            var offset = 0
            while offset < buffer.count {
                let written = Foundation.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return SystemError(errno)
                }
                offset += written
            }
            return nil
        }
        if let failure { throw failure }
    }
}
