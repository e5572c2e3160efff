internal import CLibPNG
import Foundation

/// How hard libpng works on a gray PNG.
struct PNGCompression: Sendable, Hashable {
    /// The row filters libpng may use.
    enum Filter: Sendable, Hashable {
        /// No filter (type 0 on every row). libpng's own default below 8 bits: the filters work on
        /// whole bytes, which hold 2 to 8 pixels there, and rarely pay.
        case none
        /// libpng picks one of all five filters for each row (its default for 8-bit gray).
        case adaptive
    }

    /// zlib's level: 0 (stored) to 9 (smallest).
    var level: Int
    var filter: Filter

    init(level: Int, filter: Filter) {
        precondition((0...9).contains(level), "zlib level \(level)")
        self.level = level
        self.filter = filter
    }

    /// The settings of taskwidget's existing color encoder: level 2, no filter. The fastest
    /// (about 1 ms at 800 × 480), 12–16 % larger than ``recommended``.
    static let fast = PNGCompression(level: 2, filter: .none)
    /// Level 6 without filters, at every depth: 11–14 % smaller than ``fast`` for 0.5–6 ms more
    /// at 800 × 480. Level 9 saves only 3–7 % more but takes 10–20 times as long (zlib's long
    /// match chains on repetitive rows: 13–100 ms at 800 × 480, up to 0.5 s at 1872 × 1404), and
    /// the adaptive filters make taskwidget's pictures larger at every depth, 8 bits included
    /// (they pay only on photos and gradients). Measurements in NOTES.md.
    static let recommended = PNGCompression(level: 6, filter: .none)
    /// Level 9 without filters: the smallest files for widgets, slowly.
    static let smallest = PNGCompression(level: 9, filter: .none)
}

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
///   `PNG_USER_WIDTH_MAX`/`PNG_USER_HEIGHT_MAX`), the compression level is checked in
///   ``PNGCompression``, and every row has the byte count the header announces;
/// - output goes to a Swift buffer through a write callback that cannot fail;
/// - what is left is running out of memory, on which libpng aborts, as Swift itself would.
enum GrayPNGEncoder {
    /// libpng's limits on each side (its default user limits).
    static let maximumSide = 1_000_000

    /// The PNG of `image`. The same image and settings always give the same bytes.
    static func encode(_ image: GrayLevels, compression: PNGCompression) -> Data {
        precondition(image.width <= maximumSide && image.height <= maximumSide, "\(image.width) × \(image.height) is too large for libpng")
        var png = png_create_write_struct(PNG_LIBPNG_VER_STRING, nil, nil, { _, _ in })
        var info = png_create_info_struct(png)
        defer { png_destroy_write_struct(&png, &info) }
        let rowBytes = image.depth.bytesPerRow(width: image.width)
        let sink = ByteSink(capacity: rowBytes * image.height / 4 + 1024)
        png_set_write_fn(
            png, Unmanaged.passUnretained(sink).toOpaque(),
            { png, bytes, count in
                let sink = Unmanaged<ByteSink>.fromOpaque(png_get_io_ptr(png)!).takeUnretainedValue()
                sink.bytes.append(contentsOf: UnsafeBufferPointer(start: bytes, count: count))
            }, nil)
        let filters: Int32 =
            switch compression.filter {
            case .none: PNG_FILTER_NONE
            case .adaptive: PNG_FILTER_NONE | PNG_FILTER_SUB | PNG_FILTER_UP | PNG_FILTER_AVG | PNG_FILTER_PAETH
            }
        png_set_filter(png, 0, filters)
        png_set_compression_level(png, Int32(compression.level))
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
        return Data(sink.bytes)
    }

    /// Collects libpng's output.
    private final class ByteSink {
        var bytes: [UInt8] = []

        init(capacity: Int) { bytes.reserveCapacity(capacity) }
    }
}
