import Foundation

/// The values a status template sees: the entry's counts, its tasks (titles cut to a width), the
/// bar's class, and, for a one-shot `status`, times relative to the moment it runs.
///
/// Keys: `overdue dueToday dueSoon open completedToday inbox` (numbers), `hasTasks hasOverdue
/// hasDueToday hasDueSoon hasMore` (booleans), `class` (`overdue`, `due-soon`, `ok`, `empty`),
/// `percentage`, `color` (i3bar, absent when all is well), `scope`, `instance`, `next` (the task that
/// matters most), `top` (each with `title list colorHex dueLabel when isOverdue isActive`), `more`
/// (open tasks beyond `top`), `others` (open tasks beyond `next`), `habitsDone habitsTotal habits`,
/// `time`, `entryJSON` (the whole entry as JSON, unescaped with `{{{entryJSON}}}`).
struct StatusContext {
    let entry: TimelineEntry
    let timeZone: TimeZone
    /// The exact moment a one-shot `status` runs; `nil` in `watch`, whose lines must hold for a whole entry.
    let now: Date?
    let maxWidth: Int

    var values: [String: Any] {
        let counts = entry.counts
        let top = entry.top.map(task)
        let next = entry.top.first(where: \.isOverdue) ?? entry.top.first(where: { $0.dueDate != nil }) ?? entry.top.first
        var values: [String: Any] = [
            "overdue": counts.overdue, "dueToday": counts.dueToday, "dueSoon": counts.dueSoon, "open": counts.open,
            "completedToday": counts.completedToday, "inbox": counts.inbox,
            "hasTasks": counts.open > 0, "hasOverdue": counts.overdue > 0, "hasDueToday": counts.dueToday > 0,
            "hasDueSoon": counts.dueSoon > 0, "hasMore": counts.open > top.count,
            "more": counts.open - top.count, "others": max(0, counts.open - 1),
            "class": statusClass, "percentage": percentage,
            "instance": entry.scopeTitle ?? "all",
            "top": top,
            "habitsDone": entry.habits.done, "habitsTotal": entry.habits.total,
            "habits": entry.habits.items.map { ["name": $0.name, "icon": $0.icon, "isDone": $0.status == .done] },
            "time": String(InstantFormat.local(entry.date, in: timeZone).dropFirst(11).prefix(5)),
            "entryJSON": TimelineJSON.value(of: entry, in: timeZone).compactText,
        ]
        if let next { values["next"] = task(next) }
        if let scope = entry.scopeTitle { values["scope"] = scope }
        if let color { values["color"] = color }
        return values
    }

    /// `overdue`, `due-soon`, `ok` or `empty` (waybar's class and alt).
    var statusClass: String {
        if entry.counts.overdue > 0 { return "overdue" }
        if entry.counts.dueSoon > 0 { return "due-soon" }
        return entry.counts.open > 0 ? "ok" : "empty"
    }

    /// Done today out of (done today + still due today), 0–100; 0 when nothing is due.
    var percentage: Int {
        let total = entry.counts.completedToday + entry.counts.dueToday
        return total == 0 ? 0 : entry.counts.completedToday * 100 / total
    }

    private var color: String? {
        switch statusClass {
        case "overdue": "#FF6B6B"
        case "due-soon": "#FFB020"
        default: nil
        }
    }

    private func task(_ task: TopTask) -> [String: Any] {
        var values: [String: Any] = [
            "title": Self.truncated(task.title, to: maxWidth), "isOverdue": task.isOverdue, "isActive": task.state == .active,
        ]
        if let list = task.listName { values["list"] = list }
        if let color = task.colorHex { values["colorHex"] = color }
        if let label = task.dueLabel { values["dueLabel"] = label }
        if let when = when(task) { values["when"] = when }
        return values
    }

    /// `2 h overdue`, `in 15 min` for a one-shot status within a day of the due date; else the due label.
    private func when(_ task: TopTask) -> String? {
        guard let dueDate = task.dueDate else { return nil }
        guard let now else { return task.dueLabel }
        let seconds = Int(dueDate.timeIntervalSince(now))
        let minutes = abs(seconds) / 60
        guard minutes < 24 * 60 else { return task.dueLabel }
        let amount = minutes < 60 ? "\(max(minutes, 1)) min" : "\(minutes / 60) h"
        return seconds <= 0 ? amount + " overdue" : "in " + amount
    }

    /// At most `width` characters (grapheme clusters), ending with `…` when cut.
    static func truncated(_ text: String, to width: Int) -> String {
        text.count <= width ? text : String(text.prefix(max(0, width - 1))) + "…"
    }
}
