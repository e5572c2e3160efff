import Foundation
import PropertyBased
import Testing

@testable import TaskWidgetCore
@testable import TaskWidgetTestSupport

/// The rules written once (issue: overdue, task order, the local day, ISO 8601, XDG paths,
/// truncation), each pinned here by examples; the store's SQL forms of the overdue rule and the
/// orders are checked against these in TaskWidgetStoreTests' `StoreRuleTests`.
@Suite struct RuleTests {
    // MARK: Overdue

    @Test func overdueMeansDueAtOrBeforeTheInstant() {
        let due = Fixed.instant("2026-11-23T17:00:00Z")
        #expect(OverdueRule.isOverdue(dueDate: due, at: due))
        #expect(OverdueRule.isOverdue(dueDate: due, at: due.adding(seconds: 1)))
        #expect(!OverdueRule.isOverdue(dueDate: due, at: Instant(millisecondsSince1970: due.millisecondsSince1970 - 1)))
    }

    @Test func overdueCountsAndOnsetsFollowTheRule() {
        let base = Fixed.instant("2026-11-23T17:00:00Z")
        let dues = [0, 250, 1000, 1001, 60_000].map { Instant(millisecondsSince1970: base.millisecondsSince1970 + Int64($0)) }
        for probe in [-1, 0, 249, 250, 999, 1000, 1001, 59_999, 60_000, 99_999] {
            let instant = Instant(millisecondsSince1970: base.millisecondsSince1970 + Int64(probe))
            #expect(OverdueRule.count(in: dues, at: instant) == dues.filter { OverdueRule.isOverdue(dueDate: $0, at: instant) }.count)
        }
        // A task due with milliseconds turns overdue on the next whole second, one on a second on it.
        #expect(OverdueRule.onset(of: dues[1]) == base.adding(seconds: 1))
        #expect(OverdueRule.onset(of: dues[2]) == base.adding(seconds: 1))
        #expect(OverdueRule.onset(of: dues[3]) == base.adding(seconds: 2))
        #expect(!OverdueRule.isOverdue(dueDate: dues[1], at: base) && OverdueRule.isOverdue(dueDate: dues[1], at: OverdueRule.onset(of: dues[1])))
    }

    // MARK: Orders

    @Test func tasksOrderBySortOrderThenCreationThenID() {
        #expect(TaskItem.orderFields == ["sortOrder", "createdAt", "id"])
        let early = Fixed.instant("2026-11-01T00:00:00Z")
        let a = TaskItem(id: Fixed.uuid("00000000-0000-4000-8000-00000000000A"), title: "a", sortOrder: 0, createdAt: early)
        let b = TaskItem(id: Fixed.uuid("00000000-0000-4000-8000-00000000000B"), title: "b", sortOrder: 0, createdAt: early)
        let later = TaskItem(id: Fixed.uuid("00000000-0000-4000-8000-000000000001"), title: "c", sortOrder: 0, createdAt: early.adding(seconds: 1))
        let first = TaskItem(id: Fixed.uuid("FFFFFFFF-0000-4000-8000-000000000001"), title: "d", sortOrder: -1, createdAt: early.adding(seconds: 9))
        #expect([later, b, first, a].sorted(by: TaskItem.precedes).map(\.title) == ["d", "a", "b", "c"])
    }

    /// The orders compare ids as `UUID`s, which order as their text does (`uuidString`, and the
    /// store's lowercase text) without making it; the short id is that text's start, made from the
    /// bytes too. Four digits make long shared prefixes and leading zeros common.
    @Test func idsOrderAsTheirTextDoesAndShortIDsStartIt() async {
        let ids = Gen<Character?>.element(of: Array("09af")).array(of: 32).map { digits -> UUID in
            var text = String(digits.map { $0! })
            for offset in [8, 13, 18, 23] { text.insert("-", at: text.index(text.startIndex, offsetBy: offset)) }
            return UUID(uuidString: text)!
        }
        await SeededProperty.check(count: 3000, seed: 0x1D_02DE, input: zip(ids, ids)) { left, right in
            #expect((left < right) == (left.uuidString < right.uuidString), "\(left) \(right)")
            #expect((left < right) == (left.uuidString.lowercased() < right.uuidString.lowercased()), "\(left) \(right)")
            #expect(left.shortID == String(left.uuidString.lowercased().prefix(8)), "\(left)")
        }
    }

    /// The shortest prefix no other id starts with, 8 digits at least.
    @Test(arguments: [
        ("abcd1234-5678-4000-8000-000000000001", ["ffff0000-0000-4000-8000-000000000000"], "abcd1234"),
        ("abcd1234-5678-4000-8000-000000000001", ["abcd1239-0000-4000-8000-000000000000"], "abcd1234"),
        ("abcd1234-5678-4000-8000-000000000001", ["abcd1234-9000-4000-8000-000000000000"], "abcd1234-5"),
        ("abcd1234-5678-4000-8000-000000000001", ["abcd1234-5679-4000-8000-000000000000"], "abcd1234-5678"),
        ("abcd1234-5678-4000-8000-000000000001", ["abcd1234-5678-9000-8000-000000000000"], "abcd1234-5678-4"),
        ("abcd1234-5678-4000-8000-000000000001", ["abcd1234-5678-4000-8000-000000000002", "abcd1234-9000-4000-8000-000000000000"],
         "abcd1234-5678-4000-8000-000000000001"),
    ])
    func aDistinguishingPrefixTellsAnIdFromTheOthers(id: String, others: [String], expected: String) throws {
        let id = try #require(UUID(uuidString: id))
        #expect(UUID.distinguishingPrefixes(of: others.compactMap(UUID.init(uuidString:)) + [id])[id] == expected)
    }

    /// Sorted neighbours give what comparing every pair gives, on ids that share long prefixes.
    @Test func distinguishingPrefixesAgreeWithComparingEveryPair() throws {
        var random = SplitMix64(seed: 133)
        let ids = (0..<300).map { _ in
            // Eight shared digits, then a few values in a few places: long shared runs.
            UUID(storedText: String(format: "00000000-0000-4%03x-8000-%012x", Int(random.next() % 4), Int(random.next() % 64)))!
        }
        let prefixes = UUID.distinguishingPrefixes(of: ids)
        for id in Set(ids) {
            let text = id.lowercasedString
            let longest = Set(ids).filter { $0 != id }.map { zip(text, $0.lowercasedString).prefix { $0 == $1 }.count }.max() ?? 0
            #expect(prefixes[id] == String(text.prefix(max(8, min(longest + 1, text.count)))), "\(id)")
        }
    }

    /// Each id is shown by its 8 digits, or longer where another of the ids shares them.
    @Test func shownIDsAreShortUnlessTwoShareTheirFirstEightDigits() throws {
        let ids = try ["abcd1234-5678-4000-8000-000000000001", "abcd1234-9000-4000-8000-000000000000", "ffff0000-0000-4000-8000-000000000000"]
            .map { try #require(UUID(uuidString: $0)) }
        let shown = UUID.shownIDs(of: ids + [ids[0]])
        #expect(shown == [ids[0]: "abcd1234-5", ids[1]: "abcd1234-9", ids[2]: "ffff0000"])
    }

    @Test func listsAndHabitsOrderByTheirFields() {
        #expect(TaskList.orderFields == ["sortOrder", "createdAt", "id"])
        #expect(Habit.orderFields == ["createdAt", "id"])
        let t = Fixed.instant("2026-11-01T00:00:00Z")
        let lists = [
            TaskList(id: Fixed.uuid("00000000-0000-4000-8000-000000000002"), name: "b", createdAt: t, sortOrder: 1),
            TaskList(id: Fixed.uuid("00000000-0000-4000-8000-000000000001"), name: "a", createdAt: t, sortOrder: 1),
            TaskList(name: "first", createdAt: t.adding(seconds: 5), sortOrder: 0),
        ]
        #expect(lists.sorted(by: TaskList.precedes).map(\.name) == ["first", "a", "b"])
        let habits = [
            Habit(id: Fixed.uuid("00000000-0000-4000-8000-000000000002"), name: "b", icon: "•", colorHex: "007AFF", createdAt: t),
            Habit(id: Fixed.uuid("00000000-0000-4000-8000-000000000001"), name: "a", icon: "•", colorHex: "007AFF", createdAt: t),
            Habit(name: "later", icon: "•", colorHex: "007AFF", createdAt: t.adding(seconds: 1)),
        ]
        #expect(habits.sorted(by: Habit.precedes).map(\.name) == ["a", "b", "later"])
    }

    // MARK: The local day

    /// Days of 24, 23 and 25 hours, a day that starts at 01:00 (Santiago skips midnight) and one
    /// whose midnight happens twice (Havana), and day counts across them.
    @Test(arguments: [
        ("Europe/Berlin", "2026-11-22T16:27:00+01:00", "2026-11-22", "2026-11-22T00:00:00+01:00", 24),
        ("Europe/Berlin", "2026-03-29T12:00:00+02:00", "2026-03-29", "2026-03-29T00:00:00+01:00", 23),
        ("Europe/Berlin", "2026-10-25T12:00:00+01:00", "2026-10-25", "2026-10-25T00:00:00+02:00", 25),
        ("America/Santiago", "2026-09-06T12:00:00-03:00", "2026-09-06", "2026-09-06T01:00:00-03:00", 23),
        ("America/Havana", "2026-11-01T12:00:00-05:00", "2026-11-01", "2026-11-01T00:00:00-04:00", 25),
    ])
    func theLocalDayOfAnInstant(zone: String, instant: String, day: String, start: String, hours: Int64) {
        let calendar = LocalCalendar(timeZone: Fixed.zone(zone))
        let found = calendar.day(containing: Fixed.instant(instant))
        #expect(found.localDay == Fixed.day(day))
        #expect(found.start == Fixed.instant(start))
        #expect(found.end.seconds(since: found.start) == hours * 3600)
        #expect(calendar.day(containing: found.start) == found)
        #expect(calendar.day(containing: Instant(millisecondsSince1970: found.end.millisecondsSince1970 - 1)) == found)
        #expect(calendar.localDay(containing: found.end) == found.localDay.adding(days: 1))
    }

    /// A day alone is kept at its last 23:59: the second one where the clocks go back at midnight
    /// (Santiago on 2026-04-04, 24:00 → 23:00), so that a task due that day is not overdue in its
    /// last hour (it was, from the first 23:59 on: helper-105).
    @Test(arguments: [
        ("Europe/Berlin", "2026-10-25", "2026-10-25T23:59:00+01:00"),
        ("America/Santiago", "2026-04-04", "2026-04-04T23:59:00-04:00"),
        ("America/Santiago", "2026-09-05", "2026-09-05T23:59:00-04:00"),
        ("America/Havana", "2026-10-31", "2026-10-31T23:59:00-04:00"),
        ("Pacific/Kiritimati", "2026-11-23", "2026-11-23T23:59:00+14:00"),
    ])
    func aDayAloneIsItsLast2359(zone: String, day: String, expected: String) throws {
        let calendar = LocalCalendar(timeZone: Fixed.zone(zone))
        let dayAlone = try #require(calendar.dayAlone(Fixed.day(day)))
        #expect(dayAlone == Fixed.instant(expected))
        #expect(calendar.day(containing: dayAlone).end.seconds(since: dayAlone) == 60)
        let parsed = try WhenParser(now: Fixed.instant(expected), calendar: calendar).parse(day, for: .due)
        #expect(parsed == dayAlone)
    }

    @Test func dayCountsAndWeekdaysAreCalendarArithmetic() {
        #expect(Fixed.day("2026-11-23").ordinal - Fixed.day("2026-03-29").ordinal == 239)
        #expect(Fixed.day("2028-03-01").adding(days: -1) == Fixed.day("2028-02-29"))
        #expect(Fixed.day("1970-01-01").weekday == 5 && Fixed.day("2026-11-22").weekday == 1)
        #expect(DueLabeler.dayText(of: Fixed.day("2026-11-23")) == "Mon 23 Nov")
    }

    // MARK: ISO 8601

    @Test func oneScannerReadsTheISOPiecesOfEveryParser() throws {
        #expect(InstantFormat.parse("2026-11-23T08:00:00.250Z") == Instant(millisecondsSince1970: 1_795_420_800_250))
        #expect(InstantFormat.parse("2026-11-23t09:00+01:00") == Instant(secondsSince1970: 1_795_420_800))
        #expect(InstantFormat.parse("2026-11-23T08:00") == nil, "an instant needs an offset")
        #expect(LocalDay("2026-02-29") == nil && LocalDay("2028-02-29") != nil)
        let calendar = LocalCalendar(timeZone: Fixed.zone("UTC"))
        #expect(try WhenParser.parseInstant("2026-11-23T08:00:00,5Z", calendar: calendar) == Instant(millisecondsSince1970: 1_795_420_800_500))
        #expect(try WhenParser(now: Fixed.instant("2026-11-22T00:00:00Z"), calendar: calendar).parse("2026-11-23T8:00", for: .due)
            == Instant(secondsSince1970: 1_795_420_800))
    }

    // MARK: XDG paths

    @Test func xdgFoldersComeFromTheirVariablesElseFromHome() {
        let paths = XDGPaths(environment: [
            "HOME": "/home/u", "XDG_DATA_HOME": "/data", "XDG_CONFIG_HOME": "relative", "XDG_STATE_HOME": "",
            "XDG_RUNTIME_DIR": "/run/user/1000",
        ])
        #expect(paths.dataHome == "/data")
        #expect(paths.configHome == "/home/u/.config")
        #expect(paths.stateHome == "/home/u/.local/state")
        #expect(paths.cacheHome == "/home/u/.cache")
        #expect(paths.runtimeDirectory == "/run/user/1000")
        #expect(XDGPaths(environment: ["HOME": "relative", "XDG_RUNTIME_DIR": "run"]) == XDGPaths(environment: [:]))
        #expect(XDGPaths(environment: [:]).dataHome == nil)
    }

    // MARK: Truncation

    @Test func oneTruncationCountsCharactersColumnsOrBytes() {
        #expect("Buy milk and eggs".truncated(to: 8) == "Buy mil…")
        #expect("Buy milk".truncated(to: 8) == "Buy milk")
        #expect("Buy milk".truncated(to: 4, ellipsis: false) == "Buy ")
        // No space before the ellipsis: `with a…`, not `with a …` (helper-78).
        #expect("Buy milk and eggs".truncated(to: 10) == "Buy milk…")
        #expect("Buy  \u{3000}milk".truncated(to: 6) == "Buy…")
        // Wide characters take two columns.
        #expect("田中さんへの贈り物".truncated(to: 7, in: .terminalColumns) == "田中さ…")
        #expect("田中さん".truncated(to: 8, in: .terminalColumns) == "田中さん")
        // One character with 100 000 marks: cut to the byte budget, without its last marks.
        let zalgo = "x" + String(repeating: "\u{301}", count: 100_000)
        #expect(zalgo.truncated(to: 40).count == 1, "characters alone keep it")
        let cut = zalgo.truncated(to: 40, maxBytesPerUnit: 4)
        #expect(cut.utf8.count <= 40 * 4 && cut.unicodeScalars.first == "x" && cut.hasSuffix("…"))
    }

    /// Whether a text is wider than a limit agrees with its whole width, for ASCII, wide and
    /// combined characters, at and around the limit (it stops counting past it, helper-152).
    @Test func aWidthPastALimitAgreesWithTheWholeWidth() {
        for text in ["Buy milk", "田中さん", "e\u{301}e\u{301}x", "🔔 ring", "", String(repeating: "é", count: 1000)] {
            for limit in [0, 1, 3, 4, 7, 8, 9, 1000, 2000] {
                #expect(text.terminalWidth(exceeds: limit) == (text.terminalWidth > limit), "\(text.prefix(8)) \(limit)")
            }
        }
    }
}
