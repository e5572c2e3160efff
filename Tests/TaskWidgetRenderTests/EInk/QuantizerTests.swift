import Testing

@testable import TaskWidgetRender
@testable import TaskWidgetTestSupport

@Suite("Quantization")
struct QuantizerTests {
    @Test("The nearest level, ties to the brighter one")
    func nearestLevels() {
        #expect([0, 127, 128, 255].map(GrayDepth.one.nearestLevel) == [0, 0, 1, 1])
        #expect([0, 42, 43, 127, 128, 212, 213, 255].map(GrayDepth.two.nearestLevel) == [0, 0, 1, 1, 2, 2, 3, 3])
        #expect([0, 8, 9, 25, 26, 255].map(GrayDepth.four.nearestLevel) == [0, 0, 1, 1, 2, 15])
        #expect((0...255).map(GrayDepth.eight.nearestLevel) == Array(0...255))
        #expect(GrayDepth.allCases.map(\.step) == [255, 85, 17, 1])
    }

    @Test("A picture made only of exact levels comes out unchanged", arguments: [GrayDepth.one, .two, .four])
    func exactLevelsUnchanged(depth: GrayDepth) {
        var generator = SplitMix64(seed: UInt64(depth.bits))
        // Blocks of levels (edges between them) and single random pixels (edges everywhere).
        let (width, height) = (61, 37)
        let pixels = (0..<width * height).map { index -> UInt8 in
            let level = index % 5 == 0 ? Int.random(in: 0...depth.maxLevel, using: &generator) : (index / 7 + index / width / 9) % (depth.maxLevel + 1)
            return UInt8(level * depth.step)
        }
        let image = LumaImage(width: width, height: height, pixels: pixels)
        for (name, quantizer) in allQuantizers {
            let levels = quantizer.quantize(image, to: depth)
            #expect(levels.luma.pixels == pixels, "\(name)")
        }
    }

    @Test("At 8 bits every quantizer keeps the luma")
    func eightBitsIsIdentity() {
        var generator = SplitMix64(seed: 8)
        let image = LumaImage(width: 40, height: 30, pixels: (0..<1200).map { _ in UInt8.random(in: 0...255, using: &generator) })
        for (name, quantizer) in allQuantizers {
            #expect(quantizer.quantize(image, to: .eight).levels == image.pixels, "\(name)")
        }
    }

    @Test("Ordered dithering keeps the mean gray of a flat area", arguments: [GrayDepth.one, .two, .four])
    func orderedKeepsMean(depth: GrayDepth) {
        for luma in stride(from: 0, through: 255, by: 5) {
            let image = LumaImage(width: 64, height: 64, pixels: [UInt8](repeating: UInt8(luma), count: 64 * 64))
            let levels = GrayQuantizer.ordered.quantize(image, to: depth)
            let mean = Double(levels.luma.pixels.reduce(0) { $0 + Int($1) }) / Double(64 * 64)
            #expect(abs(mean - Double(luma)) <= Double(depth.step) / 64 + 0.01, "luma \(luma): mean \(mean)")
        }
    }

    @Test(
        "textSafe never dithers text: on antialiased text it equals local thresholding, where plain dithering does not",
        arguments: [TestPictures.Theme.light, .dark], [GrayDepth.one, .two])
    func textIsNotDithered(theme: TestPictures.Theme, depth: GrayDepth) {
        let image = LumaImage(TestPictures.textLines(theme: theme))
        let textSafe = GrayQuantizer.textSafe.quantize(image, to: depth)
        #expect(textSafe == GrayQuantizer.localThreshold.quantize(image, to: depth))
        #expect(textSafe != GrayQuantizer.ordered.quantize(image, to: depth))
        // And at 1 bit it is not noisy: almost no lone pixels (unlike their four neighbors). At 2
        // bits lone pixels are the antialiasing kept as intermediate grays, which is wanted.
        if depth == .one {
            #expect(lonePixels(textSafe) * 20 < lonePixels(GrayQuantizer.ordered.quantize(image, to: depth)))
        }
    }

    @Test("Local thresholds keep the light theme's faint shapes at 1 bit, which a fixed threshold loses")
    func faintShapesSurvive() {
        let image = LumaImage(TestPictures.faintShapes())
        let local = GrayQuantizer.localThreshold.quantize(image, to: .one)
        let textSafe = GrayQuantizer.textSafe.quantize(image, to: .one)
        let nearest = GrayQuantizer.nearest.quantize(image, to: .one)
        for x in [20, 50, 80, 110] {
            // The whole dot is black: center and the pixels around it.
            for (dx, dy) in [(0, 0), (-3, 0), (3, 0), (0, -3), (0, 3)] {
                #expect(local[x + dx, 20 + dy] == 0, "dot at \(x)")
                #expect(textSafe[x + dx, 20 + dy] == 0, "dot at \(x)")
            }
        }
        // Gray 8E8E93 (143), green (142), orange (164), yellow (196): all above mid-gray, all lost.
        #expect([20, 50, 80, 110].allSatisfy { nearest[$0, 20] == 1 })
        // The ring (radius 16 at 40, 70) and the rule (y = 100) are drawn in black.
        #expect(local[40, 54] == 0 && local[40, 86] == 0 && local[24, 70] == 0 && local[56, 70] == 0)
        #expect((10..<190).allSatisfy { local[$0, 100] == 0 })
        #expect((10..<190).allSatisfy { nearest[$0, 100] == 1 })
    }

    @Test("textSafe dithers smooth gradients and keeps nearly-level flat fills solid")
    func gradientsAndFlatFills() {
        // A ramp 0…255 left to right: 1 luma unit a pixel, no edge anywhere.
        let ramp = LumaImage(width: 256, height: 32, pixels: (0..<256 * 32).map { UInt8($0 % 256) })
        let levels = GrayQuantizer.textSafe.quantize(ramp, to: .one)
        for block in stride(from: 40, to: 216, by: 8) {
            let values = Set((0..<8).flatMap { dy in (0..<8).map { dx in levels[block + dx, 8 + dy] } })
            #expect(values == [0, 1], "columns \(block)…\(block + 7) are dithered")
        }
        #expect((0...32).allSatisfy { levels[$0, 0] == 0 } && (223...255).allSatisfy { levels[$0, 0] == 1 }, "within 32 of a level: snapped")
        // The dark theme's background, 1C1C1E (luma 28), is black at 1 and 2 bits, not a pattern.
        let dark = LumaImage(width: 64, height: 64, pixels: [UInt8](repeating: 28, count: 64 * 64))
        #expect(GrayQuantizer.textSafe.quantize(dark, to: .one).levels.allSatisfy { $0 == 0 })
        #expect(GrayQuantizer.textSafe.quantize(dark, to: .two).levels.allSatisfy { $0 == 0 })
        #expect(GrayQuantizer.ordered.quantize(dark, to: .one).levels.contains(1))
    }

    @Test("Pure black and white stay so next to anything, with every quantizer")
    func pureBlackAndWhiteStay() {
        var generator = SplitMix64(seed: 99)
        let pixels = (0..<50 * 50).map { index -> UInt8 in
            switch index % 3 {
            case 0: 0
            case 1: 255
            default: UInt8.random(in: 0...255, using: &generator)
            }
        }
        let image = LumaImage(width: 50, height: 50, pixels: pixels)
        for (name, quantizer) in allQuantizers {
            for depth in [GrayDepth.one, .two, .four] {
                let levels = quantizer.quantize(image, to: depth)
                for index in pixels.indices where pixels[index] == 0 || pixels[index] == 255 {
                    #expect(Int(levels.levels[index]) == (pixels[index] == 0 ? 0 : depth.maxLevel), "\(name) at \(depth.bits) bits")
                }
            }
        }
    }

    /// Pixels whose four neighbors all have another level.
    private func lonePixels(_ levels: GrayLevels) -> Int {
        var count = 0
        for y in 1..<levels.height - 1 {
            for x in 1..<levels.width - 1 {
                let level = levels[x, y]
                if levels[x - 1, y] != level && levels[x + 1, y] != level && levels[x, y - 1] != level && levels[x, y + 1] != level {
                    count += 1
                }
            }
        }
        return count
    }
}
