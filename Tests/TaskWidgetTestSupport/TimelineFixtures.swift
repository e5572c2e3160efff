import Foundation
import Testing

import TaskWidgetCore

/// Helpers shared by the timeline tests: fixed instants in Unix seconds, stores built in memory
/// with fixed ids, random stores from a seed, and an independent reference ("oracle") that
/// evaluates SPEC §5 at one instant by scanning every task, without the provider's binary search.
enum TL {
    /// The zones every property runs in: no DST, the usual DST, DST at midnight (Santiago, Havana,
    /// Cairo: days that start at 01:00 or whose midnight happens twice), 45-minute offsets
    /// (Kathmandu, Chatham) and a 30-minute DST shift (Lord Howe).
    static let zoneIdentifiers = [
        "UTC", "Europe/Berlin", "America/New_York", "America/Santiago", "America/Havana", "Africa/Cairo",
        "Asia/Kathmandu", "Australia/Lord_Howe", "Pacific/Chatham",
    ]

    static let provider = TimelineProvider()

    /// 2020-01-01T00:00:00Z and 2035-12-31T23:59:59Z, the range the properties draw `now` from.
    static let firstSecond: Int64 = 1_577_836_800
    static let lastSecond: Int64 = 2_082_758_399

    /// Unix seconds of an RFC 3339 timestamp (read by Foundation, not by the code under test).
    static func seconds(_ text: String) -> Int64 {
        let instant = Fixed.instant(text)
        precondition(instant == instant.flooredToSecond, "\(text) has a fraction: use Fixed.instant")
        return instant.secondsSince1970
    }

    /// The instant `seconds` after the Unix epoch.
    static func instant(_ seconds: Int64) -> Instant {
        Instant(secondsSince1970: seconds)
    }

    /// The instant `milliseconds` after the Unix epoch.
    static func instant(milliseconds: Int64) -> Instant {
        Instant(millisecondsSince1970: milliseconds)
    }

    /// Foundation's date `seconds` after the Unix epoch, for the references written with Foundation.
    static func date(_ seconds: Int64) -> Date {
        Date(timeIntervalSince1970: TimeInterval(seconds))
    }

    /// The local day of `date` in `zone`, by Foundation.
    static func localDay(_ date: Date, _ zone: TimeZone) -> LocalDay {
        let parts = calendar(zone).dateComponents([.year, .month, .day], from: date)
        return Fixed.day(String(format: "%04d-%02d-%02d", parts.year!, parts.month!, parts.day!))
    }

    static func calendar(_ zone: TimeZone) -> Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        calendar.locale = Locale(identifier: "en_US_POSIX")
        return calendar
    }

    /// `2026-03-29T03:00:00+02:00`, formatted by Foundation's `DateFormatter` (POSIX locale).
    static func local(_ seconds: Int64, _ zone: TimeZone) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.calendar = calendar(zone)
        formatter.timeZone = zone
        formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ssxxx"
        return formatter.string(from: date(seconds))
    }

    /// The request for `now` in `zone`.
    static func request(now: Instant, zone: TimeZone, scope: TaskScope = .all, family: WidgetFamily? = nil) -> TimelineRequest {
        TimelineRequest(now: now, calendar: LocalCalendar(timeZone: zone), view: TaskView(scope: scope), family: family)
    }

    /// The timeline of an in-memory store.
    static func timeline(
        _ export: StoreExport, now: Instant, zone: TimeZone, scope: TaskScope = .all, family: WidgetFamily? = nil
    ) throws -> Timeline {
        let request = request(now: now, zone: zone, scope: scope, family: family)
        return provider.timeline(for: request, snapshot: try TimelineSnapshot(export, request: request))
    }

    static func timeline(
        _ export: StoreExport, now seconds: Int64, zone: TimeZone, scope: TaskScope = .all, family: WidgetFamily? = nil
    ) throws -> Timeline {
        try timeline(export, now: instant(seconds), zone: zone, scope: scope, family: family)
    }

    /// The entry at exactly `seconds`, failing the test when there is none.
    static func entry(
        _ timeline: Timeline, at seconds: Int64, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> TimelineEntry {
        try #require(
            timeline.entries.first { $0.date.secondsSince1970 == seconds },
            "no entry at \(local(seconds, timeline.timeZone))", sourceLocation: sourceLocation)
    }

    /// A UUID made of two 64-bit numbers (for ids drawn from a seeded generator).
    static func uuid(_ high: UInt64, _ low: UInt64) -> UUID {
        func hex(_ value: UInt64) -> String {
            let text = String(value, radix: 16)
            return String(repeating: "0", count: 16 - text.count) + text
        }
        let digits = Array(hex(high) + hex(low))
        let groups = [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(digits[$0]) }
        return Fixed.uuid(groups.joined(separator: "-"))
    }

    /// Transitions (DST or offset changes) of `zone` in [from, to], by Foundation.
    static func transitions(of zone: TimeZone, from: Int64, to: Int64) -> [Int64] {
        var result: [Int64] = []
        var cursor = date(from - 1)
        while let next = zone.nextDaylightSavingTimeTransition(after: cursor), next.timeIntervalSince1970 <= Double(to) {
            result.append(Int64(next.timeIntervalSince1970.rounded()))
            cursor = next
        }
        return result
    }

    /// A fixed id: `0000000K-0000-4000-8000-0000000000NN` for kind K (0 tasks, 1 lists, 2 habits) and number NN (hex).
    static func id(_ number: Int, kind: Int = 0) -> UUID {
        let text = String(number, radix: 16)
        let kindText = String(kind, radix: 16)
        return Fixed.uuid(
            String(repeating: "0", count: 8 - kindText.count) + kindText + "-0000-4000-8000-"
                + String(repeating: "0", count: 12 - text.count) + text)
    }
}

// MARK: - Stores built in memory

/// Builds a `StoreExport` task by task, with fixed ids and creation dates.
struct StoreBuilder {
    var export = StoreExport()
    /// Lists are created at this instant, tasks at it plus their number in milliseconds.
    var created: Instant

    init(created: Instant) {
        self.created = created
    }

    @discardableResult
    mutating func list(_ name: String, color: String = "007AFF") -> TaskList {
        let list = TaskList(
            id: TL.id(export.lists.count + 1, kind: 1), name: name, colorHex: color, createdAt: created,
            sortOrder: export.lists.count)
        export.lists.append(list)
        return list
    }

    enum Kind { case open, active, completed(Instant) }

    /// Adds a task; its id is `TL.id(n)` for the n-th task (from 1) unless `id` is given.
    @discardableResult
    mutating func task(
        _ title: String, due: Instant? = nil, list: TaskList? = nil, kind: Kind = .open, sortOrder: Int = 0,
        createdAt: Instant? = nil, id: UUID? = nil, remind: Instant? = nil
    ) -> TaskItem {
        let number = export.tasks.count + 1
        var task = TaskItem(
            id: id ?? TL.id(number), title: title, dueDate: due, reminderDate: remind, listID: list?.id, sortOrder: sortOrder,
            createdAt: createdAt ?? TL.instant(milliseconds: created.millisecondsSince1970 + Int64(number)))
        switch kind {
        case .open: break
        case .active: task.start(at: task.createdAt)
        case .completed(let when): task.complete(at: when)
        }
        export.tasks.append(task)
        return task
    }

    @discardableResult
    mutating func habit(_ name: String, icon: String = "•", color: String = "34C759", records: [(String, HabitStatus)] = [])
        -> Habit
    {
        let habit = Habit(
            id: TL.id(export.habits.count + 1, kind: 2), name: name, icon: icon, colorHex: color,
            createdAt: created.adding(seconds: Int64(export.habits.count)))
        export.habits.append(.init(habit: habit, completions: records.map { .init(day: Fixed.day($0.0), status: $0.1) }))
        return habit
    }
}

// MARK: - Random stores

enum RandomStore {
    /// 50–200 tasks (by default) due within ±2 days of `now`: on the quarter-hour grid, off it,
    /// with milliseconds, exactly at now, and many at the end of today or tomorrow (as tasks due on
    /// a day are, so that due dates tie across lists; in some stores, all of them); some undated
    /// (in some stores, most), some active, some completed (also exactly at the start of today and
    /// just before it), many sharing sortOrder and createdAt; 0–4 lists in a random order (60 % of
    /// tasks in one); 0–3 habits with records from three days ago to two days ahead.
    static func make(seed: UInt64, now: Int64, zone: TimeZone, taskCount: ClosedRange<Int> = 50...200) -> StoreExport {
        var random = SplitMix64(seed: seed)
        let nowMs = now * 1000
        let calendar = TL.calendar(zone)
        let todayStartMs = Int64(calendar.startOfDay(for: TL.date(now)).timeIntervalSince1970) * 1000
        let twoDays: Int64 = 2 * 86_400

        func instantMs() -> Int64 {
            switch Int.random(in: 0..<10, using: &random) {
            case 0...3:  // on the grid
                let first = (now - twoDays) / 900
                return Int64.random(in: first...(first + 4 * 96), using: &random) * 900 * 1000
            case 4...7:  // whole seconds off the grid (or on it, rarely)
                return Int64.random(in: (now - twoDays)...(now + twoDays), using: &random) * 1000
            case 8:  // with milliseconds
                return Int64.random(in: (nowMs - twoDays * 1000)...(nowMs + twoDays * 1000), using: &random)
            default:  // right at now, or a millisecond or a second around it
                return nowMs + [-1000, -1, 0, 1, 999, 1000, 1001].randomElement(using: &random)!
            }
        }

        var builder = StoreBuilder(created: TL.instant(now - 30 * 86_400))
        let listCount = Int.random(in: 0...4, using: &random)
        let lists = (0..<listCount).map { index in
            builder.list("List \(index + 1)", color: ["007AFF", "34C759", "FF9500", "AF52DE"][index])
        }
        // The user's order of lists (`list move`) is not the order they were made in.
        for (index, place) in Array(0..<listCount).shuffled(using: &random).enumerated() {
            builder.export.lists[index].sortOrder = place
        }
        let dayEnds = [0, 1].compactMap { offset in
            calendar.date(byAdding: .day, value: offset, to: calendar.startOfDay(for: TL.date(now))).flatMap {
                LocalCalendar(timeZone: zone).dayAlone(TL.localDay($0.addingTimeInterval(6 * 3600), zone))
            }
        }
        // A handful of creation dates, so that ties on sortOrder and createdAt are common.
        let createdChoices = (0..<4).map { _ in
            TL.instant(milliseconds: (now - 10 * 86_400) * 1000 + Int64.random(in: 0...86_400_000, using: &random))
        }
        let count = Int.random(in: taskCount, using: &random)
        // Some stores have their due dates on two days only, or few due dates at all: the widget's
        // first tasks then tie on a due date, or are undated ones, from every list.
        enum Shape: CaseIterable { case spread, dueOnDays, mostlyUndated }
        let shape = Shape.allCases.randomElement(using: &random)!
        for index in 0..<count {
            let due: Instant? = switch (Int.random(in: 0..<100, using: &random), shape) {
            case (0..<15, _), (15..<80, .mostlyUndated): nil
            case (15..<30, _), (_, .dueOnDays): dayEnds.randomElement(using: &random)
            default: TL.instant(milliseconds: instantMs())
            }
            let list = !lists.isEmpty && Int.random(in: 0..<10, using: &random) < 6 ? lists.randomElement(using: &random) : nil
            let kind: StoreBuilder.Kind
            switch Int.random(in: 0..<100, using: &random) {
            case 0..<10: kind = .active
            case 10..<35:
                let choices = [instantMs(), instantMs(), todayStartMs, todayStartMs - 1, todayStartMs + 1]
                kind = .completed(TL.instant(milliseconds: choices.randomElement(using: &random)!))
            default: kind = .open
            }
            // Random ids (from the seed), so that the id tie-break is exercised in every order.
            let id = TL.uuid(random.next(), random.next())
            builder.task(
                "Task \(index + 1)", due: due, list: list, kind: kind, sortOrder: Int.random(in: 0...3, using: &random),
                createdAt: createdChoices.randomElement(using: &random)!, id: id)
        }
        let today = TL.localDay(TL.date(now), zone)
        let dayChoices = (-3...2).compactMap { offset in
            calendar.date(byAdding: .day, value: offset, to: calendar.startOfDay(for: TL.date(now))).map {
                TL.localDay($0.addingTimeInterval(6 * 3600), zone)
            }
        }
        for index in 0..<Int.random(in: 0...3, using: &random) {
            var records: [(String, HabitStatus)] = []
            for day in dayChoices where Bool.random(using: &random) || day == today {
                records.append((day.description, HabitStatus.allCases.randomElement(using: &random)!))
            }
            builder.habit("Habit \(index + 1)", records: records)
        }
        return builder.export
    }
}

// MARK: - Oracle

/// SPEC §5 evaluated at one instant by scanning every task: what a consumer at `instant` should see.
struct Oracle {
    let export: StoreExport
    let scope: TaskScope
    let zone: TimeZone
    let calendar: Calendar

    init(_ export: StoreExport, scope: TaskScope = .all, zone: TimeZone) {
        self.export = export
        self.scope = scope
        self.zone = zone
        self.calendar = TL.calendar(zone)
    }

    var tasksInScope: [TaskItem] {
        switch scope {
        case .all: return export.tasks
        case .inbox: return export.tasks.filter { $0.listID == nil }
        case .list(let name):
            let wanted = name.trimmingCharacters(in: .whitespaces).lowercased()
            let list = export.lists.first { $0.name.lowercased() == wanted }
            return export.tasks.filter { $0.listID != nil && $0.listID == list?.id }
        }
    }

    var openTasks: [TaskItem] { tasksInScope.filter { !$0.isCompleted } }

    private func dayKey(_ seconds: Int64) -> DateComponents {
        calendar.dateComponents([.era, .year, .month, .day], from: TL.date(seconds))
    }

    /// The first second of the local day containing `instant`, found by bisection on "same local
    /// date as instant" (days last at most 26 h), not by `startOfDay`.
    func dayStart(_ instant: Int64) -> Int64 {
        let key = dayKey(instant)
        var (low, high) = (instant - 26 * 3600, instant)  // dayKey(low) != key, dayKey(high) == key
        while high - low > 1 {
            let middle = low + (high - low) / 2
            if dayKey(middle) == key { high = middle } else { low = middle }
        }
        return high
    }

    /// The first second of the next local day.
    func dayEnd(_ instant: Int64) -> Int64 {
        let key = dayKey(instant)
        var (low, high) = (instant, instant + 26 * 3600)  // dayKey(low) == key, dayKey(high) != key
        while high - low > 1 {
            let middle = low + (high - low) / 2
            if dayKey(middle) == key { low = middle } else { high = middle }
        }
        return high
    }

    /// The counts at `instant`, except dueSoon (which the timeline gives for an interval).
    func counts(at instant: Int64) -> (open: Int, overdue: Int, dueToday: Int, completedToday: Int, inbox: Int) {
        let now = TL.date(instant)
        let end = TL.date(dayEnd(instant))
        let start = TL.date(dayStart(instant))
        let open = openTasks
        let date = { (instant: Instant) in instant.date }
        return (
            open.count,
            open.filter { $0.dueDate.map(date).map { $0 <= now } ?? false }.count,
            open.filter { $0.dueDate.map(date).map { now < $0 && $0 < end } ?? false }.count,
            tasksInScope.filter { $0.completedAt.map(date).map { start <= $0 && $0 < end } ?? false }.count,
            open.filter { $0.listID == nil }.count
        )
    }

    /// How many open tasks are due within the hour at some instant of [from, to): t < due ≤ t + 1 h.
    func dueSoon(from: Int64, to: Int64) -> Int {
        let (low, high) = (TL.date(from), TL.date(to + 3600))
        return openTasks.filter { $0.dueDate.map { low < $0.date && $0.date < high } ?? false }.count
    }

    /// The ids of the widget's tasks in order: dated by due date (active or not), then undated,
    /// active before the others; ties by sortOrder, createdAt, id.
    func topIDs(limit: Int) -> [UUID] {
        func key(_ task: TaskItem) -> (Int, Double, Int, Double, String) {
            (
                task.dueDate != nil ? 0 : task.state == .active ? 1 : 2, task.dueDate?.date.timeIntervalSince1970 ?? 0,
                task.sortOrder, task.createdAt.date.timeIntervalSince1970, task.id.uuidString
            )
        }
        return openTasks.sorted { key($0) < key($1) }.prefix(limit).map(\.id)
    }

    /// The habits' statuses on the local day of `instant`, in creation order.
    func habitStatuses(at instant: Int64) -> [HabitStatus?] {
        let day = TL.localDay(TL.date(instant), zone)
        return export.habits.sorted {
            ($0.habit.createdAt.millisecondsSince1970, $0.habit.id.uuidString) < ($1.habit.createdAt.millisecondsSince1970, $1.habit.id.uuidString)
        }
            .map { record in record.completions.first { $0.day == day }?.status }
    }
}

extension TaskCounts {
    /// The counts that hold at every instant of an entry (all but dueSoon), for comparisons.
    var pointCounts: [String: Int] {
        ["open": open, "overdue": overdue, "dueToday": dueToday, "completedToday": completedToday, "inbox": inbox]
    }
}

/// The oracle's counts in the same shape as ``TaskCounts/pointCounts``.
func pointCounts(_ counts: (open: Int, overdue: Int, dueToday: Int, completedToday: Int, inbox: Int)) -> [String: Int] {
    [
        "open": counts.open, "overdue": counts.overdue, "dueToday": counts.dueToday,
        "completedToday": counts.completedToday, "inbox": counts.inbox,
    ]
}

// MARK: - Due labels

/// The due label rules (`09:30`, `Today`, `Tomorrow 09:00`, `Mon 24 Nov 14:30`, `Mon 24 Nov` for a
/// day alone (23:59), `Overdue · 17:00`, `Overdue · Yesterday 17:00`, `Overdue · Sat 21 Nov 17:00`,
/// a year when it is not the current one),
/// written again with Foundation's formatters; days apart are counted on the local dates' numbers
/// (as if they were UTC dates), so that 23- and 25-hour days and days starting at 01:00 count as one.
final class LabelOracle {
    let calendar: Calendar
    private let time = DateFormatter()
    private let day = DateFormatter()
    private var utc = Calendar(identifier: .gregorian)

    init(zone: TimeZone) {
        calendar = TL.calendar(zone)
        for formatter in [time, day] {
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.calendar = calendar
            formatter.timeZone = zone
        }
        time.dateFormat = "HH:mm"
        day.dateFormat = "EEE d MMM"
        utc.timeZone = TimeZone(identifier: "UTC")!
    }

    /// The local date of `date` as a day number.
    func dayNumber(_ date: Date) -> Int {
        let local = calendar.dateComponents([.year, .month, .day], from: date)
        let midnightUTC = utc.date(from: DateComponents(year: local.year, month: local.month, day: local.day))!
        return Int((midnightUTC.timeIntervalSince1970 / 86_400).rounded())
    }

    func label(due: Date, at instant: Date) -> String {
        let clock = time.string(from: due)
        let isEndOfDay = clock == "23:59"
        let year = calendar.component(.year, from: due)
        let dayText = day.string(from: due) + (year == calendar.component(.year, from: instant) ? "" : " \(year)")
        let distance = dayNumber(due) - dayNumber(instant)
        if due <= instant {
            switch distance {
            case 0: return "Overdue · " + (isEndOfDay ? "Today" : clock)
            case -1: return "Overdue · Yesterday" + (isEndOfDay ? "" : " " + clock)
            default: return "Overdue · " + dayText + (isEndOfDay ? "" : " " + clock)
            }
        }
        switch distance {
        case 0: return isEndOfDay ? "Today" : clock
        case 1: return "Tomorrow" + (isEndOfDay ? "" : " " + clock)
        default: return dayText + (isEndOfDay ? "" : " " + clock)
        }
    }
}

extension TimelineSnapshot {
    /// The snapshot of a store held in memory as an export document.
    init(_ export: StoreExport, request: TimelineRequest) throws {
        try self.init(
            tasks: export.tasks, lists: export.lists,
            habits: export.habits.map { record in
                (record.habit, record.completions.map { HabitCompletion(habitID: record.habit.id, day: $0.day, status: $0.status) })
            },
            request: request)
    }
}
