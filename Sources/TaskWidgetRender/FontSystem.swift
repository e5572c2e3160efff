internal import CPangoCairo
import Foundation
import Synchronization

/// The process's Pango font maps, and a Pango context per font map and text mode, made on first
/// use and kept for the life of the process (SPEC §7: fonts resolved once). Pango and fontconfig
/// objects are not thread-safe, so every use goes through ``shared``'s lock: renders are serialized.
///
/// Texts are laid out with the widgets' own font set (``FontSetCache``: the named families only);
/// a text with a glyph it lacks (emoji, another script) is laid out again with the system's fonts
/// (``Fonts/system``), which then choose for it as they always did.
final class FontSystem {
    /// Locked for the whole of a render. `Mutex` makes it `Sendable` without `@unchecked`.
    static let shared = Mutex(FontSystem(environment: ProcessInfo.processInfo.environment))

    /// The families asked for, in order; fontconfig falls back to whatever it has for the rest (emoji
    /// come from Noto Color Emoji that way: named here, it would take digits and spaces too, which
    /// it covers for keycaps, and draw them twice as wide).
    static let families = "Inter, Noto Sans, Noto Sans Arabic, Noto Sans CJK SC, sans-serif"
    /// The fonts of the widgets' own font set: the named families of ``families``.
    static let ownFamilies = ["Inter", "Noto Sans", "Noto Sans Arabic", "Noto Sans CJK SC"]

    /// Which fonts a text is laid out with.
    enum Fonts: Hashable {
        /// The widgets' own font set, or the system's fonts when there is none.
        case first
        /// The system's fonts, for a text the own set cannot draw.
        case system
    }

    /// The widgets' own font set, when it could be made.
    private var ownFonts: UnsafeMutablePointer<PangoFontMap>?
    /// The system's fonts: made when first needed.
    private var systemFonts: UnsafeMutablePointer<PangoFontMap>?
    private var contexts: [ContextKey: OpaquePointer] = [:]
    private var fonts: [FontKey: OpaquePointer] = [:]

    /// With `environment`'s font cache (`$XDG_CACHE_HOME`) and fontconfig variables.
    init(environment: [String: String]) {
        guard let config = FontSetCache.configuration(families: Self.ownFamilies, environment: environment) else { return }
        // Current before Pango starts: its font maps initialise fontconfig in a thread, which then
        // finds a configuration and does not load the system's.
        FcConfigSetCurrent(config)
        let map = pango_cairo_font_map_new()!
        pango_fc_font_map_set_config(OpaquePointer(map), config)
        FcConfigDestroy(config)
        ownFonts = map
    }

    /// Whether a text that `.first` cannot draw is worth laying out again with `.system`.
    var hasSystemFallback: Bool { ownFonts != nil }

    private func fontMap(_ which: Fonts) -> UnsafeMutablePointer<PangoFontMap> {
        if which == .first, let ownFonts { return ownFonts }
        if let systemFonts { return systemFonts }
        let map = pango_cairo_font_map_new()!
        // With the own set current, the system's configuration is loaded by name.
        if ownFonts != nil, let system = FcInitLoadConfigAndFonts() {
            pango_fc_font_map_set_config(OpaquePointer(map), system)
            FcConfigDestroy(system)
        }
        systemFonts = map
        return map
    }

    /// The Pango context of `which` fonts for antialiased text, or for text without antialiasing
    /// (mono). Hinting is off so that text is laid out the same at every scale and renders are the
    /// same everywhere.
    func context(_ which: Fonts = .first, antialiased: Bool) -> OpaquePointer {
        let map = fontMap(which)
        let key = ContextKey(map: map, antialiased: antialiased)
        if let context = contexts[key] { return context }
        let context = pango_font_map_create_context(map)!
        let options = cairo_font_options_create()
        cairo_font_options_set_antialias(options, antialiased ? CAIRO_ANTIALIAS_GRAY : CAIRO_ANTIALIAS_NONE)
        cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE)
        cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF)
        pango_cairo_context_set_font_options(context, options)
        cairo_font_options_destroy(options)
        pango_context_set_base_dir(context, PANGO_DIRECTION_LTR)
        contexts[key] = context
        return context
    }

    private struct ContextKey: Hashable {
        var map: UnsafeMutablePointer<PangoFontMap>
        var antialiased: Bool
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
