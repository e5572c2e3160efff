import Foundation
public import TaskWidgetCore

/// What `ls`, `list ls` and `habit ls` print: aligned tables for people, JSON for scripts.
///
/// The tables show titles and names without control characters: the commands refuse them, but a
/// store written by other means (sqlite3) can hold a terminal's escape sequences.
public struct Listing: Sendable {
    public let now: Instant
    private let labeler: DueLabeler
    /// Whether tables are coloured for a terminal (``ColorChoice``): overdue in red, lists as dots of their colour.
    private let usesColor: Bool
    /// The width of the terminal the table is shown on (`nil` in a pipe or a file).
    private let terminalWidth: Int?

    public init(now: Instant, calendar: LocalCalendar, usesColor: Bool = false, terminalWidth: Int? = nil) {
        self.now = now
        self.labeler = DueLabeler(calendar: calendar)
        self.usesColor = usesColor
        self.terminalWidth = terminalWidth
    }

    /// The widest title shown in a table in a pipe or a file, in terminal columns. On a terminal,
    /// titles take the room the other columns leave, and at least ``narrowestTitle``.
    static let titleWidth = 44
    static let narrowestTitle = 16

    /// `ls`: one row per task with its short id, state mark, title, list and due label, and when
    /// any task has a reminder a REMIND column: ``reminderMark`` and when it is (`🔔 Tomorrow 08:00`,
    /// ``DueLabeler/timeLabel(for:at:)``). In colour, an overdue task's mark and due label are red
    /// and each list's name follows a dot of its colour. With no tasks, it says how to see more of
    /// `view`, which they were listed from, with or without the completed ones.
    public func table(_ tasks: [ListedTask], in view: TaskView = TaskView(), includesCompleted: Bool = false) -> String {
        guard !tasks.isEmpty else { return Self.nothingToList(in: view, includesCompleted: includesCompleted) }
        let showsReminders = tasks.contains { $0.task.reminderDate != nil }
        let header = ["ID", "  TITLE", "LIST", "DUE"] + (showsReminders ? ["REMIND"] : [])
        // Every column but the title's.
        let others = tasks.map { item -> [Cell] in
            let task = item.task
            let isOverdue = task.isOverdue(at: now)
            let due = labeler.label(for: task, at: now) ?? ""
            var row = [Cell(item.shownID), listCell(item.list), Cell(due, styled: isOverdue && usesColor ? TerminalColor.red(due) : nil)]
            if showsReminders {
                row.append(Cell(task.reminderDate.map { Self.reminderMark + " " + labeler.timeLabel(for: $0, at: now) } ?? ""))
            }
            return row
        }
        let otherWidths = header.indices.filter { $0 != 1 }.map { column in
            ([header[column]] + others.map { $0[column == 0 ? 0 : column - 1].text }).map(\.terminalWidth).max() ?? 0
        }
        // Less the mark and its space.
        let titleRoom = terminalWidth == nil ? Self.titleWidth : room(leftBy: otherWidths, besides: 2)
        let rows = zip(tasks, others).map { item, others -> [Cell] in
            let task = item.task
            let isOverdue = task.isOverdue(at: now)
            let mark = task.isCompleted ? "✓" : task.state == .active ? "▶" : isOverdue ? "!" : "○"
            let title = task.title.removingControlCharacters.truncated(to: titleRoom, in: .terminalColumns)
            let titleCell = Cell(mark + " " + title, styled: isOverdue && usesColor ? TerminalColor.red(mark) + " " + title : nil)
            return [others[0], titleCell] + others.dropFirst()
        }
        return Self.table(header: header, cells: rows)
    }

    /// The LIST cell: the list's name (`Inbox` for none), in colour after a dot of the list's colour.
    /// On a terminal, a name is cut to a quarter of its width (at least 12 columns), so that titles
    /// keep room: a long list name made every row wider than the screen.
    private func listCell(_ list: TaskList?) -> Cell {
        var name = list?.name.removingControlCharacters ?? "Inbox"
        if let terminalWidth { name = name.truncated(to: max(12, terminalWidth / 4), in: .terminalColumns) }
        guard usesColor else { return Cell(name) }
        guard let list else { return Cell("  Inbox") }
        return Cell("● " + name, styled: TerminalColor.colored("●", hex: list.colorHex) + " " + name)
    }

    /// What `ls` says when it lists nothing: that nothing is there, and how to see more.
    private static func nothingToList(in view: TaskView, includesCompleted: Bool) -> String {
        // A view of config.toml is named as the user named it, with its own option.
        if let name = view.name?.sanitizedForMessage {
            return includesCompleted
                ? "No tasks in the view \(name) — leave out --view for every task\n"
                : "No open tasks in the view \(name) — add --all for completed ones, or leave out --view for every task\n"
        }
        return switch (view.scope, includesCompleted) {
        case (.all, false): "No open tasks — `taskwidget ls --all` shows completed ones\n"
        case (.all, true): "No tasks yet — add one: taskwidget add \"Buy milk\" --due today\n"
        case (.inbox, false): "No open tasks in the Inbox — add --all for completed ones, or leave out --inbox for every list\n"
        case (.inbox, true): "No tasks in the Inbox — leave out --inbox for every list\n"
        case (.list(let name), false): "No open tasks in \(name) — add --all for completed ones, or leave out --list for every list\n"
        case (.list(let name), true): "No tasks in \(name) — leave out --list for every list\n"
        }
    }

    /// What marks a reminder in `ls`: a bell, two terminal columns wide (an emoji), counted as
    /// such when the table is aligned.
    public static let reminderMark = "🔔"

    /// `ls --format json`: an array of task objects with UTC instants and local due labels.
    public func json(_ tasks: [ListedTask]) throws -> String {
        // Foundation pretty-prints an empty array over three lines.
        guard !tasks.isEmpty else { return "[]\n" }
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
                id: task.id.lowercasedString, shortId: item.shownID, title: task.title,
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

    /// `list ls`: each list with its color and task counts; on a terminal, names cut to fit it.
    public func table(_ lists: [ListSummary]) -> String {
        guard !lists.isEmpty else { return "No lists. Create one with: taskwidget list add NAME\n" }
        return table(
            header: ["NAME", "COLOR", "OPEN", "TOTAL"],
            rows: lists.map { [$0.list.name, "#" + $0.list.colorHex, String($0.openCount), String($0.totalCount)] }, cutting: 0)
    }

    /// `habit ls`: each habit with its icon and what was recorded on the day; on a terminal, names
    /// cut to fit it.
    public func table(_ habits: [HabitDay]) -> String {
        guard let day = habits.first?.day else { return "No habits. Create one with: taskwidget habit add NAME\n" }
        let done = habits.filter(\.isDone).count
        let rows = habits.map { [$0.habit.icon, $0.habit.name, $0.status?.rawValue ?? "–"] }
        return table(header: ["", "HABIT", day.description], rows: rows, cutting: 1) + "\(done) of \(habits.count) done\n"
    }

    /// A table whose column `cutting` (a name) is cut to the room the others leave on the
    /// terminal (a long name made every row wider than the screen); whole in a pipe or a file,
    /// which scripts read.
    private func table(header: [String], rows: [[String]], cutting column: Int) -> String {
        let rows = rows.map { $0.map(\.removingControlCharacters) }
        guard terminalWidth != nil else { return Self.table(header: header, rows: rows) }
        let otherWidths = header.indices.filter { $0 != column }.map { other in
            ([header[other]] + rows.map { $0[other] }).map(\.terminalWidth).max() ?? 0
        }
        let room = room(leftBy: otherWidths)
        return Self.table(header: header, rows: rows.map { row in
            var row = row
            row[column] = row[column].truncated(to: room, in: .terminalColumns)
            return row
        })
    }

    /// The columns a table's cut column may take on the terminal: what the other columns
    /// (`otherWidths`, two spaces apart) and `besides` more columns in its cells leave, and at
    /// least ``narrowestTitle``.
    private func room(leftBy otherWidths: [Int], besides: Int = 0) -> Int {
        max(Self.narrowestTitle, (terminalWidth ?? 0) - otherWidths.reduce(0, +) - 2 * otherWidths.count - besides)
    }

    /// Columns padded to their widest cell (terminal width), two spaces apart, no trailing spaces;
    /// cells without control characters (names from the store or a configuration file).
    public static func table(header: [String], rows: [[String]]) -> String {
        table(header: header, cells: rows.map { $0.map { Cell($0.removingControlCharacters) } })
    }

    /// A cell of a table: its text, and the same text with terminal colours (widths count the text).
    struct Cell {
        var text: String
        var styled: String?

        init(_ text: String, styled: String? = nil) {
            self.text = text
            self.styled = styled
        }
    }

    private static func table(header: [String], cells rows: [[Cell]]) -> String {
        let rows = [header.map { Cell($0) }] + rows
        let cellWidths = rows.map { $0.map(\.text.terminalWidth) }
        let widths = header.indices.map { column in cellWidths.map { $0[column] }.max() ?? 0 }
        return zip(rows, cellWidths).map { row, rowWidths in
            var line = row.indices.map { column in
                (row[column].styled ?? row[column].text) + String(repeating: " ", count: max(0, widths[column] - rowWidths[column]))
            }.joined(separator: "  ")
            while line.last == " " { line.removeLast() }
            return line
        }.joined(separator: "\n") + "\n"
    }

    static func jsonText(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self) + "\n"
    }
}
