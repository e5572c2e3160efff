/// The looks of a PNG widget (SPEC §7).
public enum WidgetTheme: String, CaseIterable, Sendable, Codable {
    /// Dark text on a white card.
    case light
    /// Light text on a near-black card.
    case dark
    /// Pure black on white, text without antialiasing: for 1-bit e-ink panels.
    case mono
}

/// Which PNG widget to draw, apart from how: the family's layout, the canvas, the pixels per point
/// and the theme. `render` and `watch --render-dir` name one; a ``WidgetDrawing`` draws it.
///
/// ```swift
/// let spec = try WidgetImageSpec(family: .medium, scale: 2, theme: .dark)  // 728 × 340 pixels
/// let panel = try WidgetImageSpec(family: .large, size: WidgetSize(parsing: "800x480"), theme: .mono)
/// ```
public struct WidgetImageSpec: Sendable, Equatable, Codable {
    public let family: WidgetFamily
    /// The canvas in points: the family's size, or the one given.
    public let size: WidgetSize
    public let scale: Int
    public let theme: WidgetTheme
    /// Whether the canvas was given (`--size`): drawn edge to edge, where a family's card has
    /// rounded, transparent corners.
    public let isDashboard: Bool

    /// The schema name of the `index.json` that `render --timeline` writes.
    public static let renderIndexSchema = "taskwidget.render-index/1"

    /// The scales a widget may have (@1x, @2x, @3x).
    public static let scales = 1...3

    /// Throws a usage error for a scale outside ``scales``.
    public init(family: WidgetFamily, size: WidgetSize? = nil, scale: Int = 1, theme: WidgetTheme = .light) throws {
        guard Self.scales.contains(scale) else {
            throw TaskWidgetError(.usage, "scale \(scale) is not supported: use 1, 2 or 3")
        }
        self.family = family
        self.size = size ?? WidgetSize(family)
        self.scale = scale
        self.theme = theme
        isDashboard = size != nil
    }

    /// The image's size in pixels, `728x340` for a medium widget at @2x.
    public var pixels: String { "\(size.width * scale)x\(size.height * scale)" }

    /// The file name in a render folder (`watch --render-dir`): `medium.png`, or `800x480.png` for a canvas.
    public var fileName: String { isDashboard ? "\(size).png" : "\(family.rawValue).png" }

    /// Whether `entry` draws the same image as `other`: an image shows an entry's content and its
    /// day, nothing else of its date. Lets callers skip a render.
    public static func drawsTheSame(_ entry: TimelineEntry, as other: TimelineEntry) -> Bool {
        entry.dayStart == other.dayStart && entry.hasSameContent(as: other)
    }
}
