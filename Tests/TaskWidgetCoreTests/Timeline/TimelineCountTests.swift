import Foundation
import PropertyBased
import Testing

@testable import TaskWidgetCore
@testable import TaskWidgetTestSupport

/// SPEC §5, entry dates: an empty store gives the anchor plus 96 quarter hours on every day of
/// 2020–2035 in every zone, DST days included, with local midnights among them.
@Suite struct TimelineCountTests {
    /// `now` with milliseconds, 2020-01-01 through 2035-12-31.
    static let nowMilliseconds = Gen.int64(in: (TL.firstSecond * 1000)...(TL.lastSecond * 1000 + 999))

    /// (No shrinking: a "smaller" now is another day, and each run costs milliseconds.)
    @Test(.shrinking(false), arguments: TL.zoneIdentifiers)
    func emptyStoreGivesAnchorAndGridAtRandomInstants(zoneIdentifier: String) async throws {
        let zone = Fixed.zone(zoneIdentifier)
        await propertyCheck(count: 3000, input: Self.nowMilliseconds) { milliseconds in
            try Self.checkEmptyTimeline(nowMilliseconds: milliseconds, zone: zone)
        }
    }

    /// Around each DST transition of 2020–2035: the day before, the hours before, the transition
    /// itself, the seconds around it, and the local noon of the transition day.
    @Test(arguments: TL.zoneIdentifiers)
    func emptyStoreGivesAnchorAndGridAroundEveryTransition(zoneIdentifier: String) throws {
        let zone = Fixed.zone(zoneIdentifier)
        let transitions = TL.transitions(of: zone, from: TL.firstSecond, to: TL.lastSecond)
        switch zoneIdentifier {
        case "UTC", "Asia/Kathmandu": #expect(transitions.isEmpty)
        // Cairo has had DST again since 2023; the others every year.
        case "Africa/Cairo": #expect(transitions.count >= 2 * 13)
        default: #expect(transitions.count >= 2 * 16)
        }
        let calendar = TL.calendar(zone)
        for transition in transitions {
            let noon = calendar.date(bySettingHour: 12, minute: 0, second: 0, of: TL.date(transition))!
            let instants = [-86_401, -86_400, -43_200, -3601, -3600, -900, -1, 0, 1, 899, 900, 3600, 43_200].map {
                transition + Int64($0)
            } + [Int64(noon.timeIntervalSince1970)]
            for now in instants {
                try Self.checkEmptyTimeline(nowMilliseconds: now * 1000, zone: zone)
                try Self.checkEmptyTimeline(nowMilliseconds: now * 1000 + 999, zone: zone)
            }
        }
    }

    /// The spring-forward day in Berlin, written out: 00:00 (midnight), 01:45 +01:00, then 03:00 +02:00.
    @Test func berlinSpringForwardNightInDetail() throws {
        let zone = Fixed.zone("Europe/Berlin")
        let timeline = try TL.timeline(StoreExport(), now: TL.seconds("2026-03-28T12:00:00+01:00"), zone: zone)
        #expect(timeline.entries.count == 97)
        let local = timeline.entries.map { TL.local($0.date.secondsSince1970, zone) }
        let midnight = try #require(local.firstIndex(of: "2026-03-29T00:00:00+01:00"))
        #expect(timeline.entries[midnight].reasons == [.cadence, .midnight])
        let before = try #require(local.firstIndex(of: "2026-03-29T01:45:00+01:00"))
        #expect(local[before + 1] == "2026-03-29T03:00:00+02:00")
        #expect(timeline.entries[before + 1].date.secondsSince1970 - timeline.entries[before].date.secondsSince1970 == 900)
        #expect(!local.contains { $0.hasPrefix("2026-03-29T02:") })
    }

    /// Checks every SPEC §5 fact about the empty timeline at `nowMilliseconds`; collects the broken
    /// ones into one issue (one `#expect` per fact and entry would dominate the run time).
    static func checkEmptyTimeline(
        nowMilliseconds: Int64, zone: TimeZone, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let n = InstantFormat.floorDivision(nowMilliseconds, 1000).quotient
        let timeline = try TL.timeline(StoreExport(), now: TL.instant(milliseconds: nowMilliseconds), zone: zone)
        let entries = timeline.entries
        var problems: [String] = []
        func check(_ condition: Bool, _ message: @autoclosure () -> String) {
            if !condition { problems.append(message()) }
        }

        check(entries.count == 97, "\(entries.count) entries")
        check(timeline.generatedAt.secondsSince1970 == n, "generatedAt \(timeline.generatedAt.secondsSince1970)")
        check(timeline.reloadAfter.secondsSince1970 == n + 900, "reloadAfter \(timeline.reloadAfter.secondsSince1970)")
        check(timeline.validUntil.secondsSince1970 == n + 86_400, "validUntil \(timeline.validUntil.secondsSince1970)")
        check(!timeline.truncated, "truncated")
        if let first = entries.first, let last = entries.last {
            check(first.date.secondsSince1970 == n, "first entry at \(first.date.secondsSince1970), not floor(now)")
            check(first.reasons.contains(.now), "first entry's reasons \(first.reasons.names)")
            // The last quarter hour at or before n + 24 h, and the quarter hour after it.
            check(last.date.secondsSince1970 <= n + 86_400 && last.date.secondsSince1970 > n + 86_400 - 900, "last entry at \(TL.local(last.date.secondsSince1970, zone))")
            check(last.nextChange.secondsSince1970 == last.date.secondsSince1970 + 900, "last nextChange \(TL.local(last.nextChange.secondsSince1970, zone))")
        }

        let calendar = TL.calendar(zone)
        let oracle = Oracle(StoreExport(), zone: zone)
        let dates = Set(entries.map(\.date.secondsSince1970))
        var dayEnds: [Int64: Int64] = [:]
        for (index, entry) in entries.enumerated() {
            let at = { "entry \(index) at \(TL.local(entry.date.secondsSince1970, zone))" }
            check(entry.date.secondsSince1970 >= n && entry.date.secondsSince1970 <= n + 86_400, "\(at()) is outside [n, n + 86400]")
            if index > 0 {
                check(entry.date.secondsSince1970 > entries[index - 1].date.secondsSince1970, "\(at()) does not follow the previous one")
                check(entry.date.secondsSince1970 % 900 == 0, "\(at()) is not a multiple of 900")
                check(entry.reasons.contains(.cadence) && !entry.reasons.contains(.now), "\(at()): reasons \(entry.reasons.names)")
            }
            check(!entry.reasons.contains(.due), "\(at()) has reason due")
            if index + 1 < entries.count {
                check(entry.nextChange.secondsSince1970 == entries[index + 1].date.secondsSince1970, "\(at()): nextChange \(TL.local(entry.nextChange.secondsSince1970, zone))")
            }
            check(entry.relevance == Relevance(score: 0, duration: entry.nextChange.secondsSince1970 - entry.date.secondsSince1970), "\(at()): \(entry.relevance)")
            check(entry.counts == TaskCounts(open: 0, overdue: 0, dueToday: 0, dueSoon: 0, completedToday: 0, inbox: 0), "\(at()): \(entry.counts)")
            check(entry.top.isEmpty && entry.habits.total == 0, "\(at()) shows tasks or habits")

            // Midnight: exactly the entries at the start of their local day; every day start
            // inside the timeline is an entry.
            let startOfDay = Int64(calendar.startOfDay(for: TL.date(entry.date.secondsSince1970)).timeIntervalSince1970)
            check(entry.reasons.contains(.midnight) == (entry.date.secondsSince1970 == startOfDay), "\(at()): reasons \(entry.reasons.names)")
            check(startOfDay <= n || dates.contains(startOfDay), "\(at()): its day starts at \(TL.local(startOfDay, zone)), not an entry")
            check(entry.dayStart.secondsSince1970 == startOfDay, "\(at()): dayStart \(TL.local(entry.dayStart.secondsSince1970, zone))")
            // The day's end, once per day (bisection is slow): the first second of the next date.
            if dayEnds[entry.dayStart.secondsSince1970] == nil {
                dayEnds[entry.dayStart.secondsSince1970] = oracle.dayEnd(entry.date.secondsSince1970)
                check(oracle.dayStart(entry.date.secondsSince1970) == startOfDay, "\(at()): Foundation's startOfDay disagrees with bisection")
            }
            check(entry.dayEnd.secondsSince1970 == dayEnds[entry.dayStart.secondsSince1970], "\(at()): dayEnd \(TL.local(entry.dayEnd.secondsSince1970, zone))")
        }
        #expect(
            problems.count == 0,
            "now \(TL.local(n, zone)) (\(nowMilliseconds) ms) in \(zone.identifier):\n\(problems.prefix(10).joined(separator: "\n"))",
            sourceLocation: sourceLocation)
    }
}
