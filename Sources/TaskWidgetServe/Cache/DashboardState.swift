public import TaskWidgetCore

/// What the server shows at one moment: the current timeline and the entry for now in it, both
/// read for the large widget (the most rows); status lines take the first rows of it.
public struct DashboardState: Sendable {
    public let timeline: Timeline
    public let entry: TimelineEntry
    /// When an image of the current entry next changes (its content or its day), else when the
    /// timeline must be read again. Worked out once: every answer's `max-age` reads it, and the
    /// scan compares whole entries (with 96 entries alike, it tripled a status line's cost).
    public let imageValidUntil: Instant
    /// When a status line of the current entry next changes, else when the timeline must be read
    /// again; worked out once, as ``imageValidUntil`` is.
    public let lineValidUntil: Instant

    /// The entry as `status` shows it.
    public var barEntry: TimelineEntry { entry.limitingTop(to: TimelineRequest.defaultTopLimit) }

    public init(timeline: Timeline, entry: TimelineEntry) {
        self.timeline = timeline
        self.entry = entry
        imageValidUntil =
            timeline.entries.first { $0.date > entry.date && !WidgetImageSpec.drawsTheSame($0, as: entry) }?.date ?? timeline.reloadAfter
        lineValidUntil = timeline.entries.first { $0.date > entry.date && !$0.hasSameContent(as: entry) }?.date ?? timeline.reloadAfter
    }

    /// The entries after the current one that show something else, in order: what changes next.
    public var upcomingChanges: [TimelineEntry] {
        var last = entry
        var changes: [TimelineEntry] = []
        for next in timeline.entries where next.date > entry.date {
            if !WidgetImageSpec.drawsTheSame(next, as: last) { changes.append(next) }
            last = next
        }
        return changes
    }

}
