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
        var lines = [
            "Timeline for \(timeline.timeZone.identifier), \(timeline.entries.count) entries"
                + (timeline.truncated ? " (truncated: more than 96 due dates in 24 h)" : "")
                + "; reload by \(time(timeline.reloadAfter, timeline)), valid until \(time(timeline.validUntil, timeline))"
        ]
        for entry in timeline.entries {
            let counts = entry.counts
            let numbers = [
                (counts.overdue, "overdue", 3), (counts.dueToday, "today", 3), (counts.dueSoon, "soon", 2),
                (counts.open, "open", 3), (counts.completedToday, "done", 2),
            ].map { value, name, width in String(value).leftPadded(to: width) + " " + name }
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
