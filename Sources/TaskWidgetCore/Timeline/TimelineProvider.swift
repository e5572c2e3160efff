/// Computes widget timelines (SPEC §5) as a pure function of a snapshot of the store, the clock, the
/// time zone and the view: the same inputs give the same timeline. It never reads the store, the
/// clock or the zone itself.
///
/// ```swift
/// let request = TimelineRequest(now: now, calendar: LocalCalendar(timeZone: zone), view: TaskView(scope: .list("Work")))
/// let timeline = TimelineProvider().timeline(for: request, snapshot: try store.timelineSnapshot(for: request))
/// ```
public struct TimelineProvider: Sendable {
    /// Seconds between cadence entries.
    public static let cadence: Int64 = 900
    /// How far a timeline looks ahead, in seconds.
    public static let horizon: Int64 = 86_400
    /// The most due-date crossings a timeline holds (the earliest are kept).
    public static let maximumCrossings = 96

    public init() {}

    /// The entry for now: the first of the timeline, computed alone (what `status` needs). The
    /// snapshot may be one read for a ``TimelineRequest/Extent/currentEntry`` request.
    public func currentEntry(for request: TimelineRequest, snapshot: TimelineSnapshot) -> TimelineEntry {
        timeline(for: request, snapshot: snapshot, entryLimit: 1).entries[0]
    }

    /// The timeline of `snapshot`: the anchor now, the 96 quarter hours that follow, and an entry at
    /// every due date of an open task in (now, now + 24 h]. Counts use binary search over the sorted
    /// due dates, so the cost is O(entries × log tasks) after the snapshot. The request's extent
    /// must be ``TimelineRequest/Extent/whole``.
    public func timeline(for request: TimelineRequest, snapshot: TimelineSnapshot) -> Timeline {
        precondition(request.extent == .whole, "a timeline needs a snapshot read for the whole timeline")
        return timeline(for: request, snapshot: snapshot, entryLimit: nil)
    }

    /// The timeline with only its first `entryLimit` entries built (all of them when `nil`).
    private func timeline(for request: TimelineRequest, snapshot: TimelineSnapshot, entryLimit: Int?) -> Timeline {
        let now = request.now
        let end = now.adding(seconds: Self.horizon)
        var reasons: [Instant: EntryReasons] = [now: .now]
        var quarter = Self.nextQuarter(after: now)
        while quarter <= end {
            reasons[quarter, default: []].insert(.cadence)
            quarter = quarter.adding(seconds: Self.cadence)
        }
        let crossings = snapshot.upcomingDueDates.lazy.map(OverdueRule.onset(of:)).filter { $0 > now && $0 <= end }
        var added = 0
        var firstDropped: Instant?
        var previous: Instant?
        for crossing in crossings where crossing != previous {
            previous = crossing
            if reasons[crossing] != nil {
                reasons[crossing]!.insert(.due)
            } else if added < Self.maximumCrossings {
                reasons[crossing] = .due
                added += 1
            } else if firstDropped == nil {
                firstDropped = crossing
            }
        }
        let dates = reasons.keys.sorted()
        let labeler = DueLabeler(calendar: request.calendar)
        var entries: [TimelineEntry] = []
        entries.reserveCapacity(dates.count)
        for (index, date) in dates.prefix(entryLimit ?? dates.count).enumerated() {
            // The next entry, unless a due date the cap left out comes first.
            let following = index + 1 < dates.count ? dates[index + 1] : Self.nextQuarter(after: date)
            let nextChange = nextCrossing(after: date, snapshot: snapshot).map { min($0, following) } ?? following
            let day = request.calendar.day(containing: date)
            var entryReasons = reasons[date]!
            if day.start == date { entryReasons.insert(.midnight) }
            entries.append(entry(
                at: date, reasons: entryReasons, day: day, nextChange: nextChange, snapshot: snapshot, labeler: labeler))
        }
        // A task that comes into a view's due horizon changes what it shows, which the snapshot
        // read now cannot: ask again then. serve told a poller the picture held for 14 minutes
        // more while `status --view` showed the task already (helper-143).
        let quarterHour = now.adding(seconds: Self.cadence)
        let reloadAfter = snapshot.nextTaskIntoView.map { min(quarterHour, $0) } ?? quarterHour
        return Timeline(
            timeZone: request.timeZone, generatedAt: now, reloadAfter: reloadAfter, validUntil: end,
            truncated: firstDropped != nil, entries: entries, firstDroppedCrossing: firstDropped)
    }

    /// What holds during [date, nextChange). Overdue and due-today counts, due labels and the day
    /// cannot change inside the interval (every due date and midnight is an entry); due-soon can,
    /// and counts what is due soon at any instant of it (its value just before nextChange).
    private func entry(
        at date: Instant, reasons: EntryReasons, day: LocalCalendar.Day, nextChange: Instant, snapshot: TimelineSnapshot,
        labeler: DueLabeler
    ) -> TimelineEntry {
        // Every instant here is at or after now, so the due dates before the window are all overdue.
        let due = snapshot.upcomingDueDates
        let overdueBy = { (instant: Instant) in snapshot.overdueAtStart + OverdueRule.count(in: due, at: instant) }
        let dueBefore = { (instant: Instant) in snapshot.overdueAtStart + due.count(before: instant) }
        let overdue = overdueBy(date)
        let counts = TaskCounts(
            open: snapshot.openCount, overdue: overdue,
            dueToday: dueBefore(day.end) - overdue,
            dueSoon: dueBefore(nextChange.adding(seconds: 3600)) - overdue,
            completedToday: snapshot.completionDates.count(before: day.end) - snapshot.completionDates.count(before: day.start),
            inbox: snapshot.inboxCount)
        let top = snapshot.leadingTasks.map { item in
            let isOverdue = item.task.isOverdue(at: date)
            return TopTask(
                id: item.task.id, title: item.task.title, listName: item.list?.name, colorHex: item.list?.colorHex,
                dueDate: item.task.dueDate, isOverdue: isOverdue, state: item.task.state,
                dueLabel: item.task.dueDate.map { labeler.label(for: $0, isOverdue: isOverdue, at: date) },
                reminderDate: item.task.reminderDate)
        }
        let items = snapshot.habits.map { habit in
            HabitSummary.Item(
                name: habit.name, icon: habit.icon, colorHex: habit.colorHex,
                status: snapshot.habitRecords[habit.id]?[day.localDay])
        }
        let habits = HabitSummary(done: items.filter { $0.status == .done }.count, total: items.count, items: items)
        let relevance = Relevance(score: 10 * counts.overdue + counts.dueToday, duration: nextChange.seconds(since: date))
        return TimelineEntry(
            date: date, reasons: reasons, day: day.localDay, dayStart: day.start, dayEnd: day.end, counts: counts, top: top,
            habits: habits, relevance: relevance, nextChange: nextChange, scopeTitle: snapshot.scopeTitle)
    }

    /// The first instant after `date` at which a task falls overdue (`nil` when none does in the
    /// snapshot's window): an entry's next change, even when the cap on crossings left it out of
    /// the entries (then the counts still hold for every instant of [date, nextChange)).
    private func nextCrossing(after date: Instant, snapshot: TimelineSnapshot) -> Instant? {
        let index = OverdueRule.count(in: snapshot.upcomingDueDates, at: date)
        return index < snapshot.upcomingDueDates.count ? OverdueRule.onset(of: snapshot.upcomingDueDates[index]) : nil
    }

    /// The first quarter hour (a multiple of 900 s since 1970) after `instant`.
    static func nextQuarter(after instant: Instant) -> Instant {
        Instant(secondsSince1970: (InstantFormat.floorDivision(instant.secondsSince1970, cadence).quotient + 1) * cadence)
    }
}

extension Array where Element == Instant {
    /// How many elements are before `instant` (the array is sorted ascending).
    func count(before instant: Instant) -> Int {
        var (low, high) = (0, count)
        while low < high {
            let middle = (low + high) / 2
            if self[middle] < instant { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
