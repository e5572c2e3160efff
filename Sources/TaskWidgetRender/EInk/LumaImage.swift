/// An 8-bit gray picture: one luma byte a pixel (0 black … 255 white), row after row, top row
/// first, no padding. The first step of every e-ink encoding: Cairo's colors become luma here, and
/// the picture is turned here, before it is quantized to the display's bit depth.
struct LumaImage: Sendable, Hashable {
    let width: Int
    let height: Int
    /// `width × height` luma values, row after row.
    let pixels: [UInt8]

    init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(width > 0 && height > 0, "an image of \(width) × \(height) pixels")
        precondition(pixels.count == width * height, "\(pixels.count) pixels for \(width) × \(height)")
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// The luma of the pixels of a Cairo `RGB24` surface: `height` rows of `width` native-endian
    /// `0x00RRGGBB` words, `stride` bytes apart, starting at `data` (`cairo_image_surface_get_data`
    /// after `cairo_surface_flush`). The top byte of each word is ignored, as Cairo does.
    ///
    /// Luma is Rec. 601's, Y′ = 0.299 R′ + 0.587 G′ + 0.114 B′ on the gamma-encoded sRGB values,
    /// in integers: `(77 R + 150 G + 29 B + 128) >> 8`. It is what the current 1-bit encoder, PIL's
    /// `convert("L")` and ImageMagick's `Rec601Luma` compute, so white stays 255 and black 0.
    ///
    /// Reads exactly the bytes described; a `stride` shorter than `width × 4` traps.
    init(cairoRGB24 data: UnsafeRawPointer, width: Int, height: Int, stride: Int) {
        precondition(width > 0 && height > 0, "an image of \(width) × \(height) pixels")
        precondition(stride >= width * 4, "a stride of \(stride) bytes for \(width) pixels")
        var luma = [UInt8](repeating: 0, count: width * height)
        luma.withUnsafeMutableBufferPointer { output in
            for y in 0..<height {
                // Cairo rows are 4-byte aligned (cairo_format_stride_for_width), so the words are
                // aligned; loadUnaligned keeps this correct for any caller's buffer all the same.
                let row = data + y * stride
                let out = output.baseAddress! + y * width
                for x in 0..<width {
                    // Native-endian words, read as such: no byte order to care about.
                    out[x] = Self.luma(row.loadUnaligned(fromByteOffset: 4 * x, as: UInt32.self))
                }
            }
        }
        self.init(width: width, height: height, pixels: luma)
    }

    /// Rec. 601 luma of a `0x00RRGGBB` word, rounded: 0 for black, 255 for white.
    @inline(__always)
    static func luma(_ word: UInt32) -> UInt8 {
        let red = word >> 16 & 0xFF
        let green = word >> 8 & 0xFF
        let blue = word & 0xFF
        return UInt8(truncatingIfNeeded: (77 * red + 150 * green + 29 * blue + 128) >> 8)
    }

    /// This picture turned `rotation` clockwise (its width and height trade places at 90 and 270).
    func rotated(_ rotation: Rotation) -> LumaImage {
        let size = rotation.size(width: width, height: height)
        return LumaImage(width: size.width, height: size.height, pixels: rotation.apply(to: pixels, width: width, height: height))
    }
}
