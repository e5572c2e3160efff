/// FNV-1a over 64 bits: a small, stable hash (unlike Swift's `Hasher`, the same on every run and
/// machine) for content hashes, ETags, TRMNL file names, and names stored on CalDAV servers, which
/// is why its values must never change. Not cryptographic: it names bytes that are ours, it does
/// not guard against forgery.
public struct FNV1a: Sendable {
    /// FNV's offset basis: the hash of no bytes.
    public static let offsetBasis: UInt64 = 0xcbf2_9ce4_8422_2325

    public private(set) var value: UInt64

    /// Starts from FNV's offset basis, or from another one for a second, independent hash of the
    /// same bytes.
    public init(offsetBasis: UInt64 = FNV1a.offsetBasis) {
        value = offsetBasis
    }

    public mutating func combine(_ bytes: some Sequence<UInt8>) {
        // Contiguous bytes (arrays, `Data`, buffers, UTF-8 views) in a loop over plain memory: the
        // generic loop, not specialised across modules, takes several times as long (an image's ETag).
        if bytes.withContiguousStorageIfAvailable({ combine(contiguous: $0) }) != nil { return }
        for byte in bytes {
            value = (value ^ UInt64(byte)) &* Self.prime
        }
    }

    private mutating func combine(contiguous bytes: UnsafeBufferPointer<UInt8>) {
        var hash = value
        for byte in bytes {
            hash = (hash ^ UInt64(byte)) &* Self.prime
        }
        value = hash
    }

    private static let prime: UInt64 = 0x0000_0100_0000_01b3

    /// The hash of `bytes`, from `offsetBasis`.
    public static func value(of bytes: some Sequence<UInt8>, offsetBasis: UInt64 = FNV1a.offsetBasis) -> UInt64 {
        var hash = FNV1a(offsetBasis: offsetBasis)
        hash.combine(bytes)
        return hash.value
    }

    /// The hash of `bytes` as 16 lowercase hex digits.
    public static func hex(of bytes: some Sequence<UInt8>) -> String {
        var hash = FNV1a()
        hash.combine(bytes)
        return hash.hex
    }

    /// 16 lowercase hex digits, zero-padded.
    public var hex: String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
