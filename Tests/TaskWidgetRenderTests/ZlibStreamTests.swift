import CLibPNG
import Foundation
import Testing

@testable import TaskWidgetRender
@testable import TaskWidgetTestSupport

/// The PNG encoder's zlib stream, made of parts compressed at once, is one valid stream: zlib's
/// own inflate (which checks the Adler-32) gives back every row, whatever the number of parts.
@Suite struct ZlibStreamTests {
    /// Rows like a widget's: long runs of one color, and noise that deflate cannot shorten.
    static func rows(count: Int, bytes: Int) -> [[UInt8]] {
        var random = SplitMix64(seed: 7)
        return (0..<count).map { row in
            (0..<bytes).map { column in row % 5 == 0 ? UInt8.random(in: 0...255, using: &random) : UInt8(truncatingIfNeeded: column / 64 + row / 7) }
        }
    }

    static func compress(_ rows: [[UInt8]], parts: Int) -> [UInt8] {
        ZlibStream.compress(rowCount: rows.count, rowBytes: rows[0].count, level: 2, parts: parts) { index, output in
            _ = output.update(fromContentsOf: rows[index])
        }
    }

    static func inflate(_ stream: [UInt8], size: Int) -> [UInt8]? {
        var output = [UInt8](repeating: 0, count: size)
        var length = UInt(size)
        guard uncompress(&output, &length, stream, UInt(stream.count)) == Z_OK, length == UInt(size) else { return nil }
        return output
    }

    @Test(arguments: [1, 2, 3, 7])
    func everyNumberOfPartsInflatesToTheRows(parts: Int) throws {
        let rows = Self.rows(count: 340, bytes: 2913)
        let stream = Self.compress(rows, parts: parts)
        #expect(Self.inflate(stream, size: 340 * 2913) == Array(rows.joined()))
        #expect(stream.count < 340 * 2913 / 2, "the runs compress")
    }

    @Test func theSecondPartFindsMatchesInTheFirst() {
        // Rows that repeat from the middle on: with the first half as its dictionary, the second
        // half is all matches.
        let half = Self.rows(count: 40, bytes: 800)
        let rows = half + half
        let whole = Self.compress(rows, parts: 1).count
        let split = Self.compress(rows, parts: 2).count
        #expect(split < whole + whole / 20, "two parts: \(split) bytes, one: \(whole)")
    }

    /// The parts' checksums are combined into the one of all rows, as one piece would have it.
    @Test(arguments: [2, 3, 7])
    func theStreamEndsWithTheChecksumOfAllRows(parts: Int) {
        let rows = Self.rows(count: 64, bytes: 1000)
        let stream = Self.compress(rows, parts: parts)
        let expected = Array(rows.joined()).withUnsafeBufferPointer { adler32(1, $0.baseAddress, UInt32($0.count)) }
        let trailer = stream.suffix(4).reduce(UInt(0)) { $0 << 8 | UInt($1) }
        #expect(trailer == expected)
    }

    /// Parts keep zlib's state and buffers for the next stream, reset: a stream made again after
    /// streams of other widths and part counts has the same bytes as the first time.
    @Test func aStreamIsTheSameAfterOthers() {
        let rows = Self.rows(count: 120, bytes: 1500)
        let first = Self.compress(rows, parts: 2)
        _ = Self.compress(Self.rows(count: 50, bytes: 4000), parts: 3)
        _ = Self.compress(Self.rows(count: 30, bytes: 200), parts: 1)
        #expect(Self.compress(rows, parts: 2) == first)
        #expect(Self.inflate(first, size: 120 * 1500) == Array(rows.joined()))
    }
}
