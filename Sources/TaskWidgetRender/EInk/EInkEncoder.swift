import Foundation

/// What an e-ink image looks like on disk: its bit depth, how grays become levels, its turn.
struct EInkImageOptions: Sendable, Hashable {
    var depth: GrayDepth
    var quantizer: GrayQuantizer
    var rotation: Rotation

    /// Defaults: ``GrayQuantizer/textSafe``, no rotation.
    init(depth: GrayDepth, quantizer: GrayQuantizer = .textSafe, rotation: Rotation = .none) {
        self.depth = depth
        self.quantizer = quantizer
        self.rotation = rotation
    }
}

/// Encodes the pixels of a drawn Cairo `RGB24` surface for e-ink displays: a gray PNG of 1, 2, 4
/// or 8 bits, or a 1-bit BMP3 for TRMNL. Each call is a pure function of the pixels and options:
/// luma (``LumaImage``), then the turn (``Rotation``), then the levels (``GrayQuantizer``), then
/// the file (``GrayPNGEncoder``, ``MonochromeBMPEncoder``). Nothing is shared between calls, so
/// calls may run on any threads at once.
///
/// ```swift
/// cairo_surface_flush(surface)
/// let png = EInkEncoder.png(
///     cairoRGB24: cairo_image_surface_get_data(surface), width: 800, height: 480,
///     stride: Int(cairo_image_surface_get_stride(surface)), options: EInkImageOptions(depth: .one))
/// ```
enum EInkEncoder {
    /// A grayscale PNG whose IHDR bit depth is `options.depth`.
    static func png(
        cairoRGB24 data: UnsafeRawPointer, width: Int, height: Int, stride: Int, options: EInkImageOptions
    ) -> Data {
        let levels = levels(cairoRGB24: data, width: width, height: height, stride: stride, options: options)
        return GrayPNGEncoder.encode(levels)
    }

    /// A 1-bit BMP3 (`options.depth` must be ``GrayDepth/one``). TRMNL
    /// shows it only at 800 × 480 after the rotation.
    static func bmp(
        cairoRGB24 data: UnsafeRawPointer, width: Int, height: Int, stride: Int, options: EInkImageOptions
    ) -> Data {
        precondition(options.depth == .one, "a BMP3 has 1 bit a pixel here, not \(options.depth.bits)")
        let levels = levels(cairoRGB24: data, width: width, height: height, stride: stride, options: options)
        return MonochromeBMPEncoder.encode(levels)
    }

    /// The levels both encoders pack: luma, turned, quantized.
    static func levels(
        cairoRGB24 data: UnsafeRawPointer, width: Int, height: Int, stride: Int, options: EInkImageOptions
    ) -> GrayLevels {
        let luma = LumaImage(cairoRGB24: data, width: width, height: height, stride: stride).rotated(options.rotation)
        return options.quantizer.quantize(luma, to: options.depth)
    }
}
