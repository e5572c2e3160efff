public import Foundation

extension UUID {
    /// The id as taskwidget writes it everywhere (the store, exports, `ls`, the timeline): lower
    /// case, with its dashes, where Foundation's `uuidString` is upper case.
    public var lowercasedString: String { uuidString.lowercased() }

    /// The 8-hex-digit prefix printed everywhere an id is shown, e.g. `3f2a9c1b`.
    public var shortID: String {
        // The first four bytes in hex: what `uuidString` starts with, without making it.
        let prefix = [uuid.0, uuid.1, uuid.2, uuid.3].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        let digits = String(prefix, radix: 16)
        return String(repeating: "0", count: 8 - digits.count) + digits
    }

    /// The shortest prefix of the id as stored (lowercase, with its dashes) that no id of `others`
    /// starts with, and at least ``shortID``: what to show when another id shares its first 8
    /// digits, so that it still names one task. (It never ends on a dash: ids differ only in digits.)
    public func distinguishingPrefix(among others: some Sequence<UUID>) -> String {
        let text = Array(lowercasedString)
        var length = 8
        for other in others where other != self {
            let shared = zip(text, other.lowercasedString).prefix { $0 == $1 }.count
            length = max(length, min(shared + 1, text.count))
        }
        return String(text[..<length])
    }
}
