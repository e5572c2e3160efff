public import ArgumentParser
public import TaskWidgetCore

/// `--family --size --scale --theme`: which PNG widget to draw (`render`, and `watch --render-dir`).
public struct WidgetOptions: ParsableArguments {
    @Option(help: "small, medium or large (default: medium; large with --size).") public var family: WidgetFamily?
    @Option(help: ArgumentHelp("A canvas of WIDTHxHEIGHT points for a dashboard, e.g. 800x480.", valueName: "WxH")) public var size: String?
    @Option(help: "Pixels per point: 1, 2 or 3.") public var scale = 1
    @Option(help: "light, dark or mono (black and white for e-ink).") public var theme: WidgetTheme = .light
    @Option(help: ArgumentHelp("Gray levels for e-ink: 1, 2, 4 or 8 bits (the PNG header says so).", valueName: "bits")) public var depth: Int?
    @Option(help: "png, or bmp (1-bit BMP3, as TRMNL devices take it).") public var imageFormat: WidgetImageSpec.Format = .png
    @Option(help: ArgumentHelp("Turn the image clockwise by 0, 90, 180 or 270 degrees (makes it gray).", valueName: "degrees"))
    public var rotate = 0

    public init() {}

    public func validate() throws {
        guard WidgetImageSpec.scales.contains(scale) else { throw ValidationError("--scale must be 1, 2 or 3") }
        do { _ = try spec() } catch let error as TaskWidgetError { throw ValidationError(error.message) }
    }

    /// The widget these options name.
    public func spec() throws -> WidgetImageSpec {
        let canvas = try size.map(WidgetSize.init(parsing:))
        return try WidgetImageSpec(
            family: family ?? (canvas == nil ? .medium : .large), size: canvas, scale: scale, theme: theme, depth: depth, format: imageFormat,
            rotation: rotate)
    }
}

extension WidgetFamily: ExpressibleByArgument {}
extension WidgetTheme: ExpressibleByArgument {}
extension WidgetImageSpec.Format: ExpressibleByArgument {}
