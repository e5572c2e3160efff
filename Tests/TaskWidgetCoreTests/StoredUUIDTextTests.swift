import Foundation
import PropertyBased
import Testing

@testable import TaskWidgetCore
@testable import TaskWidgetTestSupport

/// `UUID(storedText:)`, the store's reading of ids, against Foundation's `UUID(uuidString:)`.
@Suite struct StoredUUIDTextTests {
    /// Characters an id's text may be spoiled with: other hex digits and cases, a dash, what sscanf's
    /// `%x` skips or reads as a sign or prefix, a letter past `f`, and non-ASCII of one or two bytes.
    static let spoilers = Array("0aF-+ x\tgG\u{0}é€")

    /// Every id reads back as itself from its lower-case and upper-case text, and from the text with
    /// one character spoiled it reads as Foundation reads it, or not at all.
    @Test func readsWhatFoundationReads() async {
        let input = zip(Gen.uint64(), Gen.uint64(), Gen.int(in: 0...35), Gen<Character?>.element(of: Self.spoilers))
        await SeededProperty.check(count: 2000, seed: 0x0011_D7E7, input: input) { high, low, position, spoiler in
            let bytes = (0..<8).map { UInt8(truncatingIfNeeded: high >> (8 * $0)) } + (0..<8).map { UInt8(truncatingIfNeeded: low >> (8 * $0)) }
            let id = bytes.withUnsafeBufferPointer { NSUUID(uuidBytes: $0.baseAddress!) as UUID }
            #expect(UUID(storedText: id.uuidString) == id)
            #expect(UUID(storedText: id.lowercasedString) == id)

            var characters = Array(id.lowercasedString)
            characters[position] = spoiler!
            let spoiled = String(characters)
            let ours = UUID(storedText: spoiled)
            #expect(ours == nil || ours == UUID(uuidString: spoiled), "\(spoiled.debugDescription)")
            if spoiler!.isHexDigit, ![8, 13, 18, 23].contains(position) { #expect(ours != nil, "\(spoiled)") }
        }
    }

    @Test(arguments: [
        "", "0", "3f2a9c1b", "3f2a9c1b-0000-4000-8000-00000000000", "3f2a9c1b-0000-4000-8000-0000000000000",
        "3f2a9c1b00000-4000-8000-000000000000", "3f2a9c1b-0000-4000-8000-00000000000g", " 3f2a9c1-0000-4000-8000-000000000000",
        "+3f2a9c1-0000-4000-8000-000000000000", "3f2a9c1b-0000-4000-8000-00000000000é", "3f2a9c1b 0000 4000 8000 000000000000",
        "3f2a9c1b-0000-4000-8000-000000000000\n",
    ])
    func refusesAnythingElse(text: String) {
        #expect(UUID(storedText: text) == nil)
    }
}
