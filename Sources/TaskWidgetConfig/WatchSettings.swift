/// `[watch]`: the views a bar running `taskwidget watch` cycles through (on SIGUSR2, and on i3bar's
/// scroll clicks), and what i3bar's clicks on it do.
///
/// ```toml
/// [watch]
/// views = ["all", "work", "home"]   # default: all, then every view in the file's order
/// left_click = "done"               # done, start, snooze or none
/// middle_click = "start"
/// right_click = "snooze"
/// ```
public struct WatchSettings: Sendable, Equatable {
    /// What a click does to the task the bar shows: `taskwidget done|start|snooze --top`, or nothing.
    public enum ClickAction: String, Sendable, CaseIterable {
        case done, start, snooze, none
    }

    /// The names of the views to cycle through, in order (`all` is all tasks); `nil` for the default.
    public var views: [String]?
    public var leftClick: ClickAction
    public var middleClick: ClickAction
    public var rightClick: ClickAction

    public init(views: [String]? = nil, leftClick: ClickAction = .done, middleClick: ClickAction = .start, rightClick: ClickAction = .snooze) {
        self.views = views
        self.leftClick = leftClick
        self.middleClick = middleClick
        self.rightClick = rightClick
    }

    init(reader: ConfigReader) throws {
        try reader.allowKeys(["views", "left_click", "middle_click", "right_click"])
        func action(_ key: String, _ fallback: ClickAction) throws -> ClickAction {
            guard let text = try reader.string(key) else { return fallback }
            guard let action = ClickAction(rawValue: text) else {
                throw reader.error(key, "expected one of \(ClickAction.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            return action
        }
        let views = try reader.strings("views")
        if views?.isEmpty == true { throw reader.error("views", "name at least one view, or leave views out for all of them") }
        self.init(
            views: views, leftClick: try action("left_click", .done), middleClick: try action("middle_click", .start),
            rightClick: try action("right_click", .snooze))
    }
}
