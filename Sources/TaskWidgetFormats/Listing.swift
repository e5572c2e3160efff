import Foundation
public import TaskWidgetCore

/// What `ls`, `list ls` and `habit ls` print: aligned tables for people, JSON for scripts.
public struct Listing: Sendable {
    public let now: Instant
    private let labeler: DueLabeler

    public init(now: Instant, calendar: LocalCalendar) {
        self.now = now
        self.labeler = DueLabeler(calendar: calendar)
    }

    /// The widest title shown in a table, in terminal columns.
    static let titleWidth = 44

    /// `ls`: one row per task with its short id, state mark, title, list and due label, and when
    /// any task has a reminder a REMIND column: ``reminderMark`` and when it is (`🔔 Tomorrow 08:00`,
    /// ``DueLabeler/timeLabel(for:at:)``).
    public func table(_ tasks: [ListedTask]) -> String {
        guard !tasks.isEmpty else { return "No tasks.\n" }
        let showsReminders = tasks.contains { $0.task.reminderDate != nil }
        let rows = tasks.map { item -> [String] in
            let task = item.task
            let mark = task.isCompleted ? "✓" : task.state == .active ? "▶" : task.isOverdue(at: now) ? "!" : "○"
            let row = [
                task.id.shortID, mark + " " + task.title.truncated(to: Self.titleWidth, in: .terminalColumns),
                item.list?.name ?? "Inbox", labeler.label(for: task, at: now) ?? "",
            ]
            guard showsReminders else { return row }
            return row + [task.reminderDate.map { Self.reminderMark + " " + labeler.timeLabel(for: $0, at: now) } ?? ""]
        }
        return Self.table(header: ["ID", "  TITLE", "LIST", "DUE"] + (showsReminders ? ["REMIND"] : []), rows: rows)
    }

    /// What marks a reminder in `ls`: a bell, two terminal columns wide (an emoji), counted as
    /// such when the table is aligned.
    public static let reminderMark = "🔔"

    /// `ls --format json`: an array of task objects with UTC instants and local due labels.
    public func json(_ tasks: [ListedTask]) throws -> String {
        struct Row: Encodable {
            var id: String
            var shortId: String
            var title: String
            var state: TaskState
            var isCompleted: Bool
            var isOverdue: Bool
            var list: String?
            var listColorHex: String?
            var dueDate: String?
            var dueLabel: String?
            var reminderDate: String?
            var createdAt: String
            var modifiedAt: String
            var completedAt: String?
            var sortOrder: Int
        }
        let rows = tasks.map { item in
            let task = item.task
            return Row(
                id: task.id.uuidString.lowercased(), shortId: task.id.shortID, title: task.title,
                state: task.state, isCompleted: task.isCompleted, isOverdue: task.isOverdue(at: now),
                list: item.list?.name, listColorHex: item.list?.colorHex,
                dueDate: task.dueDate.map(InstantFormat.utc),
                dueLabel: labeler.label(for: task, at: now),
                reminderDate: task.reminderDate.map(InstantFormat.utc), createdAt: InstantFormat.utc(task.createdAt),
                modifiedAt: InstantFormat.utc(task.modifiedAt), completedAt: task.completedAt.map(InstantFormat.utc),
                sortOrder: task.sortOrder)
        }
        return try Self.jsonText(rows)
    }

    /// `list ls`: each list with its color and task counts.
    public func table(_ lists: [ListSummary]) -> String {
        guard !lists.isEmpty else { return "No lists. Create one with: taskwidget list add NAME\n" }
        return Self.table(
            header: ["NAME", "COLOR", "OPEN", "TOTAL"],
            rows: lists.map { [$0.list.name, "#" + $0.list.colorHex, String($0.openCount), String($0.totalCount)] })
    }

    /// `habit ls`: each habit with its icon and what was recorded on the day.
    public func table(_ habits: [HabitDay]) -> String {
        guard let day = habits.first?.day else { return "No habits. Create one with: taskwidget habit add NAME\n" }
        let done = habits.filter(\.isDone).count
        let rows = habits.map { [$0.habit.icon, $0.habit.name, $0.status?.rawValue ?? "–"] }
        return Self.table(header: ["", "HABIT", day.description], rows: rows) + "\(done) of \(habits.count) done\n"
    }

    /// Columns padded to their widest cell (terminal width), two spaces apart, no trailing spaces.
    public static func table(header: [String], rows: [[String]]) -> String {
        let widths = header.indices.map { column in
            ([header] + rows).map { $0[column].terminalWidth }.max() ?? 0
        }
        return ([header] + rows).map { row in
            let line = row.enumerated().map { column, cell in cell.padded(toTerminalWidth: widths[column]) }
                .joined(separator: "  ")
            return String(line.reversed().drop { $0 == " " }.reversed())
        }.joined(separator: "\n") + "\n"
    }

    static func jsonText(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self) + "\n"
    }
}
