internal import CLibPNG
import Foundation

/// Encodes Cairo image data as PNG with libpng, for speed: no filter and zlib level 2. Cairo's own
/// writer tries every filter on every row, which costs most of a frame; the pixels are the same.
///
/// libpng reports errors by `longjmp`, which Swift cannot catch. The only errors possible here are
/// header values out of range (``WidgetSize`` and the scale keep them in range) and running out of
/// memory, on which libpng aborts as Swift itself would.
enum PNGEncoder {
    /// What the rows hold and how they are written.
    enum Pixels {
        /// Cairo `ARGB32`: premultiplied, native-endian words; written as RGBA, un-premultiplied.
        case argb
        /// Cairo `RGB24`: opaque, native-endian words; written as RGB straight from Cairo's rows.
        case rgb
        /// Cairo `RGB24` that is black and white but for emoji; written as 1-bit grayscale.
        case blackAndWhite
    }

    static let compressionLevel: Int32 = 2

    /// The PNG of `height` rows of `width` pixels, `stride` bytes apart, starting at `data`.
    static func encode(_ data: UnsafePointer<UInt8>, width: Int, height: Int, stride: Int, pixels: Pixels) -> Data {
        var png = png_create_write_struct(PNG_LIBPNG_VER_STRING, nil, nil, { _, _ in })
        var info = png_create_info_struct(png)
        defer { png_destroy_write_struct(&png, &info) }
        let sink = ByteSink(capacity: width * height + 4096)
        png_set_write_fn(png, Unmanaged.passUnretained(sink).toOpaque(), { png, bytes, count in
            let sink = Unmanaged<ByteSink>.fromOpaque(png_get_io_ptr(png)!).takeUnretainedValue()
            sink.bytes.append(contentsOf: UnsafeBufferPointer(start: bytes, count: count))
        }, nil)
        png_set_filter(png, 0, PNG_FILTER_NONE)
        png_set_compression_level(png, compressionLevel)
        let (colorType, depth): (Int32, Int32) =
            switch pixels {
            case .argb: (PNG_COLOR_TYPE_RGB_ALPHA, 8)
            case .rgb: (PNG_COLOR_TYPE_RGB, 8)
            case .blackAndWhite: (PNG_COLOR_TYPE_GRAY, 1)
            }
        png_set_IHDR(
            png, info, png_uint_32(width), png_uint_32(height), depth, colorType, PNG_INTERLACE_NONE,
            PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT)
        png_write_info(png, info)
        // Cairo's words are 0xAARRGGBB in native byte order: B, G, R, A in memory on the
        // little-endian machines Linux runs on.
        precondition(UInt32(1).littleEndian == 1, "the PNG encoder assumes a little-endian machine")
        if pixels == .rgb {
            png_set_bgr(png)
            png_set_filler(png, 0, PNG_FILLER_AFTER)
            for row in 0..<height {
                png_write_row(png, data + row * stride)
            }
        } else {
            var converted = [UInt8](repeating: 0, count: pixels == .argb ? width * 4 : (width + 7) / 8)
            for row in 0..<height {
                let words = UnsafeRawPointer(data + row * stride).assumingMemoryBound(to: UInt32.self)
                converted.withUnsafeMutableBufferPointer { output in
                    if pixels == .argb {
                        unpremultiply(words, width: width, into: output)
                    } else {
                        threshold(words, width: width, into: output)
                    }
                    png_write_row(png, output.baseAddress)
                }
            }
        }
        png_write_end(png, nil)
        return Data(sink.bytes)
    }

    /// Premultiplied `0xAARRGGBB` words to straight R, G, B, A bytes.
    private static func unpremultiply(_ words: UnsafePointer<UInt32>, width: Int, into output: UnsafeMutableBufferPointer<UInt8>) {
        for x in 0..<width {
            let word = words[x]
            let alpha = word >> 24
            var (red, green, blue) = (word >> 16 & 0xFF, word >> 8 & 0xFF, word & 0xFF)
            if alpha != 0xFF && alpha != 0 {
                red = (red * 255 + alpha / 2) / alpha
                green = (green * 255 + alpha / 2) / alpha
                blue = (blue * 255 + alpha / 2) / alpha
            }
            output[4 * x] = UInt8(truncatingIfNeeded: red)
            output[4 * x + 1] = UInt8(truncatingIfNeeded: green)
            output[4 * x + 2] = UInt8(truncatingIfNeeded: blue)
            output[4 * x + 3] = UInt8(truncatingIfNeeded: alpha)
        }
    }

    /// `0x00RRGGBB` words to 1-bit gray, 8 pixels a byte, the first in the high bit. A mono widget
    /// draws everything in black without antialiasing, so only color emoji bitmaps have other
    /// colors: any pixel that is not (nearly) white turns black, and emoji become silhouettes.
    private static func threshold(_ words: UnsafePointer<UInt32>, width: Int, into output: UnsafeMutableBufferPointer<UInt8>) {
        output.update(repeating: 0)
        for x in 0..<width {
            let word = words[x]
            // Rec. 601 luma in 1/256ths: 77 R + 150 G + 29 B.
            let luma = 77 * (word >> 16 & 0xFF) + 150 * (word >> 8 & 0xFF) + 29 * (word & 0xFF)
            if luma >= 240 * 256 { output[x / 8] |= 0x80 >> UInt8(x % 8) }
        }
    }

    /// Collects libpng's output.
    private final class ByteSink {
        var bytes: [UInt8] = []

        init(capacity: Int) { bytes.reserveCapacity(capacity) }
    }
}
