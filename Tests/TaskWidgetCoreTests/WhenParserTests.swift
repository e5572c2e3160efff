import Foundation
import PropertyBased
import Testing

@testable import TaskWidgetCore
@testable import TaskWidgetTestSupport

@Suite struct WhenParserTests {
    /// Sunday 2026-11-22, 16:27:00 in Berlin (+01:00); the fraction is floored away.
    let sunday = WhenParser(now: instant("2026-11-22T16:27:00.750+01:00"), calendar: LocalCalendar(timeZone: zone("Europe/Berlin")))

    // MARK: Examples

    @Test(arguments: [
        // ISO 8601
        ("2026-11-23", "2026-11-23T23:59:00+01:00"),
        ("2028-02-29", "2028-02-29T23:59:00+01:00"),
        ("2026-11-23T17:00", "2026-11-23T17:00:00+01:00"),
        ("2026-11-23t17:00", "2026-11-23T17:00:00+01:00"),
        ("2026-11-23 17:00", "2026-11-23T17:00:00+01:00"),
        ("2026-11-23T17:00:30", "2026-11-23T17:00:30+01:00"),
        ("2026-11-23T17:00:30.999", "2026-11-23T17:00:30+01:00"),
        ("2026-11-23T17:00Z", "2026-11-23T17:00:00Z"),
        ("2026-11-23 17:00:30z", "2026-11-23T17:00:30Z"),
        ("2026-11-23T17:00+05:45", "2026-11-23T17:00:00+05:45"),
        ("2026-11-23T17:00-0300", "2026-11-23T17:00:00-03:00"),
        ("2026-07-01T12:00", "2026-07-01T12:00:00+02:00"),
        // Days
        ("today", "2026-11-22T23:59:00+01:00"),
        ("tomorrow", "2026-11-23T23:59:00+01:00"),
        ("tonight", "2026-11-22T20:00:00+01:00"),
        ("yesterday", "2026-11-21T23:59:00+01:00"),
        ("mon", "2026-11-23T23:59:00+01:00"),
        ("Thurs", "2026-11-26T23:59:00+01:00"),
        ("fri", "2026-11-27T23:59:00+01:00"),
        ("friday", "2026-11-27T23:59:00+01:00"),
        ("sat", "2026-11-28T23:59:00+01:00"),
        ("sun", "2026-11-29T23:59:00+01:00"),
        ("sunday", "2026-11-29T23:59:00+01:00"),
        // Times: the next occurrence
        ("17:00", "2026-11-22T17:00:00+01:00"),
        ("16:28", "2026-11-22T16:28:00+01:00"),
        ("16:27", "2026-11-23T16:27:00+01:00"),
        ("16:27:01", "2026-11-22T16:27:01+01:00"),
        ("9:05", "2026-11-23T09:05:00+01:00"),
        ("00:00", "2026-11-23T00:00:00+01:00"),
        ("5pm", "2026-11-22T17:00:00+01:00"),
        ("5:30PM", "2026-11-22T17:30:00+01:00"),
        ("11:59pm", "2026-11-22T23:59:00+01:00"),
        ("4pm", "2026-11-23T16:00:00+01:00"),
        ("9am", "2026-11-23T09:00:00+01:00"),
        ("12am", "2026-11-23T00:00:00+01:00"),
        ("12pm", "2026-11-23T12:00:00+01:00"),
        ("noon", "2026-11-23T12:00:00+01:00"),
        // Relative
        ("in 2h", "2026-11-22T18:27:00+01:00"),
        ("in 30m", "2026-11-22T16:57:00+01:00"),
        ("in 3d", "2026-11-25T16:27:00+01:00"),
        ("in 1w", "2026-11-29T16:27:00+01:00"),
        ("+2h", "2026-11-22T18:27:00+01:00"),
        ("+30m", "2026-11-22T16:57:00+01:00"),
        ("+3d", "2026-11-25T16:27:00+01:00"),
        ("in 0m", "2026-11-22T16:27:00+01:00"),
        ("in 90 min", "2026-11-22T17:57:00+01:00"),
        ("in 1 minute", "2026-11-22T16:28:00+01:00"),
        ("in 2 mins", "2026-11-22T16:29:00+01:00"),
        ("in 1 hr", "2026-11-22T17:27:00+01:00"),
        ("in 2 hours", "2026-11-22T18:27:00+01:00"),
        ("in 3 days", "2026-11-25T16:27:00+01:00"),
        ("in 2 weeks", "2026-12-06T16:27:00+01:00"),
        ("in 30h", "2026-11-23T22:27:00+01:00"),
        ("in 90 s", "2026-11-22T16:28:30+01:00"),
        // A day and a time
        ("tomorrow 5pm", "2026-11-23T17:00:00+01:00"),
        ("  TOMORROW \t  5PM  ", "2026-11-23T17:00:00+01:00"),
        ("tomorrow 5 pm", "2026-11-23T17:00:00+01:00"),
        ("tomorrow 5:30  PM", "2026-11-23T17:30:00+01:00"),
        ("2026-11-23 9 am", "2026-11-23T09:00:00+01:00"),
        ("fri 09:30", "2026-11-27T09:30:00+01:00"),
        ("2026-11-23 5pm", "2026-11-23T17:00:00+01:00"),
        ("today 9am", "2026-11-22T09:00:00+01:00"),
        ("today 17:00:15", "2026-11-22T17:00:15+01:00"),
        ("tomorrow noon", "2026-11-23T12:00:00+01:00"),
        ("yesterday 5pm", "2026-11-21T17:00:00+01:00"),
        ("sun 12am", "2026-11-29T00:00:00+01:00"),
    ])
    func dueDates(text: String, expected: String) throws {
        #expect(try sunday.parse(text, for: .due) == instant(expected))
    }

    @Test(arguments: [
        ("today", "2026-11-22T09:00:00+01:00"),
        ("tomorrow", "2026-11-23T09:00:00+01:00"),
        ("fri", "2026-11-27T09:00:00+01:00"),
        ("yesterday", "2026-11-21T09:00:00+01:00"),
        ("2026-11-23", "2026-11-23T09:00:00+01:00"),
        ("tomorrow 5pm", "2026-11-23T17:00:00+01:00"),
        ("tonight", "2026-11-22T20:00:00+01:00"),
        ("in 2h", "2026-11-22T18:27:00+01:00"),
        ("17:00", "2026-11-22T17:00:00+01:00"),
    ])
    func reminders(text: String, expected: String) throws {
        #expect(try sunday.parse(text, for: .reminder) == instant(expected))
    }

    /// The forms users type, at several moments in Berlin: a weekday never names today (`mon` on a
    /// Monday is a week later), `next fri` is `fri`, `midnight` ends a day, `eod` is 18:00.
    @Test(arguments: [
        // Monday 2026-11-23, 10:00
        ("2026-11-23T10:00:00+01:00", "mon", "2026-11-30T23:59:00+01:00"),
        ("2026-11-23T10:00:00+01:00", "Monday", "2026-11-30T23:59:00+01:00"),
        ("2026-11-23T10:00:00+01:00", "next mon", "2026-11-30T23:59:00+01:00"),
        ("2026-11-23T10:00:00+01:00", "next monday 9am", "2026-11-30T09:00:00+01:00"),
        ("2026-11-23T10:00:00+01:00", "tue", "2026-11-24T23:59:00+01:00"),
        ("2026-11-23T10:00:00+01:00", "next tue", "2026-11-24T23:59:00+01:00"),
        ("2026-11-23T10:00:00+01:00", "sun", "2026-11-29T23:59:00+01:00"),
        ("2026-11-23T10:00:00+01:00", "next fri", "2026-11-27T23:59:00+01:00"),
        ("2026-11-23T10:00:00+01:00", "NEXT  Fri 5pm", "2026-11-27T17:00:00+01:00"),
        ("2026-11-23T10:00:00+01:00", "next fri noon", "2026-11-27T12:00:00+01:00"),
        ("2026-11-23T10:00:00+01:00", "midnight", "2026-11-23T23:59:00+01:00"),
        ("2026-11-23T10:00:00+01:00", "today midnight", "2026-11-23T23:59:00+01:00"),
        ("2026-11-23T10:00:00+01:00", "fri midnight", "2026-11-27T23:59:00+01:00"),
        ("2026-11-23T10:00:00+01:00", "fri 12am", "2026-11-27T00:00:00+01:00"),
        ("2026-11-23T10:00:00+01:00", "2026-12-31 midnight", "2026-12-31T23:59:00+01:00"),
        ("2026-11-23T10:00:00+01:00", "noon", "2026-11-23T12:00:00+01:00"),
        ("2026-11-23T10:00:00+01:00", "eod", "2026-11-23T18:00:00+01:00"),
        ("2026-11-23T10:00:00+01:00", "tomorrow eod", "2026-11-24T18:00:00+01:00"),
        // A time before its day (helper-158).
        ("2026-11-23T10:00:00+01:00", "5pm tomorrow", "2026-11-24T17:00:00+01:00"),
        ("2026-11-23T10:00:00+01:00", "eod fri", "2026-11-27T18:00:00+01:00"),
        ("2026-11-23T10:00:00+01:00", "noon next fri", "2026-11-27T12:00:00+01:00"),
        ("2026-11-23T10:00:00+01:00", "midnight fri", "2026-11-27T23:59:00+01:00"),
        ("2026-11-23T10:00:00+01:00", "17:30 2026-12-31", "2026-12-31T17:30:00+01:00"),
        ("2026-11-23T10:00:00+01:00", "in 1w", "2026-11-30T10:00:00+01:00"),
        ("2026-11-23T10:00:00+01:00", "in 2d", "2026-11-25T10:00:00+01:00"),
        ("2026-11-23T10:00:00+01:00", "in 3h", "2026-11-23T13:00:00+01:00"),
        ("2026-11-23T10:00:00+01:00", "in 45m", "2026-11-23T10:45:00+01:00"),
        // Monday 2026-11-23, 19:30: noon and eod are past, so they are tomorrow's.
        ("2026-11-23T19:30:00+01:00", "noon", "2026-11-24T12:00:00+01:00"),
        ("2026-11-23T19:30:00+01:00", "eod", "2026-11-24T18:00:00+01:00"),
        ("2026-11-23T19:30:00+01:00", "midnight", "2026-11-23T23:59:00+01:00"),
        ("2026-11-23T19:30:00+01:00", "today eod", "2026-11-23T18:00:00+01:00"),
        ("2026-11-23T19:30:00+01:00", "tonight", "2026-11-23T20:00:00+01:00"),
        // Monday 2026-11-23, 20:00 and 21:15: tonight is what is left of the evening.
        ("2026-11-23T20:00:00+01:00", "tonight", "2026-11-23T23:59:00+01:00"),
        ("2026-11-23T21:15:00+01:00", "tonight", "2026-11-23T23:59:00+01:00"),
        // Monday 2026-11-23 at the stroke of midnight: `midnight` is the one that ends this day.
        ("2026-11-23T00:00:00+01:00", "midnight", "2026-11-23T23:59:00+01:00"),
        ("2026-11-23T00:00:00+01:00", "mon", "2026-11-30T23:59:00+01:00"),
        // Sunday 2026-03-29 springs forward from 02:00 to 03:00: 23 hours to midnight.
        ("2026-03-29T01:30:00+01:00", "midnight", "2026-03-29T23:59:00+02:00"),
        ("2026-03-29T01:30:00+01:00", "in 1w", "2026-04-05T01:30:00+02:00"),
        ("2026-03-29T01:30:00+01:00", "next sun", "2026-04-05T23:59:00+02:00"),
    ])
    func formsUsersType(now: String, text: String, expected: String) throws {
        let parser = WhenParser(now: instant(now), calendar: LocalCalendar(timeZone: zone("Europe/Berlin")))
        #expect(try parser.parse(text, for: .due) == instant(expected))
    }

    /// A reminder for a weekday alone is at 09:00 of the next one, as for every day alone.
    @Test func aWeekdayReminderOnThatWeekdayIsAWeekLater() throws {
        let monday = WhenParser(now: instant("2026-11-23T08:00:00+01:00"), calendar: LocalCalendar(timeZone: zone("Europe/Berlin")))
        #expect(try monday.parse("mon", for: .reminder) == instant("2026-11-30T09:00:00+01:00"))
        #expect(try monday.parse("next mon", for: .reminder) == instant("2026-11-30T09:00:00+01:00"))
        #expect(try monday.parse("midnight", for: .reminder) == instant("2026-11-24T00:00:00+01:00"))
        #expect(try monday.parse("fri midnight", for: .reminder) == instant("2026-11-28T00:00:00+01:00"))
        // A moment to show (`render --at`): midnight starts the next day; a day alone ends its own.
        #expect(try monday.parse("midnight", for: .moment) == instant("2026-11-24T00:00:00+01:00"))
        #expect(try monday.parse("tomorrow", for: .moment) == instant("2026-11-24T23:59:00+01:00"))
    }

    @Test(arguments: [
        ("2026-11-22T10:00", "2026-11-22T10:00:00+01:00"),
        ("2026-11-22T10:00:30", "2026-11-22T10:00:30+01:00"),
        ("2026-11-22T10:00:30.25", "2026-11-22T10:00:30.250+01:00"),
        ("2026-11-22T10:00:30,5Z", "2026-11-22T10:00:30.500Z"),
        ("2026-11-22T10:00Z", "2026-11-22T10:00:00Z"),
        ("2026-11-22T10:00+05:30", "2026-11-22T10:00:00+05:30"),
        ("2026-11-22T10:00-0800", "2026-11-22T10:00:00-08:00"),
        (" 2026-11-22t10:00z ", "2026-11-22T10:00:00Z"),
        ("2026-11-22", "2026-11-22T00:00:00+01:00"),
    ])
    func instants(text: String, expected: String) throws {
        #expect(try WhenParser.parseInstant(text, calendar: LocalCalendar(timeZone: zone("Europe/Berlin"))) == instant(expected))
    }

    // MARK: Daylight-saving time

    /// Europe/Berlin springs forward on 2026-03-29 from 02:00 to 03:00 and falls back on 2026-10-25
    /// from 03:00 to 02:00.
    @Test(arguments: [
        ("2026-03-28T12:00:00+01:00", "2026-03-29T02:30", "2026-03-29T03:30:00+02:00"),
        ("2026-03-28T12:00:00+01:00", "2026-03-29 2:30am", "2026-03-29T03:30:00+02:00"),
        ("2026-03-29T01:00:00+01:00", "2:30", "2026-03-29T03:30:00+02:00"),
        ("2026-03-29T01:00:00+01:00", "3:00", "2026-03-29T03:00:00+02:00"),
        ("2026-03-28T10:00:00+01:00", "in 1d", "2026-03-29T10:00:00+02:00"),
        ("2026-03-28T02:30:00+01:00", "in 1d", "2026-03-29T03:30:00+02:00"),
        ("2026-03-22T10:00:00+01:00", "in 1w", "2026-03-29T10:00:00+02:00"),
        ("2026-03-29T01:30:00+01:00", "in 2h", "2026-03-29T04:30:00+02:00"),
        ("2026-03-28T12:00:00+01:00", "tomorrow", "2026-03-29T23:59:00+02:00"),
        ("2026-10-24T12:00:00+02:00", "2026-10-25T02:30", "2026-10-25T02:30:00+02:00"),
        ("2026-10-24T12:00:00+02:00", "in 1d", "2026-10-25T12:00:00+01:00"),
        ("2026-10-25T01:30:00+02:00", "in 2h", "2026-10-25T02:30:00+01:00"),
        // A time alone in the hour shown twice: its second occurrence, still ahead, not the next
        // day's (helper-123); before both, the first; after both, tomorrow's.
        ("2026-10-25T02:10:00+01:00", "02:30", "2026-10-25T02:30:00+01:00"),
        ("2026-10-25T02:10:00+01:00", "2:45am", "2026-10-25T02:45:00+01:00"),
        ("2026-10-25T02:10:00+02:00", "02:30", "2026-10-25T02:30:00+02:00"),
        ("2026-10-25T02:40:00+01:00", "02:30", "2026-10-26T02:30:00+01:00"),
        ("2026-10-25T02:10:00+01:00", "01:30", "2026-10-26T01:30:00+01:00"),
    ])
    func berlinDaylightSavingTime(now: String, text: String, expected: String) throws {
        let parser = WhenParser(now: instant(now), calendar: LocalCalendar(timeZone: zone("Europe/Berlin")))
        #expect(try parser.parse(text, for: .due) == instant(expected))
    }

    /// A time the clocks skip is named with the time its instant shows, for a command to say; a
    /// time shown, one with an offset, and a day alone are not (helper-138).
    @Test func aSkippedTimeIsNamed() throws {
        let parser = WhenParser(now: instant("2026-03-28T12:00:00+01:00"), calendar: LocalCalendar(timeZone: zone("Europe/Berlin")))
        for text in ["2026-03-29T02:30", "tomorrow 2:30am", "02:30", "Sun 02:30", "2:30am tomorrow"] {
            let skipped = try parser.read(text, for: .due).skippedTime
            #expect(skipped?.asked == "02:30" && skipped?.shown == "03:30" && skipped?.day == LocalDay(year: 2026, month: 3, day: 29), "\(text)")
        }
        for text in ["2026-03-29T03:30", "2026-03-29T02:30+01:00", "2026-10-25T02:30", "tomorrow", "in 1d", "2026-03-29"] {
            #expect(try parser.read(text, for: .reminder).skippedTime == nil, "\(text)")
        }
        // A gap at midnight: Pyongyang went from 23:30 (+08:30) to 00:00 (+09:00) on 2018-05-04.
        // 23:45 is skipped that day, and at 20:00 it has not passed (helper-141).
        let pyongyang = WhenParser(now: instant("2018-05-04T20:00:00+08:30"), calendar: LocalCalendar(timeZone: zone("Asia/Pyongyang")))
        let midnight = try pyongyang.read("23:45", for: .due)
        #expect(midnight.skippedTime == WhenParser.SkippedTime(asked: "23:45", shown: "00:15", day: LocalDay(year: 2018, month: 5, day: 4)))
        let passed = try pyongyang.read("19:00", for: .reminder)
        #expect(!midnight.meansTomorrow && passed.meansTomorrow)
        // A gap that starts at midnight: Havana goes from 00:00 to 01:00 on 2026-03-08, whose
        // 00:30 was said to be skipped on the 7th (helper-150).
        let havana = WhenParser(now: instant("2026-03-07T18:00:00-05:00"), calendar: LocalCalendar(timeZone: zone("America/Havana")))
        for text in ["tomorrow 0:30", "2026-03-08 00:30", "sun 12:30am"] {
            #expect(
                try havana.read(text, for: .due).skippedTime
                    == WhenParser.SkippedTime(asked: "00:30", shown: "01:30", day: LocalDay(year: 2026, month: 3, day: 8)), "\(text)")
        }
    }

    /// Lord Howe goes back by half an hour (02:00 → 01:30) on 2026-04-05.
    @Test func aTimeAloneInAHalfHourShownTwice() throws {
        let parser = WhenParser(now: instant("2026-04-05T01:45:00+11:00"), calendar: LocalCalendar(timeZone: zone("Australia/Lord_Howe")))
        #expect(try parser.parse("01:35", for: .due) == instant("2026-04-05T01:35:00+10:30"))
    }

    /// America/Santiago springs forward on 2026-09-06 from 00:00 to 01:00, so that day has no midnight.
    @Test func dayWithoutMidnight() throws {
        let santiago = zone("America/Santiago")
        let parser = WhenParser(now: instant("2026-09-05T12:00:00-04:00"), calendar: LocalCalendar(timeZone: santiago))
        #expect(try parser.parse("tomorrow", for: .due) == instant("2026-09-06T23:59:00-03:00"))
        #expect(try parser.parse("2026-09-06", for: .due) == instant("2026-09-06T23:59:00-03:00"))
        #expect(try parser.parse("sun", for: .reminder) == instant("2026-09-06T09:00:00-03:00"))
        #expect(try parser.parse("tomorrow 12am", for: .due) == instant("2026-09-06T01:00:00-03:00"))
        // Midnight ends Saturday where Sunday starts: at 01:00, when a reminder is; a task due then is
        // due on Saturday.
        #expect(try parser.parse("midnight", for: .reminder) == instant("2026-09-06T01:00:00-03:00"))
        #expect(try parser.parse("midnight", for: .due) == instant("2026-09-05T23:59:00-04:00"))
        #expect(try WhenParser.parseInstant("2026-09-06", calendar: LocalCalendar(timeZone: santiago)) == instant("2026-09-06T01:00:00-03:00"))
    }

    // MARK: Errors

    @Test(arguments: [
        "", "   ", "garbage", "25:00", "24:00", "12:60", "17", "13pm", "0am", "5 p m", "noonish", "todays",
        "2026-02-30", "2026-02-29", "2026-13-01", "2026-11-31", "26-11-23", "2026-1-23", "2026-11-23T25:00",
        "2026-11-23T17:00+25:00", "2026-11-23T17:00.5", "2026-11-23T17:00 5pm", "2026-11-23T", "in 2x",
        "in", "in 2", "in -2h", "in 2hh", "+", "+ 2h", "in 1234567m", "fri fri", "tomorrow today",
        "tonight 9pm", "tomorrow 17", "fr", "in 2h 30", "1️⃣7:00", "1\u{301}7:00",
        "next", "next tomorrow", "next today", "next 5pm", "next next fri", "next 2026-11-23", "fri next",
        "midnight 5pm", "5pm 9am", "noon next", "midnight midnight", "next midnight", "eod 5pm", "in 1 eod",
    ])
    func unreadableText(text: String) {
        let error = #expect(throws: TaskWidgetError.self) { try sunday.parse(text, for: .due) }
        #expect(error?.code == .invalidInput)
    }

    @Test(arguments: ["", "today", "17:00", "2026-11-22T25:00", "2026-11-22T10:00+1", "2026-11-22T10:00:30."])
    func unreadableInstant(text: String) {
        let error = #expect(throws: TaskWidgetError.self) {
            try WhenParser.parseInstant(text, calendar: LocalCalendar(timeZone: zone("Europe/Berlin")))
        }
        #expect(error?.code == .invalidInput)
    }

    /// A capital M alone is refused: read as minutes (units are read in any case), `in 1M` was due
    /// in a minute for a user who meant a month. `1m`, `1 min` and `1MIN` stay minutes.
    @Test func aCapitalMIsNeitherMinutesNorMonths() throws {
        for text in ["in 1M", "+3M", "IN 2 M", "in 1  M", "in 1\t M"] {
            let error = #expect(throws: TaskWidgetError.self) { try sunday.parse(text, for: .due) }
            #expect(error?.message.contains("is M minutes or months?") == true, "\(text)")
        }
        let inAMinute = try sunday.parse("in 1m", for: .due)
        #expect(try sunday.parse("in 1 min", for: .due) == inAMinute)
        #expect(try sunday.parse("in 1MIN", for: .due) == inAMinute)
    }

    /// Regression: `in 999999w` (the year 21192) or a last-day time with a western offset was
    /// stored, and then written by `export` with a five-digit year that `import` refuses.
    @Test(arguments: ["in 999999w", "+999999 weeks", "9999-12-31T23:59-05:00", "9999-12-31T23:59:30-00:01"])
    func datesPastTheYear9999AreRefused(text: String) {
        let error = #expect(throws: TaskWidgetError.self) { try sunday.parse(text, for: .due) }
        #expect(error?.code == .invalidInput)
        #expect(error?.message.contains("0001 to 9999") == true, "\(error?.message ?? "")")
    }

    @Test func instantsPastTheYear9999AreRefused() throws {
        let error = #expect(throws: TaskWidgetError.self) {
            try WhenParser.parseInstant("9999-12-31T23:59:59.5-18:00", calendar: LocalCalendar(timeZone: zone("UTC")))
        }
        #expect(error?.code == .invalidInput)
        let last = try WhenParser.parseInstant("9999-12-31T23:59:59.999Z", calendar: LocalCalendar(timeZone: zone("UTC")))
        #expect(InstantFormat.utc(last) == "9999-12-31T23:59:59.999Z")
        // The largest relative amount within the years is still read.
        #expect(try sunday.parse("in 999999d", for: .due) > instant("4700-01-01T00:00:00Z"))
    }

    /// Today's weekday without `next` means the one a week later, which `add` and `edit` say (helper-158).
    @Test func todaysWeekdayIsNamedWhenItMeansNextWeek() throws {
        let friday = WhenParser(now: instant("2026-11-27T10:00:00+01:00"), calendar: LocalCalendar(timeZone: zone("Europe/Berlin")))
        for (text, todayInstead) in [("fri", "today"), ("Friday 5pm", "today 5pm"), ("5pm fri", "5pm today"), ("fri midnight", "today midnight")] {
            let reading = try friday.read(text, for: .due)
            #expect(reading.todaysWeekday?.name == "Friday" && reading.instant >= instant("2026-12-04T00:00:00+01:00"), "\(text)")
            #expect(reading.todaysWeekday?.todayInstead == todayInstead)
            #expect(try friday.parse(todayInstead, for: .due) < instant("2026-11-28T00:00:00+01:00"), "\(todayInstead) is today")
        }
        for text in ["next fri", "sat", "today", "tomorrow 5pm", "in 7d", "2026-12-04"] {
            #expect(try friday.read(text, for: .due).todaysWeekday == nil, "\(text)")
        }
    }

    @Test func errorMessageNamesTheAcceptedForms() {
        let error = #expect(throws: TaskWidgetError.self) { try sunday.parse("next week", for: .due) }
        #expect(
            error?.message == "cannot read date “next week”: use 2026-11-23, 2026-11-23T17:00, today, tomorrow, "
                + "yesterday, tonight, fri, next fri, 17:00, 5pm, noon, eod, midnight, in 2h, in 1w, +30m or tomorrow 5pm"
        )
    }

    /// The dated forms are tomorrow's: a fixed date was in the past a week later (helper-113).
    @Test func theDatedFormsOfTheErrorAreTomorrows() {
        // 00:30 on the 11th in Berlin: its tomorrow is the 12th, though UTC is still on the 10th.
        let parser = WhenParser(now: instant("2027-03-10T23:30:00Z"), calendar: LocalCalendar(timeZone: zone("Europe/Berlin")))
        let error = #expect(throws: TaskWidgetError.self) { try parser.parse("12/01", for: .due) }
        #expect(error?.message.hasPrefix("cannot read date “12/01”: use 2027-03-12, 2027-03-12T17:00, today,") == true, "\(error?.message ?? "")")
    }

    /// A date in the right shape that names no day says why: the list of forms did not (helper-66).
    @Test(arguments: [
        ("2027-02-29", "February 2027 has 28 days"), ("2026-11-31", "November 2026 has 30 days"),
        ("2026-13-01", "there is no month 13: months go from 01 to 12"), ("2026-11-00", "there is no day 0: days start at 01"),
        ("2026-11-30T25:00", "there is no hour 25: hours go from 00 to 23"), ("2026-11-30 10:61", "there is no minute 61: minutes go from 00 to 59"),
    ])
    func anImpossibleDateSaysWhy(text: String, why: String) throws {
        let error = #expect(throws: TaskWidgetError.self) { try sunday.parse(text, for: .due) }
        #expect(error?.message == "cannot read date “\(text)”: \(why)")
        #expect(try sunday.parse("2028-02-29", for: .due) == instant("2028-02-29T22:59:00Z"))
    }

    @Test func errorMessageQuotesOneShortLine() {
        let text = "a\u{7}b\r\nc\u{2028}" + String(repeating: "x", count: 60)
        let error = #expect(throws: TaskWidgetError.self) { try sunday.parse(text, for: .due) }
        let quoted = "“abc" + String(repeating: "x", count: 37) + "”"
        #expect(error?.message.hasPrefix("cannot read date \(quoted): use ") == true)
    }

    // MARK: Properties

    static let zoneIdentifiers = ["UTC", "Europe/Berlin", "America/New_York", "Asia/Kathmandu", "Pacific/Chatham"]

    /// Whole-second instants from 1971 through 2100.
    static let instants = Gen.int(in: 31_536_000...4_133_980_799).map { Instant(secondsSince1970: Int64($0)) }

    @Test(arguments: zoneIdentifiers)
    func instantWithOffsetRoundTrips(zoneIdentifier: String) async throws {
        let timeZone = zone(zoneIdentifier)
        // Read in another zone: the offset alone must decide the instant.
        let tokyo = zone("Asia/Tokyo")
        let parser = WhenParser(now: instant("2026-11-22T16:27:00Z"), calendar: LocalCalendar(timeZone: tokyo))
        await propertyCheck(count: 500, input: Self.instants) { date in
            let text = format(date, in: timeZone, withOffset: true)
            let instant = try WhenParser.parseInstant(text, calendar: LocalCalendar(timeZone: tokyo))
            let due = try parser.parse(text, for: .due)
            #expect(instant == date, "\(text)")
            #expect(due == date, "\(text)")
        }
    }

    @Test(arguments: zoneIdentifiers + ["America/Santiago"])
    func localTimeRoundTripsOutsideTheRepeatedHour(zoneIdentifier: String) async throws {
        let timeZone = zone(zoneIdentifier)
        let parser = WhenParser(now: instant("2026-11-22T16:27:00Z"), calendar: LocalCalendar(timeZone: timeZone))
        await propertyCheck(count: 500, input: Self.instants) { date in
            let text = format(date, in: timeZone, withOffset: false)
            for parsed in [try WhenParser.parseInstant(text, calendar: LocalCalendar(timeZone: timeZone)), try parser.parse(text, for: .due)] {
                // A repeated local time means its first occurrence.
                let isSecondOccurrence = parsed < date && format(parsed, in: timeZone, withOffset: false) == text
                #expect(parsed == date || isSecondOccurrence, "\(text)")
            }
        }
    }

    @Test(arguments: zoneIdentifiers + ["America/Santiago"])
    func dayAloneIsDueAtTheEndOfThatDay(zoneIdentifier: String) async throws {
        let timeZone = zone(zoneIdentifier)
        let parser = WhenParser(now: instant("2026-11-22T16:27:00Z"), calendar: LocalCalendar(timeZone: timeZone))
        await propertyCheck(count: 500, input: Self.instants) { date in
            let day = String(format(date, in: timeZone, withOffset: false).prefix(10))
            let due = try parser.parse(day, for: .due)
            let reminder = try parser.parse(day, for: .reminder)
            #expect(format(due, in: timeZone, withOffset: false) == day + "T23:59:00")
            #expect(format(reminder, in: timeZone, withOffset: false) == day + "T09:00:00")
        }
    }

    @Test(arguments: zoneIdentifiers)
    func minutesAndHoursAreExactDurations(zoneIdentifier: String) async throws {
        let timeZone = zone(zoneIdentifier)
        let milliseconds = Gen.int(in: 31_536_000_000...4_133_980_799_999)
        await propertyCheck(count: 500, input: milliseconds, Gen.int(in: 0...999_999)) { milliseconds, count in
            let now = Instant(millisecondsSince1970: Int64(milliseconds))
            let flooredNow = Instant(secondsSince1970: Int64(milliseconds / 1000))
            let parser = WhenParser(now: now, calendar: LocalCalendar(timeZone: timeZone))
            let inMinutes = try parser.parse("in \(count)m", for: .due)
            let plusHours = try parser.parse("+\(count)h", for: .due)
            #expect(inMinutes == flooredNow.adding(seconds: Int64(count) * 60))
            #expect(plusHours == flooredNow.adding(seconds: Int64(count) * 3600))
        }
    }

    /// Hours, minutes and seconds together, larger first, are one exact duration: `in 1h30m` was
    /// refused (helper-119). Days and weeks keep the time of day, so they come alone; a unit
    /// twice, smaller first, a bare number and a capital M (months?) are no duration.
    @Test func hoursMinutesAndSecondsTogetherAreOneDuration() throws {
        #expect(DurationText.amount("1h30m")?.seconds == 5_400)
        #expect(DurationText.amount("2h 15min")?.seconds == 8_100)
        #expect(DurationText.amount("1 hour 5 seconds")?.seconds == 3_605)
        #expect(DurationText.amount("2 Days") == TimeAmount(count: 2, unit: .day))
        for refused in ["1d12h", "30m1h", "1h1h", "1h30", "1h30M", "90", "h", "", "1w2d", "1.5h"] {
            #expect(DurationText.amount(refused) == nil, "\(refused)")
        }
        #expect(try sunday.parse("in 1h30m", for: .due) == instant("2026-11-22T17:57:00.000+01:00"))
        #expect(try sunday.parse("+2h 15m", for: .due) == instant("2026-11-22T18:42:00.000+01:00"))
    }

    @Test func randomTextIsReadOrRejectedAsUsage() async {
        let scalars = Gen<UInt32>.value(in: 0...0x10FFFF).map { Character(Unicode.Scalar($0) ?? "\u{FFFD}") }
        await propertyCheck(count: 1000, input: scalars.string(of: 0...24)) { text in
            expectReadOrRejected(text)
        }
    }

    @Test func nearMissesAreReadOrRejectedAsUsage() async {
        let pieces = [
            "in", " ", "+", "-", ":", ".", "t", "z", "2", "0", "12", "59", "2026", "-11-23", "h", "m", "d", "w",
            "days", "am", "pm", "noon", "eod", "midnight", "next", "fri", "today", "tonight", "tomorrow", "\u{301}", "\t", "\n", "٣",
        ]
        let texts = Gen<String?>.element(of: pieces).array(of: 0...8).map { $0.compactMap { $0 }.joined() }
        await propertyCheck(count: 2000, input: texts) { text in
            expectReadOrRejected(text)
        }
    }

    /// Checks that `text` parses to whole seconds or is rejected with a one-line usage error.
    private func expectReadOrRejected(_ text: String) {
        do throws(TaskWidgetError) {
            let instant = try sunday.parse(text, for: .due)
            #expect(instant == instant.flooredToSecond, "\(text)")
            _ = try WhenParser.parseInstant(text, calendar: LocalCalendar(timeZone: zone("Pacific/Chatham")))
        } catch {
            #expect(error.code == .invalidInput)
            #expect(!error.message.contains { $0.isNewline })
        }
    }
}

// MARK: - Helpers

private func zone(_ identifier: String) -> TimeZone {
    TimeZone(identifier: identifier)!
}

/// The instant of an RFC 3339 timestamp with an offset, read by Foundation as the reference.
private func instant(_ text: String) -> Instant {
    let formatter = ISO8601DateFormatter()
    if text.contains(".") {
        formatter.formatOptions.insert(.withFractionalSeconds)
    }
    return Instant(formatter.date(from: text)!)
}

/// `date` as local `yyyy-MM-ddTHH:mm:ss` in `zone`, followed by its `±HH:MM` offset if asked.
private func format(_ instant: Instant, in zone: TimeZone, withOffset: Bool) -> String {
    let date = instant.date
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = zone
    let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
    let local = String(
        format: "%04d-%02d-%02dT%02d:%02d:%02d", parts.year!, parts.month!, parts.day!, parts.hour!, parts.minute!,
        parts.second!
    )
    guard withOffset else { return local }
    let offset = zone.secondsFromGMT(for: date)
    return local + (offset < 0 ? "-" : "+") + String(format: "%02d:%02d", abs(offset) / 3600, abs(offset) % 3600 / 60)
}
