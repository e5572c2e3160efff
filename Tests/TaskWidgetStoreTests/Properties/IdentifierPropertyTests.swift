import Foundation
import PropertyBased
import Testing

@testable import TaskWidgetCore
@testable import TaskWidgetStore
@testable import TaskWidgetTestSupport

/// Task ids as properties: the short id, prefix resolution against an independent count of the
/// ids that share a prefix, uniqueness whatever the case an id is written in, and the round trip
/// through export and import.
@Suite struct ShortIDProperties {
    /// Ids from a small alphabet at the front, so that random prefixes often match several.
    static let ids = zip(Gen<Character?>.element(of: Array("ab")).array(of: 6).map { String($0.map { $0! }) }, Gen.uint64(), Gen.uint64())
        .map { front, high, low -> UUID in
            let hex = front + String(format: "%010llx%016llx", high >> 24, low)
            let text = Array(hex)
            let canonical = [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(text[$0]) }.joined(separator: "-")
            return UUID(uuidString: canonical)!
        }

    @Test func theShortIDIsTheFirstEightHexDigitsOfTheID() async {
        await SeededProperty.check(count: 500, seed: 0x1D_0001, input: Gen.uint64().array(of: 2).map { $0 }) { words in
            let id = UUID(uuid: withUnsafeBytes(of: (words[0], words[1])) { $0.load(as: uuid_t.self) })
            #expect(id.shortID.count == 8)
            #expect(id.shortID.allSatisfy { "0123456789abcdef".contains($0) })
            #expect(id.uuidString.lowercased().hasPrefix(id.shortID))
            #expect(UUID(uuidString: id.uuidString.lowercased()) == id)
        }
    }

    /// How a user may type a prefix: any case, with the dashes, without them, or a stray one.
    enum Spelling: CaseIterable, Sendable { case asPrinted, upper, noDashes, strayDash }

    /// A prefix of 4 to 32 hex digits finds the one task whose id starts with it, and is a usage
    /// error naming the candidates when several do, or none; text that is not hex is refused.
    @Test func aPrefixResolvesExactlyWhenOneIDHasIt() async throws {
        let input = zip(Self.ids.array(of: 1...24), Gen.int(in: 0...1000), Gen.int(in: 4...32), Gen<Spelling>.case)
        await SeededProperty.check(count: 60, seed: 0x1D_0002, input: input) { ids, pick, length, spelling in
            let fixture = try TemporaryStore()
            let now = Fixed.instant("2026-11-22T16:27:00Z")
            let tasks = ids.enumerated().map { TaskItem(id: $1, title: "Task \($0)", sortOrder: $0, createdAt: now) }
            let unique = Dictionary(tasks.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            try fixture.store.importing(StoreExport(tasks: Array(unique.values)), source: "ids")

            let hex = ids[pick % ids.count].uuidString.lowercased().filter { $0 != "-" }
            let digits = String(hex.prefix(length))
            var typed: String
            switch spelling {
            case .asPrinted: typed = String(ids[pick % ids.count].uuidString.lowercased().prefix(length + (length > 8 ? (length - 1) / 4 - 1 : 0)))
            case .upper: typed = digits.uppercased()
            case .noDashes: typed = digits
            case .strayDash: typed = String(digits.prefix(2)) + "-" + digits.dropFirst(2)
            }
            let matching = unique.values.filter { $0.id.uuidString.lowercased().filter { $0 != "-" }.hasPrefix(digits) }
            if matching.count == 1 {
                #expect(try fixture.store.task(withID: typed) == matching[0], "\(typed)")
            } else {
                let error = expectError(.ambiguous) { try fixture.store.task(withID: typed) }
                #expect(error?.message.contains("ambiguous") == true, "\(typed): \(error?.message ?? "")")
                for candidate in matching.sorted(by: { $0.id.uuidString < $1.id.uuidString }).prefix(5) where matching.count <= 5 {
                    #expect(error?.message.contains(candidate.id.shortID) == true)
                }
            }
            // Not a prefix of any id, too short, or not hex: refused without a match.
            for text in [String(typed.prefix(3)), "zz" + typed, typed + "g", typed + "\u{301}", String(repeating: "a", count: 33)] {
                expectError(.invalidInput) { try fixture.store.task(withID: text) }
            }
        }
    }

    /// An id is one task whatever the case it is written in: a document that lists it twice is
    /// refused, importing it again in the other case replaces the task, and export writes it back
    /// as the same id.
    @Test func idsAreUniqueWhateverTheCaseAndRoundTrip() async throws {
        await SeededProperty.check(count: 40, seed: 0x1D_0003, input: Self.ids.array(of: 1...6)) { ids in
            let fixture = try TemporaryStore()
            let now = Fixed.instant("2026-11-22T16:27:00Z")
            let distinct = Array(Set(ids))
            let tasks = distinct.enumerated().map { TaskItem(id: $1, title: "Task \($0)", sortOrder: $0, createdAt: now) }
            let lower = String(decoding: try StoreExport(tasks: tasks).jsonData(), as: UTF8.self)
            let upper = lower.replacingOccurrences(of: distinct[0].uuidString.lowercased(), with: distinct[0].uuidString)
            // The same id in the other case, twice in one document.
            var twice = StoreExport(tasks: tasks)
            twice.tasks.append(TaskItem(id: distinct[0], title: "Again", createdAt: now))
            expectError(.badImport) { try fixture.store.importing(twice, source: "twice") }

            try fixture.store.importing(StoreExport.decode(Data(upper.utf8), source: "upper"), source: "upper")
            try fixture.store.importing(StoreExport.decode(Data(lower.utf8), source: "lower"), source: "lower")
            let exported = try fixture.store.export()
            #expect(Set(exported.tasks.map(\.id)) == Set(distinct))
            #expect(exported.tasks.count == distinct.count)
            #expect(try fixture.fetchInt("SELECT count(DISTINCT lower(id)) FROM task") == distinct.count)
            #expect(try fixture.fetchInt("SELECT count(*) FROM task WHERE id != lower(id)") == 0)
        }
    }
}

/// List and habit colors as properties: six hex digits in any case, with or without `#` and
/// surrounding spaces, normalise to six uppercase digits (and stay so); anything else is refused.
@Suite struct ColorProperties {
    static let pieces = [
        "0", "7", "9", "a", "A", "f", "F", "e", "B", "g", "G", "#", "##", " ", "\t", "\n", "x", "０", "Ａ", "ｆ", "٣",
        "\u{301}", "\u{200B}", "\u{0}", "-", "1e", "ff", "FFFFFF", "007AFF", "🎨",
    ]
    static let texts = Gen<String?>.element(of: pieces).array(of: 0...8).map { $0.map { $0! }.joined() }
    static let hexDigit = Gen<Character?>.element(of: Array("0123456789abcdefABCDEF")).map { $0! }

    /// The rule, written again: optional spaces, one optional `#`, six ASCII hex digits, spaces.
    static func expected(_ text: String) -> String? {
        let scalars = Array(text.unicodeScalars.drop(while: \.properties.isWhitespace).reversed().drop(while: \.properties.isWhitespace).reversed())
        let digits = scalars.first == "#" ? Array(scalars.dropFirst()) : scalars
        guard digits.count == 6, digits.allSatisfy({ "0123456789abcdefABCDEF".unicodeScalars.contains($0) }) else { return nil }
        return String(String.UnicodeScalarView(digits)).uppercased()
    }

    @Test func validColorsNormaliseAndStayNormal() async {
        let input = zip(Self.hexDigit.string(of: 6), Gen.bool, Gen<String?>.element(of: ["", " ", "\t", "  "]).map { $0! })
        await SeededProperty.check(count: 500, seed: 0xC010_0001, input: input) { digits, hash, space in
            let text = space + (hash ? "#" : "") + digits + space
            let normal = try Validation.colorHex(text)
            #expect(normal == digits.uppercased())
            #expect(try Validation.colorHex(normal) == normal)
            #expect(try Validation.colorHex("#" + normal) == normal)
        }
    }

    @Test func anyTextIsANormalColorOrAShortOneLineUsageError() async {
        await SeededProperty.check(count: 2000, seed: 0xC010_0002, input: Self.texts) { text in
            do {
                let normal = try Validation.colorHex(text)
                #expect(normal == Self.expected(text), "\(text.debugDescription)")
            } catch let error as TaskWidgetError {
                #expect(Self.expected(text) == nil, "\(text.debugDescription) refused: \(error.message)")
                #expect(FuzzOracle.errorProblem(error, expected: .invalidInput, maxCharacters: 149) == nil)
            }
        }
    }

    /// Through the store: a list or habit keeps the normal form, and export carries it.
    @Test func theStoreKeepsTheNormalForm() async throws {
        let fixture = try TemporaryStore()
        let now = Fixed.instant("2026-11-22T16:27:00Z")
        var expected: [String] = []
        await SeededProperty.check(count: 30, seed: 0xC010_0003, input: zip(Self.hexDigit.string(of: 6), Gen.bool)) { digits, hash in
            let name = "List \(expected.count)"
            let list = try fixture.store.addList(named: name, colorHex: (hash ? "#" : "") + digits, now: now)
            #expect(list.colorHex == digits.uppercased())
            expected.append(digits.uppercased())
        }
        #expect(try fixture.store.export().lists.map(\.colorHex) == expected)
    }
}
