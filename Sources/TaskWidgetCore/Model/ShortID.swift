public import Foundation

extension UUID {
    /// The 8-hex-digit prefix printed everywhere an id is shown, e.g. `3f2a9c1b`.
    public var shortID: String {
        // The first four bytes in hex: what `uuidString` starts with, without making it.
        let prefix = [uuid.0, uuid.1, uuid.2, uuid.3].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        let digits = String(prefix, radix: 16)
        return String(repeating: "0", count: 8 - digits.count) + digits
    }
}
