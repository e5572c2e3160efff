import Foundation

/// Writes 1-bit ``GrayLevels`` as a BMP3 file the TRMNL firmware displays (firmware ≥ 1.5.2):
///
/// | Offset | Bytes | Field | Value |
/// |---|---|---|---|
/// | 0 | 14 | BITMAPFILEHEADER | `BM`, file size, 0, 0, pixel offset 62 |
/// | 14 | 40 | BITMAPINFOHEADER | size 40, width, height > 0 (bottom-up), 1 plane, 1 bit, BI_RGB, image size, 0, 0, 2 colors used, 0 important |
/// | 54 | 8 | palette | index 0 = black `00 00 00 00`, index 1 = white `FF FF FF 00` (B, G, R, reserved) |
/// | 62 | rows × stride | pixels | bottom row first, 1 bit a pixel, leftmost in the high bit, each row padded with zeros to 4 bytes |
///
/// So a set bit is white, as in a 1-bit gray PNG and the panel's own buffer. At 800 × 480 that is
/// exactly 14 + 40 + 8 + 480 × 100 = 48 062 bytes.
///
/// What the firmware (`lib/trmnl/src/bmp.cpp`, `src/display.cpp`) checks and assumes:
/// - width 800 and height +480 exactly (read as unsigned, so a top-down BMP with a negative
///   height fails) — other sizes encode fine here but TRMNL will not show them;
/// - 1 bit a pixel, `biSizeImage` = 48 000 (so it is always written, never 0);
/// - `biClrUsed` = 2 (current firmware also reads 0 as 2; older firmware refused 0);
/// - the palette is exactly black-then-white ("standard") or white-then-black ("reversed"); any
///   other bytes, even a non-zero reserved byte, fail;
/// - the pixels start at byte 62: it hands `image + 62` to the panel driver after flipping the
///   rows, and it does not apply the "reversed" flag (that code is disabled), so a white-first
///   palette would show inverted. Black first, set bit = white, is the only safe choice.
enum MonochromeBMPEncoder {
    /// The header and palette bytes before the pixels.
    static let pixelOffset = 14 + 40 + 8

    /// Bytes of one stored row of `width` pixels: whole 32-bit words.
    static func stride(width: Int) -> Int {
        (width + 31) / 32 * 4
    }

    /// The BMP of `image`, which must have depth 1.
    static func encode(_ image: GrayLevels) -> Data {
        precondition(image.depth == .one, "a BMP3 of \(image.depth.bits) bits: only 1-bit images are written")
        let stride = stride(width: image.width)
        let imageSize = stride * image.height
        precondition(pixelOffset + imageSize <= Int(Int32.max), "\(image.width) × \(image.height) is too large for a BMP")
        var bytes = [UInt8](repeating: 0, count: pixelOffset + imageSize)
        bytes.withUnsafeMutableBytes { file in
            func put16(_ value: Int, at offset: Int) {
                file.storeBytes(of: UInt16(value).littleEndian, toByteOffset: offset, as: UInt16.self)
            }
            func put32(_ value: Int, at offset: Int) {
                file.storeBytes(of: UInt32(truncatingIfNeeded: value).littleEndian, toByteOffset: offset, as: UInt32.self)
            }
            // BITMAPFILEHEADER
            file[0] = UInt8(ascii: "B")
            file[1] = UInt8(ascii: "M")
            put32(file.count, at: 2)  // bfSize
            put32(0, at: 6)  // bfReserved1, bfReserved2
            put32(pixelOffset, at: 10)  // bfOffBits
            // BITMAPINFOHEADER
            put32(40, at: 14)  // biSize
            put32(image.width, at: 18)  // biWidth
            put32(image.height, at: 22)  // biHeight: positive, bottom-up
            put16(1, at: 26)  // biPlanes
            put16(1, at: 28)  // biBitCount
            put32(0, at: 30)  // biCompression: BI_RGB
            put32(imageSize, at: 34)  // biSizeImage
            put32(0, at: 38)  // biXPelsPerMeter: unspecified
            put32(0, at: 42)  // biYPelsPerMeter
            put32(2, at: 46)  // biClrUsed: never 0 for TRMNL
            put32(0, at: 50)  // biClrImportant: all
            // The palette, B G R reserved: 0 black, 1 white.
            put32(0x0000_0000, at: 54)
            put32(0x00FF_FFFF, at: 58)
            // The rows, bottom first; the padding stays zero.
            let pixels = UnsafeMutableBufferPointer(
                start: file.baseAddress!.assumingMemoryBound(to: UInt8.self) + pixelOffset, count: imageSize)
            for y in 0..<image.height {
                let row = UnsafeMutableBufferPointer(rebasing: pixels[(image.height - 1 - y) * stride..<(image.height - y) * stride])
                image.pack(row: y, into: row)
            }
        }
        return Data(bytes)
    }
}
