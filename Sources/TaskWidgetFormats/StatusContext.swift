import Foundation
import Mustache
import TaskWidgetCore

/// The values a status template sees: the entry's counts, its tasks (titles cut to a width), the
/// bar's class, and, for a one-shot `status`, times relative to the moment it runs.
///
/// Keys: `overdue dueToday dueSoon open completedToday inbox` (numbers), `hasTasks hasOverdue
/// hasDueToday hasDueSoon hasMore` (booleans), `class` (`overdue`, `due-soon`, `ok`, `empty`),
/// `percentage`, `color` (i3bar, absent when all is well), `scope`, `instance`, `next` (the task that
/// matters most), `top` (each with `title list colorHex dueLabel when isOverdue isActive`), `more`
/// (open tasks beyond `top`), `others` (open tasks beyond `next`), `habitsDone habitsTotal habits`,
/// `time`, `entryJSON` (the whole entry as JSON, unescaped with `{{{entryJSON}}}`).
struct StatusContext: MustacheParent {
    let entry: TimelineEntry
    let timeZone: TimeZone
    /// The exact moment a one-shot `status` runs; `nil` in `watch`, whose lines must hold for a whole entry.
    let now: Instant?
    let maxWidth: Int

    /// The value of `key`, built only when the template asks for it (a status bar runs this every
    /// few seconds, and most templates use a few keys: `entryJSON` alone serialises the whole entry).
    func child(named key: String) -> Any? {
        let counts = entry.counts
        switch key {
        case "overdue": return counts.overdue
        case "dueToday": return counts.dueToday
        case "dueSoon": return counts.dueSoon
        case "open": return counts.open
        case "completedToday": return counts.completedToday
        case "inbox": return counts.inbox
        case "hasTasks": return counts.open > 0
        case "hasOverdue": return counts.overdue > 0
        case "hasDueToday": return counts.dueToday > 0
        case "hasDueSoon": return counts.dueSoon > 0
        case "hasMore": return counts.open > entry.top.count
        case "more": return counts.open - entry.top.count
        case "others": return max(0, counts.open - 1)
        case "class": return statusClass
        case "percentage": return percentage
        case "color": return color
        case "scope": return entry.scopeTitle
        case "instance": return entry.scopeTitle ?? "all"
        case "next": return entry.next.map(task)
        case "top": return entry.top.map(task)
        case "habitsDone": return entry.habits.done
        case "habitsTotal": return entry.habits.total
        case "habits": return entry.habits.items.map { ["name": $0.name, "icon": $0.icon, "isDone": $0.status == .done] }
        case "time": return String(InstantFormat.local(entry.date, in: timeZone).dropFirst(11).prefix(5))
        case "entryJSON": return TimelineJSON.value(of: entry, in: timeZone).compactText
        default: return nil
        }
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
            "title": task.title.truncated(to: maxWidth), "isOverdue": task.isOverdue, "isActive": task.state == .active,
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
        let seconds = Int(dueDate.millisecondsSince1970 - now.millisecondsSince1970) / 1000
        let minutes = abs(seconds) / 60
        guard minutes < 24 * 60 else { return task.dueLabel }
        let amount = minutes < 60 ? "\(max(minutes, 1)) min" : "\(minutes / 60) h"
        return seconds <= 0 ? amount + " overdue" : "in " + amount
    }
}
