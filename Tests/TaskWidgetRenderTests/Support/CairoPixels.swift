internal import CLibPNG
internal import CPangoCairo
import Foundation
import Synchronization

/// The pixels of a Cairo `RGB24` surface, copied out: `height` rows of `width` native-endian
/// `0x00RRGGBB` words, `stride` bytes apart. What the encoders get from a drawn surface.
struct CairoPixels: Sendable {
    let width: Int
    let height: Int
    let stride: Int
    let bytes: [UInt8]

    init(width: Int, height: Int, stride: Int, bytes: [UInt8]) {
        precondition(bytes.count >= stride * height)
        self.width = width
        self.height = height
        self.stride = stride
        self.bytes = bytes
    }

    /// Calls `body` with the first byte, as the encoders take it.
    func withData<Result>(_ body: (UnsafeRawPointer) throws -> Result) rethrows -> Result {
        try bytes.withUnsafeBytes { try body($0.baseAddress!) }
    }

    /// The word (`0x00RRGGBB`) at column `x`, row `y`.
    subscript(x: Int, y: Int) -> UInt32 {
        bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: y * stride + 4 * x, as: UInt32.self) & 0x00FF_FFFF }
    }

    /// Pixels from `0x00RRGGBB` words, `width` a row, with `padding` spare bytes (filled with
    /// 0xAB, which the encoders must ignore) after each row.
    init(width: Int, height: Int, words: [UInt32], padding: Int = 0) {
        precondition(words.count == width * height)
        let stride = width * 4 + padding
        var bytes = [UInt8](repeating: 0xAB, count: stride * height)
        bytes.withUnsafeMutableBytes { raw in
            for y in 0..<height {
                for x in 0..<width {
                    // Cairo keeps the unused top byte; put garbage there too.
                    raw.storeBytes(of: words[y * width + x] | 0x5A00_0000, toByteOffset: y * stride + 4 * x, as: UInt32.self)
                }
            }
        }
        self.init(width: width, height: height, stride: stride, bytes: bytes)
    }

    /// A PNG file (say one `taskwidget render` wrote), decoded by libpng's simplified API onto
    /// white and laid out as a Cairo `RGB24` surface (4-byte words, stride `width × 4`).
    init(png: Data) throws {
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        guard png.withUnsafeBytes({ png_image_begin_read_from_memory(&image, $0.baseAddress, $0.count) }) != 0 else {
            throw FixtureError("not a PNG")
        }
        // B, G, R, A in memory: a native 0xAARRGGBB word on a little-endian machine.
        image.format = UInt32(PNG_FORMAT_FLAG_COLOR | PNG_FORMAT_FLAG_ALPHA | PNG_FORMAT_FLAG_BGR)
        let (width, height) = (Int(image.width), Int(image.height))
        var bytes = [UInt8](repeating: 0, count: width * height * 4)
        guard bytes.withUnsafeMutableBytes({ png_image_finish_read(&image, nil, $0.baseAddress, 0, nil) }) != 0 else {
            throw FixtureError("cannot decode the PNG")
        }
        precondition(UInt32(1).littleEndian == 1, "the fixtures assume a little-endian machine")
        self.init(width: width, height: height, stride: width * 4, bytes: bytes)
    }

    /// Writes these pixels as an 8-bit RGB PNG with Cairo, to look at.
    func writePNG(to url: URL) throws {
        let copy = bytes
        try copy.withUnsafeBytes { raw in
            let surface = cairo_image_surface_create_for_data(
                UnsafeMutablePointer(mutating: raw.baseAddress!.assumingMemoryBound(to: UInt8.self)), CAIRO_FORMAT_RGB24,
                Int32(width), Int32(height), Int32(stride))!
            defer { cairo_surface_destroy(surface) }
            guard cairo_surface_write_to_png(surface, url.path) == CAIRO_STATUS_SUCCESS else {
                throw FixtureError("cannot write \(url.path)")
            }
        }
    }
}

struct FixtureError: Error, CustomStringConvertible {
    var description: String

    init(_ description: String) { self.description = description }
}

/// Pango and fontconfig objects are not thread-safe and Swift Testing runs tests in parallel:
/// every drawing holds this lock.
let drawingLock = Mutex(())
