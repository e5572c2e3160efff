/// The widget sizes of SPEC §7; each shows a different number of tasks.
public enum WidgetFamily: String, Sendable, Codable, CaseIterable {
    case small
    case medium
    case large

    /// How many tasks a widget of this family shows.
    public var taskRows: Int {
        switch self {
        case .small: 3
        case .medium: 5
        case .large: 12
        }
    }
}
