public import Foundation

extension UUID {
    /// A new random (version 4) UUID from the system's random source, which needs no file:
    /// Foundation's `UUID()` opens /dev/urandom, and with no descriptor left (`ulimit -n 6`) it gave
    /// the all-zero UUID, so that a second new task, list or habit clashed with the first
    /// (helper-91).
    public static func random() -> UUID {
        var generator = SystemRandomNumberGenerator()
        var value = (generator.next() as UInt64, generator.next() as UInt64)
        return withUnsafeMutableBytes(of: &value) { bytes in
            bytes[6] = bytes[6] & 0x0F | 0x40  // version 4
            bytes[8] = bytes[8] & 0x3F | 0x80  // variant RFC 4122
            return UUID(uuid: bytes.loadUnaligned(as: uuid_t.self))
        }
    }
}
