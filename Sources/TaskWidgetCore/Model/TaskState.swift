/// Where a task is in its life (seed 003: `notStarted`, `active`, `completed`).
public enum TaskState: String, Codable, Sendable, CaseIterable {
    case notStarted
    case active
    case completed
}
