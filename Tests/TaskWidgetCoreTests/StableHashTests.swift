import Testing

@testable import TaskWidgetCore

/// Names already stored on CalDAV servers depend on these values never changing.
@Suite struct StableHashTests {
    @Test(arguments: [("", 0xcbf2_9ce4_8422_2325 as UInt64), ("a", 0xaf63_dc4c_8601_ec8c), ("foobar", 0x8594_4171_f739_67e8)])
    func matchesFNV1aTestVectors(text: String, hash: UInt64) {
        #expect(StableHash.fnv1a(text) == hash)
    }

    @Test func anotherOffsetIsAnotherHash() {
        #expect(StableHash.fnv1a("a", offset: 0x6c62_272e_07bb_0142) != StableHash.fnv1a("a"))
    }
}
