/// A widget's canvas in points; the image is `width × scale` by `height × scale` pixels exactly.
///
/// ```swift
/// let panel = try WidgetSize(parsing: "800x480")  // a dashboard or e-ink panel
/// WidgetSize(.medium)                               // 364 × 170
/// ```
public struct WidgetSize: Sendable, Hashable, CustomStringConvertible {
    public var width: Int
    public var height: Int

    /// The sizes a canvas may have, in points on each side.
    public static let allowedPoints = 64...4096

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// The size of a family: small 170 × 170, medium 364 × 170, large 364 × 382.
    public init(_ family: WidgetFamily) {
        switch family {
        case .small: self.init(width: 170, height: 170)
        case .medium: self.init(width: 364, height: 170)
        case .large: self.init(width: 364, height: 382)
        }
    }

    /// Reads `WxH` (`800x480`, also `800×480`); each side in ``allowedPoints``. The error names
    /// the sides in `unit`: `pixels` for a device, whose image is drawn at scale 1.
    public init(parsing text: String, unit: String = "points") throws {
        guard let (width, height) = Self.sides(of: text), Self.allowedPoints.contains(width), Self.allowedPoints.contains(height)
        else {
            throw TaskWidgetError(
                .invalidInput,
                "“\(text.sanitizedForMessage)” is not a size: give WIDTHxHEIGHT in \(unit), each from \(Self.allowedPoints.lowerBound) to \(Self.allowedPoints.upperBound), e.g. --size 800x480")
        }
        self.init(width: width, height: height)
    }

    /// The sides that `WxH` (or `W×H`) names, in range or not (a side too long for `Int` is
    /// `Int.max`); `nil` when `text` is not two runs of digits around an x.
    public static func sides(of text: some StringProtocol) -> (width: Int, height: Int)? {
        let sides = text.lowercased().split(omittingEmptySubsequences: false, whereSeparator: { $0 == "x" || $0 == "×" })
        // Digits only: `Int` would take "+800" too.
        guard sides.count == 2, sides.allSatisfy({ !$0.isEmpty && $0.allSatisfy { ("0"..."9").contains($0) } }) else { return nil }
        return (Int(sides[0]) ?? .max, Int(sides[1]) ?? .max)
    }

    public var description: String { "\(width)x\(height)" }
}
