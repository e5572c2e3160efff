public import TaskWidgetCore

/// What the server shows at one moment: the current timeline and the entry for now in it, both
/// read for the large widget (the most rows); status lines take the first rows of it.
public struct DashboardState: Sendable {
    public var timeline: Timeline
    public var entry: TimelineEntry

    /// The entry as `status` shows it.
    public var barEntry: TimelineEntry { entry.limitingTop(to: TimelineRequest.defaultTopLimit) }

    public init(timeline: Timeline, entry: TimelineEntry) {
        self.timeline = timeline
        self.entry = entry
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

    /// When an image of the current entry next changes (its content or its day), else when the
    /// timeline must be read again.
    public var imageValidUntil: Instant {
        timeline.entries.first { $0.date > entry.date && !WidgetImageSpec.drawsTheSame($0, as: entry) }?.date
            ?? timeline.reloadAfter
    }

    /// When a status line of the current entry next changes, else when the timeline must be read again.
    public var lineValidUntil: Instant {
        timeline.entries.first { $0.date > entry.date && !$0.hasSameContent(as: entry) }?.date ?? timeline.reloadAfter
    }
}
