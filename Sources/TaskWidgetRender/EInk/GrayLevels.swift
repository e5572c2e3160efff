/// The bits per pixel of a gray e-ink image: 2^depth levels from black to white.
///
/// TRMNL's OG panel shows 1 bit (2 bits from firmware 1.6.0), the TRMNL X 4 bits; Kindles take
/// 8-bit gray. PNG allows exactly these gray depths (and 16).
enum GrayDepth: Int, Sendable, Hashable, CaseIterable {
    case one = 1
    case two = 2
    case four = 4
    case eight = 8

    /// Bits per pixel.
    var bits: Int { rawValue }

    /// The brightest level, white: 1, 3, 15 or 255. Level `l` is the gray `l × 255 / maxLevel`,
    /// an integer because every `maxLevel` divides 255.
    var maxLevel: Int { (1 << rawValue) - 1 }

    /// How far apart two neighboring levels are in luma: 255, 85, 17 or 1.
    var step: Int { 255 / maxLevel }

    /// The nearest level to `luma`, ties going to the brighter level.
    @inline(__always)
    func nearestLevel(_ luma: Int) -> Int {
        (2 * luma * maxLevel + 255) / 510
    }

    /// The bytes of one row of `width` pixels packed at this depth, before any padding.
    func bytesPerRow(width: Int) -> Int {
        (width * bits + 7) / 8
    }
}

/// A gray picture quantized to a ``GrayDepth``: one level a pixel, 0 black to
/// ``GrayDepth/maxLevel`` white, row after row, top row first. What the PNG and BMP encoders pack.
struct GrayLevels: Sendable, Hashable {
    let width: Int
    let height: Int
    let depth: GrayDepth
    /// `width × height` levels, each in `0...depth.maxLevel`.
    let levels: [UInt8]

    init(width: Int, height: Int, depth: GrayDepth, levels: [UInt8]) {
        precondition(width > 0 && height > 0, "an image of \(width) × \(height) pixels")
        precondition(levels.count == width * height, "\(levels.count) pixels for \(width) × \(height)")
        precondition(depth == .eight || levels.allSatisfy { Int($0) <= depth.maxLevel }, "a level above \(depth.maxLevel)")
        self.width = width
        self.height = height
        self.depth = depth
        self.levels = levels
    }

    /// The level of the pixel at column `x`, row `y`.
    subscript(x: Int, y: Int) -> UInt8 { levels[y * width + x] }

    /// The levels as 8-bit gray (`level × 255 / maxLevel`), as a decoder shows them.
    var luma: LumaImage {
        let step = UInt8(depth.step)
        return LumaImage(width: width, height: height, pixels: levels.map { $0 &* step })
    }

    /// Packs row `y` the way PNG and BMP store it: `depth` bits a pixel, the leftmost pixel in the
    /// most significant bits of the first byte, unused low bits of the last byte zero. Writes
    /// ``GrayDepth/bytesPerRow(width:)`` bytes at the start of `output` and leaves the rest alone.
    func pack(row y: Int, into output: UnsafeMutableBufferPointer<UInt8>) {
        let count = depth.bytesPerRow(width: width)
        precondition(output.count >= count, "\(output.count) bytes for a row of \(count)")
        levels.withUnsafeBufferPointer { all in
            let row = all.baseAddress! + y * width
            let out = output.baseAddress!
            if depth == .eight {
                out.update(from: row, count: width)
                return
            }
            let bits = depth.bits
            let perByte = 8 / bits
            var x = 0
            for index in 0..<count {
                var byte: UInt8 = 0
                for slot in 0..<perByte {
                    byte <<= UInt8(bits)
                    if x + slot < width { byte |= row[x + slot] }
                }
                out[index] = byte
                x += perByte
            }
        }
    }
}
