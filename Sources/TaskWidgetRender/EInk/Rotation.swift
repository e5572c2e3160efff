/// A clockwise quarter-turn applied to a picture before it is encoded, for displays mounted in
/// portrait (Kindles): rotated by 90 or 270, an 800 × 480 picture becomes 480 × 800.
///
/// `clockwise90` turns the picture the way a clock's hands go: its top-left pixel ends up at the
/// top-right, its left column becomes the top row. A device held so that its top edge is on the
/// viewer's right (turned 90° counterclockwise) then shows the picture upright.
enum Rotation: Int, Sendable, Hashable, CaseIterable {
    case none = 0
    case clockwise90 = 90
    case clockwise180 = 180
    case clockwise270 = 270

    /// The rotation of `degrees` clockwise (negative: counterclockwise), or `nil` when it is not a
    /// multiple of 90.
    init?(degrees: Int) {
        guard degrees % 90 == 0 else { return nil }
        self.init(rawValue: (degrees % 360 + 360) % 360)
    }

    /// Clockwise degrees: 0, 90, 180 or 270.
    var degrees: Int { rawValue }

    /// Whether the picture's width and height trade places.
    var swapsAxes: Bool { self == .clockwise90 || self == .clockwise270 }

    /// The size of a `width` × `height` picture after the rotation.
    func size(width: Int, height: Int) -> (width: Int, height: Int) {
        swapsAxes ? (height, width) : (width, height)
    }

    /// `pixels`, `width` × `height` of them row after row (top row first, no padding), turned:
    /// the result has ``size(width:height:)`` and is also row after row without padding.
    func apply<Pixel>(to pixels: [Pixel], width: Int, height: Int) -> [Pixel] {
        precondition(width >= 0 && height >= 0 && pixels.count == width * height, "\(pixels.count) pixels for \(width) × \(height)")
        switch self {
        case .none:
            return pixels
        case .clockwise180:
            return pixels.reversed()
        case .clockwise90, .clockwise270:
            guard let first = pixels.first else { return pixels }
            var turned = [Pixel](repeating: first, count: pixels.count)
            pixels.withUnsafeBufferPointer { source in
                turned.withUnsafeMutableBufferPointer { target in
                    // Output row `y` (of `width` rows), column `x` (of `height` columns):
                    // 90° clockwise reads source row `height - 1 - x`, column `y`;
                    // 270° clockwise reads source row `x`, column `width - 1 - y`.
                    // Walk the source row by row (sequential reads) and write each source row
                    // as one output column.
                    for sourceRow in 0..<height {
                        let row = source.baseAddress! + sourceRow * width
                        if self == .clockwise90 {
                            let column = height - 1 - sourceRow
                            for sourceColumn in 0..<width {
                                target[sourceColumn * height + column] = row[sourceColumn]
                            }
                        } else {
                            let column = sourceRow
                            for sourceColumn in 0..<width {
                                target[(width - 1 - sourceColumn) * height + column] = row[sourceColumn]
                            }
                        }
                    }
                }
            }
            return turned
        }
    }
}
