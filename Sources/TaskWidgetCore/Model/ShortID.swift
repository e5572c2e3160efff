public import Foundation

extension UUID {
    /// The id as taskwidget writes it everywhere (the store, exports, `ls`, the timeline): lower
    /// case, with its dashes, where Foundation's `uuidString` is upper case.
    public var lowercasedString: String { uuidString.lowercased() }

    /// The id in `text`, as the store keeps ids: 32 hex digits of either case, in groups of 8, 4,
    /// 4, 4 and 12 joined by dashes; nil for anything else. Foundation's `UUID(uuidString:)` reads
    /// that form with `sscanf`, about 9 000 instructions an id; `status` reads about 30 of them at
    /// every run of a bar (its tasks' ids and lists), so the store reads them here instead.
    public init?(storedText text: String) {
        var text = text
        let halves: (UInt64, UInt64)? = text.withUTF8 { utf8 in
            guard utf8.count == 36 else { return nil }
            var halves: (UInt64, UInt64) = (0, 0)
            var digits = 0
            for (offset, byte) in utf8.enumerated() {
                if offset == 8 || offset == 13 || offset == 18 || offset == 23 {
                    guard byte == UInt8(ascii: "-") else { return nil }
                    continue
                }
                let value: UInt8
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): value = byte - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): value = byte - UInt8(ascii: "a") + 10
                case UInt8(ascii: "A")...UInt8(ascii: "F"): value = byte - UInt8(ascii: "A") + 10
                default: return nil
                }
                if digits < 16 { halves.0 = halves.0 << 4 | UInt64(value) } else { halves.1 = halves.1 << 4 | UInt64(value) }
                digits += 1
            }
            return halves
        }
        guard let (high, low) = halves else { return nil }
        func byte(_ word: UInt64, _ index: Int) -> UInt8 { UInt8(truncatingIfNeeded: word >> (56 - 8 * index)) }
        self.init(uuid: (
            byte(high, 0), byte(high, 1), byte(high, 2), byte(high, 3), byte(high, 4), byte(high, 5), byte(high, 6), byte(high, 7),
            byte(low, 0), byte(low, 1), byte(low, 2), byte(low, 3), byte(low, 4), byte(low, 5), byte(low, 6), byte(low, 7)))
    }

    /// The 8-hex-digit prefix printed everywhere an id is shown, e.g. `3f2a9c1b`.
    public var shortID: String {
        // The first four bytes in hex: what `uuidString` starts with, without making it.
        let prefix = [uuid.0, uuid.1, uuid.2, uuid.3].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        let digits = String(prefix, radix: 16)
        return String(repeating: "0", count: 8 - digits.count) + digits
    }

    /// For each of `ids`, the shortest prefix of it as stored (lowercase, with its dashes) that no
    /// other of `ids` starts with, and at least ``shortID``: what to show when ids share their
    /// first 8 digits, so that each still names one task. (It never ends on a dash: ids differ
    /// only in digits.) In sorted order an id shares the most with a neighbour, so each is
    /// compared with its two: n log n, where comparing every pair made `ls` of 10 000 tasks whose
    /// ids share 8 digits take 5 minutes (helper-133).
    public static func distinguishingPrefixes(of ids: some Sequence<UUID>) -> [UUID: String] {
        let texts = Set(ids).map { (id: $0, text: Array($0.lowercasedString.utf8)) }.sorted { $0.text.lexicographicallyPrecedes($1.text) }
        func shared(_ index: Int, _ other: Int) -> Int {
            guard texts.indices.contains(other) else { return 0 }
            return zip(texts[index].text, texts[other].text).prefix { $0 == $1 }.count
        }
        var prefixes: [UUID: String] = [:]
        for (index, entry) in texts.enumerated() {
            let length = min(max(8, max(shared(index, index - 1), shared(index, index + 1)) + 1), entry.text.count)
            prefixes[entry.id] = String(decoding: entry.text[..<length], as: UTF8.self)
        }
        return prefixes
    }

    /// The id to show for each of `ids`: its ``shortID``, or its ``distinguishingPrefixes(of:)``
    /// when another of `ids` shares those 8 digits.
    public static func shownIDs(of ids: some Sequence<UUID>) -> [UUID: String] {
        let byShortID = Dictionary(grouping: Set(ids), by: \.shortID)
        var shown: [UUID: String] = [:]
        for sharing in byShortID.values {
            if sharing.count > 1 {
                shown.merge(distinguishingPrefixes(of: sharing)) { first, _ in first }
            } else {
                shown[sharing[0]] = sharing[0].shortID
            }
        }
        return shown
    }
}
