import TaskWidgetCore

/// Where everything of a widget goes, in design points (a family's own size; wider or taller for a
/// dashboard canvas). Small: the headline number and 3 tasks. Medium: a header with the counts and
/// 5 tasks with list dots and due labels. Large: 12 tasks and the day's habits. No tasks: "All done".
struct WidgetLayout {
    let canvas: Canvas
    let family: WidgetFamily
    let entry: TimelineEntry
    /// The entry's local day, `Sun 22 Nov`.
    let day: String

    private var palette: Palette { canvas.palette }
    private var padding: Double { family == .small ? 15 : 16 }
    private var right: Double { canvas.width - padding }
    /// The size of a title, and the pitch of a task row.
    private var titleSize: Double { family == .small ? 12 : 13 }
    private var rowPitch: Double { family == .small ? 22 : 26 }
    private static let checkWhite = RGB(0xFFFFFF)

    func draw(roundedCard: Bool) {
        canvas.fillBackground(palette.background, cornerRadius: roundedCard ? 22 : nil)
        let headerBaseline = padding + (family == .small ? 11 : 13)
        let bottom = canvas.height - padding + 2
        if family == .small {
            drawSmallHeader(baseline: headerBaseline)
            guard !entry.top.isEmpty else { return drawAllDone(top: headerBaseline + 4, bottom: bottom) }
            let numberBaseline = headerBaseline + 43
            drawHeadline(baseline: numberBaseline)
            drawRows(top: numberBaseline + 6, bottom: bottom)
            return
        }
        drawHeader(baseline: headerBaseline)
        let habitsTop = family == .large && entry.habits.total > 0 ? canvas.height - padding - 44 : nil
        let rowsBottom = habitsTop ?? bottom
        if entry.top.isEmpty {
            drawAllDone(top: headerBaseline + 8, bottom: rowsBottom)
        } else {
            drawRows(top: headerBaseline + 9, bottom: rowsBottom)
        }
        if let habitsTop { drawHabits(top: habitsTop) }
    }

    // MARK: Header

    /// The scope ("Tasks", a list's name, "Inbox"), the day, and the counts on the right. The
    /// counts are laid out first, so that a long scope is cut rather than them (they read
    /// `1 overdue · 1 toda…` after a long list name); the scope keeps up to a fifth of the width.
    private func drawHeader(baseline: Double) {
        let (detail, heading) = (
            Canvas.TextStyle(size: 12, weight: .medium, color: palette.secondary), Canvas.TextStyle(size: 15, weight: .semibold, color: palette.accent)
        )
        let (width, title) = (right - padding, entry.scopeTitle ?? "Tasks")
        let dayWidth = canvas.width(of: day, style: detail)
        let titleFloor = min(canvas.width(of: title, style: heading), width * 0.2)
        let countsRoom = width - titleFloor - 7 - dayWidth - 12
        let countsWidth = canvas.text(
            countsMarkup(fitting: countsRoom, style: detail), markup: true, style: detail, x: right, baseline: baseline, maxWidth: countsRoom,
            anchor: .end)
        let titleWidth = canvas.text(
            title, style: heading, x: padding, baseline: baseline, maxWidth: min(width * 0.4, width - countsWidth - 12 - dayWidth - 7))
        canvas.text(day, style: detail, x: padding + titleWidth + 7, baseline: baseline)
    }

    /// `2 overdue · 3 today · 12 open`, the overdue part in red; zero counts left out. The later
    /// counts go first when they do not all fit in `room` (`1000 overdue · 20 today` rather than
    /// `1000 overdue · 20 today · 1020 o…`); a first one that does not fit alone is cut.
    private func countsMarkup(fitting room: Double, style: Canvas.TextStyle) -> String {
        let counts = entry.counts
        var parts: [(text: String, markup: String)] = []
        if counts.overdue > 0 {
            let text = "\(counts.overdue) overdue"
            parts.append((text, "<span foreground=\"\(palette.red.markup)\" weight=\"600\">\(text)</span>"))
        }
        if counts.dueToday > 0 { parts.append(("\(counts.dueToday) today", "\(counts.dueToday) today")) }
        if counts.open > 0 || counts.completedToday == 0 { parts.append(("\(counts.open) open", "\(counts.open) open")) }
        if counts.open == 0 && counts.completedToday > 0 { parts.append(("\(counts.completedToday) done today", "\(counts.completedToday) done today")) }
        // Measured all semibold, as the overdue part is drawn: never narrower than drawn.
        var bold = style
        bold.weight = .semibold
        while parts.count > 1, canvas.width(of: parts.map(\.text).joined(separator: " · "), style: bold) > room { parts.removeLast() }
        return parts.map(\.markup).joined(separator: " · ")
    }

    /// Small: the scope on the left, the day on the right.
    private func drawSmallHeader(baseline: Double) {
        let dayWidth = canvas.text(
            day, style: .init(size: 11, weight: .medium, color: palette.secondary), x: right, baseline: baseline, anchor: .end)
        canvas.text(
            entry.scopeTitle ?? "Tasks", style: .init(size: 13, weight: .semibold, color: palette.accent), x: padding,
            baseline: baseline, maxWidth: right - padding - dayWidth - 6)
    }

    /// Small: the one number that matters most (overdue, else due today, else open) and its caption.
    private func drawHeadline(baseline: Double) {
        let counts = entry.counts
        let (number, caption, color) =
            counts.overdue > 0
            ? (counts.overdue, "overdue", palette.red)
            : counts.dueToday > 0 ? (counts.dueToday, "due today", palette.primary) : (counts.open, "open", palette.primary)
        let captionStyle = Canvas.TextStyle(size: 13, weight: .semibold, color: color == palette.red ? palette.red : palette.secondary)
        var numberStyle = Canvas.TextStyle(size: 40, weight: .bold, color: color)
        // A number of four digits and more left the caption no room (`2000 ov…`, `20000 …`:
        // helper-88): it is set smaller, down to half, until both fit.
        let room = right - padding - 5 - canvas.width(of: caption, style: captionStyle)
        while numberStyle.size > 20, canvas.width(of: "\(number)", style: numberStyle) > room { numberStyle.size -= 2 }
        let numberWidth = canvas.text("\(number)", style: numberStyle, x: padding - 1, baseline: baseline)
        canvas.text(caption, style: captionStyle, x: padding + numberWidth + 5, baseline: baseline, maxWidth: right - padding - numberWidth - 5)
    }

    // MARK: Tasks

    /// The entry's tasks, one row each, between `top` and `bottom`: list dot, title, due label.
    private func drawRows(top: Double, bottom: Double) {
        let slots = Double(family.taskRows)
        let pitch = min((bottom - top) / slots, rowPitch)
        let dotRadius = family == .small ? 3.5 : 4
        let showsDue = family != .small
        for (index, task) in entry.top.prefix(family.taskRows).enumerated() {
            let rowTop = top + pitch * Double(index)
            let center = rowTop + pitch / 2
            // Cap height is about 0.72 em: this baseline centers capitals on the row.
            let baseline = center + titleSize * 0.36
            let color = task.isOverdue ? palette.red : palette.primary
            if palette.isMonochrome, task.isOverdue {
                // Black and white has no red: an overdue task is marked `!`, as `taskwidget ls` marks it.
                canvas.text("!", style: .init(size: titleSize, weight: .semibold, color: palette.primary), x: padding + dotRadius, baseline: baseline, anchor: .center)
            } else {
                let dotColor = palette.isMonochrome ? palette.primary : task.colorHex.flatMap(RGB.init(hex:)) ?? palette.inboxDot
                canvas.circle(x: padding + dotRadius, y: center, radius: dotRadius, color: dotColor)
            }
            var titleEnd = right
            if showsDue, let label = task.dueLabel {
                let width = canvas.text(
                    label, shorterForms: DueLabeler.shorterForms(of: label),
                    style: .init(size: titleSize - 1, weight: task.isOverdue ? .semibold : .regular, color: task.isOverdue ? palette.red : palette.secondary),
                    x: right, baseline: baseline, maxWidth: (right - padding) * 0.52, anchor: .end)
                titleEnd -= width + 10
            }
            let titleX = padding + 2 * dotRadius + 7
            canvas.text(
                task.title, style: .init(size: titleSize, weight: task.state == .active ? .semibold : .regular, color: color),
                x: titleX, baseline: baseline, maxWidth: titleEnd - titleX)
            canvas.recordRow(title: task.title, top: rowTop, bottom: rowTop + pitch, color: color)
        }
    }

    /// No tasks to show: a check in a circle, "All done", and how many were done today.
    private func drawAllDone(top: Double, bottom: Double) {
        let x = canvas.width / 2
        let y = (top + bottom) / 2 - 12
        canvas.circle(x: x, y: y, radius: 16, color: palette.done)
        canvas.polyline([(x - 7, y + 0.5), (x - 2, y + 5.5), (x + 7.5, y - 5)], color: Self.checkWhite, lineWidth: 3)
        canvas.text("All done", style: .init(size: 15, weight: .semibold, color: palette.primary), x: x, baseline: y + 36, anchor: .center)
        let done = entry.counts.completedToday
        if done > 0 {
            canvas.text(
                "\(done) done today", style: .init(size: 12, color: palette.secondary), x: x, baseline: y + 53, anchor: .center)
        }
    }

    // MARK: Habits

    /// The size a habit's icon is set at in its circle: 14, or smaller (down to half) for an icon
    /// too wide for it (`GYM`, `読書`), which showed as "…" (helper-138, helper-140).
    private func iconSize(_ icon: String) -> Double {
        let size = 14.0
        let fits = 20.0
        let width = canvas.width(of: icon, style: .init(size: size, color: palette.primary))
        return width > fits ? max(size / 2, size * fits / width) : size
    }

    /// Large: a rule, "Habits 2/4", and each habit's icon in a circle, filled when done today (in
    /// black and white, a heavy ring with a check beside it: a ring 1 px thicker was all that
    /// told a done habit from an open one at 1 bit, helper-143).
    private func drawHabits(top: Double) {
        canvas.polyline([(padding, top), (right, top)], color: palette.ring, lineWidth: 1)
        let center = top + 24
        let baseline = center + 12 * 0.36
        let labelWidth = canvas.text("Habits", style: .init(size: 12, weight: .semibold, color: palette.secondary), x: padding, baseline: baseline)
        canvas.text(
            "\(entry.habits.done)/\(entry.habits.total)", style: .init(size: 12, weight: .semibold, color: palette.primary),
            x: padding + labelWidth + 6, baseline: baseline)
        let spacing = 34.0
        let first = padding + 96
        let capacity = max(1, Int((right - first) / spacing))
        let items = entry.habits.items
        let shown = items.count > capacity ? capacity - 1 : items.count
        for (index, habit) in items.prefix(shown).enumerated() {
            let x = first + 14 + spacing * Double(index)
            let isDone = habit.status == .done
            if isDone && palette.isMonochrome {
                canvas.circle(x: x, y: center, radius: 12, color: palette.primary, lineWidth: 4)
            } else if isDone {
                let color = RGB(hex: habit.colorHex) ?? palette.done
                canvas.circle(x: x, y: center, radius: 14, color: color, alpha: 0.25)
                canvas.circle(x: x, y: center, radius: 13, color: color, lineWidth: 2)
            } else {
                canvas.circle(x: x, y: center, radius: 13.5, color: palette.ring, lineWidth: 1)
            }
            let size = iconSize(habit.icon)
            canvas.text(habit.icon, style: .init(size: size, color: palette.primary), x: x, baseline: center + size * 0.36, maxWidth: 24, anchor: .center)
            if isDone && palette.isMonochrome {
                // Over the icon's corner, ringed in white to stand apart from it.
                let (badgeX, badgeY) = (x + 10, center + 10)
                canvas.circle(x: badgeX, y: badgeY, radius: 7, color: palette.background)
                canvas.circle(x: badgeX, y: badgeY, radius: 6, color: palette.primary)
                canvas.polyline(
                    [(badgeX - 3.5, badgeY + 0.25), (badgeX - 1, badgeY + 2.75), (badgeX + 3.75, badgeY - 2.5)], color: palette.background,
                    lineWidth: 1.5)
            }
        }
        if shown < items.count {
            canvas.text(
                "+\(items.count - shown)", style: .init(size: 12, weight: .semibold, color: palette.secondary),
                x: first + 14 + spacing * Double(shown), baseline: baseline, anchor: .center)
        }
    }
}
