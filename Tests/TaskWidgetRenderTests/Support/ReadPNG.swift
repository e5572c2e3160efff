import CLibPNG
import Foundation
import Testing

@testable import TaskWidgetRender

/// A PNG read back without the code under test: the chunks parsed by hand, the pixels decoded
/// by libpng's simplified API to 8-bit gray.
struct ReadPNG {
    struct Header: Equatable {
        var width: Int
        var height: Int
        var bitDepth: Int
        var colorType: Int
        var compression: Int
        var filter: Int
        var interlace: Int
    }

    var header: Header
    /// The chunk types in file order.
    var chunks: [String]
    /// One byte a pixel, 0 black … 255 white.
    var gray: [UInt8]

    init(_ png: Data, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let bytes = [UInt8](png)
        try #require(Array(bytes.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], "PNG signature", sourceLocation: sourceLocation)
        func u32(_ offset: Int) -> Int {
            Int(bytes[offset]) << 24 | Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
        }
        var chunks: [String] = []
        var offset = 8
        var header: Header?
        while offset + 8 <= bytes.count {
            let length = u32(offset)
            let type = String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self)
            chunks.append(type)
            if type == "IHDR" {
                let data = offset + 8
                header = Header(
                    width: u32(data), height: u32(data + 4), bitDepth: Int(bytes[data + 8]), colorType: Int(bytes[data + 9]),
                    compression: Int(bytes[data + 10]), filter: Int(bytes[data + 11]), interlace: Int(bytes[data + 12]))
            }
            offset += 12 + length
        }
        try #require(offset == bytes.count, "chunks end at the end of the file", sourceLocation: sourceLocation)
        self.header = try #require(header, "an IHDR chunk", sourceLocation: sourceLocation)
        self.chunks = chunks

        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        let begun = png.withUnsafeBytes { png_image_begin_read_from_memory(&image, $0.baseAddress, $0.count) }
        try #require(begun != 0, "libpng reads the header", sourceLocation: sourceLocation)
        image.format = UInt32(PNG_FORMAT_GRAY)
        var gray = [UInt8](repeating: 0, count: Int(image.width) * Int(image.height))
        let finished = gray.withUnsafeMutableBytes { png_image_finish_read(&image, nil, $0.baseAddress, 0, nil) }
        try #require(finished != 0, "libpng decodes the pixels", sourceLocation: sourceLocation)
        self.gray = gray
    }
}

extension LumaImage {
    /// A luma image from a Cairo-style buffer.
    init(_ pixels: CairoPixels) {
        self = pixels.withData { LumaImage(cairoRGB24: $0, width: pixels.width, height: pixels.height, stride: pixels.stride) }
    }
}

/// Every quantizer preset, by name.
let allQuantizers: [(String, GrayQuantizer)] = [
    ("nearest", .nearest), ("localThreshold", .localThreshold), ("textSafe", .textSafe), ("ordered", .ordered),
]
