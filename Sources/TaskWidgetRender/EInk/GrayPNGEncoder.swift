internal import CLibPNG
import Foundation

/// Writes ``GrayLevels`` as a grayscale PNG (color type 0) whose header's bit depth is the image's
/// depth: 1, 2, 4 or 8, really (TRMNL rejects an 8-bit PNG on a 4-bit device). Rows are packed
/// most significant bits first, no interlacing, and only the critical chunks (IHDR, IDAT, IEND).
///
/// libpng reports errors by `longjmp`, which Swift cannot catch (and `setjmp` cannot be called
/// from Swift), so, like taskwidget's `PNGEncoder`, this encoder never lets an error happen:
/// - it sets no error handler and no `setjmp` point, so an error would make libpng `abort()`
///   (its `PNG_ABORT` when no jump buffer is set) instead of unwinding Swift frames;
/// - warnings go to a callback that ignores them;
/// - the only header values libpng checks are valid by construction (``GrayLevels`` has a
///   positive size and a PNG depth) and by precondition (at most 1 000 000 pixels a side, libpng's
///   `PNG_USER_WIDTH_MAX`/`PNG_USER_HEIGHT_MAX`), and every row has the byte count the header
///   announces;
/// - output goes to a Swift buffer (``LibPNGOutput``) through a write callback that cannot fail;
/// - what is left is running out of memory, on which libpng aborts, as Swift itself would.
enum GrayPNGEncoder {
    /// libpng's limits on each side (its default user limits).
    static let maximumSide = 1_000_000

    /// zlib's level, with no row filters, at every depth. Measured at 800 × 480 on taskwidget's
    /// widgets: 11–14 % smaller than level 2 (``PNGEncoder``'s, about 1 ms) for 0.5–6 ms more.
    /// Level 9 saves only 3–7 % more but takes 10–20 times as long (zlib's long match chains on
    /// repetitive rows: 13–100 ms, up to 0.5 s at 1872 × 1404), and libpng's adaptive filters make
    /// these pictures larger at every depth, 8 bits included (they pay on photos and gradients).
    static let compressionLevel: Int32 = 6

    /// The PNG of `image`. The same image always gives the same bytes.
    static func encode(_ image: GrayLevels) -> Data {
        precondition(image.width <= maximumSide && image.height <= maximumSide, "\(image.width) × \(image.height) is too large for libpng")
        let rowBytes = image.depth.bytesPerRow(width: image.width)
        let output = LibPNGOutput(capacity: rowBytes * image.height / 4 + 1024)
        let (png, info) = (output.png, output.info)
        png_set_filter(png, 0, PNG_FILTER_NONE)
        png_set_compression_level(png, compressionLevel)
        png_set_IHDR(
            png, info, png_uint_32(image.width), png_uint_32(image.height), Int32(image.depth.bits), PNG_COLOR_TYPE_GRAY,
            PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT)
        png_write_info(png, info)
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: rowBytes) { row in
            for y in 0..<image.height {
                image.pack(row: y, into: row)
                png_write_row(png, row.baseAddress)
            }
        }
        png_write_end(png, nil)
        return output.data
    }
}
