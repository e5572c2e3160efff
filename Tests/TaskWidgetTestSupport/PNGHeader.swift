/// What a PNG's IHDR says, read by hand (not by the code under test): its size in pixels, bit
/// depth and color type.
struct PNGHeader: Equatable, Sendable {
    var width: Int
    var height: Int
    var bitDepth: Int
    var colorType: Int

    init(width: Int, height: Int, bitDepth: Int, colorType: Int) {
        self.width = width
        self.height = height
        self.bitDepth = bitDepth
        self.colorType = colorType
    }

    /// `nil` unless `bytes` are a whole PNG: the signature, IHDR first, and IEND last.
    init?(_ bytes: some Collection<UInt8>) {
        let bytes = Array(bytes)
        let iend: [UInt8] = Array("IEND".utf8)
        guard bytes.count > 45, bytes.prefix(8) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A],
            bytes[12..<16].elementsEqual("IHDR".utf8), Array(bytes.suffix(8).prefix(4)) == iend
        else { return nil }
        let integer = { (offset: Int) in bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) } }
        self.init(width: integer(16), height: integer(20), bitDepth: Int(bytes[24]), colorType: Int(bytes[25]))
    }
}
