internal import CPangoCairo
import Synchronization

/// The process's one Pango font map, and a Pango context per text mode, made on first use and
/// kept for the life of the process (SPEC §7: fonts resolved once). Pango and fontconfig objects
/// are not thread-safe, so every use goes through ``shared``'s lock: renders are serialized.
final class FontSystem {
    /// Locked for the whole of a render. `Mutex` makes it `Sendable` without `@unchecked`.
    static let shared = Mutex(FontSystem())

    /// The families asked for, in order; fontconfig falls back to whatever it has for the rest (emoji
    /// come from Noto Color Emoji that way: named here, it would take digits and spaces too, which
    /// it covers for keycaps, and draw them twice as wide).
    static let families = "Inter, Noto Sans, Noto Sans Arabic, Noto Sans CJK SC, sans-serif"

    private let fontMap: UnsafeMutablePointer<PangoFontMap>
    private var contexts: [Bool: OpaquePointer] = [:]
    private var fonts: [FontKey: OpaquePointer] = [:]

    private init() {
        fontMap = pango_cairo_font_map_new()
    }

    /// The Pango context for antialiased text, or for text without antialiasing (mono). Hinting is
    /// off so that text is laid out the same at every scale and renders are the same everywhere.
    func context(antialiased: Bool) -> OpaquePointer {
        if let context = contexts[antialiased] { return context }
        let context = pango_font_map_create_context(fontMap)!
        let options = cairo_font_options_create()
        cairo_font_options_set_antialias(options, antialiased ? CAIRO_ANTIALIAS_GRAY : CAIRO_ANTIALIAS_NONE)
        cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE)
        cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF)
        pango_cairo_context_set_font_options(context, options)
        cairo_font_options_destroy(options)
        pango_context_set_base_dir(context, PANGO_DIRECTION_LTR)
        contexts[antialiased] = context
        return context
    }

    /// The font description of ``families`` at `size` points and `weight`.
    func font(size: Double, weight: FontWeight) -> OpaquePointer {
        let key = FontKey(size: Int((size * 64).rounded()), weight: weight)
        if let font = fonts[key] { return font }
        let font = pango_font_description_from_string(Self.families)!
        pango_font_description_set_absolute_size(font, size * Double(PANGO_SCALE))
        pango_font_description_set_weight(font, PangoWeight(rawValue: weight.rawValue))
        fonts[key] = font
        return font
    }

    private struct FontKey: Hashable {
        var size: Int
        var weight: FontWeight
    }
}

/// The weights the widgets use (CSS numbers, as Pango takes them).
enum FontWeight: UInt32, Hashable {
    case regular = 400
    case medium = 500
    case semibold = 600
    case bold = 700
}
