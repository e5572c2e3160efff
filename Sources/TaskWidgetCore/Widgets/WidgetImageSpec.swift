/// Which widget image to draw, apart from how: the family's layout, the canvas, the pixels per
/// point, the theme, and for e-ink panels the gray depth, the file format and a turn. `render`,
/// `watch --render-dir` and `serve` name one; a ``WidgetDrawing`` draws it.
///
/// ```swift
/// let spec = try WidgetImageSpec(family: .medium, scale: 2, theme: .dark)  // 728 × 340 pixels
/// let panel = try WidgetImageSpec(family: .large, size: WidgetSize(parsing: "800x480"), theme: .mono,
///                                 depth: 1, format: .bmp)      // what a TRMNL device shows
/// ```
public struct WidgetImageSpec: Sendable, Hashable {
    /// The file formats of a widget image.
    public enum Format: String, Sendable, CaseIterable {
        /// Color with the theme's colors, or gray at ``WidgetImageSpec/depth`` bits.
        case png
        /// A 1-bit BMP3, as TRMNL devices take it.
        case bmp
    }

    public let family: WidgetFamily
    /// The canvas in points: the family's size, or the one given.
    public let size: WidgetSize
    public let scale: Int
    public let theme: WidgetTheme
    /// Whether the canvas was given (`--size`): drawn edge to edge, where a family's card has
    /// rounded, transparent corners.
    public let isDashboard: Bool
    /// Gray levels of 1, 2, 4 or 8 bits for e-ink panels (the PNG header says so); `nil`: the
    /// theme's colors. A turned image is gray (8 bits unless given).
    public let depth: Int?
    public let format: Format
    /// A clockwise turn of 0, 90, 180 or 270 degrees (for a panel hung in portrait).
    public let rotation: Int

    /// The schema name of the `index.json` that `render --timeline` writes.
    public static let renderIndexSchema = "taskwidget.render-index/1"

    /// The scales a widget may have (@1x, @2x, @3x).
    public static let scales = 1...3
    /// The gray depths an e-ink image may have.
    public static let depths = [1, 2, 4, 8]
    /// The turns an image may have.
    public static let rotations = [0, 90, 180, 270]

    /// Throws an ``TaskWidgetError/Code/invalidInput`` error for a scale, depth or turn that is
    /// not supported, or a BMP that is not 1-bit (a BMP is 1-bit when no depth is given). A scale,
    /// theme, format or turn that is `nil` is the default: @1x, light, PNG, upright.
    public init(
        family: WidgetFamily, size: WidgetSize? = nil, scale: Int? = nil, theme: WidgetTheme? = nil, depth: Int? = nil,
        format: Format? = nil, rotation: Int? = nil
    ) throws {
        let (scale, theme, format, rotation) = (scale ?? 1, theme ?? .light, format ?? .png, rotation ?? 0)
        guard Self.scales.contains(scale) else {
            throw TaskWidgetError(.invalidInput, "scale \(scale) is not supported: use 1, 2 or 3")
        }
        if let depth, !Self.depths.contains(depth) {
            throw TaskWidgetError(.invalidInput, "depth \(depth) is not supported: use 1, 2, 4 or 8 bits")
        }
        guard format == .png || (depth ?? 1) == 1 else {
            throw TaskWidgetError(.invalidInput, "a BMP is 1-bit: ask for depth 1 or a PNG")
        }
        guard Self.rotations.contains(rotation) else {
            throw TaskWidgetError(.invalidInput, "rotation \(rotation) is not supported: use 0, 90, 180 or 270")
        }
        self.family = family
        self.size = size ?? WidgetSize(family)
        self.scale = scale
        self.theme = theme
        isDashboard = size != nil
        self.depth = format == .bmp ? 1 : depth ?? (rotation == 0 ? nil : 8)
        self.format = format
        self.rotation = rotation
    }

    /// The image's size in pixels after the turn, `728x340` for a medium widget at @2x.
    public var pixels: String {
        let (width, height) = (size.width * scale, size.height * scale)
        return rotation % 180 == 0 ? "\(width)x\(height)" : "\(height)x\(width)"
    }

    /// The file name in a render folder (`watch --render-dir`): `medium.png`, or `800x480.png` for a canvas.
    public var fileName: String { (isDashboard ? "\(size)" : family.rawValue) + "." + format.rawValue }

    /// Whether `entry` draws the same image as `other`: an image shows an entry's content and its
    /// day, nothing else of its date. Lets callers skip a render.
    public static func drawsTheSame(_ entry: TimelineEntry, as other: TimelineEntry) -> Bool {
        entry.dayStart == other.dayStart && entry.hasSameContent(as: other)
    }

    /// The spec as command-line arguments (`--family medium --scale 2 --theme dark`, and
    /// `--size WxH`, `--depth`, `--format`, `--rotate` when they are set): how the drawing helper is
    /// told what to draw (``DrawingProtocol/specLine(for:)``).
    public var arguments: [String] {
        ["--family", family.rawValue, "--scale", String(scale), "--theme", theme.rawValue]
            + (isDashboard ? ["--size", size.description] : []) + (depth.map { ["--depth", String($0)] } ?? [])
            + (format == .png ? [] : ["--format", format.rawValue]) + (rotation == 0 ? [] : ["--rotate", String(rotation)])
    }

    /// Reads ``arguments``; anything else is an ``TaskWidgetError/Code/invalidInput`` error.
    public init(arguments: [String]) throws {
        let names = ["--family", "--scale", "--theme", "--size", "--depth", "--format", "--rotate"]
        var values: [String: String] = [:]
        var rest = arguments[...]
        while let name = rest.popFirst() {
            guard names.contains(name), let value = rest.popFirst() else {
                throw TaskWidgetError(.invalidInput, "unexpected argument “\(name.sanitizedForMessage)”: give \(names.joined(separator: ", "))")
            }
            values[name] = value
        }
        func read<Value>(_ name: String, _ make: (String) -> Value?) throws -> Value? {
            guard let text = values[name] else { return nil }
            guard let value = make(text) else {
                throw TaskWidgetError(.invalidInput, "\(name) \(text.sanitizedForMessage) is not valid")
            }
            return value
        }
        try self.init(
            family: read("--family", WidgetFamily.init(rawValue:)) ?? .medium, size: values["--size"].map { try WidgetSize(parsing: $0) },
            scale: read("--scale") { Int($0) } ?? 1, theme: read("--theme", WidgetTheme.init(rawValue:)) ?? .light,
            depth: read("--depth") { Int($0) }, format: read("--format", Format.init(rawValue:)) ?? .png,
            rotation: read("--rotate") { Int($0) } ?? 0)
    }
}
