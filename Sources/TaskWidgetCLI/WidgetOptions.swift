public import ArgumentParser
public import TaskWidgetCore

/// `--family --size --scale --theme`: which PNG widget to draw (`render`, and `watch --render-dir`).
///
/// No option has a default value for ArgumentParser: `WidgetImageSpec` applies them, and the help
/// states them. ArgumentParser describes a default value at every parse, through dynamic casts
/// whose first look-ups walk all of the program's conformance records.
public struct WidgetOptions: ParsableArguments {
    @Option(help: "small, medium or large (default: medium; large with --size).") var family: WidgetFamily?
    @Option(help: ArgumentHelp("A canvas of WIDTHxHEIGHT points for a dashboard, e.g. 800x480.", valueName: "WxH")) var size: String?
    @Option(help: "Pixels per point: 1, 2 or 3 (default: 1).") var scale: Int?
    @Option(help: "light, dark or mono (black and white for e-ink; default: light).") var theme: WidgetTheme?
    @Option(help: ArgumentHelp("Gray levels for e-ink: 1, 2, 4 or 8 bits (the PNG header says so).", valueName: "bits")) var depth: Int?
    @Option(help: "png, or bmp (1-bit BMP3, as TRMNL devices take it; default: png).") var imageFormat: WidgetImageSpec.Format?
    @Option(help: ArgumentHelp("Turn the image clockwise by 0, 90, 180 or 270 degrees (makes it gray; default: 0).", valueName: "degrees"))
    var rotate: Int?

    public init() {}

    /// Whether none of these options was given.
    public var isEmpty: Bool {
        family == nil && size == nil && scale == nil && theme == nil && depth == nil && imageFormat == nil && rotate == nil
    }

    public func validate() throws {
        do { _ = try spec() } catch let error as TaskWidgetError { throw ValidationError(error.message) }
    }

    /// The widget these options name.
    public func spec() throws -> WidgetImageSpec {
        let canvas = try size.map { try WidgetSize(parsing: $0) }
        return try WidgetImageSpec(
            family: family ?? (canvas == nil ? .medium : .large), size: canvas, scale: scale, theme: theme, depth: depth, format: imageFormat,
            rotation: rotate)
    }
}

extension WidgetFamily: ExpressibleByArgument {}
extension WidgetTheme: ExpressibleByArgument {}
extension WidgetImageSpec.Format: ExpressibleByArgument {}
