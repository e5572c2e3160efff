public import Foundation

/// A widget timeline (SPEC §5): what to show from each entry's date on, and when to ask again.
public struct Timeline: Sendable, Equatable {
    public static let schema = "taskwidget.timeline/1"

    public var timeZone: TimeZone
    /// The anchor: now, floored to whole seconds (like every instant below).
    public var generatedAt: Instant
    /// Ask again by then at the latest (seed NFR4: at most 15 minutes stale after a store change).
    public var reloadAfter: Instant
    /// Past this instant the content is stale.
    public var validUntil: Instant
    /// Whether crossings were dropped beyond the cap of 96.
    public var truncated: Bool
    public var entries: [TimelineEntry]
    /// The first crossing dropped beyond the cap, from which the entries miss changes (not in the
    /// JSON document, whose consumers reload by ``reloadAfter``).
    public var firstDroppedCrossing: Instant?

    public init(
        timeZone: TimeZone, generatedAt: Instant, reloadAfter: Instant, validUntil: Instant, truncated: Bool,
        entries: [TimelineEntry], firstDroppedCrossing: Instant? = nil
    ) {
        self.timeZone = timeZone
        self.generatedAt = generatedAt
        self.reloadAfter = reloadAfter
        self.validUntil = validUntil
        self.truncated = truncated
        self.entries = entries
        self.firstDroppedCrossing = firstDroppedCrossing
    }

    /// When a process that follows the store (watch, serve) reads it again: at ``reloadAfter``,
    /// or at the first dropped crossing when it comes first. Past it a truncated timeline's last
    /// entries held their counts until the next quarter hour, while more tasks fell overdue
    /// (helper-132).
    public var rereadDeadline: Instant { min(reloadAfter, firstDroppedCrossing ?? reloadAfter) }

    /// The entry a consumer shows at `instant`: the one with the greatest date ≤ instant.
    public func entry(at instant: Instant) -> TimelineEntry? {
        var low = 0
        var high = entries.count
        while low < high {
            let middle = (low + high) / 2
            if entries[middle].date <= instant { low = middle + 1 } else { high = middle }
        }
        return low == 0 ? nil : entries[low - 1]
    }

    /// The same timeline with at most `count` tasks in each entry's `top`: what a request for fewer
    /// rows gives (an entry's `top` is the first tasks in an order that does not depend on the
    /// entry), so one read serves a large widget and the status lines.
    public func limitingTop(to count: Int) -> Timeline {
        var limited = self
        for index in limited.entries.indices { limited.entries[index] = limited.entries[index].limitingTop(to: count) }
        return limited
    }
}
