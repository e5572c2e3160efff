/// Which PNG widget to draw, apart from how: the family's layout, the canvas, the pixels per point
/// and the theme. `render` and `watch --render-dir` name one; a ``WidgetDrawing`` draws it.
///
/// ```swift
/// let spec = try WidgetImageSpec(family: .medium, scale: 2, theme: .dark)  // 728 × 340 pixels
/// let panel = try WidgetImageSpec(family: .large, size: WidgetSize(parsing: "800x480"), theme: .mono)
/// ```
public struct WidgetImageSpec: Sendable, Equatable {
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
            throw TaskWidgetError(.invalidInput, "scale \(scale) is not supported: use 1, 2 or 3")
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

    /// The spec as command-line arguments (`--family medium --scale 2 --theme dark`, with
    /// `--size WxH` for a canvas): how the drawing helper is told what to draw.
    public var arguments: [String] {
        ["--family", family.rawValue, "--scale", String(scale), "--theme", theme.rawValue]
            + (isDashboard ? ["--size", size.description] : [])
    }

    /// Reads ``arguments``; anything else is an ``TaskWidgetError/Code/invalidInput`` error.
    public init(arguments: [String]) throws {
        var values: [String: String] = [:]
        var rest = arguments[...]
        while let name = rest.popFirst() {
            guard ["--family", "--scale", "--theme", "--size"].contains(name), let value = rest.popFirst() else {
                throw TaskWidgetError(.invalidInput, "unexpected argument “\(name.sanitizedForMessage)”: give --family, --scale, --theme and --size")
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
            family: read("--family", WidgetFamily.init(rawValue:)) ?? .medium, size: values["--size"].map(WidgetSize.init(parsing:)),
            scale: read("--scale") { Int($0) } ?? 1, theme: read("--theme", WidgetTheme.init(rawValue:)) ?? .light)
    }
}
