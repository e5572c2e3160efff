import Foundation
public import TaskWidgetCore

/// The timeline as text for people reading it in a terminal: one line per entry with its local
/// date, reasons, counts and the first task.
///
/// ```
/// 2026-11-22 16:27:00+01:00  now               2 overdue   2 today  1 soon  12 open  1 done   Pay rent · Overdue · 14:15
/// ```
public enum TimelineText {
    public static func document(_ timeline: Timeline) -> String {
        // The scope, as a widget's header names it: the same header for every scope read as the
        // whole store's (helper-138).
        let scope = timeline.entries.first?.scopeTitle.map { " · " + $0.removingControlCharacters } ?? ""
        var lines = [
            "Timeline for \(timeline.timeZone.identifier)\(scope), \(timeline.entries.count) entries"
                + (timeline.truncated ? " (truncated: more than 96 due dates in 24 h)" : "")
                + "; reload by \(time(timeline.reloadAfter, timeline)), valid until \(time(timeline.validUntil, timeline))"
        ]
        // Each count's column is as wide as its widest value: `2659 overdue` shifted the columns
        // after it on its line (helper-138).
        let columns: [(name: String, count: (TaskCounts) -> Int, width: Int)] = [
            ("overdue", \.overdue, 3), ("today", \.dueToday, 3), ("soon", \.dueSoon, 2), ("open", \.open, 3), ("done", \.completedToday, 2),
        ].map { name, count, width in
            (name, count, timeline.entries.reduce(width) { max($0, String(count($1.counts)).count) })
        }
        for entry in timeline.entries {
            let numbers = columns.map { column in String(column.count(entry.counts)).leftPadded(to: column.width) + " " + column.name }
            let first = entry.top.first.map { task in
                task.title.removingControlCharacters.truncated(to: 40, in: .terminalColumns) + (task.dueLabel.map { " · " + $0 } ?? "")
            } ?? "–"
            lines.append(
                [time(entry.date, timeline), entry.reasons.names.joined(separator: ",").padded(toTerminalWidth: 16),
                 numbers.joined(separator: "  "), " " + first].joined(separator: "  "))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func time(_ instant: Instant, _ timeline: Timeline) -> String {
        InstantFormat.local(instant, in: timeline.timeZone).replacingOccurrences(of: "T", with: " ")
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: " ", count: max(0, width - count)) + self
    }
}
