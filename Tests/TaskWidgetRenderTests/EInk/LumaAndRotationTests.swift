import Testing

@testable import TaskWidgetRender
@testable import TaskWidgetTestSupport

@Suite("Luma from Cairo RGB24")
struct LumaTests {
    @Test("Rec. 601 luma, rounded, with black 0 and white 255")
    func knownColors() {
        #expect(LumaImage.luma(0x000000) == 0)
        #expect(LumaImage.luma(0xFFFFFF) == 255)
        #expect(LumaImage.luma(0xFF0000) == 77)
        #expect(LumaImage.luma(0x00FF00) == 149)
        #expect(LumaImage.luma(0x0000FF) == 29)
        #expect(LumaImage.luma(0x808080) == 128)
        // taskwidget's light palette: primary, secondary, red, accent, done, ring.
        #expect([0x1C1C1E, 0x6C6C70, 0xD70015, 0x0062CC, 0x34C759, 0xD1D1D6].map(LumaImage.luma) == [28, 108, 67, 81, 142, 210])
    }

    @Test("Reads rows `stride` bytes apart and ignores the padding and each word's top byte")
    func strideAndPadding() {
        let words: [UInt32] = [0x000000, 0xFFFFFF, 0x808080, 0xFF0000, 0x00FF00, 0x0000FF]
        for padding in [0, 4, 12] {
            let pixels = CairoPixels(width: 3, height: 2, words: words, padding: padding)
            let luma = LumaImage(pixels)
            #expect(luma.width == 3 && luma.height == 2)
            #expect(luma.pixels == [0, 255, 128, 77, 149, 29])
        }
    }
}

@Suite("Rotation")
struct RotationTests {
    /// 3 × 2:
    /// ```
    /// 1 2 3
    /// 4 5 6
    /// ```
    let pixels: [Int] = [1, 2, 3, 4, 5, 6]

    @Test("Clockwise turns of a 3 × 2 picture")
    func quarterTurns() {
        #expect(Rotation.none.apply(to: pixels, width: 3, height: 2) == pixels)
        // 90° clockwise, 2 × 3: the left column (1, 4) becomes the top row, read bottom to top.
        #expect(Rotation.clockwise90.apply(to: pixels, width: 3, height: 2) == [4, 1, 5, 2, 6, 3])
        #expect(Rotation.clockwise180.apply(to: pixels, width: 3, height: 2) == [6, 5, 4, 3, 2, 1])
        // 270° clockwise (90° counterclockwise): the right column (3, 6) becomes the top row.
        #expect(Rotation.clockwise270.apply(to: pixels, width: 3, height: 2) == [3, 6, 2, 5, 1, 4])
        #expect(Rotation.clockwise90.size(width: 800, height: 480) == (480, 800))
        #expect(Rotation.clockwise180.size(width: 800, height: 480) == (800, 480))
    }

    @Test("Turns compose: four quarter turns are none, 90 then 90 is 180, 90 then 270 is none", arguments: [(1, 1), (5, 3), (8, 13), (64, 1)])
    func composition(width: Int, height: Int) {
        var generator = SplitMix64(seed: UInt64(width * 1000 + height))
        let picture = (0..<width * height).map { _ in UInt8.random(in: 0...255, using: &generator) }
        func turn(_ values: [UInt8], _ rotation: Rotation, _ size: (Int, Int)) -> ([UInt8], (Int, Int)) {
            (rotation.apply(to: values, width: size.0, height: size.1), rotation.size(width: size.0, height: size.1))
        }
        var (turned, size) = (picture, (width, height))
        for _ in 0..<4 { (turned, size) = turn(turned, .clockwise90, size) }
        #expect(turned == picture && size == (width, height))
        let twice = turn(turn(picture, .clockwise90, (width, height)).0, .clockwise90, (height, width)).0
        #expect(twice == Rotation.clockwise180.apply(to: picture, width: width, height: height))
        let back = turn(turn(picture, .clockwise90, (width, height)).0, .clockwise270, (height, width)).0
        #expect(back == picture)
    }

    @Test("Degrees: multiples of 90, negative ones counterclockwise")
    func degrees() {
        #expect(Rotation(degrees: 0) == Rotation.none)
        #expect(Rotation(degrees: 90) == .clockwise90)
        #expect(Rotation(degrees: -90) == .clockwise270)
        #expect(Rotation(degrees: 450) == .clockwise90)
        #expect(Rotation(degrees: 45) == nil)
        #expect(Rotation.allCases.map(\.degrees) == [0, 90, 180, 270])
    }

    @Test("A luma image turns with its size")
    func lumaImage() {
        let image = LumaImage(width: 3, height: 2, pixels: [1, 2, 3, 4, 5, 6])
        let turned = image.rotated(.clockwise90)
        #expect(turned.width == 2 && turned.height == 3 && turned.pixels == [4, 1, 5, 2, 6, 3])
    }
}
