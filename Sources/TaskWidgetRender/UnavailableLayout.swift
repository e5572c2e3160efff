import TaskWidgetCore

/// A widget with no entry to show (a served widget while its store cannot be read): the card, a
/// warning sign, "Tasks unavailable" and why, centred, at the family's size.
struct UnavailableLayout {
    let canvas: Canvas
    let family: WidgetFamily
    /// Why, in a sentence; cut with an ellipsis when it does not fit.
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
        canvas.text(
            message, style: .init(size: 12, color: palette.secondary), x: x, baseline: y + 53, maxWidth: canvas.width - 2 * padding,
            anchor: .center)
    }
}
