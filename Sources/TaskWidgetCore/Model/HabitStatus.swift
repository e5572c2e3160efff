/// How a habit went on one day.
public enum HabitStatus: String, Codable, Sendable, CaseIterable {
    case done
    case missed
    case skipped
}
