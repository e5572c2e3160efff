import Foundation
import Testing

@testable import TaskWidgetRender
@testable import TaskWidgetTestSupport

@Suite("Gray PNG")
struct PNGTests {
    @Test("Rows are packed most significant bits first, the last byte padded with zeros")
    func packing() {
        func packed(_ levels: [UInt8], _ depth: GrayDepth) -> [UInt8] {
            let image = GrayLevels(width: levels.count, height: 1, depth: depth, levels: levels)
            var row = [UInt8](repeating: 0xEE, count: depth.bytesPerRow(width: levels.count))
            row.withUnsafeMutableBufferPointer { image.pack(row: 0, into: $0) }
            return row
        }
        #expect(packed([1, 0, 1, 1, 0], .one) == [0b1011_0000])
        #expect(packed([1, 0, 1, 1, 0, 0, 1, 0, 1], .one) == [0b1011_0010, 0b1000_0000])
        #expect(packed([3, 0, 2, 1, 3], .two) == [0b1100_1001, 0b1100_0000])
        #expect(packed([15, 1, 7], .four) == [0xF1, 0x70])
        #expect(packed([200, 3], .eight) == [200, 3])
    }

    @Test(
        "The IHDR says gray at the real depth; only critical chunks; libpng decodes the levels back",
        arguments: GrayDepth.allCases, [(1, 1), (7, 3), (13, 5), (33, 2), (800, 480)])
    func roundTrip(depth: GrayDepth, size: (width: Int, height: Int)) throws {
        var generator = SplitMix64(seed: UInt64(depth.bits * 10_000 + size.width))
        let levels = GrayLevels(
            width: size.width, height: size.height, depth: depth,
            levels: (0..<size.width * size.height).map { _ in UInt8(Int.random(in: 0...depth.maxLevel, using: &generator)) })
        let png = try ReadPNG(GrayPNGEncoder.encode(levels))
        #expect(
            png.header
                == .init(width: size.width, height: size.height, bitDepth: depth.bits, colorType: 0, compression: 0, filter: 0, interlace: 0))
        #expect(png.chunks.first == "IHDR" && png.chunks.last == "IEND")
        #expect(Set(png.chunks) == ["IHDR", "IDAT", "IEND"])
        #expect(png.gray == levels.luma.pixels)
    }

    @Test("The same levels give the same bytes")
    func deterministic() {
        let levels = GrayQuantizer.textSafe.quantize(LumaImage(TestPictures.dashboard(theme: .light)), to: .two)
        #expect(GrayPNGEncoder.encode(levels) == GrayPNGEncoder.encode(levels))
    }

    @Test(
        "A busy 800 × 480 dashboard stays far under TRMNL's 90 000 bytes at 1, 2 and 4 bits",
        arguments: [TestPictures.Theme.light, .dark, .mono], [GrayDepth.one, .two, .four])
    func busyDashboardSize(theme: TestPictures.Theme, depth: GrayDepth) {
        let pixels = TestPictures.dashboard(theme: theme, rows: 15)
        for quantizer in [GrayQuantizer.nearest, .textSafe] {
            let png = pixels.withData {
                EInkEncoder.png(
                    cairoRGB24: $0, width: pixels.width, height: pixels.height, stride: pixels.stride,
                    options: EInkImageOptions(depth: depth, quantizer: quantizer))
            }
            #expect(png.count < 30_000, "\(theme) at \(depth.bits) bits: \(png.count) bytes")
        }
    }

    @Test("Even pure noise stays under 90 000 bytes at 1 bit: 48 000 bytes of pixels at most")
    func oneBitWorstCase() {
        let noise = TestPictures.noise()
        let png = noise.withData {
            EInkEncoder.png(
                cairoRGB24: $0, width: 800, height: 480, stride: noise.stride,
                options: EInkImageOptions(depth: .one, quantizer: .nearest))
        }
        #expect(png.count > 48_000 && png.count < 49_000)
    }

    /// pngcheck is installed by scripts/lib/dependencies.sh: without it this test fails (it was
    /// skipped without a word, on every CI run).
    @Test("pngcheck accepts the files")
    func pngcheck() throws {
        let pixels = TestPictures.dashboard(theme: .light)
        for depth in GrayDepth.allCases {
            let png = pixels.withData {
                EInkEncoder.png(
                    cairoRGB24: $0, width: pixels.width, height: pixels.height, stride: pixels.stride, options: EInkImageOptions(depth: depth))
            }
            let url = FileManager.default.temporaryDirectory.appendingPathComponent("eink-\(UUID().uuidString).png")
            try png.write(to: url)
            defer { try? FileManager.default.removeItem(at: url) }
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/pngcheck")
            process.arguments = [url.path]
            let output = Pipe.closedOnExec()
            process.standardOutput = output
            try process.run()
            let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationStatus == 0, "\(text)")
            #expect(text.contains("OK:") && text.contains("800x480, \(depth.bits)-bit grayscale"), "\(text)")
        }
    }
}
