internal import CPangoCairo
public import Foundation
import Synchronization
public import TaskWidgetCore

/// Draws timeline entries as widget images (SPEC §7, §11) with Cairo and Pango: PNGs in the
/// theme's colors, or gray PNGs and BMPs for e-ink panels. Make one per
/// configuration and keep it: the fonts are set up once per process and shared by all renderers.
///
/// The family decides the layout and how many tasks it shows; compute the entries with
/// `TimelineRequest(family: renderer.spec.family)`. A `size` only changes the canvas: the family's layout
/// is scaled to fit it (by the smaller of the two ratios) and fills its width, so a 800 × 480
/// dashboard with `.large` shows the large layout's 12 tasks and habits at 1.26 times the size.
/// The image is `size × scale` pixels exactly. The same inputs give the same bytes.
///
/// ```swift
/// let renderer = try WidgetRenderer(family: .medium, scale: 2, theme: .dark)
/// try AtomicFile.write(renderer.image(for: entry), to: url, durability: .atomicOnly)  // 728 × 340 pixels
/// ```
public struct WidgetRenderer: WidgetDrawing, Sendable {
    public let spec: WidgetImageSpec

    public init(spec: WidgetImageSpec) {
        self.spec = spec
    }

    /// Throws a usage error for a scale outside ``WidgetImageSpec/scales``. A `nil` scale or theme
    /// is the spec's default.
    public init(family: WidgetFamily, size: WidgetSize? = nil, scale: Int? = nil, theme: WidgetTheme? = nil) throws {
        try self.init(spec: WidgetImageSpec(family: family, size: size, scale: scale, theme: theme))
    }

    /// For a process that draws image after image (`serve`): keeps the memory of one image for the
    /// next. An image is drawn in blocks of a megabyte and more (a medium widget at @2x: 1 MB of
    /// pixels), which glibc gives back to the kernel when they are freed and faults in again, a
    /// page at a time, at the next drawing (242 pages for those pixels). After this, blocks under
    /// 16 MB come from the heap, and up to 32 MB of free heap is kept. (zlib's state is kept by the
    /// PNG encoder itself.)
    public static func keepMemoryBetweenImages() {
        mallopt(M_MMAP_THRESHOLD, 16 << 20)
        mallopt(M_TRIM_THRESHOLD, 32 << 20)
    }

    public func image(for entry: TimelineEntry) throws -> Data {
        try render(entry).image
    }

    /// The same widget with a notice instead of tasks: a warning sign, "Tasks unavailable" and
    /// `message` (e.g. why the store cannot be read), for a dashboard that must show something.
    public func unavailableImage(message: String) throws -> Data {
        try renderUnavailable(message: message).image
    }

    /// The notice's image, and with `recording` what the drawing did (for the tests).
    func renderUnavailable(message: String, recording: Bool = false) throws -> RenderedWidget {
        try render(recording: recording) { canvas, roundedCard in
            UnavailableLayout(canvas: canvas, family: spec.family, message: message).draw(roundedCard: roundedCard)
        }
    }

    /// The image, and with `recording` what the drawing did (for the tests).
    func render(_ entry: TimelineEntry, recording: Bool = false) throws -> RenderedWidget {
        try render(recording: recording) { canvas, roundedCard in
            WidgetLayout(canvas: canvas, family: spec.family, entry: entry, day: DueLabeler.dayText(of: entry.day))
                .draw(roundedCard: roundedCard)
        }
    }

    /// Draws with `layout` (given the canvas, and whether the card has rounded corners) and encodes.
    private func render(recording: Bool = false, layout: (Canvas, Bool) -> Void) throws -> RenderedWidget {
        let (size, scale) = (spec.size, spec.scale)
        let monochrome = spec.theme.palette.isMonochrome
        // Black and white drawn without antialiasing only where the image has two levels: a 2- or
        // 4-bit panel (TRMNL on firmware 1.6, TRMNL X, a Kindle at 8 bits) shows the grays of
        // antialiased edges, which the e-ink encoder keeps crisp.
        let antialiased = !monochrome || (spec.depth ?? 1) > 1
        // Cards have rounded, transparent corners; canvases and e-ink images are opaque.
        let opaque = monochrome || spec.isDashboard || spec.depth != nil
        return try FontSystem.shared.withLock { fonts in
            let surface = cairo_image_surface_create(opaque ? CAIRO_FORMAT_RGB24 : CAIRO_FORMAT_ARGB32, Int32(size.width * scale), Int32(size.height * scale))!
            defer { cairo_surface_destroy(surface) }
            cairo_surface_set_device_scale(surface, Double(scale), Double(scale))
            let cairo = cairo_create(surface)!
            defer { cairo_destroy(cairo) }
            let canvas = Canvas(
                cairo: cairo, fonts: fonts, antialiased: antialiased, palette: spec.theme.palette,
                unit: layoutUnit, width: Double(size.width), height: Double(size.height), recording: recording)
            if !antialiased { cairo_set_antialias(cairo, CAIRO_ANTIALIAS_NONE) }
            layout(canvas, !opaque)
            cairo_surface_flush(surface)
            let status = cairo_status(cairo)
            guard status == CAIRO_STATUS_SUCCESS, cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS else {
                let reason = String(cString: cairo_status_to_string(status))
                throw TaskWidgetError(.rendererFailed, "cannot draw the widget: \(reason): check the free memory and the --size", context: reason)
            }
            let (pixels, width, height) = (cairo_image_surface_get_data(surface)!, size.width * scale, size.height * scale)
            let stride = Int(cairo_image_surface_get_stride(surface))
            let image: Data
            if let depth = spec.depth {
                let options = EInkImageOptions(depth: GrayDepth(rawValue: depth)!, rotation: Rotation(degrees: spec.rotation)!)
                image =
                    spec.format == .bmp
                    ? EInkEncoder.bmp(cairoRGB24: pixels, width: width, height: height, stride: stride, options: options)
                    : EInkEncoder.png(cairoRGB24: pixels, width: width, height: height, stride: stride, options: options)
            } else {
                image = PNGEncoder.encode(
                    pixels, width: width, height: height, stride: stride, pixels: monochrome ? .blackAndWhite : opaque ? .rgb : .argb)
            }
            return RenderedWidget(image: image, report: canvas.report ?? RenderReport())
        }
    }

    /// Points of the design per point of the canvas: 1 for a family, more or less for a `size`.
    private var layoutUnit: Double {
        let design = WidgetSize(spec.family)
        return min(Double(spec.size.width) / Double(design.width), Double(spec.size.height) / Double(design.height))
    }
}

/// An image and the facts about its drawing the tests check.
struct RenderedWidget: Sendable {
    var image: Data
    var report: RenderReport
}

/// What a render drew, beyond its pixels.
struct RenderReport: Sendable {
    /// Glyphs no font had, over all texts (each would show as a box).
    var unknownGlyphs = 0
    /// The texts that were cut with an ellipsis.
    var ellipsized: [String] = []
    /// The task rows, top to bottom.
    var rows: [Row] = []

    struct Row: Sendable {
        var title: String
        /// The row's band in points, from the top of the canvas.
        var top: Double
        var bottom: Double
        /// The color of the title and due text.
        var color: RGB
    }
}
