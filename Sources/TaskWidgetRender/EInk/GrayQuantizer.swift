/// How a ``LumaImage`` becomes the few levels of a ``GrayDepth``.
///
/// The presets, from plain to busy:
/// - ``nearest``: every pixel to the nearest level (a fixed threshold at 1 bit). Exactly as crisp
///   as drawn, but at 1 bit anything lighter than mid-gray vanishes (the light theme's list dots,
///   rings and rules) and gray text loses weight (its antialiased edge is cut at 50 % gray
///   instead of halfway to its own color).
/// - ``localThreshold``: near edges, a threshold halfway between the darkest and brightest pixel
///   around (Bernsen's local thresholding), between the two levels that keep the edge visible;
///   elsewhere the nearest level. No dithering: text keeps its weight and every shape that
///   stands out from its surroundings stays visible, as solid black at 1 bit.
/// - ``textSafe`` (the default): ``localThreshold`` near edges and for pixels close to a level,
///   Bayer dithering in the smooth areas left (gradients, large soft fills, photos).
/// - ``ordered``: dithering everywhere, for pictures. It puts dots around antialiased glyph edges.
///   (Floyd–Steinberg error diffusion was tried too: it also compresses worst and, at 1 bit,
///   speckles flat backgrounds that are not exactly a level, the dark theme's.)
///
/// The same pixels always give the same levels: no randomness, no state. Pure black and pure
/// white pixels stay so with every quantizer, and an image made only of exact levels (the mono
/// theme) comes out unchanged.
struct GrayQuantizer: Sendable, Hashable {
    /// What becomes of the pixels no ``Protection`` rule claims.
    enum Dither: Sendable, Hashable {
        /// Round to the nearest level.
        case none
        /// Bayer 8 × 8 ordered dithering: each pixel compares itself with a fixed threshold of its
        /// position, so a flat gray becomes a regular pattern (which deflate compresses well) and a
        /// change somewhere does not ripple anywhere else (good for e-ink partial refresh).
        case ordered
    }

    /// Which pixels are thresholded instead of dithered, and how.
    struct Protection: Sendable, Hashable {
        /// The luma difference (1–256) that makes an edge: a pixel is near an edge when the
        /// square of side `2 × radius + 1` around it holds two pixels this far apart. Text on its
        /// background differs by 100 or more in every theme, the faintest shapes by 44–45 (the
        /// light theme's ring `D1D1D6` on white, the dark theme's `48484A` on `1C1C1E`). A soft
        /// gradient stays below 40 across the 9 pixels of the default window unless it is
        /// steeper than about 4.4 luma a pixel.
        var edgeContrast: Int
        /// How far (in pixels, Chebyshev distance) an edge reaches. 4 takes in the whole of a
        /// list-color dot of 10 px (taskwidget's at scale 1) and any stroke of text up to about
        /// 8 px, so that their inside is thresholded with their border; use about 4 × the render
        /// scale.
        var radius: Int
        /// A pixel away from edges and at most this far (in luma) from a level takes that level:
        /// flat fills that are nearly a level stay solid (the dark theme's background at 1 and 2
        /// bits). At 4 bits every luma is within 8.5 of a level, so nothing there is dithered.
        var snap: Int

        init(edgeContrast: Int = 40, radius: Int = 4, snap: Int = 32) {
            precondition(edgeContrast >= 1 && edgeContrast <= 256, "an edge contrast of \(edgeContrast)")
            precondition(radius >= 1 && radius <= 64, "a protection radius of \(radius)")
            precondition(snap >= 0 && snap <= 255, "a snap of \(snap)")
            self.edgeContrast = edgeContrast
            self.radius = radius
            self.snap = snap
        }
    }

    var dither: Dither
    /// `nil`: no local thresholding; every pixel is dithered (or rounded, with ``Dither/none``).
    var protection: Protection?

    init(dither: Dither, protection: Protection? = nil) {
        self.dither = dither
        self.protection = protection
    }

    /// Every pixel to the nearest level.
    static let nearest = GrayQuantizer(dither: .none)
    /// Local thresholds near edges, the nearest level elsewhere: no dithering.
    static let localThreshold = GrayQuantizer(dither: .none, protection: Protection())
    /// Local thresholds near edges and nearly-level fills, ordered dithering in smooth areas.
    static let textSafe = GrayQuantizer(dither: .ordered, protection: Protection())
    /// Ordered dithering everywhere.
    static let ordered = GrayQuantizer(dither: .ordered)

    /// `image` at `depth`. At depth 8 every quantizer returns the luma unchanged.
    func quantize(_ image: LumaImage, to depth: GrayDepth) -> GrayLevels {
        let (width, height) = (image.width, image.height)
        if depth == .eight {
            return GrayLevels(width: width, height: height, depth: depth, levels: image.pixels)
        }
        // The levels the rule fixes, `Rule.free` for the pixels left to the dithering.
        let plan = protection.map { Rule(depth: depth, protection: $0).plan(image) }
        var levels = [UInt8](repeating: 0, count: width * height)
        image.pixels.withUnsafeBufferPointer { luma in
            levels.withUnsafeMutableBufferPointer { output in
                (plan ?? []).withUnsafeBufferPointer { fixed in
                    let fixed = plan == nil ? nil : fixed
                    switch dither {
                    case .none:
                        for index in 0..<luma.count {
                            if let fixed, fixed[index] != Rule.free {
                                output[index] = fixed[index]
                            } else {
                                output[index] = UInt8(truncatingIfNeeded: depth.nearestLevel(Int(luma[index])))
                            }
                        }
                    case .ordered:
                        Self.orderedDither(luma, width: width, height: height, depth: depth, fixed: fixed, into: output)
                    }
                }
            }
        }
        return GrayLevels(width: width, height: height, depth: depth, levels: levels)
    }

    // MARK: - The protection rule

    /// Decides the pixels that are not dithered.
    struct Rule {
        /// In a plan: the pixel is left to the dithering.
        static let free: UInt8 = 0xFF

        let depth: GrayDepth
        let protection: Protection

        /// For each pixel of `image`, its level by ``fixedLevel(_:low:high:)``, or ``free``.
        func plan(_ image: LumaImage) -> [UInt8] {
            let window = WindowExtrema(image, radius: protection.radius)
            var plan = [UInt8](repeating: Self.free, count: image.pixels.count)
            image.pixels.withUnsafeBufferPointer { luma in
                window.low.withUnsafeBufferPointer { low in
                    window.high.withUnsafeBufferPointer { high in
                        plan.withUnsafeMutableBufferPointer { plan in
                            for index in 0..<luma.count {
                                let level = fixedLevel(Int(luma[index]), low: Int(low[index]), high: Int(high[index]))
                                if level >= 0 { plan[index] = UInt8(truncatingIfNeeded: level) }
                            }
                        }
                    }
                }
            }
            return plan
        }

        /// The level of a pixel of luma `value` whose window spans `low … high`, or -1 when it is
        /// left to the dithering:
        /// 1. Near an edge (`high − low ≥ edgeContrast`): if the window's extremes round to
        ///    levels two or more apart, the nearest level (antialiasing survives as intermediate
        ///    grays at 2 and 4 bits). Otherwise the edge lies between two adjacent levels (or
        ///    would vanish, both extremes rounding to the same level, when the pair around that
        ///    level toward the other extreme is taken): the pixel takes the upper one when it is
        ///    at least halfway from `low` to `high`. Text is cut at half its own contrast, so it
        ///    keeps its weight, and a light shape on white still shows, darker.
        /// 2. Within `snap` of a level: that level.
        @inline(__always)
        func fixedLevel(_ value: Int, low: Int, high: Int) -> Int {
            let step = depth.step
            if high - low >= protection.edgeContrast {
                let lowLevel = depth.nearestLevel(low)
                let highLevel = depth.nearestLevel(high)
                if highLevel - lowLevel >= 2 { return depth.nearestLevel(value) }
                let lower: Int
                if highLevel == lowLevel + 1 {
                    lower = lowLevel
                } else if lowLevel == depth.maxLevel {
                    lower = lowLevel - 1
                } else if lowLevel == 0 {
                    lower = 0
                } else {
                    let gray = lowLevel * step
                    lower = high - gray >= gray - low ? lowLevel : lowLevel - 1
                }
                return 2 * value >= low + high ? lower + 1 : lower
            }
            let nearest = depth.nearestLevel(value)
            return abs(value - nearest * step) <= protection.snap ? nearest : -1
        }
    }

    // MARK: - Ordered dithering

    /// The 8 × 8 Bayer matrix: the order in which a flat area's pixels switch to the next level.
    static let bayer: [UInt8] = [
        0, 32, 8, 40, 2, 34, 10, 42,
        48, 16, 56, 24, 50, 18, 58, 26,
        12, 44, 4, 36, 14, 46, 6, 38,
        60, 28, 52, 20, 62, 30, 54, 22,
        3, 35, 11, 43, 1, 33, 9, 41,
        51, 19, 59, 27, 49, 17, 57, 25,
        15, 47, 7, 39, 13, 45, 5, 37,
        63, 31, 55, 23, 61, 29, 53, 21,
    ]

    /// Level `⌊v + t⌋` for `v = luma × maxLevel / 255` and the threshold `t = (2b + 1) / 128` of
    /// the pixel's Bayer entry `b`: `t` lies strictly between 0 and 1 and averages ½, so an exact
    /// level stays itself and a flat area keeps its mean gray.
    private static func orderedDither(
        _ luma: UnsafeBufferPointer<UInt8>, width: Int, height: Int, depth: GrayDepth, fixed: UnsafeBufferPointer<UInt8>?,
        into output: UnsafeMutableBufferPointer<UInt8>
    ) {
        let maxLevel = depth.maxLevel
        bayer.withUnsafeBufferPointer { bayer in
            for y in 0..<height {
                let matrixRow = (y & 7) * 8
                for x in 0..<width {
                    let index = y * width + x
                    if let fixed, fixed[index] != Rule.free {
                        output[index] = fixed[index]
                    } else {
                        let threshold = 2 * Int(bayer[matrixRow + (x & 7)]) + 1
                        let level = (Int(luma[index]) * maxLevel * 128 + threshold * 255) / (255 * 128)
                        output[index] = UInt8(truncatingIfNeeded: level)
                    }
                }
            }
        }
    }
}
