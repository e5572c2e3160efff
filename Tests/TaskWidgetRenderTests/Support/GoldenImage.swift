import CLibPNG
import Foundation
import Testing

@testable import TaskWidgetTestSupport

/// A decoded PNG: straight (not premultiplied) RGBA, 4 bytes a pixel, row after row. Decoded by
/// libpng's simplified API, not by the code under test.
struct DecodedImage {
    var width: Int
    var height: Int
    var rgba: [UInt8]

    init(png: Data, sourceLocation: SourceLocation = #_sourceLocation) throws {
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        let begun = png.withUnsafeBytes { png_image_begin_read_from_memory(&image, $0.baseAddress, $0.count) }
        try #require(begun != 0, "not a PNG: \(Self.message(of: image))", sourceLocation: sourceLocation)
        image.format = UInt32(PNG_FORMAT_FLAG_COLOR | PNG_FORMAT_FLAG_ALPHA)  // PNG_FORMAT_RGBA
        width = Int(image.width)
        height = Int(image.height)
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        let finished = pixels.withUnsafeMutableBytes { png_image_finish_read(&image, nil, $0.baseAddress, 0, nil) }
        try #require(finished != 0, "cannot decode the PNG: \(Self.message(of: image))", sourceLocation: sourceLocation)
        rgba = pixels
    }

    /// libpng's error message.
    private static func message(of image: png_image) -> String {
        withUnsafeBytes(of: image.message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }

    /// The pixel at (x, y) as R, G, B, A.
    func pixel(_ x: Int, _ y: Int) -> (UInt8, UInt8, UInt8, UInt8) {
        let offset = (y * width + x) * 4
        return (rgba[offset], rgba[offset + 1], rgba[offset + 2], rgba[offset + 3])
    }
}

/// Golden PNGs next to the tests, compared pixel by pixel with a tolerance (fonts and rasterizers
/// move edges by a shade): a pixel differs when a channel is off by more than `channelTolerance`,
/// and an image may have `pixelBudget` differing pixels (per mille of its pixels, at least 16).
/// Re-record with `TASKWIDGET_RECORD_GOLDENS=1 swift test --filter TaskWidgetRenderTests`.
enum GoldenImage {
    static let channelTolerance = 24
    static let budgetPerMille = 2

    static func compare(_ png: Data, toGolden name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let url = RenderFixture.folder.appendingPathComponent("Goldens/\(name).png")
        if try GoldenFile.record(png, at: url, sourceLocation: sourceLocation) { return }
        guard let expectedData = GoldenFile.expected(at: url, suite: "TaskWidgetRenderTests", sourceLocation: sourceLocation) else {
            return
        }
        let expected = try DecodedImage(png: expectedData, sourceLocation: sourceLocation)
        let actual = try DecodedImage(png: png, sourceLocation: sourceLocation)
        let differing = differingPixels(expected, actual)
        let budget = max(16, expected.width * expected.height * budgetPerMille / 1000)
        guard differing > budget else { return }
        let actualURL = FileManager.default.temporaryDirectory.appendingPathComponent("taskwidget-goldens-\(getpid())/\(name).actual.png")
        try FileManager.default.createDirectory(at: actualURL.deletingLastPathComponent(), withIntermediateDirectories: true)
        try png.write(to: actualURL)
        Issue.record(
            """
            \(name).png: \(differing) pixels differ by more than \(channelTolerance) (budget \(budget)); the actual image is \
            \(actualURL.path). If the change is intended: TASKWIDGET_RECORD_GOLDENS=1 swift test --filter TaskWidgetRenderTests
            """, sourceLocation: sourceLocation)
    }

    /// How many pixels differ beyond the tolerance; every pixel when the sizes differ.
    static func differingPixels(_ expected: DecodedImage, _ actual: DecodedImage) -> Int {
        guard expected.width == actual.width, expected.height == actual.height else {
            return max(expected.width * expected.height, actual.width * actual.height)
        }
        var count = 0
        for pixel in stride(from: 0, to: expected.rgba.count, by: 4) {
            for channel in 0..<4 where abs(Int(expected.rgba[pixel + channel]) - Int(actual.rgba[pixel + channel])) > channelTolerance {
                count += 1
                break
            }
        }
        return count
    }
}
