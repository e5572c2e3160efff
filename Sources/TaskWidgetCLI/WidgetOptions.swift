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
    @Option(help: "light, dark or mono (black and white for e-ink, with gray text edges at --depth 2 or more; default: light).") var theme: WidgetTheme?
    @Option(help: ArgumentHelp("Gray levels for e-ink: 1, 2, 4 or 8 bits (the PNG header says so; default: color, and 1 for a BMP).", valueName: "bits"))
    var depth: Int?
    @Option(help: "png, or bmp (1-bit BMP3, as TRMNL devices take it; default: png, or bmp for render -o FILE.bmp).") var imageFormat: WidgetImageSpec.Format?
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

    /// The widget these options name, to be written to `file`: a name ending in `.png` or `.bmp`
    /// chooses the format, and must agree with `--image-format`.
    public func spec(writingTo file: String? = nil) throws -> WidgetImageSpec {
        if let file, let other = Self.otherImageExtension(ofFile: file) {
            throw TaskWidgetError(.invalidInput, "\(file) names a \(other.uppercased()) file, which taskwidget does not write: name it .png or .bmp")
        }
        let named = file.flatMap(Self.format(ofFile:))
        if let file, let named, let imageFormat, named != imageFormat {
            throw TaskWidgetError(
                .invalidInput, "\(file) names a \(named.rawValue.uppercased()) file, but --image-format is \(imageFormat.rawValue): make them agree")
        }
        // serve's URLs name a family where --size goes (`/widget/medium.png`) (helper-121).
        if let size, let named = WidgetFamily(rawValue: size.lowercased()) {
            throw TaskWidgetError(.invalidInput, "“\(size.sanitizedForMessage)” is a family, not a size: give --family \(named.rawValue) (--size takes WIDTHxHEIGHT, e.g. 800x480)")
        }
        let canvas = try size.map { try WidgetSize(parsing: $0) }
        return try WidgetImageSpec(
            family: family ?? (canvas == nil ? .medium : .large), size: canvas, scale: scale, theme: theme, depth: depth,
            format: imageFormat ?? named, rotation: rotate)
    }

    /// The format a file name's extension names (`.png`, `.bmp`, in any case), if any.
    static func format(ofFile path: String) -> WidgetImageSpec.Format? {
        fileExtension(of: path).flatMap(WidgetImageSpec.Format.init(rawValue:))
    }

    /// The extension of another image format (`.jpg`), which a PNG would be mistaken for.
    static func otherImageExtension(ofFile path: String) -> String? {
        fileExtension(of: path).flatMap { ["jpg", "jpeg", "gif", "webp", "svg", "tif", "tiff", "avif", "heic", "ico"].contains($0) ? $0 : nil }
    }

    /// A file name's extension, lowercased.
    private static func fileExtension(of path: String) -> String? {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
        return name[name.index(after: dot)...].lowercased()
    }
}

extension WidgetFamily: ExpressibleByArgument {}
extension WidgetTheme: ExpressibleByArgument {}
extension WidgetImageSpec.Format: ExpressibleByArgument {}
