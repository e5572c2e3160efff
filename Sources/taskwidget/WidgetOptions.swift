public import ArgumentParser
import TaskWidgetCore

/// `--family --size --scale --theme`: which PNG widget to draw (`render`, and `watch --render-dir`).
struct WidgetOptions: ParsableArguments {
    @Option(help: "small, medium or large (default: medium; large with --size).") var family: WidgetFamily?
    @Option(help: ArgumentHelp("A canvas of WIDTHxHEIGHT points for a dashboard, e.g. 800x480.", valueName: "WxH")) var size: String?
    @Option(help: "Pixels per point: 1, 2 or 3.") var scale = 1
    @Option(help: "light, dark or mono (black and white for e-ink).") var theme: WidgetTheme = .light
    @Option(help: ArgumentHelp("Gray levels for e-ink: 1, 2, 4 or 8 bits (the PNG header says so).", valueName: "bits")) var depth: Int?
    @Option(help: "png, or bmp (1-bit BMP3, as TRMNL devices take it).") var imageFormat: WidgetImageSpec.Format = .png
    @Option(help: ArgumentHelp("Turn the image clockwise by 0, 90, 180 or 270 degrees (makes it gray).", valueName: "degrees"))
    var rotate = 0

    func validate() throws {
        guard WidgetImageSpec.scales.contains(scale) else { throw ValidationError("--scale must be 1, 2 or 3") }
        do { _ = try spec() } catch let error as TaskWidgetError { throw ValidationError(error.message) }
    }

    /// The widget these options name.
    func spec() throws -> WidgetImageSpec {
        let canvas = try size.map(WidgetSize.init(parsing:))
        return try WidgetImageSpec(
            family: family ?? (canvas == nil ? .medium : .large), size: canvas, scale: scale, theme: theme, depth: depth, format: imageFormat,
            rotation: rotate)
    }
}

extension WidgetFamily: ExpressibleByArgument {}
extension WidgetTheme: ExpressibleByArgument {}
extension WidgetImageSpec.Format: ExpressibleByArgument {}
