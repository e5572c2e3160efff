import Foundation
import Testing

@testable import TaskWidgetCore
@testable import TaskWidgetRender
@testable import TaskWidgetTestSupport

@Suite("1-bit BMP3")
struct BMPTests {
    /// Little-endian fields of a BMP.
    private func u16(_ bytes: [UInt8], _ offset: Int) -> Int { Int(bytes[offset]) | Int(bytes[offset + 1]) << 8 }
    private func u32(_ bytes: [UInt8], _ offset: Int) -> Int { u16(bytes, offset) | u16(bytes, offset + 2) << 16 }

    @Test("800 × 480 is exactly 48 062 bytes, with every header field the TRMNL firmware checks")
    func trmnlHeader() {
        let levels = GrayQuantizer.textSafe.quantize(LumaImage(TestPictures.dashboard(theme: .mono)), to: .one)
        let bmp = [UInt8](MonochromeBMPEncoder.encode(levels))
        #expect(bmp.count == 48_062)
        #expect(bmp[0] == UInt8(ascii: "B") && bmp[1] == UInt8(ascii: "M"))
        #expect(u32(bmp, 2) == 48_062)  // bfSize
        #expect(u32(bmp, 6) == 0)  // reserved
        #expect(u32(bmp, 10) == 62)  // bfOffBits: the firmware reads pixels at +62
        #expect(u32(bmp, 14) == 40)  // biSize: BITMAPINFOHEADER
        #expect(u32(bmp, 18) == 800)  // biWidth
        #expect(u32(bmp, 22) == 480)  // biHeight: positive, bottom-up
        #expect(u16(bmp, 26) == 1)  // biPlanes
        #expect(u16(bmp, 28) == 1)  // biBitCount
        #expect(u32(bmp, 30) == 0)  // biCompression: BI_RGB
        #expect(u32(bmp, 34) == 48_000)  // biSizeImage: the firmware wants exactly this
        #expect(u32(bmp, 46) == 2)  // biClrUsed: never 0
        // The palette the firmware calls "standard": black, then white, reserved bytes zero.
        #expect(Array(bmp[54..<62]) == [0, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0])
    }

    @Test("Rows bottom-up, 4-byte aligned with zero padding, leftmost pixel in the high bit, set bit white", arguments: [1, 13, 32, 33, 800])
    func pixels(width: Int) {
        var generator = SplitMix64(seed: UInt64(width))
        let height = 5
        let levels = GrayLevels(
            width: width, height: height, depth: .one, levels: (0..<width * height).map { _ in UInt8.random(in: 0...1, using: &generator) })
        let bmp = [UInt8](MonochromeBMPEncoder.encode(levels))
        let stride = (width + 31) / 32 * 4
        #expect(stride % 4 == 0 && bmp.count == 62 + stride * height)
        #expect(u32(bmp, 34) == stride * height)
        for y in 0..<height {
            let row = 62 + (height - 1 - y) * stride
            for x in 0..<stride * 8 {
                let bit = bmp[row + x / 8] >> (7 - UInt8(x % 8)) & 1
                #expect(bit == (x < width ? levels[x, y] : 0), "(\(x), \(y))")
            }
        }
    }
}

@Suite("From Cairo pixels to files")
struct PipelineTests {
    /// 800 × 480 white with a black 10 × 10 square in the top-left corner and a gray (0x808080)
    /// 4 × 4 square in the bottom-right corner.
    private var marked: CairoPixels {
        var words = [UInt32](repeating: 0xFFFFFF, count: 800 * 480)
        for y in 0..<10 { for x in 0..<10 { words[y * 800 + x] = 0 } }
        for y in 476..<480 { for x in 796..<800 { words[y * 800 + x] = 0x808080 } }
        return CairoPixels(width: 800, height: 480, words: words, padding: 8)
    }

    @Test("Rotated 90° clockwise, 800 × 480 becomes 480 × 800 and the top-left goes to the top-right")
    func rotatedPNG() throws {
        let pixels = marked
        let options = EInkImageOptions(depth: .two, quantizer: .nearest, rotation: .clockwise90)
        let png = try ReadPNG(pixels.withData { EInkEncoder.png(cairoRGB24: $0, width: 800, height: 480, stride: pixels.stride, options: options) })
        #expect(png.header.width == 480 && png.header.height == 800 && png.header.bitDepth == 2)
        func gray(_ x: Int, _ y: Int) -> UInt8 { png.gray[y * 480 + x] }
        #expect(gray(479, 0) == 0 && gray(470, 9) == 0 && gray(469, 0) == 255 && gray(479, 10) == 255)
        // The bottom-right corner goes to the bottom-left; 0x808080 is level 2 of 4 (170).
        #expect(gray(0, 799) == 170 && gray(3, 796) == 170 && gray(4, 799) == 255)
    }

    @Test("Every rotation, to a BMP too")
    func rotations() {
        let pixels = marked
        let corners: [Rotation: (Int, Int)] = [.none: (0, 0), .clockwise90: (479, 0), .clockwise180: (799, 479), .clockwise270: (0, 799)]
        for rotation in Rotation.allCases {
            let levels = pixels.withData {
                EInkEncoder.levels(
                    cairoRGB24: $0, width: 800, height: 480, stride: pixels.stride, options: EInkImageOptions(depth: .one, rotation: rotation))
            }
            let corner = corners[rotation]!
            #expect(levels[corner.0, corner.1] == 0, "\(rotation)")
            #expect((levels.width, levels.height) == rotation.size(width: 800, height: 480))
            let bmp = pixels.withData {
                EInkEncoder.bmp(cairoRGB24: $0, width: 800, height: 480, stride: pixels.stride, options: EInkImageOptions(depth: .one, rotation: rotation))
            }
            // Turned, 480 wide: 60 bytes a row, already a multiple of 4 (TRMNL would refuse it).
            #expect(bmp.count == (rotation.swapsAxes ? 62 + 60 * 800 : 48_062))
        }
    }

    @Test("Pure functions: concurrent encodings of the same pixels give the same bytes")
    func concurrent() async {
        let pixels = TestPictures.dashboard(theme: .light)
        let options = [
            EInkImageOptions(depth: .one), EInkImageOptions(depth: .two), EInkImageOptions(depth: .four),
            EInkImageOptions(depth: .one, quantizer: .ordered, rotation: .clockwise90),
        ]
        let expected = options.map { option in
            pixels.withData { EInkEncoder.png(cairoRGB24: $0, width: pixels.width, height: pixels.height, stride: pixels.stride, options: option) }
        }
        await withTaskGroup(of: (Int, Data).self) { group in
            for round in 0..<16 {
                let index = round % options.count
                let option = options[index]
                group.addTask {
                    (index, pixels.withData { EInkEncoder.png(cairoRGB24: $0, width: pixels.width, height: pixels.height, stride: pixels.stride, options: option) })
                }
            }
            for await (index, png) in group {
                #expect(png == expected[index])
            }
        }
    }
}

/// The renderer's e-ink images: what a spec asks for is what the file says.
@Suite struct EInkWidgetTests {
    @Test(arguments: [1, 2, 4, 8])
    func grayPNGsHaveTheirDepthInTheHeader(depth: Int) throws {
        let spec = try WidgetImageSpec(family: .large, size: WidgetSize(parsing: "800x480"), theme: .light, depth: depth)
        let image = try WidgetRenderer(spec: spec).image(for: RenderFixture.entry(.mixed, family: .large))
        let png = try ReadPNG(image)
        #expect(png.header.bitDepth == depth && png.header.colorType == 0 && png.header.width == 800 && png.header.height == 480)
        #expect(image.count < 90_000)
    }

    /// The mono theme on a 2- or 4-bit panel draws text with antialiased edges, which the panel's
    /// grays show: it was drawn black and white at every depth, so a TRMNL X got the hard edges of
    /// a 1-bit image in a 4-bit file. At 1 bit it stays black and white.
    /// (Latin titles only, in the medium family, which has no habit icons: nothing else is gray.)
    @Test(arguments: [(1, 2), (2, 4), (4, 16)])
    func theMonoThemeUsesTheGraysOfItsDepth(depth: Int, levels: Int) throws {
        let spec = try WidgetImageSpec(family: .medium, size: WidgetSize(parsing: "800x480"), theme: .mono, depth: depth)
        let png = try ReadPNG(try WidgetRenderer(spec: spec).image(for: RenderFixture.entry(.many, family: .medium)))
        #expect(Set(png.gray).count == levels, "\(Set(png.gray).sorted())")
    }

    @Test func aBMPForTRMNLIsExactly48062BytesAndTurnedImagesSwapTheirSides() throws {
        let entry = try RenderFixture.entry(.many, family: .large)
        let panel = try WidgetSize(parsing: "800x480")
        let bmp = try WidgetRenderer(spec: WidgetImageSpec(family: .large, size: panel, theme: .mono, format: .bmp)).image(for: entry)
        #expect(bmp.count == 48_062 && bmp.prefix(2) == Data("BM".utf8))
        let turned = try WidgetRenderer(spec: WidgetImageSpec(family: .large, size: panel, depth: 4, rotation: 90)).image(for: entry)
        #expect(try ReadPNG(turned).header == ReadPNG.Header(width: 480, height: 800, bitDepth: 4, colorType: 0, compression: 0, filter: 0, interlace: 0))
    }
}
