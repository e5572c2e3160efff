internal import CPangoCairo
import Foundation
import Testing

@testable import TaskWidgetRender

/// The PNG encoder writes the pixels Cairo's own writer writes: premultiplied `ARGB32` made
/// straight, at every alpha, and opaque `RGB24` in R, G, B order, for widths that are not a
/// multiple of the four pixels the encoder converts at once.
@Suite struct PNGEncoderTests {
    @Test(arguments: [1, 5, 257])
    func argbPixelsAreCairosAtEveryAlpha(width: Int) throws {
        // Every alpha, each with colors from 0 to the alpha (premultiplied), runs of opaque and
        // transparent pixels among them.
        var words: [UInt32] = []
        for alpha in UInt32(0)...255 {
            let (red, green, blue) = (alpha, alpha / 2, alpha * 37 % (alpha + 1))
            words.append(alpha << 24 | red << 16 | green << 8 | blue)
            words += Array(repeating: alpha % 3 == 0 ? 0xFF12_3456 : 0, count: Int(alpha % 7))
        }
        try expectCairosPixels(words: words, width: width, format: CAIRO_FORMAT_ARGB32, pixels: .argb)
    }

    @Test(arguments: [1, 5, 257])
    func rgbPixelsAreCairos(width: Int) throws {
        let words = (UInt32(0)..<2000).map { $0 &* 2_654_435_761 }  // all sorts of colors, and garbage in the top byte
        try expectCairosPixels(words: words, width: width, format: CAIRO_FORMAT_RGB24, pixels: .rgb)
    }

    /// `words` as rows of `width` pixels in a Cairo surface of `format`, encoded by ours and by
    /// Cairo's writer, decode to the same pixels.
    private func expectCairosPixels(words: [UInt32], width: Int, format: cairo_format_t, pixels: PNGEncoder.Pixels) throws {
        let height = (words.count + width - 1) / width
        let surface = cairo_image_surface_create(format, Int32(width), Int32(height))!
        defer { cairo_surface_destroy(surface) }
        cairo_surface_flush(surface)
        let data = cairo_image_surface_get_data(surface)!
        let stride = Int(cairo_image_surface_get_stride(surface))
        for (index, word) in words.enumerated() {
            UnsafeMutableRawPointer(data).storeBytes(of: word, toByteOffset: index / width * stride + index % width * 4, as: UInt32.self)
        }
        cairo_surface_mark_dirty(surface)

        let ours = PNGEncoder.encode(data, width: width, height: height, stride: stride, pixels: pixels)
        let cairoFile = FileManager.default.temporaryDirectory.appendingPathComponent("taskwidget-png-\(UUID().uuidString).png")
        defer { try? FileManager.default.removeItem(at: cairoFile) }
        try #require(cairo_surface_write_to_png(surface, cairoFile.path) == CAIRO_STATUS_SUCCESS)
        let theirs = try DecodedImage(png: Data(contentsOf: cairoFile))
        let decoded = try DecodedImage(png: ours)
        try #require((decoded.width, decoded.height) == (width, height))
        let differing = decoded.rgba.indices.first { decoded.rgba[$0] != theirs.rgba[$0] }.map { ($0 / 4 % width, $0 / 4 / width) }
        if let (x, y) = differing {
            Issue.record("pixel (\(x), \(y)): ours \(decoded.pixel(x, y)), Cairo's \(theirs.pixel(x, y))")
        }
    }
}
