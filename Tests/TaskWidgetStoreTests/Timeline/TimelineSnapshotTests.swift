import Foundation
import PropertyBased
import Testing

@testable import TaskWidgetCore
@testable import TaskWidgetStore
@testable import TaskWidgetTestSupport

/// The store's SQL snapshot equals the snapshot of the same data held in memory; the same inputs
/// give the same bytes; the demo data shows every kind of task.
@Suite struct TimelineSnapshotTests {
    /// A random store written to disk through `importing`, and when its timeline is asked for.
    struct World {
        var seed: UInt64
        var zone: TimeZone
        var now: Instant
        var export: StoreExport

        init(seed: UInt64, taskCount: ClosedRange<Int> = 0...150) {
            self.seed = seed
            var random = SplitMix64(seed: seed)
            zone = Fixed.zone(TL.zoneIdentifiers.randomElement(using: &random)!)
            let nowMs = Int64.random(in: (TL.firstSecond * 1000)...(TL.lastSecond * 1000), using: &random)
            now = TL.instant(milliseconds: nowMs)
            export = RandomStore.make(
                seed: random.next(), now: InstantFormat.floorDivision(nowMs, 1000).quotient, zone: zone, taskCount: taskCount)
        }

        var description: String {
            "seed \(seed): now \(InstantFormat.utc(now)) in \(zone.identifier), \(export.tasks.count) tasks, \(export.lists.count) lists"
        }

        /// Every scope worth asking: all, Inbox, each list (once by another spelling of its name).
        var scopes: [TaskScope] {
            [.all, .inbox] + export.lists.map { .list($0.name) } + export.lists.prefix(1).map { .list("  " + $0.name.lowercased() + " ") }
        }
    }

    @Test(.shrinking(false)) func storeQueriesGiveTheSnapshotOfTheSameDataInMemory() async throws {
        await propertyCheck(count: 40, input: Gen.uint64()) { seed in
            let world = World(seed: seed)
            let fixture = try TemporaryStore()
            try fixture.store.importing(world.export, source: "random store")
            let stored = try fixture.store.export()
            for scope in world.scopes {
                for family in [nil, WidgetFamily.small, .large] {
                    let request = TL.request(now: world.now, zone: world.zone, scope: scope, family: family)
                    let fromSQL = try fixture.store.timelineSnapshot(for: request)
                    let fromExport = try TimelineSnapshot(stored, request: request)
                    #expect(fromSQL == fromExport, "\(world.description), scope \(scope), family \(String(describing: family))")
                    // The document before the import holds the same data.
                    #expect(try TimelineSnapshot(world.export, request: request) == fromExport, "\(world.description), scope \(scope)")
                    if family == nil {
                        let bytesFromSQL = TimelineJSON.document(TL.provider.timeline(for: request, snapshot: fromSQL))
                        let bytesFromExport = TimelineJSON.document(TL.provider.timeline(for: request, snapshot: fromExport))
                        #expect(bytesFromSQL == bytesFromExport, "\(world.description), scope \(scope)")
                    }
                }
            }
        }
    }

    /// A snapshot read for the current entry alone (`status`, `render`) reads fewer due dates, and
    /// gives the entry the whole timeline starts with: its counts, its next change, its labels.
    @Test(.shrinking(false)) func theCurrentEntryAloneEqualsTheTimelinesFirst() async throws {
        await propertyCheck(count: 60, input: Gen.uint64()) { seed in
            let world = World(seed: seed, taskCount: 50...300)
            let fixture = try TemporaryStore()
            try fixture.store.importing(world.export, source: "random store")
            // Also in the last 75 minutes of the day, where due-soon looks past midnight.
            let dayEnd = LocalCalendar(timeZone: world.zone).day(containing: world.now).end
            let lateNow = dayEnd.adding(seconds: -Int64(seed % 4500) - 1)
            for (now, scope) in [world.now, lateNow].flatMap({ now in world.scopes.prefix(3).map { (now, $0) } }) {
                var request = TL.request(now: now, zone: world.zone, scope: scope)
                let first = TL.provider.timeline(for: request, snapshot: try fixture.store.timelineSnapshot(for: request)).entries[0]
                request.extent = .currentEntry
                let narrow = try fixture.store.timelineSnapshot(for: request)
                let what = "\(world.description), now \(InstantFormat.utc(now)), scope \(scope)"
                #expect(TL.provider.currentEntry(for: request, snapshot: narrow) == first, "\(what)")
                #expect(narrow == (try TimelineSnapshot(world.export, request: request)), "\(what)")
            }
        }
    }

    /// Views (`[views.NAME]`) narrow every scope in SQL as ``TaskView/includes(_:at:)`` says.
    @Test(.shrinking(false)) func viewsNarrowTheStoreAsTheRuleSays() async throws {
        await propertyCheck(count: 20, input: Gen.uint64()) { seed in
            let world = World(seed: seed)
            let fixture = try TemporaryStore()
            try fixture.store.importing(world.export, source: "random store")
            let stored = try fixture.store.export()
            for scope in world.scopes {
                let views = [
                    TaskView(name: "soon", scope: scope, dueWithin: 2 * 86_400), TaskView(scope: scope, activeOnly: true),
                    TaskView(name: "now", scope: scope, dueWithin: 3600, activeOnly: true),
                ]
                for view in views {
                    let request = TimelineRequest(now: world.now, calendar: LocalCalendar(timeZone: world.zone), view: view)
                    let fromSQL = try fixture.store.timelineSnapshot(for: request)
                    #expect(fromSQL == (try TimelineSnapshot(stored, request: request)), "\(world.description), \(view)")
                    let whole = try fixture.store.timelineSnapshot(for: TimelineRequest(now: world.now, calendar: request.calendar, view: TaskView(scope: scope)))
                    #expect(fromSQL.openCount <= whole.openCount && fromSQL.scopeTitle == view.name ?? whole.scopeTitle)
                    #expect(fromSQL.leadingTasks.allSatisfy { view.includes($0.task, at: request.now) })
                }
            }
        }
    }

    @Test func aScopeNamingNoListFailsTheSameWayInBoth() throws {
        let world = World(seed: 7)
        let fixture = try TemporaryStore()
        try fixture.store.importing(world.export, source: "random store")
        let request = TL.request(now: world.now, zone: world.zone, scope: .list("Nope"))
        expectError(.notFound) { try fixture.store.timelineSnapshot(for: request) }
        expectError(.notFound) { try TimelineSnapshot(world.export, request: request) }
        expectError(.notFound) { try TL.timeline(for: request, from: fixture.store) }
    }

    /// Limits that cut through ties: more active tasks than the top holds, and many tasks sharing
    /// a due date, sortOrder and createdAt, so that only the id decides.
    @Test func topOfTheStoreBreaksTiesLikeTheInMemoryOrder() throws {
        let now = Fixed.instant("2026-11-22T16:27:00+01:00")
        let due = Fixed.instant("2026-11-22T18:00:00+01:00")
        var builder = StoreBuilder(created: Fixed.instant("2026-11-01T08:00:00Z"))
        var random = SplitMix64(seed: 2026)
        for index in 0..<30 {
            let created = Fixed.instant("2026-11-02T08:00:00Z")
            let id = TL.uuid(random.next(), random.next())
            switch index % 3 {
            case 0: builder.task("Active \(index)", due: index % 2 == 0 ? due : nil, kind: .active, createdAt: created, id: id)
            case 1: builder.task("Dated \(index)", due: due, createdAt: created, id: id)
            default: builder.task("Undated \(index)", createdAt: created, id: id)
            }
        }
        let fixture = try TemporaryStore()
        try fixture.store.importing(builder.export, source: "ties")
        for family in [nil, WidgetFamily.small, .medium, .large] {
            let request = TL.request(now: now, zone: Fixed.zone("Europe/Berlin"), family: family)
            let fromSQL = try fixture.store.timelineSnapshot(for: request)
            #expect(fromSQL.leadingTasks.map(\.task.id) == Oracle(builder.export, zone: request.timeZone).topIDs(limit: request.topLimit))
            #expect(fromSQL == (try TimelineSnapshot(builder.export, request: request)))
        }
    }

    @Test func sameInputsGiveByteIdenticalDocuments() throws {
        let world = World(seed: 20_261_122, taskCount: 120...120)
        // The same data imported in another order into another store.
        var reversed = world.export
        reversed.tasks.reverse()
        reversed.habits.reverse()
        let first = try TemporaryStore()
        let second = try TemporaryStore()
        try first.store.importing(world.export, source: "in order")
        try second.store.importing(reversed, source: "reversed")
        let request = TL.request(now: world.now, zone: world.zone)
        let documents = try [first.store, first.store, second.store].map { store in
            TimelineJSON.document(try TL.timeline(for: request, from: store))
        }
        #expect(documents[0] == documents[1])
        #expect(documents[0] == documents[2])
        // And a different instant gives a different document (the comparison can fail).
        let later = TL.request(now: world.now.adding(seconds: Int64(1)), zone: world.zone)
        #expect(TimelineJSON.document(try TL.timeline(for: later, from: first.store)) != documents[0])
    }

    /// The demo data, as a new user's first `taskwidget demo` shows it at `now`.
    @Test func demoDataShowsEveryKindOfTask() throws {
        let now = Fixed.instant("2026-11-22T16:27:30.250+01:00")
        let request = TL.request(now: now, zone: Fixed.zone("Europe/Berlin"), family: .small)
        let demo = { DemoData.export(now: now, calendar: request.calendar) }
        let entry = TL.provider.currentEntry(for: request, snapshot: try TimelineSnapshot(demo(), request: request))
        #expect(entry.date.secondsSince1970 == TL.seconds("2026-11-22T16:27:30+01:00"))
        #expect(entry.reasons.contains(.now))
        #expect(entry.scopeTitle == nil)
        // DemoData at 16:27: 14 tasks, 2 completed (the 1:1 at 15:45 today, dry cleaning yesterday);
        // overdue: the dentist (26 h ago) and the rent (2 h ago); due later today: expense report
        // (17:00), milk (22:15) and the plants (23:59); no list: dentist, Deep Work, flights.
        #expect(entry.counts == TaskCounts(open: 12, overdue: 2, dueToday: 3, dueSoon: 1, completedToday: 1, inbox: 3))
        // The overdue ones by due date, then the next one due (the active, undated tap comes after
        // every dated task); three for a small widget.
        #expect(entry.top.map(\.title) == ["Call the dentist", "Pay rent", "Submit expense report"])
        #expect(entry.habits.total == 4 && entry.habits.done == 1)
        // Everything but the random ids of the sample data is the same on every call.
        let again = TL.provider.currentEntry(for: request, snapshot: try TimelineSnapshot(demo(), request: request))
        #expect(again.counts == entry.counts && again.habits == entry.habits)
        #expect(again.top.map(\.title) == entry.top.map(\.title) && again.top.map(\.dueLabel) == entry.top.map(\.dueLabel))
    }
}
