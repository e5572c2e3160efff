/// The darkest and the brightest luma in the square of side `2 × radius + 1` around each pixel
/// (clipped at the picture's borders): what ``GrayQuantizer`` looks at to find edges and the
/// local ink and paper tones.
///
/// Computed separably, each pass as whole-row element-wise `min`/`max` (which the compiler
/// vectorizes): first each row against itself shifted by -r … r, then each row against the rows
/// -r … r above and below. About 4 × (2r + 1) byte operations a pixel, in order in memory.
struct WindowExtrema {
    /// Per pixel, row after row: the minimum of its window.
    let low: [UInt8]
    /// Per pixel, row after row: the maximum of its window.
    let high: [UInt8]

    init(_ image: LumaImage, radius: Int) {
        let (width, height) = (image.width, image.height)
        var rowLow = image.pixels
        var rowHigh = image.pixels
        image.pixels.withUnsafeBufferPointer { luma in
            rowLow.withUnsafeMutableBufferPointer { rowLow in
                rowHigh.withUnsafeMutableBufferPointer { rowHigh in
                    for y in 0..<height {
                        let source = luma.baseAddress! + y * width
                        let low = rowLow.baseAddress! + y * width
                        let high = rowHigh.baseAddress! + y * width
                        for shift in 1...radius where shift < width {
                            // Pixel x sees x + shift (on its right) and x - shift (on its left).
                            Self.combine(low, high, with: source + shift, count: width - shift)
                            Self.combine(low + shift, high + shift, with: source, count: width - shift)
                        }
                    }
                }
            }
        }
        var low = rowLow
        var high = rowHigh
        rowLow.withUnsafeBufferPointer { rowLow in
            rowHigh.withUnsafeBufferPointer { rowHigh in
                low.withUnsafeMutableBufferPointer { low in
                    high.withUnsafeMutableBufferPointer { high in
                        for y in 0..<height {
                            let outLow = low.baseAddress! + y * width
                            let outHigh = high.baseAddress! + y * width
                            for row in max(0, y - radius)...min(height - 1, y + radius) where row != y {
                                Self.combine(outLow, rowLow.baseAddress! + row * width, outHigh, rowHigh.baseAddress! + row * width, count: width)
                            }
                        }
                    }
                }
            }
        }
        self.low = low
        self.high = high
    }

    /// `low[i] = min(low[i], other[i])`, `high[i] = max(high[i], other[i])`.
    @inline(__always)
    private static func combine(
        _ low: UnsafeMutablePointer<UInt8>, _ high: UnsafeMutablePointer<UInt8>, with other: UnsafePointer<UInt8>, count: Int
    ) {
        for index in 0..<count {
            low[index] = min(low[index], other[index])
            high[index] = max(high[index], other[index])
        }
    }

    /// `low[i] = min(low[i], otherLow[i])`, `high[i] = max(high[i], otherHigh[i])`.
    @inline(__always)
    private static func combine(
        _ low: UnsafeMutablePointer<UInt8>, _ otherLow: UnsafePointer<UInt8>, _ high: UnsafeMutablePointer<UInt8>,
        _ otherHigh: UnsafePointer<UInt8>, count: Int
    ) {
        for index in 0..<count {
            low[index] = min(low[index], otherLow[index])
            high[index] = max(high[index], otherHigh[index])
        }
    }
}
