internal import CPangoCairo
import Foundation
import Synchronization

/// Pictures drawn with Cairo and Pango the way taskwidget draws its dashboards.
enum TestPictures {
    /// The three taskwidget themes, with the colors of its palettes.
    enum Theme: String, Sendable, CaseIterable {
        case light, dark, mono

        var background: UInt32 { self == .dark ? 0x1C1C1E : 0xFFFFFF }
        var primary: UInt32 { self == .dark ? 0xFFFFFF : self == .light ? 0x1C1C1E : 0 }
        var secondary: UInt32 { self == .dark ? 0xAEAEB2 : self == .light ? 0x6C6C70 : 0 }
        var red: UInt32 { self == .dark ? 0xFF6961 : self == .light ? 0xD70015 : 0 }
        var accent: UInt32 { self == .dark ? 0x409CFF : self == .light ? 0x0062CC : 0 }
        var ring: UInt32 { self == .dark ? 0x48484A : self == .light ? 0xD1D1D6 : 0 }
        var antialiased: Bool { self != .mono }
    }

    /// A busy task dashboard: a header, `rows` task rows (a list-color dot, a title, some with
    /// emoji or CJK, a right-aligned due label, overdue ones in red), a rule and a row of habit
    /// rings with emoji, at `scale` pixels a point. 800 × 480 at scale 1.
    static func dashboard(theme: Theme, rows: Int = 15, width: Int = 800, height: Int = 480, scale: Double = 1) -> CairoPixels {
        draw(width: width, height: height, theme: theme) { cairo, layout in
            cairo_scale(cairo, scale, scale)
            let pointWidth = Double(width) / scale
            let pointHeight = Double(height) / scale
            let margin = 20.0
            let rowHeight = (pointHeight - 132) / Double(rows)
            let fontSize = min(16, rowHeight * 0.6)
            text(layout, cairo, "<b>Tasks</b>  <span size='smaller' color='\(hex(theme.secondary))'>Sun 22 Nov</span>", size: 20, color: theme.accent, x: margin, y: 12)
            text(layout, cairo, "<b><span color='\(hex(theme.red))'>4 overdue</span></b> · 3 today · \(rows) open", size: 15, color: theme.secondary, x: pointWidth - margin, y: 16, rightAligned: true)
            let titles = [
                "Fix the leaking tap", "Call the dentist", "Pay rent", "Submit expense report", "Buy milk &amp; eggs",
                "Water the plants 🌱", "Review pull request #42", "Prepare slides for &lt;Monday&gt;", "Gift for 田中さん 🎁",
                "Book flights to Lisbon ✈️", "Renew passport", "Read “Deep Work” &amp; take notes", "Call mum 📞",
                "Clean the garage", "Plan the week", "Pick up the dry cleaning", "Order printer ink", "Back up the laptop",
                "Book a haircut", "Pay the electricity bill",
            ]
            let dues = ["Overdue · Yesterday 14:15", "Overdue · 14:15", "17:00", "22:15", "Today", "Tomorrow 10:00", "Wed 25 Nov", "Thu 26 Nov", "Fri 27 Nov", "Sun 13 Dec", ""]
            let listColors: [UInt32] = [0x34C759, 0x8E8E93, 0x007AFF, 0xFF9500, 0xAF52DE, 0xFFCC00]
            for row in 0..<rows {
                let y = 52 + Double(row) * rowHeight
                let overdue = row % 5 == 1 || row % 7 == 2
                fill(cairo, theme.antialiased ? listColors[row % listColors.count] : theme.primary)
                cairo_new_sub_path(cairo)
                cairo_arc(cairo, margin + 5, y + rowHeight / 2, 5, 0, 2 * Double.pi)
                cairo_fill(cairo)
                let title = titles[row % titles.count]
                text(layout, cairo, row == 0 ? "<b>\(title)</b>" : title, size: fontSize, color: overdue ? theme.red : theme.primary, x: margin + 19, y: y + (rowHeight - fontSize * 1.25) / 2)
                let due = dues[row % dues.count]
                text(layout, cairo, overdue ? "<b>\(due)</b>" : due, size: fontSize * 0.95, color: overdue ? theme.red : theme.secondary, x: pointWidth - margin, y: y + (rowHeight - fontSize * 1.2) / 2, rightAligned: true)
            }
            let ruleY = 52 + Double(rows) * rowHeight + 4
            fill(cairo, theme.ring)
            cairo_rectangle(cairo, margin, ruleY, pointWidth - 2 * margin, 1)
            cairo_fill(cairo)
            text(layout, cairo, "<b>Habits</b>  <span color='\(hex(theme.primary))'>1/4</span>", size: 15, color: theme.secondary, x: margin, y: ruleY + 26)
            for (index, emoji) in ["💧", "📖", "🚶", "🧘"].enumerated() {
                let centerX = 160 + Double(index) * 43
                fill(cairo, index == 0 ? (theme.antialiased ? 0x32ADE6 : theme.primary) : theme.ring)
                cairo_set_line_width(cairo, 2)
                cairo_new_sub_path(cairo)
                cairo_arc(cairo, centerX, ruleY + 36, 16, 0, 2 * Double.pi)
                cairo_stroke(cairo)
                text(layout, cairo, emoji, size: 17, color: theme.primary, x: centerX - 11, y: ruleY + 23)
            }
        }
    }

    /// Smooth tones: a horizontal gray ramp, a color wheel-ish hue ramp, a radial gradient disc,
    /// big emoji and text in several grays on top, to compare the quantizers on. 800 × 480.
    static func tones(width: Int = 800, height: Int = 480) -> CairoPixels {
        draw(width: width, height: height, theme: .light) { cairo, layout in
            let ramp = cairo_pattern_create_linear(0, 0, Double(width), 0)!
            cairo_pattern_add_color_stop_rgb(ramp, 0, 0, 0, 0)
            cairo_pattern_add_color_stop_rgb(ramp, 1, 1, 1, 1)
            cairo_set_source(cairo, ramp)
            cairo_rectangle(cairo, 0, 0, Double(width), 80)
            cairo_fill(cairo)
            cairo_pattern_destroy(ramp)
            let hues = cairo_pattern_create_linear(0, 0, Double(width), 0)!
            for (index, color) in [0xFF0000, 0xFFFF00, 0x00FF00, 0x00FFFF, 0x0000FF, 0xFF00FF, 0xFF0000].enumerated() {
                cairo_pattern_add_color_stop_rgb(hues, Double(index) / 6, Double(color >> 16) / 255, Double(color >> 8 & 0xFF) / 255, Double(color & 0xFF) / 255)
            }
            cairo_set_source(cairo, hues)
            cairo_rectangle(cairo, 0, 80, Double(width), 60)
            cairo_fill(cairo)
            cairo_pattern_destroy(hues)
            let disc = cairo_pattern_create_radial(170, 300, 10, 200, 310, 130)!
            cairo_pattern_add_color_stop_rgb(disc, 0, 1, 0.95, 0.6)
            cairo_pattern_add_color_stop_rgb(disc, 1, 0.55, 0.15, 0.05)
            cairo_set_source(cairo, disc)
            cairo_arc(cairo, 200, 310, 130, 0, 2 * Double.pi)
            cairo_fill(cairo)
            cairo_pattern_destroy(disc)
            text(layout, cairo, "🎉😀🌱", size: 72, color: 0, x: 360, y: 170)
            for (index, color) in [UInt32(0x1C1C1E), 0x6C6C70, 0xD70015, 0x0062CC, 0x34C759, 0xD1D1D6].enumerated() {
                text(layout, cairo, "Text in #\(String(color, radix: 16, uppercase: true)) <b>bold</b>", size: 14 + Double(index) * 2, color: color, x: 360, y: 280 + Double(index) * 30)
            }
        }
    }

    /// Text only, antialiased in the theme's four text colors at sizes from 11 to 32 px, regular
    /// and bold: no shapes, no emoji, no gradients. 800 × 480.
    static func textLines(theme: Theme) -> CairoPixels {
        draw(width: 800, height: 480, theme: theme) { cairo, layout in
            let colors = [theme.primary, theme.secondary, theme.red, theme.accent]
            var y = 8.0
            for (index, size) in [11.0, 12, 13, 14, 15, 16, 18, 20, 24, 28, 32].enumerated() {
                let markup = index % 2 == 0 ? "Review pull request #42 · 17:00" : "<b>Overdue · Yesterday 14:15</b>"
                text(layout, cairo, markup, size: size, color: colors[index % colors.count], x: 12, y: y)
                text(layout, cairo, "田中さん Lisbon ✓", size: size, color: colors[(index + 1) % colors.count], x: 560, y: y)
                y += size * 1.3
            }
        }
    }

    /// The light theme's faint shapes on white, where a fixed threshold loses them at 1 bit:
    /// list-color dots of radius 5 centered at (20, 20) green `34C759`, (50, 20) gray `8E8E93`,
    /// (80, 20) orange `FF9500`, (110, 20) yellow `FFCC00`; a habit ring `D1D1D6` of radius 16 and
    /// width 2 centered at (40, 70); a 1-px rule `D1D1D6` from (10, 100) to (190, 100). 200 × 120.
    static func faintShapes() -> CairoPixels {
        draw(width: 200, height: 120, theme: .light) { cairo, _ in
            for (index, color) in [UInt32(0x34C759), 0x8E8E93, 0xFF9500, 0xFFCC00].enumerated() {
                fill(cairo, color)
                cairo_new_sub_path(cairo)
                cairo_arc(cairo, 20 + 30 * Double(index), 20, 5, 0, 2 * Double.pi)
                cairo_fill(cairo)
            }
            fill(cairo, 0xD1D1D6)
            cairo_set_line_width(cairo, 2)
            cairo_new_sub_path(cairo)
            cairo_arc(cairo, 40, 70, 16, 0, 2 * Double.pi)
            cairo_stroke(cairo)
            cairo_rectangle(cairo, 10, 100, 180, 1)
            cairo_fill(cairo)
        }
    }

    /// A worst case for the compressor: every pixel black or white at random (a fixed seed), no
    /// structure at all. 1 bit a pixel of pure entropy.
    static func noise(width: Int = 800, height: Int = 480, seed: UInt64 = 42, levels: Int = 2) -> CairoPixels {
        var state = seed
        let words = (0..<width * height).map { _ -> UInt32 in
            // SplitMix64: fixed and cheap.
            state &+= 0x9E37_79B9_7F4A_7C15
            var value = state
            value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
            value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
            value ^= value >> 31
            let gray = UInt32(Int(value % UInt64(levels)) * 255 / (levels - 1))
            return gray << 16 | gray << 8 | gray
        }
        return CairoPixels(width: width, height: height, words: words)
    }

    // MARK: - Drawing

    /// A Cairo `RGB24` surface of `width` × `height` filled with the theme's background, drawn on
    /// by `body` (with a Pango layout set up for the theme), copied out.
    static func draw(width: Int, height: Int, theme: Theme, _ body: (OpaquePointer, OpaquePointer) -> Void) -> CairoPixels {
        drawingLock.withLock { _ in
            let surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, Int32(width), Int32(height))!
            defer { cairo_surface_destroy(surface) }
            let cairo = cairo_create(surface)!
            defer { cairo_destroy(cairo) }
            fill(cairo, theme.background)
            cairo_paint(cairo)
            if !theme.antialiased { cairo_set_antialias(cairo, CAIRO_ANTIALIAS_NONE) }
            let layout = pango_cairo_create_layout(cairo)!
            defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
            let options = cairo_font_options_create()
            cairo_font_options_set_antialias(options, theme.antialiased ? CAIRO_ANTIALIAS_GRAY : CAIRO_ANTIALIAS_NONE)
            cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE)
            cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF)
            pango_cairo_context_set_font_options(pango_layout_get_context(layout), options)
            cairo_font_options_destroy(options)
            pango_layout_context_changed(layout)
            body(cairo, layout)
            cairo_surface_flush(surface)
            precondition(cairo_status(cairo) == CAIRO_STATUS_SUCCESS, "drawing failed")
            let stride = Int(cairo_image_surface_get_stride(surface))
            let data = cairo_image_surface_get_data(surface)!
            return CairoPixels(width: width, height: height, stride: stride, bytes: Array(UnsafeBufferPointer(start: data, count: stride * height)))
        }
    }

    private static func fill(_ cairo: OpaquePointer, _ color: UInt32) {
        cairo_set_source_rgb(cairo, Double(color >> 16 & 0xFF) / 255, Double(color >> 8 & 0xFF) / 255, Double(color & 0xFF) / 255)
    }

    private static func hex(_ color: UInt32) -> String {
        "#" + String(format: "%06X", color)
    }

    /// Pango markup at `size` pixels in `color`, its top-left (or top-right) corner at x, y.
    private static func text(
        _ layout: OpaquePointer, _ cairo: OpaquePointer, _ markup: String, size: Double, color: UInt32, x: Double, y: Double,
        rightAligned: Bool = false
    ) {
        let font = pango_font_description_from_string("Inter, Noto Sans, Noto Sans CJK SC, sans-serif")!
        defer { pango_font_description_free(font) }
        pango_font_description_set_absolute_size(font, size * Double(PANGO_SCALE))
        pango_layout_set_font_description(layout, font)
        pango_layout_set_markup(layout, markup, -1)
        var width: Int32 = 0
        var height: Int32 = 0
        pango_layout_get_pixel_size(layout, &width, &height)
        fill(cairo, color)
        cairo_move_to(cairo, rightAligned ? x - Double(width) : x, y)
        pango_cairo_show_layout(cairo, layout)
    }
}
