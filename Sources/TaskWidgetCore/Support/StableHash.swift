/// FNV-1a, 64 bits: a hash that is the same across runs, machines and versions (Swift's `Hasher`
/// is seeded per process), for names derived from text: file names, identifiers.
public enum StableHash {
    /// The FNV-1a hash of `text`'s UTF-8, from `offset` (FNV's offset basis unless another is given,
    /// for a second, independent hash of the same text).
    public static func fnv1a(_ text: String, offset: UInt64 = 0xcbf2_9ce4_8422_2325) -> UInt64 {
        var hash = offset
        for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        return hash
    }
}
