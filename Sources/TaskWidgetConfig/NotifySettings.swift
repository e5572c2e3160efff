import TaskWidgetCore

/// `[notify]`: how `taskwidget notify` delivers reminders.
///
/// ```toml
/// [notify]
/// missed_within = "24h"
/// at_due = true
/// click_command = "xdg-open https://tasks.example.com"
/// ```
public struct NotifySettings: Sendable, Equatable {
    /// A reminder missed while the machine was off or asleep is shown if no older than this, in seconds.
    public var missedWithin: Int64
    /// Also notify when a task falls due.
    public var atDue: Bool
    /// Run when the notification's body is clicked (through `/bin/sh -c`).
    public var clickCommand: String?

    public init(missedWithin: Int64 = 86_400, atDue: Bool = false, clickCommand: String? = nil) {
        self.missedWithin = missedWithin
        self.atDue = atDue
        self.clickCommand = clickCommand
    }

    init(reader: ConfigReader) throws {
        try reader.allowKeys(["missed_within", "at_due", "click_command"])
        let clickCommand = try reader.string("click_command")
        // An empty one gave notifications an Open button that did nothing (helper-81).
        if let clickCommand, clickCommand.trimmingWhitespace.isEmpty {
            throw reader.error("click_command", "expected a command, such as \"xdg-open https://tasks.example.com\", or leave click_command out")
        }
        self.init(
            missedWithin: try reader.duration("missed_within") ?? 86_400, atDue: try reader.bool("at_due") ?? false, clickCommand: clickCommand)
    }
}
