import Foundation
import PropertyBased
import Testing

@testable import TaskWidgetCore
@testable import TaskWidgetTestSupport

/// SPEC §5's promise to consumers: whatever instant u of (n, n + 24 h] a widget's clock shows, the
/// entry it picks (the greatest date ≤ u) shows what a fresh evaluation at u would show. A timeline
/// with only the 15-minute cadence fails this (see `cadenceAloneWouldShowAStaleCount`).
/// Properties draw a seed and build everything from it; shrinking a seed means nothing, so it is off.
@Suite struct TimelineSimulationTests {
    /// One simulated world, all drawn from `seed`: a zone, a now (half of the time within a day
    /// before a DST transition), a random store, a scope and a widget family.
    struct World {
        var seed: UInt64
        var zone: TimeZone
        var now: Instant
        var n: Int64
        var export: StoreExport
        var scope: TaskScope
        var family: WidgetFamily?
        var random: SplitMix64
        var labels: LabelOracle

        init(seed: UInt64, zones: [String] = TL.zoneIdentifiers) {
            self.seed = seed
            random = SplitMix64(seed: seed)
            zone = Fixed.zone(zones.randomElement(using: &random)!)
            var nowMs = Int64.random(in: (TL.firstSecond * 1000)...(TL.lastSecond * 1000), using: &random)
            if Bool.random(using: &random) {
                let transitions = TL.transitions(of: zone, from: TL.firstSecond, to: TL.lastSecond)
                if let transition = transitions.randomElement(using: &random) {
                    nowMs = (transition - Int64.random(in: 0...86_400, using: &random)) * 1000 + Int64.random(in: 0...999, using: &random)
                }
            }
            now = TL.instant(milliseconds: nowMs)
            n = InstantFormat.floorDivision(nowMs, 1000).quotient
            export = RandomStore.make(seed: random.next(), now: n, zone: zone)
            switch Int.random(in: 0..<4, using: &random) {
            case 0: scope = .inbox
            case 1 where !export.lists.isEmpty: scope = .list(export.lists.randomElement(using: &random)!.name.uppercased())
            default: scope = .all
            }
            family = [nil, nil, WidgetFamily.small, .medium, .large].randomElement(using: &random)!
            labels = LabelOracle(zone: zone)
        }

        var description: String {
            "seed \(seed): now \(TL.local(n, zone)) in \(zone.identifier), \(export.tasks.count) tasks, scope \(scope), family \(family.map(\.rawValue) ?? "nil")"
        }

        func request(at instant: Instant) -> TimelineRequest {
            TL.request(now: instant, zone: zone, scope: scope, family: family)
        }

        func timeline() throws -> Timeline {
            try TL.timeline(export, now: now, zone: zone, scope: scope, family: family)
        }

        /// The first entry of a timeline made at `instant` from the same store, snapshot rebuilt.
        func freshEntry(at instant: Int64) throws -> TimelineEntry {
            let request = request(at: TL.instant(instant))
            return TL.provider.timeline(for: request, snapshot: try TimelineSnapshot(export, request: request)).entries[0]
        }

        /// Whole seconds at which an open task in scope is due.
        var dueInstants: Set<Int64> {
            Set(Oracle(export, scope: scope, zone: zone).openTasks.compactMap { task in
                task.dueDate.flatMap { $0 == $0.flooredToSecond ? $0.secondsSince1970 : nil }
            })
        }
    }

    /// Everything that must agree between the entry picked at `u` and a fresh evaluation at `u`;
    /// returns the problems found.
    static func compare(_ world: World, _ timeline: Timeline, at u: Int64, nextChangeDueSoon: inout [Int64: Int]) throws -> [String] {
        var problems: [String] = []
        let at = "u = \(TL.local(u, world.zone))"
        guard let picked = timeline.entry(at: TL.instant(u)) else { return ["\(at): no entry picked"] }
        let fresh = try world.freshEntry(at: u)
        if picked.counts.pointCounts != fresh.counts.pointCounts {
            problems.append("\(at): entry \(TL.local(picked.date.secondsSince1970, world.zone)) has \(picked.counts), fresh has \(fresh.counts)")
        }
        if picked.top != fresh.top {
            let describe = { (top: [TopTask]) in top.map { "\($0.title) \($0.isOverdue ? "!" : "") \($0.dueLabel ?? "-")" } }
            problems.append("\(at): entry \(TL.local(picked.date.secondsSince1970, world.zone)) top \(describe(picked.top)), fresh \(describe(fresh.top))")
        }
        if picked.habits != fresh.habits || picked.dayStart.secondsSince1970 != fresh.dayStart.secondsSince1970 || picked.dayEnd.secondsSince1970 != fresh.dayEnd.secondsSince1970 {
            problems.append("\(at): habits or day differ from the fresh evaluation")
        }
        if picked.counts == fresh.counts && picked.contentHash != fresh.contentHash {
            problems.append("\(at): same content, different contentHash")
        }
        // Due soon holds for the whole interval: at least what is due soon at u, and exactly what
        // is due soon at the interval's last second.
        if picked.counts.dueSoon < fresh.counts.dueSoon {
            problems.append("\(at): dueSoon \(picked.counts.dueSoon) < fresh \(fresh.counts.dueSoon)")
        }
        // (A fresh timeline costs milliseconds: check the last second of up to 12 entries per world.)
        if nextChangeDueSoon[picked.date.secondsSince1970] == nil && nextChangeDueSoon.count < 12 {
            nextChangeDueSoon[picked.date.secondsSince1970] = try world.freshEntry(at: picked.nextChange.secondsSince1970 - 1).counts.dueSoon
        }
        if let atLastSecond = nextChangeDueSoon[picked.date.secondsSince1970], picked.counts.dueSoon != atLastSecond {
            problems.append("\(at): dueSoon \(picked.counts.dueSoon), fresh at nextChange − 1 s: \(atLastSecond)")
        }
        // And the independent oracle, scanning every task.
        let oracle = Oracle(world.export, scope: world.scope, zone: world.zone)
        if picked.counts.pointCounts != pointCounts(oracle.counts(at: u)) {
            problems.append("\(at): counts \(picked.counts.pointCounts), oracle \(pointCounts(oracle.counts(at: u)))")
        }
        if picked.top.map(\.id) != oracle.topIDs(limit: world.family?.taskRows ?? 8) {
            problems.append("\(at): top ids differ from the oracle's order")
        }
        if picked.top.contains(where: { task in task.isOverdue != (task.dueDate.map { $0 <= TL.instant(u) } ?? false) }) {
            problems.append("\(at): isOverdue differs from due ≤ u")
        }
        let expectedLabels = picked.top.map { $0.dueDate.map { world.labels.label(due: $0.date, at: TL.date(u)) } }
        if picked.top.map(\.dueLabel) != expectedLabels {
            problems.append("\(at): due labels \(picked.top.map { $0.dueLabel ?? "-" }), expected \(expectedLabels.map { $0 ?? "-" })")
        }
        if picked.habits.items.map(\.status) != oracle.habitStatuses(at: u) {
            problems.append("\(at): habit statuses differ from the oracle's")
        }
        return problems
    }

    /// Thousands of consumer instants over random stores: 50 uniform ones in each of 40 worlds,
    /// plus 16 on the edges (an entry's date and the second before it).
    @Test(.shrinking(false)) func pickedEntryMatchesAFreshEvaluationAtEveryInstant() async throws {
        await propertyCheck(count: 40, input: Gen.uint64()) { seed in
            var world = World(seed: seed)
            let timeline = try world.timeline()
            // More than 96 crossings would leave later instants stale by design (truncated).
            try #require(!timeline.truncated, "\(world.description)")
            let dueInstants = world.dueInstants
            var instants = (0..<50).map { _ in Int64.random(in: (world.n + 1)...(world.n + 86_400), using: &world.random) }
            for _ in 0..<8 {
                let entry = timeline.entries.randomElement(using: &world.random)!
                instants += [entry.date.secondsSince1970, entry.date.secondsSince1970 - 1].filter { $0 > world.n }
            }
            var problems: [String] = []
            var cache: [Int64: Int] = [:]
            for u in instants where !dueInstants.contains(u) {
                problems += try Self.compare(world, timeline, at: u, nextChangeDueSoon: &cache)
            }
            #expect(problems.count == 0, "\(world.description)\n\(problems.prefix(8).joined(separator: "\n"))")
        }
    }

    /// The issue allows an exception exactly at a due instant; with overdue = due ≤ date and an
    /// entry at every crossing, none is needed: check those instants too.
    @Test(.shrinking(false)) func pickedEntryMatchesAFreshEvaluationAtDueInstantsToo() async throws {
        await propertyCheck(count: 25, input: Gen.uint64()) { seed in
            let world = World(seed: seed)
            let timeline = try world.timeline()
            try #require(!timeline.truncated, "\(world.description)")
            var problems: [String] = []
            var cache: [Int64: Int] = [:]
            for u in world.dueInstants.sorted() where u > world.n && u <= world.n + 86_400 {
                problems += try Self.compare(world, timeline, at: u, nextChangeDueSoon: &cache)
            }
            #expect(problems.count == 0, "\(world.description)\n\(problems.prefix(8).joined(separator: "\n"))")
        }
    }

    /// Every entry, not only the picked ones: its counts hold at its first and at its last second.
    @Test(.shrinking(false)) func everyEntryHoldsFromItsDateToItsLastSecond() async throws {
        await propertyCheck(count: 15, input: Gen.uint64()) { seed in
            let world = World(seed: seed)
            let timeline = try world.timeline()
            let oracle = Oracle(world.export, scope: world.scope, zone: world.zone)
            var problems: [String] = []
            for entry in timeline.entries {
                for u in [entry.date.secondsSince1970, entry.nextChange.secondsSince1970 - 1] where pointCounts(oracle.counts(at: u)) != entry.counts.pointCounts {
                    problems.append("entry \(TL.local(entry.date.secondsSince1970, world.zone)) \(entry.counts.pointCounts), oracle at \(TL.local(u, world.zone)) \(pointCounts(oracle.counts(at: u)))")
                }
                if entry.counts.dueSoon != oracle.dueSoon(from: entry.date.secondsSince1970, to: entry.nextChange.secondsSince1970) {
                    problems.append("entry \(TL.local(entry.date.secondsSince1970, world.zone)) dueSoon \(entry.counts.dueSoon), oracle \(oracle.dueSoon(from: entry.date.secondsSince1970, to: entry.nextChange.secondsSince1970))")
                }
            }
            #expect(problems.count == 0, "\(world.description)\n\(problems.prefix(8).joined(separator: "\n"))")
        }
    }

    /// A large widget's timeline with its `top` cut to a smaller limit is the timeline of that
    /// limit: serve reads one timeline for its images and its status lines.
    @Test(.shrinking(false)) func aLargeTimelineCutToFewerRowsIsTheTimelineOfThoseRows() async throws {
        await propertyCheck(count: 20, input: Gen.uint64()) { seed in
            let world = World(seed: seed)
            let large = try TL.timeline(world.export, now: world.now, zone: world.zone, scope: world.scope, family: .large)
            for family in [nil, WidgetFamily.small, .medium] {
                let limit = TL.request(now: world.now, zone: world.zone, family: family).topLimit
                let direct = try TL.timeline(world.export, now: world.now, zone: world.zone, scope: world.scope, family: family)
                #expect(large.limitingTop(to: limit) == direct, "\(world.description), \(family.map(\.rawValue) ?? "no family")")
            }
        }
    }

    /// The due label of every open task (not only the few in `top`) seen at an entry's date is the
    /// label at any instant u of the entry's interval, by the rules written again in `LabelOracle`.
    /// Zones whose days may start at 01:00 are drawn more often.
    @Test(.shrinking(false)) func everyDueLabelHoldsForTheWholeEntry() async throws {
        let zones = TL.zoneIdentifiers + ["America/Santiago", "America/Havana", "Africa/Cairo"]
        await propertyCheck(count: 60, input: Gen.uint64()) { seed in
            var world = World(seed: seed, zones: zones)
            let timeline = try world.timeline()
            try #require(!timeline.truncated, "\(world.description)")
            let labeler = DueLabeler(calendar: LocalCalendar(timeZone: world.zone))
            let dated = Oracle(world.export, scope: world.scope, zone: world.zone).openTasks.filter { $0.dueDate != nil }
            var problems: [String] = []
            // (Labels cost tens of microseconds each: 10 entries × 30 tasks per world.)
            for _ in 0..<10 {
                let entry = timeline.entries.randomElement(using: &world.random)!
                let u = Int64.random(in: entry.date.secondsSince1970...(entry.nextChange.secondsSince1970 - 1), using: &world.random)
                for _ in 0..<min(30, dated.count) {
                    let task = dated.randomElement(using: &world.random)!
                    let shown = labeler.label(for: task, at: TL.instant(entry.date.secondsSince1970))!
                    let expected = world.labels.label(due: task.dueDate!.date, at: TL.date(u))
                    if shown != expected {
                        problems.append("due \(InstantFormat.utc(task.dueDate!)) seen at \(TL.local(entry.date.secondsSince1970, world.zone)): “\(shown)”, at \(TL.local(u, world.zone)): “\(expected)”")
                    }
                }
            }
            #expect(problems.count == 0, "\(world.description)\n\(problems.count) wrong labels, e.g.\n\(problems.prefix(5).joined(separator: "\n"))")
        }
    }

    /// The counterexample: a task due at 17:07, a consumer at 17:10. With the cadence alone the
    /// consumer shows the 17:00 entry, which says nothing is overdue.
    @Test func cadenceAloneWouldShowAStaleCount() throws {
        let zone = Fixed.zone("Europe/Berlin")
        var builder = StoreBuilder(created: Fixed.instant("2026-11-01T08:00:00Z"))
        builder.task("Pay rent", due: Fixed.instant("2026-11-22T17:07:00+01:00"))
        let now = TL.seconds("2026-11-22T16:27:00+01:00")
        let consumer = TL.seconds("2026-11-22T17:10:00+01:00")
        let timeline = try TL.timeline(builder.export, now: now, zone: zone)
        let request = TL.request(now: TL.instant(consumer), zone: zone)
        let fresh = TL.provider.timeline(for: request, snapshot: try TimelineSnapshot(builder.export, request: request)).entries[0]
        #expect(fresh.counts.overdue == 1 && fresh.top[0].isOverdue)

        var cadenceOnly = timeline
        cadenceOnly.entries.removeAll { $0.reasons == [.due] }
        let stale = try #require(cadenceOnly.entry(at: TL.instant(consumer)))
        #expect(TL.local(stale.date.secondsSince1970, zone) == "2026-11-22T17:00:00+01:00")
        #expect(stale.counts.overdue == 0 && !stale.top[0].isOverdue)
        #expect(stale.counts.overdue != fresh.counts.overdue)

        let ours = try #require(timeline.entry(at: TL.instant(consumer)))
        #expect(TL.local(ours.date.secondsSince1970, zone) == "2026-11-22T17:07:00+01:00")
        #expect(ours.counts == fresh.counts && ours.top == fresh.top)
        #expect(ours.top[0].dueLabel == "Overdue · 17:07")
    }
}
