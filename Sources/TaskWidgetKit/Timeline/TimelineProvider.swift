import Foundation

/// Computes widget timelines (SPEC §5) as a pure function of a store snapshot, the clock, the time
/// zone and the scope: the same inputs give the same timeline. It never reads the clock or the zone.
///
/// ```swift
/// let request = TimelineRequest(now: now, timeZone: zone, scope: .all)
/// let timeline = try TimelineProvider().timeline(for: request, from: store)
/// ```
public struct TimelineProvider: Sendable {
    /// Seconds between cadence entries.
    public static let cadence: Int64 = 900
    /// How far a timeline looks ahead, in seconds.
    public static let horizon: Int64 = 86_400
    /// The most due-date crossings a timeline holds (the earliest are kept).
    public static let maximumCrossings = 96

    public init() {}

    /// An entry made from sample data, for a preview before any store exists. The same request
    /// gives the same entry.
    public func placeholder(for request: TimelineRequest) -> TimelineEntry {
        var request = request
        request.scope = .all
        var counter: UInt8 = 0
        let sample = DemoData.export(now: request.now, timeZone: request.timeZone) {
            counter += 1
            return UUID(uuid: (0, 0, 0, 0, 0, 0, 0x40, 0, 0x80, 0, 0, 0, 0, 0, 0, counter))
        }
        // The demo data has no list scope to miss, so building its snapshot cannot fail.
        let snapshot = try! TimelineSnapshot(sample, request: request)
        return timeline(for: request, snapshot: snapshot).entries[0]
    }

    /// The entry for now: the first of the timeline, computed alone (what `status` needs).
    public func currentEntry(for request: TimelineRequest, from store: TaskStore) throws -> TimelineEntry {
        timeline(for: request, snapshot: try store.timelineSnapshot(for: request), entryLimit: 1).entries[0]
    }

    /// Reads one consistent snapshot of the store and computes the timeline from it.
    public func timeline(for request: TimelineRequest, from store: TaskStore) throws -> Timeline {
        timeline(for: request, snapshot: try store.timelineSnapshot(for: request))
    }

    /// The timeline of `snapshot`: the anchor now, the 96 quarter hours that follow, and an entry at
    /// every due date of an open task in (now, now + 24 h]. Counts use binary search over the sorted
    /// due dates, so the cost is O(entries × log tasks) after the snapshot.
    public func timeline(for request: TimelineRequest, snapshot: TimelineSnapshot) -> Timeline {
        timeline(for: request, snapshot: snapshot, entryLimit: nil)
    }

    /// The timeline with only its first `entryLimit` entries built (all of them when `nil`).
    private func timeline(for request: TimelineRequest, snapshot: TimelineSnapshot, entryLimit: Int?) -> Timeline {
        let now = Int64(request.now.timeIntervalSince1970.rounded(.down))
        let end = now + Self.horizon
        var reasons: [Int64: EntryReasons] = [now: .now]
        var quarter = (Self.floorDivision(now, Self.cadence) + 1) * Self.cadence
        while quarter <= end {
            reasons[quarter, default: []].insert(.cadence)
            quarter += Self.cadence
        }
        // A task is overdue from the first whole second at or after its due instant.
        let crossings = snapshot.upcomingDueDates.lazy.map { Self.ceilingDivision($0, 1000) }.filter { $0 > now && $0 <= end }
        var added = 0
        var truncated = false
        var previous: Int64?
        for crossing in crossings where crossing != previous {
            previous = crossing
            if reasons[crossing] != nil {
                reasons[crossing]!.insert(.due)
            } else if added < Self.maximumCrossings {
                reasons[crossing] = .due
                added += 1
            } else {
                truncated = true
            }
        }
        let dates = reasons.keys.sorted()
        let days = DayCalendar(timeZone: request.timeZone)
        let labeler = DueLabeler(timeZone: request.timeZone)
        var entries: [TimelineEntry] = []
        entries.reserveCapacity(dates.count)
        for (index, date) in dates.prefix(entryLimit ?? dates.count).enumerated() {
            let nextChange = index + 1 < dates.count ? dates[index + 1] : nextChangeAfterLast(date, snapshot: snapshot)
            let day = days.day(containing: date)
            var entryReasons = reasons[date]!
            if day.start == date { entryReasons.insert(.midnight) }
            entries.append(entry(
                at: date, reasons: entryReasons, day: day, nextChange: nextChange, snapshot: snapshot, labeler: labeler))
        }
        return Timeline(
            timeZone: request.timeZone, generatedAt: now, reloadAfter: now + Self.cadence, validUntil: end,
            truncated: truncated, entries: entries)
    }

    /// What holds during [date, nextChange). Overdue and due-today counts, due labels and the day
    /// cannot change inside the interval (every due date and midnight is an entry); due-soon can,
    /// and counts what is due soon at any instant of it (its value just before nextChange).
    private func entry(
        at date: Int64, reasons: EntryReasons, day: DayCalendar.Day, nextChange: Int64, snapshot: TimelineSnapshot,
        labeler: DueLabeler
    ) -> TimelineEntry {
        // Every instant here is after now, so the due dates before the window are all counted.
        let due = snapshot.upcomingDueDates
        let overdue = snapshot.overdueAtStart + due.countNotAfter(date * 1000)
        let counts = TaskCounts(
            open: snapshot.openCount, overdue: overdue,
            dueToday: snapshot.overdueAtStart + due.countBefore(day.end * 1000) - overdue,
            dueSoon: snapshot.overdueAtStart + due.countBefore((nextChange + 3600) * 1000) - overdue,
            completedToday: snapshot.completionDates.countBefore(day.end * 1000)
                - snapshot.completionDates.countBefore(day.start * 1000),
            inbox: snapshot.inboxCount)
        let instant = Date(timeIntervalSince1970: Double(date))
        let top = snapshot.leadingTasks.map { item in
            let isOverdue = item.task.isOverdue(at: instant)
            return TopTask(
                id: item.task.id, title: item.task.title, listName: item.list?.name, colorHex: item.list?.colorHex,
                dueDate: item.task.dueDate, isOverdue: isOverdue, state: item.task.state,
                dueLabel: item.task.dueDate.map { labeler.label(for: $0, isOverdue: isOverdue, at: instant) })
        }
        let items = snapshot.habits.map { habit in
            HabitSummary.Item(
                name: habit.name, icon: habit.icon, colorHex: habit.colorHex, status: snapshot.habitRecords[habit.id]?[day.localDay])
        }
        let habits = HabitSummary(done: items.filter { $0.status == .done }.count, total: items.count, items: items)
        let relevance = Relevance(score: 10 * counts.overdue + counts.dueToday, duration: nextChange - date)
        return TimelineEntry(
            date: date, reasons: reasons, dayStart: day.start, dayEnd: day.end, counts: counts, top: top, habits: habits,
            relevance: relevance, nextChange: nextChange, scopeTitle: snapshot.scopeTitle)
    }

    /// After the last entry, the next instant that would have been an entry.
    private func nextChangeAfterLast(_ date: Int64, snapshot: TimelineSnapshot) -> Int64 {
        let nextQuarter = (Self.floorDivision(date, Self.cadence) + 1) * Self.cadence
        let index = snapshot.upcomingDueDates.countNotAfter(date * 1000)
        guard index < snapshot.upcomingDueDates.count else { return nextQuarter }
        return min(nextQuarter, Self.ceilingDivision(snapshot.upcomingDueDates[index], 1000))
    }

    static func floorDivision(_ value: Int64, _ divisor: Int64) -> Int64 {
        InstantFormat.floorDivision(value, divisor).quotient
    }

    static func ceilingDivision(_ value: Int64, _ divisor: Int64) -> Int64 {
        -floorDivision(-value, divisor)
    }
}

/// Local calendar days of a time zone.
struct DayCalendar {
    struct Day {
        var start: Int64
        var end: Int64
        var localDay: LocalDay
    }

    private let calendar: Calendar
    private let timeZone: TimeZone

    init(timeZone: TimeZone) {
        self.timeZone = timeZone
        self.calendar = .gregorian(in: timeZone)
    }

    /// The local day containing `instant` (Unix seconds): its start and end may be 23 or 25 hours
    /// apart, and it may start at 01:00 where midnight is skipped.
    func day(containing instant: Int64) -> Day {
        let date = Date(timeIntervalSince1970: Double(instant))
        let interval = calendar.dateInterval(of: .day, for: date)!
        return Day(
            start: Int64(interval.start.timeIntervalSince1970), end: Int64(interval.end.timeIntervalSince1970),
            localDay: LocalDay(containing: date, in: timeZone))
    }
}

extension Array where Element == Int64 {
    /// How many elements are ≤ `value` (the array is sorted ascending).
    func countNotAfter(_ value: Int64) -> Int {
        partitionIndex { $0 > value }
    }

    /// How many elements are < `value` (the array is sorted ascending).
    func countBefore(_ value: Int64) -> Int {
        partitionIndex { $0 >= value }
    }

    private func partitionIndex(where isAfter: (Int64) -> Bool) -> Int {
        var low = 0
        var high = count
        while low < high {
            let middle = (low + high) / 2
            if isAfter(self[middle]) { high = middle } else { low = middle + 1 }
        }
        return low
    }
}
