import Foundation
import Testing

@testable import TaskWidgetCore
@testable import TaskWidgetTestSupport

/// DST days as golden JSON files (Tests/TaskWidgetCoreTests/Timeline/Goldens/<name>.json), compared
/// byte for byte; `TASKWIDGET_RECORD_GOLDENS=1 swift test --filter TimelineGoldenTests` rewrites
/// them. Each test also asserts its DST facts in code, so it fails on its own if a re-recorded
/// golden is wrong. The transitions were checked with Foundation (see `transitionIsWhereWeSayItIs`).
@Suite struct TimelineGoldenTests {
    /// A small store around one DST night: a task due on the DST day off the grid, an overdue one,
    /// an active undated one, one completed today; one list; one habit done today.
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var zone: String
        var now: String
        var dueOnTransitionDay: String
        var overdue: String
        var completed: String
        var today: String

        var testDescription: String { name }

        var export: StoreExport {
            var builder = StoreBuilder(created: Fixed.instant("2026-01-05T08:00:00Z"))
            let home = builder.list("Home", color: "34C759")
            builder.task("Pay rent", due: Fixed.instant(dueOnTransitionDay), list: home)
            builder.task("Call the dentist", due: Fixed.instant(overdue), sortOrder: 1)
            builder.task("Water the plants", kind: .active, sortOrder: 2)
            builder.task("Buy milk", due: Fixed.instant(overdue), kind: .completed(Fixed.instant(completed)), sortOrder: 3)
            builder.habit("Walk", icon: "🚶", color: "34C759", records: [(today, .done)])
            return builder.export
        }

        func timeline() throws -> Timeline {
            try TL.timeline(export, now: Fixed.instant(now), zone: Fixed.zone(zone))
        }
    }

    static let berlinSpringForward = Case(
        name: "berlin-spring-forward", zone: "Europe/Berlin", now: "2026-03-28T12:00:00+01:00",
        dueOnTransitionDay: "2026-03-29T03:20:00+02:00", overdue: "2026-03-27T18:00:00+01:00",
        completed: "2026-03-28T09:30:00+01:00", today: "2026-03-28")
    static let berlinFallBack = Case(
        name: "berlin-fall-back", zone: "Europe/Berlin", now: "2026-10-24T12:00:00+02:00",
        dueOnTransitionDay: "2026-10-25T02:10:00+01:00", overdue: "2026-10-23T18:00:00+02:00",
        completed: "2026-10-24T09:30:00+02:00", today: "2026-10-24")
    /// Chile starts DST at 24:00 on the first Saturday of September: Sunday 6 September 2026
    /// begins at 01:00 (-03:00).
    static let santiagoSkippedMidnight = Case(
        name: "santiago-skipped-midnight", zone: "America/Santiago", now: "2026-09-05T12:00:00-04:00",
        dueOnTransitionDay: "2026-09-06T01:05:00-03:00", overdue: "2026-09-04T18:00:00-04:00",
        completed: "2026-09-05T09:30:00-04:00", today: "2026-09-05")
    /// Cuba ends DST at 01:00 on the first Sunday of November: on 1 November 2026 the clock goes
    /// from 00:59:59 -04:00 back to 00:00 -05:00, so midnight happens twice.
    static let havanaRepeatedMidnight = Case(
        name: "havana-repeated-midnight", zone: "America/Havana", now: "2026-10-31T12:00:00-04:00",
        dueOnTransitionDay: "2026-11-01T00:40:00-05:00", overdue: "2026-10-30T18:00:00-04:00",
        completed: "2026-10-31T09:30:00-04:00", today: "2026-10-31")

    static let cases = [berlinSpringForward, berlinFallBack, santiagoSkippedMidnight, havanaRepeatedMidnight]

    // MARK: Goldens

    @Test(arguments: cases)
    func matchesGolden(_ golden: Case) throws {
        let timeline = try golden.timeline()
        let document = TimelineJSON.document(timeline)
        try Self.compare(document, toGolden: golden.name)
        // The document is the timeline: one JSON entry per entry, dates in the zone's local offset.
        let json = try #require(try JSONSerialization.jsonObject(with: Data(document.utf8)) as? [String: Any])
        let entries = try #require(json["entries"] as? [[String: Any]])
        #expect(json["schema"] as? String == "taskwidget.timeline/1")
        #expect(json["timeZone"] as? String == golden.zone)
        #expect(entries.count == timeline.entries.count)
        let zone = Fixed.zone(golden.zone)
        for (object, entry) in zip(entries, timeline.entries) {
            #expect(object["date"] as? String == TL.local(entry.date.secondsSince1970, zone))
            #expect((object["epoch"] as? NSNumber)?.int64Value == entry.date.secondsSince1970)
            #expect(object["dayStart"] as? String == TL.local(entry.dayStart.secondsSince1970, zone))
            #expect(object["dayEnd"] as? String == TL.local(entry.dayEnd.secondsSince1970, zone))
            #expect(object["nextChange"] as? String == TL.local(entry.nextChange.secondsSince1970, zone))
            #expect(object["reasons"] as? [String] == entry.reasons.names)
        }
    }

    // MARK: Facts

    @Test func transitionIsWhereWeSayItIs() throws {
        func transition(_ zone: String, after: String) -> String? {
            let zone = Fixed.zone(zone)
            return zone.nextDaylightSavingTimeTransition(after: Fixed.date(after)).map {
                TL.local(Int64($0.timeIntervalSince1970), zone)
            }
        }
        #expect(transition("Europe/Berlin", after: Self.berlinSpringForward.now) == "2026-03-29T03:00:00+02:00")
        #expect(transition("Europe/Berlin", after: Self.berlinFallBack.now) == "2026-10-25T02:00:00+01:00")
        #expect(transition("America/Santiago", after: Self.santiagoSkippedMidnight.now) == "2026-09-06T01:00:00-03:00")
        #expect(transition("America/Havana", after: Self.havanaRepeatedMidnight.now) == "2026-11-01T00:00:00-05:00")
    }

    @Test func berlinSpringForwardSkipsTwoToThreeAndHasA23HourDay() throws {
        let zone = Fixed.zone("Europe/Berlin")
        let timeline = try Self.berlinSpringForward.timeline()
        let dates = timeline.entries.map { TL.local($0.date.secondsSince1970, zone) }
        #expect(timeline.entries.count == 97 + 1)
        let index = try #require(dates.firstIndex(of: "2026-03-29T01:45:00+01:00"))
        #expect(dates[index + 1] == "2026-03-29T03:00:00+02:00")
        #expect(!dates.contains { $0.hasPrefix("2026-03-29T02:") })
        let sunday = timeline.entries[index + 1]
        #expect(TL.local(sunday.dayStart.secondsSince1970, zone) == "2026-03-29T00:00:00+01:00")
        #expect(TL.local(sunday.dayEnd.secondsSince1970, zone) == "2026-03-30T00:00:00+02:00")
        #expect(sunday.dayEnd.secondsSince1970 - sunday.dayStart.secondsSince1970 == 23 * 3600)
        let midnight = try TL.entry(timeline, at: sunday.dayStart.secondsSince1970)
        #expect(midnight.reasons == [.cadence, .midnight])
        let crossing = try TL.entry(timeline, at: TL.seconds("2026-03-29T03:20:00+02:00"))
        #expect(crossing.reasons == [.due] && crossing.counts.overdue == 2)
        // 24 h after 12:00 +01:00 is 13:00 +02:00, a quarter hour: the last entry.
        #expect(TL.local(timeline.validUntil.secondsSince1970, zone) == "2026-03-29T13:00:00+02:00")
        #expect(dates.last == "2026-03-29T13:00:00+02:00")
    }

    @Test func berlinFallBackRepeatsTwoToThreeAndHasA25HourDay() throws {
        let zone = Fixed.zone("Europe/Berlin")
        let timeline = try Self.berlinFallBack.timeline()
        let dates = timeline.entries.map { TL.local($0.date.secondsSince1970, zone) }
        #expect(timeline.entries.count == 97 + 1)
        let repeated = ["02:00", "02:15", "02:30", "02:45"]
        let summer = repeated.map { "2026-10-25T\($0):00+02:00" }
        let winter = repeated.map { "2026-10-25T\($0):00+01:00" }
        let start = try #require(dates.firstIndex(of: summer[0]))
        // 02:00–02:45 in summer time, then again in winter time, with the 02:10 crossing among them.
        #expect(Array(dates[start..<start + 9]) == summer + [winter[0], "2026-10-25T02:10:00+01:00"] + winter.dropFirst())
        let sunday = timeline.entries[start]
        #expect(TL.local(sunday.dayStart.secondsSince1970, zone) == "2026-10-25T00:00:00+02:00")
        #expect(TL.local(sunday.dayEnd.secondsSince1970, zone) == "2026-10-26T00:00:00+01:00")
        #expect(sunday.dayEnd.secondsSince1970 - sunday.dayStart.secondsSince1970 == 25 * 3600)
        #expect(timeline.entries[start..<start + 9].allSatisfy { $0.dayStart.secondsSince1970 == sunday.dayStart.secondsSince1970 && !$0.reasons.contains(.midnight) })
        // The task is due at the second 02:10: not at the first one.
        #expect(!dates.contains("2026-10-25T02:10:00+02:00"))
        #expect(timeline.entries[start + 4].counts.overdue == 1 && timeline.entries[start + 5].counts.overdue == 2)
        #expect(TL.local(timeline.validUntil.secondsSince1970, zone) == "2026-10-25T11:00:00+01:00")
    }

    @Test func santiagoDayStartsAtOneWhenMidnightIsSkipped() throws {
        let zone = Fixed.zone("America/Santiago")
        let timeline = try Self.santiagoSkippedMidnight.timeline()
        let dates = timeline.entries.map { TL.local($0.date.secondsSince1970, zone) }
        let index = try #require(dates.firstIndex(of: "2026-09-06T01:00:00-03:00"))
        #expect(dates[index - 1] == "2026-09-05T23:45:00-04:00")
        #expect(!dates.contains { $0.hasPrefix("2026-09-06T00:") })
        let sunday = timeline.entries[index]
        #expect(sunday.reasons == [.cadence, .midnight])
        #expect(sunday.dayStart.secondsSince1970 == sunday.date.secondsSince1970)
        #expect(TL.local(sunday.dayEnd.secondsSince1970, zone) == "2026-09-07T00:00:00-03:00")
        #expect(sunday.dayEnd.secondsSince1970 - sunday.dayStart.secondsSince1970 == 23 * 3600)
        // Saturday ends where Sunday starts, 24 h after its own 00:00 -04:00.
        let saturday = timeline.entries[index - 1]
        #expect(TL.local(saturday.dayStart.secondsSince1970, zone) == "2026-09-05T00:00:00-04:00" && saturday.dayEnd.secondsSince1970 == sunday.date.secondsSince1970)
        #expect(saturday.dayEnd.secondsSince1970 - saturday.dayStart.secondsSince1970 == 24 * 3600)
        // No entry claims a midnight but this one.
        #expect(timeline.entries.filter { $0.reasons.contains(.midnight) }.map(\.date.secondsSince1970) == [sunday.date.secondsSince1970])
        // Habits and completions switch to the new day at 01:00.
        #expect(saturday.habits.done == 1 && sunday.habits.done == 0)
        #expect(saturday.counts.completedToday == 1 && sunday.counts.completedToday == 0)
        let crossing = try TL.entry(timeline, at: TL.seconds("2026-09-06T01:05:00-03:00"))
        #expect(crossing.reasons == [.due])
    }

    @Test func havanaMidnightHappensTwiceButTheDayStartsOnce() throws {
        let zone = Fixed.zone("America/Havana")
        let timeline = try Self.havanaRepeatedMidnight.timeline()
        let dates = timeline.entries.map { TL.local($0.date.secondsSince1970, zone) }
        let first = try #require(dates.firstIndex(of: "2026-11-01T00:00:00-04:00"))
        let second = try #require(dates.firstIndex(of: "2026-11-01T00:00:00-05:00"))
        #expect(second == first + 4)  // 00:00, 00:15, 00:30, 00:45 (-04:00), then 00:00 (-05:00)
        #expect(timeline.entries[second].date.secondsSince1970 - timeline.entries[first].date.secondsSince1970 == 3600)
        #expect(timeline.entries[first].reasons == [.cadence, .midnight])
        #expect(timeline.entries[second].reasons == [.cadence])
        let sunday = timeline.entries[first]
        #expect(timeline.entries[first...].allSatisfy { $0.dayStart.secondsSince1970 == sunday.date.secondsSince1970 })
        #expect(TL.local(sunday.dayEnd.secondsSince1970, zone) == "2026-11-02T00:00:00-05:00")
        #expect(sunday.dayEnd.secondsSince1970 - sunday.dayStart.secondsSince1970 == 25 * 3600)
        #expect(timeline.entries.filter { $0.reasons.contains(.midnight) }.count == 1)
        // The crossing in the repeated hour.
        let crossing = try TL.entry(timeline, at: TL.seconds("2026-11-01T00:40:00-05:00"))
        #expect(crossing.reasons == [.due])
        #expect(!dates.contains("2026-11-01T00:40:00-04:00"))
        // Entries during the repeated hour still belong to Sunday: Saturday's completion is gone.
        #expect(timeline.entries[second].counts.completedToday == 0 && timeline.entries[first - 1].counts.completedToday == 1)
    }

    // MARK: Golden files

    static let goldenFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Goldens")

    static func compare(_ actual: String, toGolden name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        try GoldenFile.compare(
            actual, to: goldenFolder.appendingPathComponent(name + ".json"), suite: "TimelineGoldenTests", sourceLocation: sourceLocation)
    }
}
