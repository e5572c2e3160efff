internal import CPangoCairo
import Foundation

/// A Cairo context with Pango text, in the design's points (multiplied by `unit` here, so the
/// layout code never scales by hand). Lives for one render, inside ``FontSystem``'s lock.
final class Canvas {
    private let cairo: OpaquePointer
    private let context: OpaquePointer
    private let fonts: FontSystem
    private let antialiased: Bool
    /// The system fonts' context, for a text `context`'s fonts cannot draw: made when first needed.
    private var fallbackContext: OpaquePointer?
    let palette: Palette
    /// Canvas points per design point.
    let unit: Double
    /// The canvas in design points.
    let width: Double
    let height: Double
    /// What the drawing did, for the tests; `nil` (nothing recorded) otherwise.
    private(set) var report: RenderReport?

    init(
        cairo: OpaquePointer, fonts: FontSystem, antialiased: Bool, palette: Palette, unit: Double, width: Double, height: Double,
        recording: Bool
    ) {
        self.cairo = cairo
        context = fonts.context(antialiased: antialiased)
        pango_cairo_update_context(cairo, context)
        self.fonts = fonts
        self.antialiased = antialiased
        self.palette = palette
        self.unit = unit
        self.width = width / unit
        self.height = height / unit
        report = recording ? RenderReport() : nil
    }

    /// How a text is set.
    struct TextStyle {
        var size: Double
        var weight: FontWeight = .regular
        var color: RGB
    }

    /// Where `x` is on a line of text.
    enum Anchor {
        case start, center, end
    }

    /// Draws text (one line unless `maxLines` says more) with its first baseline at `baseline` and
    /// its `anchor` at `x`, cut with an ellipsis at the end past `maxWidth`. Titles are set as text, never parsed as markup;
    /// `markup` is only for text built here from numbers and fixed words.
    /// With `maxLines` above 1 (and a `maxWidth`), the text wraps between words onto up to that
    /// many lines, each aligned on `x` as `anchor` says, and the last is cut with an ellipsis.
    /// `shorterForms`, longest first, stand in for a `text` that would be cut: the first that fits
    /// is drawn (the last, cut, if none does).
    /// Returns the width drawn.
    @discardableResult
    func text(
        _ text: String, shorterForms: [String] = [], markup: Bool = false, style: TextStyle, x: Double, baseline: Double,
        maxWidth: Double? = nil, maxLines: Int = 1, anchor: Anchor = .start
    ) -> Double {
        let wraps = maxLines > 1 && maxWidth != nil
        func laidOut(_ text: String) -> OpaquePointer {
            let layout = self.layout(text, markup: markup, style: style, maxWidth: maxWidth, maxLines: wraps ? maxLines : 1, anchor: anchor, in: context)
            guard fonts.hasSystemFallback, Self.needsSystemFonts(layout, text) else { return layout }
            g_object_unref(UnsafeMutableRawPointer(layout))
            return self.layout(text, markup: markup, style: style, maxWidth: maxWidth, maxLines: wraps ? maxLines : 1, anchor: anchor, in: systemContext())
        }
        var text = text
        var layout = laidOut(text)
        for form in shorterForms where pango_layout_is_ellipsized(layout) != 0 {
            g_object_unref(UnsafeMutableRawPointer(layout))
            text = form
            layout = laidOut(form)
        }
        defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
        var logical = PangoRectangle()
        pango_layout_get_extents(layout, nil, &logical)
        let width = Double(logical.width) / Double(PANGO_SCALE)
        // Rows align on baselines: fallback fonts (CJK, emoji) have other ascents than Inter.
        let ascent = Double(pango_layout_get_baseline(layout)) / Double(PANGO_SCALE)
        // Wrapped lines are aligned by Pango within the layout's width, which starts here.
        let box = wraps ? (maxWidth ?? 0) * unit : width
        let left =
            switch anchor {
            case .start: x * unit
            case .center: x * unit - box / 2
            case .end: x * unit - box
            }
        cairo_move_to(cairo, left, baseline * unit - ascent)
        setColor(style.color)
        pango_cairo_show_layout(cairo, layout)

        if report != nil {
            report!.unknownGlyphs += Int(pango_layout_get_unknown_glyphs_count(layout))
            if pango_layout_is_ellipsized(layout) != 0 { report!.ellipsized.append(text) }
        }
        return width / unit
    }

    /// The width `text` takes on one line, uncut, drawing nothing: for laying out what comes after
    /// it before it is drawn. In the widget's own fonts, or the system's where ``text(_:markup:style:x:baseline:maxWidth:maxLines:anchor:)``
    /// would draw it in them (a flag measured as boxes).
    func width(of text: String, style: TextStyle) -> Double {
        var layout = self.layout(text, markup: false, style: style, maxWidth: nil, maxLines: 1, anchor: .start, in: context)
        if fonts.hasSystemFallback, Self.needsSystemFonts(layout, text) {
            g_object_unref(UnsafeMutableRawPointer(layout))
            layout = self.layout(text, markup: false, style: style, maxWidth: nil, maxLines: 1, anchor: .start, in: systemContext())
        }
        defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
        var logical = PangoRectangle()
        pango_layout_get_extents(layout, nil, &logical)
        return Double(logical.width) / Double(PANGO_SCALE) / unit
    }

    /// Whether the widgets' own fonts cannot draw `text` as asked: a glyph they lack, counted
    /// before the ellipsis (which cut an emoji's boxes away, so that `🏃‍♀️` in a habit's circle
    /// showed "…"), or an emoji asked for in color (U+FE0F) where they have a plain symbol (`❤️`
    /// was a black ❤).
    private static func needsSystemFonts(_ layout: OpaquePointer, _ text: String) -> Bool {
        if pango_layout_get_unknown_glyphs_count(layout) > 0 || text.unicodeScalars.contains("\u{FE0F}") { return true }
        guard pango_layout_is_ellipsized(layout) != 0 else { return false }
        let width = pango_layout_get_width(layout)
        pango_layout_set_width(layout, -1)
        defer { pango_layout_set_width(layout, width) }
        return pango_layout_get_unknown_glyphs_count(layout) > 0
    }

    /// `text` in `context`'s fonts on up to `maxLines` lines, cut at `maxWidth` (see
    /// ``text(_:markup:style:x:baseline:maxWidth:maxLines:anchor:)``).
    private func layout(
        _ text: String, markup: Bool, style: TextStyle, maxWidth: Double?, maxLines: Int, anchor: Anchor, in context: OpaquePointer
    ) -> OpaquePointer {
        let layout = pango_layout_new(context)!
        pango_layout_set_font_description(layout, fonts.font(size: style.size * unit, weight: style.weight))
        // The paragraph's direction is its text's (its first strong letter): laid out left to
        // right, "اجتماع مع Sara الساعة 10" read its clauses backwards (helper-118). It stays where
        // the row puts it: Pango swaps left and right alignment for a right-to-left paragraph, so
        // the alignment asked is swapped too.
        pango_layout_set_single_paragraph_mode(layout, 1)
        pango_layout_set_auto_dir(layout, 1)
        if markup {
            pango_layout_set_markup(layout, text, -1)
        } else {
            pango_layout_set_text(layout, text, -1)
        }
        if let maxWidth {
            pango_layout_set_width(layout, Int32(max(0, maxWidth * unit) * Double(PANGO_SCALE)))
            pango_layout_set_ellipsize(layout, PANGO_ELLIPSIZE_END)
        }
        let isRightToLeft = pango_find_base_dir(pango_layout_get_text(layout), -1) == PANGO_DIRECTION_RTL
        let (left, right) = isRightToLeft ? (PANGO_ALIGN_RIGHT, PANGO_ALIGN_LEFT) : (PANGO_ALIGN_LEFT, PANGO_ALIGN_RIGHT)
        if maxLines > 1 {
            pango_layout_set_wrap(layout, PANGO_WRAP_WORD_CHAR)
            pango_layout_set_height(layout, -Int32(maxLines))  // negative: a number of lines
            let alignment =
                switch anchor {
                case .start: left
                case .center: PANGO_ALIGN_CENTER
                case .end: right
                }
            pango_layout_set_alignment(layout, alignment)
        } else {
            pango_layout_set_alignment(layout, left)  // one line is placed by its extents, from its left
        }
        return layout
    }

    private func systemContext() -> OpaquePointer {
        if let fallbackContext { return fallbackContext }
        let context = fonts.context(.system, antialiased: antialiased)
        pango_cairo_update_context(cairo, context)
        fallbackContext = context
        return context
    }

    /// Fills the whole canvas, or a card with rounded corners (transparent outside), with `color`.
    func fillBackground(_ color: RGB, cornerRadius: Double?) {
        if let cornerRadius {
            let (w, h, r) = (width * unit, height * unit, cornerRadius * unit)
            cairo_new_sub_path(cairo)
            cairo_arc(cairo, w - r, r, r, -Double.pi / 2, 0)
            cairo_arc(cairo, w - r, h - r, r, 0, Double.pi / 2)
            cairo_arc(cairo, r, h - r, r, Double.pi / 2, Double.pi)
            cairo_arc(cairo, r, r, r, Double.pi, 3 * Double.pi / 2)
            cairo_close_path(cairo)
        } else {
            cairo_rectangle(cairo, 0, 0, width * unit, height * unit)
        }
        setColor(color)
        cairo_fill(cairo)
    }

    /// A filled circle, or a ring of `lineWidth`.
    func circle(x: Double, y: Double, radius: Double, color: RGB, alpha: Double = 1, lineWidth: Double? = nil) {
        cairo_new_sub_path(cairo)
        cairo_arc(cairo, x * unit, y * unit, radius * unit, 0, 2 * Double.pi)
        setColor(color, alpha: alpha)
        if let lineWidth {
            cairo_set_line_width(cairo, lineWidth * unit)
            cairo_stroke(cairo)
        } else {
            cairo_fill(cairo)
        }
    }

    /// A line through `points`, with round ends and joins.
    func polyline(_ points: [(x: Double, y: Double)], color: RGB, lineWidth: Double) {
        for (index, point) in points.enumerated() {
            if index == 0 { cairo_move_to(cairo, point.x * unit, point.y * unit) } else { cairo_line_to(cairo, point.x * unit, point.y * unit) }
        }
        cairo_set_line_width(cairo, lineWidth * unit)
        cairo_set_line_cap(cairo, CAIRO_LINE_CAP_ROUND)
        cairo_set_line_join(cairo, CAIRO_LINE_JOIN_ROUND)
        setColor(color)
        cairo_stroke(cairo)
    }

    /// Records a task row for the tests, its band given in design points.
    func recordRow(title: String, top: Double, bottom: Double, color: RGB) {
        report?.rows.append(.init(title: title, top: top * unit, bottom: bottom * unit, color: color))
    }

    private func setColor(_ color: RGB, alpha: Double = 1) {
        cairo_set_source_rgba(cairo, Double(color.red) / 255, Double(color.green) / 255, Double(color.blue) / 255, alpha)
    }
}
