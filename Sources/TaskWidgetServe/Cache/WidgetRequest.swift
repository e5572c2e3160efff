import TaskWidgetCore

extension WidgetImageSpec {
    /// The largest side of an image served, in pixels (TRMNL X's panel is 1872 × 1404).
    static let maximumServedSide = 4096
    /// The query keys a widget image takes.
    static let parameters = ["scale", "theme", "depth", "rotate"]
    /// What goes in a widget image's path, not in its query.
    static let pathParts: Set<String> = ["size", "family", "format", "width", "height"]

    /// The path that gives `key` the value `value`, for an image asked for as `stem.format`:
    /// `?size=800x480` on `large.png` is `/widget/800x480.png`, `?format=bmp` is `/widget/large.bmp`.
    static func path(stem: Substring, format: Format, giving key: String, _ value: Substring) -> String {
        let isName = !value.isEmpty && value.count <= 16 && value.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
        switch key {
        case "size" where isName, "family" where isName: return "/widget/\(value.lowercased()).\(format.rawValue)"
        case "format" where Format(rawValue: value.lowercased()) != nil: return "/widget/\(stem).\(value.lowercased())"
        default: return "/widget/800x480.png"
        }
    }

    /// What `GET /widget/{name}?scale=&theme=&depth=&rotate=` asks for: `name` is
    /// `small|medium|large|WxH` (points) and `.png` or `.bmp`, in any case (`800X480.PNG`: the
    /// name as a camera app or a file name keeps it). Unknown query keys are ignored
    /// (pollers add cache busters such as `?v=`), unless they read as a known one misspelt
    /// (`?them=dark`); a known key with a bad value or a `WxH` with a side out of range is a 400, a
    /// name that is no widget a 404.
    init(name: Substring, query: some Sequence<(key: Substring, value: Substring)>) throws(ServeHTTPError) {
        let name = Substring(name.lowercased())
        guard let dot = name.lastIndex(of: "."), let format = Format(rawValue: String(name[name.index(after: dot)...])) else {
            throw .noSuchWidget
        }
        let stem = name[..<dot]
        let family = WidgetFamily(rawValue: String(stem))
        let size: WidgetSize? = family == nil ? try? WidgetSize(parsing: String(stem)) : nil
        guard family != nil || size != nil else { throw WidgetSize.sides(of: stem) == nil ? .noSuchWidget : .badSize }
        try ServeHTTPError.refuseRepeated(query, known: Self.parameters)
        var (scale, theme, depth, rotation): (Int?, WidgetTheme?, Int?, Int?) = (nil, nil, nil, nil)
        for (key, value) in query {
            switch key {
            case "scale":
                guard let number = Int(value), Self.scales.contains(number) else { throw .badParameter("scale", expected: "1, 2 or 3") }
                scale = number
            case "theme":
                // In any case, as the name (`?theme=Dark` was a 400, helper-174).
                guard let named = WidgetTheme(rawValue: value.lowercased()) else { throw .badParameter("theme", expected: "light, dark or mono") }
                theme = named
            case "depth":
                guard let bits = Int(value), Self.depths.contains(bits), format == .png || bits == 1 else {
                    throw .badParameter("depth", expected: format == .png ? "1, 2, 4 or 8" : "1 for a BMP")
                }
                depth = bits
            case "rotate":
                guard let degrees = Int(value), Self.rotations.contains(degrees) else {
                    throw .badParameter("rotate", expected: "0, 90, 180 or 270")
                }
                rotation = degrees
            case let key where Self.pathParts.contains(key.lowercased()):
                // Parts of the path, given as parameters: they passed unread, as a cache buster does,
                // and the default image came (helper-165); `?Size=` too (helper-167).
                throw .inThePath(key, example: Self.path(stem: stem, format: format, giving: key.lowercased(), value))
            default:
                try ServeHTTPError.refuseMisspelt(key, known: Self.parameters)
            }
        }
        do {
            try self.init(family: family ?? .large, size: size, scale: scale, theme: theme, depth: depth, format: format, rotation: rotation)
        } catch {
            throw .badParameter("depth", expected: "1 for a BMP")
        }
        guard max(self.size.width, self.size.height) * self.scale <= Self.maximumServedSide else {
            throw .badParameter("scale", expected: "a size of at most \(Self.maximumServedSide) pixels a side")
        }
    }
}
