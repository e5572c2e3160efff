public import NIOCore
import TaskWidgetCore

/// The content hash that names a representation: its strong `ETag` and the TRMNL `filename`
/// (``FNV1a`` of the bytes, 16 lowercase hex digits).
public struct ContentHash: Hashable, Sendable, CustomStringConvertible {
    public let description: String

    /// Hashes the readable bytes of `buffer` without copying them.
    public init(of buffer: ByteBuffer) {
        description = buffer.withUnsafeReadableBytes { FNV1a.hex(of: $0.assumingMemoryBound(to: UInt8.self)) }
    }

    /// The strong entity tag, quotes included: `"0123456789abcdef"`.
    public var entityTag: String { "\"\(description)\"" }
}
