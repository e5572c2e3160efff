public import TaskWidgetCore

/// What the server shows at one moment: the current timeline and the entry for now in it, both
/// read for the large widget (the most rows); status lines take the first rows of it.
public struct DashboardState: Sendable {
    public let timeline: Timeline
    public let entry: TimelineEntry
    /// The entries after the current one that show something else, in order: what changes next.
    /// Worked out once, as ``lineValidUntil`` is: every answer's `max-age` reads them, and the scans
    /// compare whole entries (with 96 entries alike, a scan per request tripled a status line's cost).
    public let upcomingChanges: [TimelineEntry]
    /// When a status line of the current entry next changes, else when the timeline must be read
    /// again; at the latest at the first crossing a truncated timeline dropped.
    public let lineValidUntil: Instant
    /// When an image of the current entry next changes (its content or its day), else when the
    /// timeline must be read again; at the latest at the first crossing a truncated timeline dropped.
    public var imageValidUntil: Instant {
        min(upcomingChanges.first?.date ?? timeline.reloadAfter, timeline.firstDroppedCrossing ?? timeline.validUntil)
    }

    /// The entry as `status` shows it.
    public var barEntry: TimelineEntry { entry.limitingTop(to: TimelineRequest.defaultTopLimit) }

    public init(timeline: Timeline, entry: TimelineEntry) {
        self.timeline = timeline
        self.entry = entry
        var last = entry
        var changes: [TimelineEntry] = []
        for next in timeline.entries where next.date > entry.date {
            if !WidgetImageSpec.drawsTheSame(next, as: last) { changes.append(next) }
            last = next
        }
        upcomingChanges = changes
        lineValidUntil = min(
            timeline.entries.first { $0.date > entry.date && !$0.hasSameContent(as: entry) }?.date ?? timeline.reloadAfter,
            timeline.firstDroppedCrossing ?? timeline.validUntil)
    }
}
