import Testing

@testable import TaskWidgetCore

/// ETags, TRMNL file names and names already stored on CalDAV servers depend on these values
/// never changing.
@Suite struct FNV1aTests {
    @Test(arguments: [("", 0xcbf2_9ce4_8422_2325 as UInt64), ("a", 0xaf63_dc4c_8601_ec8c), ("foobar", 0x8594_4171_f739_67e8)])
    func matchesFNV1aTestVectors(text: String, hash: UInt64) {
        #expect(FNV1a.value(of: text.utf8) == hash)
        #expect(FNV1a.hex(of: text.utf8) == String(hash, radix: 16))
    }

    /// Contiguous bytes take a faster loop than other sequences: both give the same hash.
    @Test(arguments: ["", "a", "foobar"])
    func bytesInMemoryAndOtherSequencesHashAlike(text: String) {
        let contiguous = Array(text.utf8)
        let elsewhere = text.utf8.lazy.map { $0 }
        #expect(contiguous.withContiguousStorageIfAvailable { _ in true } == true)
        #expect(elsewhere.withContiguousStorageIfAvailable { _ in true } == nil)
        #expect(FNV1a.value(of: elsewhere) == FNV1a.value(of: contiguous))
        #expect(contiguous.withUnsafeBufferPointer { FNV1a.hex(of: $0) } == FNV1a.hex(of: elsewhere))
    }

    @Test func aShortHashIsZeroPaddedToSixteenDigits() {
        var hash = FNV1a(offsetBasis: 0xabc)
        hash.combine([])
        #expect(hash.hex == "0000000000000abc")
    }

    @Test func anotherOffsetBasisIsAnotherHash() {
        #expect(FNV1a.value(of: "a".utf8, offsetBasis: 0x6c62_272e_07bb_0142) != FNV1a.value(of: "a".utf8))
    }

    @Test func combiningInPiecesIsHashingTheWhole() {
        var hash = FNV1a()
        hash.combine("foo".utf8)
        hash.combine("bar".utf8)
        #expect(hash.value == FNV1a.value(of: "foobar".utf8))
    }
}
