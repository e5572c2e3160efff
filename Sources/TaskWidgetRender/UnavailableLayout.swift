import TaskWidgetCore

/// A widget with no entry to show (a served widget while its store cannot be read): the card, a
/// warning sign, "Tasks unavailable" and why, centred, at the family's size.
struct UnavailableLayout {
    let canvas: Canvas
    let family: WidgetFamily
    /// Why, in a sentence or two: on as many lines as fit, the last cut with an ellipsis when it
    /// does not fit.
    let message: String

    func draw(roundedCard: Bool) {
        let palette = canvas.palette
        canvas.fillBackground(palette.background, cornerRadius: roundedCard ? 22 : nil)
        let x = canvas.width / 2
        let y = canvas.height / 2 - 16
        canvas.circle(x: x, y: y, radius: 16, color: palette.red)
        let white = palette.isMonochrome ? palette.background : RGB(0xFFFFFF)
        canvas.polyline([(x, y - 8), (x, y + 3)], color: white, lineWidth: 3.5)
        canvas.circle(x: x, y: y + 8.5, radius: 2, color: white)
        canvas.text(
            "Tasks unavailable", style: .init(size: 15, weight: .semibold, color: palette.primary), x: x, baseline: y + 36,
            anchor: .center)
        let padding = family == .small ? 12.0 : 16.0
        // As many lines of 15 points as the space below holds (3 on a card, more on a canvas).
        let baseline = y + 53
        let lines = max(1, Int((canvas.height - baseline - padding) / 15) + 1)
        canvas.text(
            message, style: .init(size: 12, color: palette.secondary), x: x, baseline: baseline, maxWidth: canvas.width - 2 * padding,
            maxLines: lines, anchor: .center)
    }
}
