/// How much the entry matters, for a consumer that picks among widgets (like WidgetKit's relevance).
public struct Relevance: Sendable, Equatable, Hashable {
    /// 10 per overdue task plus 1 per task due today.
    public var score: Int
    /// Seconds until the next change.
    public var duration: Int64

    public init(score: Int, duration: Int64) {
        self.score = score
        self.duration = duration
    }
}
