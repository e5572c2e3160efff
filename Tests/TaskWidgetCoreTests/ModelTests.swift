import Foundation
import Testing

@testable import TaskWidgetCore
@testable import TaskWidgetTestSupport

/// The pure rules: input validation, due labels, task order, and the settings of one run.
@Suite struct ModelTests {
    // MARK: - Titles

    @Test(arguments: [
        ("Pay rent", "Pay rent"),
        ("  Pay rent \t", "Pay rent"),
        ("\n Pay rent\n", "Pay rent"),
        ("\u{3000}会議\u{3000}", "会議"),
        ("\u{00A0}Pay  rent\u{00A0}", "Pay  rent"),
        ("Family 👨‍👩‍👧‍👦 time", "Family 👨‍👩‍👧‍👦 time"),
        ("🏳️‍🌈", "🏳️‍🌈"),
        ("e\u{0301}té", "e\u{0301}té"),
        ("مرحبا", "مرحبا"),
    ])
    func titlesAreTrimmed(text: String, expected: String) throws {
        #expect(try Validation.title(text) == expected)
    }

    @Test(arguments: ["", " ", "\t\n", "\u{3000}", "\u{2028}", "\u{200B}", " \u{200D}\u{FE0F} "])
    func emptyTitlesAreRefused(text: String) throws {
        let error = expectError(.invalidInput) { try Validation.title(text) }
        #expect(error?.message.contains("empty") == true)
    }

    /// The error names what it found, and where it is not plain to see, its code.
    @Test(arguments: [
        ("a\nb", "a line break"), ("a\rb", "a line break"), ("a\r\nb", "a line break"), ("a\tb", "a control character (U+0009)"),
        ("bell\u{0007}", "a control character (U+0007)"), ("a\u{0000}b", "a control character (U+0000)"),
        ("a\u{001B}[31mred", "a control character (U+001B)"), ("a\u{007F}b", "a control character (U+007F)"),
        ("a\u{0085}b", "a line break"), ("a\u{009B}b", "a control character (U+009B)"), ("a\u{2028}b", "a line break"),
        ("a\u{2029}b", "a line break"),
        // Direction overrides, embeddings and isolates turn the rest of a bar's line around.
        ("rlo \u{202E} evil", "a direction control (U+202E), which turns the text around"),
        ("a\u{202A}b", "a direction control (U+202A), which turns the text around"),
        ("a\u{2066}b\u{2069}", "a direction control (U+2066), which turns the text around"),
        // Noncharacters: swaybar drew none of its text (helper-139).
        ("nonchar \(scalar(0xFFFE)) after", "a noncharacter (U+FFFE), which is no text"),
        ("a\(scalar(0xFDD0))b", "a noncharacter (U+FDD0), which is no text"), ("a\(scalar(0x10FFFF))", "a noncharacter (U+10FFFF), which is no text"),
    ])
    func controlCharactersAndLineBreaksAreRefused(text: String, found: String) throws {
        let error = expectError(.invalidInput) { try Validation.title(text) }
        #expect(error?.message == "the title contains \(found): use plain one-line text")
    }

    /// A server's title is made to follow the same rules instead of being refused.
    @Test(arguments: [
        ("Pay\nrent", "Pay rent"), ("a\tb\u{2028}c", "a b c"), ("line\u{85}nel\u{0B}vt\u{0C}ff", "line nel vt ff"), ("E\u{1C}F\u{1E}G", "E F G"), ("bell\u{0007}", "bell"), ("rlo \u{202E}evil", "rlo evil"),
        ("a\u{2066}b\u{2069}", "ab"), ("a\(scalar(0xFFFF))b", "ab"), ("\u{200B}", "Untitled"), (" \u{200D} ", "Untitled"), ("🏳️‍🌈", "🏳️‍🌈"),
    ])
    func aTitleFromElsewhereFollowsTheRules(text: String, expected: String) {
        #expect(Validation.titleFromElsewhere(text) == expected)
        #expect((try? Validation.title(Validation.titleFromElsewhere(text))) != nil)
    }

    @Test func theLengthLimitCountsCharactersAfterTrimming() throws {
        let limit = Validation.maximumTitleLength
        #expect(limit == 1000)
        let longest = String(repeating: "a", count: limit)
        #expect(try Validation.title("  " + longest + "  ") == longest)
        let emoji = String(repeating: "👨‍👩‍👧‍👦", count: limit)
        #expect(try Validation.title(emoji) == emoji)
        let error = expectError(.invalidInput) { try Validation.title(longest + "b") }
        #expect(error?.message.contains("1001") == true)
        expectError(.invalidInput) { try Validation.title(emoji + "👍") }
    }

    /// Regression: the limit counted characters only, and one character may carry any number of
    /// combining marks: a 1 MB title of one character was accepted (by `import`; `add` up to the
    /// 128 KiB a command-line argument may have), and every status line then carried the megabyte.
    @Test func theLengthLimitAlsoBoundsTheBytes() throws {
        let limit = Validation.maximumTitleLength * Validation.maximumBytesPerCharacter
        #expect(limit == 40_000)
        let zalgo = "a" + String(repeating: "\u{301}", count: 500_000)
        #expect(zalgo.count == 1)
        let error = expectError(.invalidInput) { try Validation.title(zalgo) }
        #expect(error?.message == "the title is 1000001 bytes long in UTF-8: the limit is 40000 bytes")
        expectError(.invalidInput) { try Validation.listName(zalgo) }
        expectError(.invalidInput) { try Validation.icon(zalgo) }
        // Right at the byte limit is fine: 1000 of the longest emoji sequences (35 bytes) fit too.
        let kiss = "👩🏻‍❤️‍💋‍👨🏼"
        #expect(kiss.utf8.count == 35)
        #expect(try Validation.title(String(repeating: kiss, count: 1000)).count == 1000)
        let exact = "a" + String(repeating: "\u{301}", count: (limit - 1) / 2) + String(repeating: "b", count: (limit - 1) % 2)
        #expect(exact.utf8.count == limit)
        #expect(try Validation.title(exact) == exact)
        expectError(.invalidInput) { try Validation.title(exact + "\u{301}") }
        #expect(try Validation.icon("👨‍👩‍👧‍👦") == "👨‍👩‍👧‍👦")
    }

    /// Regression: messages quoted at most 40 characters of what the user gave, and one character
    /// may carry 100 000 combining marks: a 200 KB error line (for a color, a list name, a
    /// task id, a date, an import file's schema or state).
    @Test func quotedTextIsShortInBytesToo() throws {
        let zalgo = "x" + String(repeating: "\u{301}", count: 100_000)
        #expect(zalgo.sanitizedForMessage.utf8.count <= 160)
        #expect(("ab" + zalgo).sanitizedForMessage.hasPrefix("ab"))
        let long = String(repeating: "é", count: 50)
        #expect(long.sanitizedForMessage == String(repeating: "é", count: 39) + "…")
        #expect(long.truncated(to: 40, maxBytesPerUnit: 4, ellipsis: false) == String(repeating: "é", count: 40))
        let messages = [
            expectError(.invalidInput) { try Validation.colorHex(zalgo) }?.message,
            expectError(.invalidInput) { try WhenParser(now: Fixed.instant("2026-11-22T16:27:00Z"), calendar: LocalCalendar(timeZone: Fixed.zone("UTC"))).parse(zalgo, for: .due) }?.message,
            expectError(.invalidInput) { try WhenParser.parseInstant(zalgo, calendar: LocalCalendar(timeZone: Fixed.zone("UTC"))) }?.message,
            expectError(.invalidInput) { try LocalDay.habitDay(zalgo, now: Fixed.instant("2026-11-22T16:27:00Z"), calendar: LocalCalendar(timeZone: Fixed.zone("UTC"))) }?.message,
            expectError(.badImport) {
                try StoreExport.decode(Data(#"{"schema": "\#(zalgo)", "lists": [], "tasks": [], "habits": []}"#.utf8), source: "x.json")
            }?.message,
            expectError(.badImport) {
                try StoreExport.decode(Data(#"{"schema": "taskwidget.export/1", "lists": [], "habits": [], "tasks": [{"id": "ABCD0000-0000-4000-8000-000000000001", "title": "t", "isCompleted": false, "state": "\#(zalgo)", "createdAt": "2026-11-20T10:00:00Z", "modifiedAt": "2026-11-20T10:00:00Z", "sortOrder": 0}]}"#.utf8), source: "x.json")
            }?.message,
        ]
        for message in messages {
            #expect(message.map { $0.utf8.count < 600 } == true, "\(message?.utf8.count ?? 0) bytes")
        }
    }

    @Test func theNounNamesWhatIsWrong() throws {
        let error = expectError(.invalidInput) { try Validation.title(" ", noun: "habit name") }
        #expect(error?.message.contains("habit name") == true)
    }

    @Test(arguments: ["Inbox", "inbox", " INBOX ", "iNbOx"])
    func inboxIsNotAListName(name: String) throws {
        expectError(.invalidInput) { try Validation.listName(name) }
    }

    @Test(arguments: [("Inbox zero", "Inbox zero"), (" Home ", "Home"), ("Ärger", "Ärger")])
    func otherListNamesFollowTheTitleRules(name: String, expected: String) throws {
        #expect(try Validation.listName(name) == expected)
        expectError(.invalidInput) { try Validation.listName(name + "\n2") }
    }

    // MARK: - Finding lists and habits by name

    static let listNames = ["Home", "Work", "Errands", "Ärger", "Reading list"]

    @Test(arguments: [
        ("Wrok", "Work"), ("wokr", "Work"), ("Hoem", "Home"), ("hme", "Home"), ("WORKS", "Work"), ("Errand", "Errands"),
        ("Erands", "Errands"), ("ärgr", "Ärger"), ("Reading lsit", "Reading list"), ("readinglist", "Reading list"),
    ])
    func aTypoSuggestsTheClosestName(typed: String, expected: String) throws {
        #expect(NameLookup.closest(to: typed, among: Self.listNames) == expected)
        let error = expectError(.notFound) { try NameLookup.find(typed, in: Self.listNames, named: { $0 }, kind: "list") }
        #expect(error?.message == "no list is named “\(typed)”: did you mean “\(expected)”? (create one with `taskwidget list add NAME`)")
        // What a log may say (a bar's watch logs it): no name, but where to look.
        #expect(error?.logDescription == "no task, list or habit has the id or name given [notFound] (list not found: `taskwidget list ls` shows the names)")
    }

    @Test(arguments: [
        ("Project 2", ["Project 1"]), ("List 10", ["List 1", "List 0"]), ("2026", ["2025"]),
        // Letters mistyped too, or a further name left: the number still tells them apart (helper-146).
        ("Sprnt 13", ["Sprint 12"]), ("Weeks 2", ["Week 1"]), ("List 4", ["Lsit 1", "List 1"]), ("List 1.5", ["List 1"]),
    ])
    func namesWithOtherNumbersAreNoTypo(typed: String, names: [String]) throws {
        #expect(NameLookup.closest(to: typed, among: names) == nil)
        let error = expectError(.notFound) { try NameLookup.find(typed, in: names, named: { $0 }, kind: "list") }
        #expect(error?.message.contains("did you mean") == false)
        // A letter mistyped beside them still is one, and so is a number written otherwise.
        #expect(NameLookup.closest(to: "Projcet 1", among: ["Project 1", "Project 2"]) == "Project 1")
        #expect(NameLookup.closest(to: "List 02", among: ["List 2", "List 3"]) == "List 2")
    }

    /// Part of a longer name, typed alone: `ls --list side` listed every name (helper-158).
    @Test(arguments: [("Reading", "Reading list"), ("LIST", "Reading list"), ("err", "Errands"), ("ärg", "Ärger")])
    func theStartOrAWordOfOneNameSuggestsIt(typed: String, expected: String) throws {
        let error = expectError(.notFound) { try NameLookup.find(typed, in: Self.listNames, named: { $0 }, kind: "list") }
        #expect(error?.message == "no list is named “\(typed)”: did you mean “\(expected)”? (create one with `taskwidget list add NAME`)")
        // Two names with that start or word, or a start of two letters: no guess.
        #expect(NameLookup.beginning(with: "Project", among: ["Project 1", "Project 2"]) == nil)
        #expect(NameLookup.beginning(with: "Re", among: Self.listNames) == nil)
    }

    /// Accents aside, and two letters of Chinese or Japanese anywhere in a name: `ls --list ete`
    /// and `habit check 飲む` listed every name (helper-169).
    /// One character is no typo of another (`車` for `家`), and of two names as near neither is
    /// meant (`Work` for `Work A` and `Work B`): both were guessed (helper-174).
    @Test func noGuessForOneCharacterOrBetweenTwoAsNear() {
        #expect(NameLookup.closest(to: "車", among: ["家", "読書"]) == nil)
        #expect(NameLookup.closest(to: "x", among: ["y"]) == nil)
        #expect(NameLookup.closest(to: "Work", among: ["Work A", "Work B"]) == nil)
        #expect(NameLookup.closest(to: "Work", among: ["Work A", "Home"]) == "Work A")
    }

    @Test func accentsAndPartsOfWideScriptsSuggestAName() {
        #expect(NameLookup.closest(to: "ete", among: ["été", "Work"]) == "été")
        #expect(NameLookup.closest(to: "unicode", among: ["Ünïcödé", "Work"]) == "Ünïcödé")
        #expect(NameLookup.closest(to: "Europe/Zurich", among: ["Europe/Zürich", "Europe/Berlin"]) == "Europe/Zürich")
        #expect(NameLookup.beginning(with: "cafe", among: ["Café Bar", "Work"]) == "Café Bar")
        #expect(NameLookup.beginning(with: "水を", among: ["水を飲む", "読書"]) == "水を飲む")
        #expect(NameLookup.beginning(with: "飲む", among: ["水を飲む", "読書"]) == "水を飲む")
        #expect(NameLookup.beginning(with: "水", among: ["水を飲む", "読書"]) == nil)
    }

    @Test(arguments: ["Groceries", "Wo", "Job", "Homework", "x", "ding"])
    func aNameFarFromEveryOneListsThemInstead(typed: String) throws {
        #expect(NameLookup.closest(to: typed, among: Self.listNames) == nil)
        let error = expectError(.notFound) {
            try NameLookup.find(typed, in: Self.listNames, named: { $0 }, kind: "list", creation: "add --new-list to create it")
        }
        #expect(error?.message == "no list is named “\(typed)”: the lists are Home, Work, Errands, Ärger, Reading list (add --new-list to create it)")
    }

    /// Names that differ in case (by Unicode case folding) or in invisible characters only are
    /// one: `list ls` showed such lists alike, and `STRASSE` beside `Straße` was a second list
    /// (helper-128).
    @Test(arguments: [
        ("Straße", "STRASSE"), ("Οδός", "ΟΔΌΣ"), ("Ärger", "ÄRGER"), ("Work", "\u{200B}Work"), ("Work", "\u{FEFF}Work"),
        ("Work", "Work\u{2060}"), ("Work", "Wo\u{200D}rk"), ("Work", "W\u{00AD}ork"), ("Café", "Cafe\u{301}"),
    ])
    func namesThatLookAlikeAreOne(name: String, other: String) {
        #expect(NameLookup.isSame(name, other))
    }

    @Test func namesThatLookDifferentAreTwo() {
        #expect(!NameLookup.isSame("Work", "Works"))
        #expect(!NameLookup.isSame("Ärger", "Arger"))
        #expect(!NameLookup.isSame("Μελέτη", "ΜΕΛΕΤΗ"))  // an accent is a letter's, not its case
    }

    /// A name typed exactly as one of them is that one, whatever others differ from it in case
    /// only (sync accounts `home` and `Home` are two accounts, helper-97); otherwise case does not
    /// count, unless it leaves two names (`HOME` took `home`, the first: helper-102).
    @Test func anExactNameWinsOverOneInAnotherCase() throws {
        let names = ["home", "Home", "Work"]
        #expect(try NameLookup.find("Home", in: names, named: { $0 }, kind: "sync account") == "Home")
        #expect(try NameLookup.find("home", in: names, named: { $0 }, kind: "sync account") == "home")
        #expect(try NameLookup.find("WORK", in: names, named: { $0 }, kind: "sync account") == "Work")
        let error = expectError(.notFound) { try NameLookup.find("HOME", in: names, named: { $0 }, kind: "sync account") }
        #expect(error?.message == "“HOME” matches the sync accounts “home” and “Home”, which differ in case only: give the name exactly as written")
    }

    /// Of many names, the error lists eight: with thirty lists it was a line of 1.6 KB.
    @Test func aLongListOfNamesIsCutToEight() throws {
        let names = (1...30).map { "Project number \($0)" }
        let error = expectError(.notFound) { try NameLookup.find("Nope", in: names, named: { $0 }, kind: "list") }
        #expect(
            error?.message == "no list is named “Nope”: the lists include " + names.prefix(8).joined(separator: ", ")
                + " and 22 more, which `taskwidget list ls` shows (create one with `taskwidget list add NAME`)")
    }

    /// Each name is cut as any text a message quotes: eight names of 1000 characters made a line
    /// of 8 KB (helper-87).
    @Test func longNamesAreCutInTheMessage() throws {
        let names = ["A", "B"].map { String(repeating: $0, count: 1000) }
        let error = expectError(.notFound) { try NameLookup.find("Nope", in: names, named: { $0 }, kind: "list") }
        let cut = names.map { String($0.prefix(39)) + "…" }
        #expect(error?.message == "no list is named “Nope”: the lists are \(cut[0]), \(cut[1]) (create one with `taskwidget list add NAME`)")
    }

    /// Control characters (in a name written into the store by hand) do not count, but a name as
    /// stored comes first: `Work` is that list, not a `Wo\u{7}rk` before it.
    @Test func controlCharactersDoNotCountButTheStoredNameComesFirst() throws {
        #expect(NameLookup.isSame("Ho\u{1B}]0;x\u{7}me", "Ho]0;xme"))
        #expect(try NameLookup.find("Work", in: ["Wo\u{7}rk", "Work"], named: { $0 }, kind: "list") == "Work")
        #expect(try NameLookup.find("Wo\u{7}rk", in: ["Work", "Wo\u{7}rk"], named: { $0 }, kind: "list") == "Wo\u{7}rk")
        #expect(try NameLookup.find(" work ", in: ["Wo\u{7}rk"], named: { $0 }, kind: "list") == "Wo\u{7}rk")
    }

    /// Of names as near as each other, none is guessed: the first was, which was chance
    /// (`Work` for `Work A` beside `Work B`, helper-174); the error lists the names instead.
    @Test func ofEquallyCloseNamesNoneIsSuggested() throws {
        #expect(NameLookup.closest(to: "Bat", among: ["Cat", "Hat", "Bar"]) == nil)
        #expect(NameLookup.closest(to: "Walk", among: []) == nil)
        let error = expectError(.notFound) { try NameLookup.find("Bat", in: ["Cat", "Hat", "Bar"], named: { $0 }, kind: "list") }
        #expect(error?.message.hasPrefix("no list is named “Bat”: the lists are Cat, Hat, Bar") == true, "\(error?.message ?? "")")
    }

    @Test(arguments: ["Inbox", "inbox", " INBOX "])
    func theInboxIsNotAListAndPointsToTheInboxOption(name: String) throws {
        #expect(TaskList.isInbox(name))
        let lists = [TaskList(name: "Home", createdAt: Fixed.instant("2026-11-01T00:00:00Z"))]
        let error = expectError(.notFound) { try TaskList.named(name, in: lists) }
        #expect(error?.message == "no list is named Inbox: the Inbox is `--inbox`, the tasks without a list")
        #expect(try TaskList.named(" home", in: lists) == lists[0])
        #expect(!TaskList.isInbox("Inbox zero"))
    }

    // MARK: - Colors and icons

    @Test(arguments: [
        ("#1e90ff", "1E90FF"), ("1E90FF", "1E90FF"), ("1e90Ff", "1E90FF"), (" #abcdef\n", "ABCDEF"),
        ("000000", "000000"), ("#FFFFFF", "FFFFFF"),
    ])
    func colorsAreNormalizedToSixUppercaseDigits(text: String, expected: String) throws {
        #expect(try Validation.colorHex(text) == expected)
    }

    @Test(arguments: [
        "", "#", "red", "#fff", "12345", "1234567", "#1e90f", "#1e90ff0", "GG0000", "##123456", "#12 456",
        "0x1E90FF", "１２３４５６", "ＡＢＣＤＥＦ", "1e90ff\u{0301}",
    ])
    func badColorsAreRefused(text: String) throws {
        let error = expectError(.invalidInput) { try Validation.colorHex(text) }
        #expect(error?.message.contains("1E90FF") == true)
    }

    @Test(arguments: [("💧", "💧"), (" ✓ ", "✓"), ("12345678", "12345678"), ("👨‍👩‍👧‍👦", "👨‍👩‍👧‍👦"), ("🏳️‍🌈🏳️‍🌈", "🏳️‍🌈🏳️‍🌈")])
    func iconsAreShortOneLineTexts(text: String, expected: String) throws {
        #expect(try Validation.icon(text) == expected)
    }

    @Test(arguments: ["", "   ", "123456789", "\u{200B}"])
    func badIconsAreRefused(text: String) throws {
        let error = expectError(.invalidInput) { try Validation.icon(text) }
        #expect(error?.message == "the icon must be 1 to 8 characters that show, e.g. 💧 or ✓")
    }

    /// A control character is named, as in a title: an ESC was "must be 1 to 8 characters",
    /// which it is (helper-87).
    @Test(arguments: [("a\nb", "a line break"), ("\u{001B}", "a control character (U+001B)"), ("a\u{2028}b", "a line break")])
    func iconsWithControlCharactersAreRefusedSayingWhich(text: String, kind: String) throws {
        let error = expectError(.invalidInput) { try Validation.icon(text) }
        #expect(error?.message == "the icon contains \(kind): use a character that shows, e.g. 💧 or ✓")
    }

    // MARK: - Due labels

    static let berlin = Fixed.zone("Europe/Berlin")
    /// Monday 23 November 2026 in Berlin (+01:00).
    static let mondayMorning = Fixed.instant("2026-11-23T08:00:00+01:00")
    static let mondayEvening = Fixed.instant("2026-11-23T18:00:00+01:00")

    func label(due: String, at now: Instant, completed: Bool = false, zone: TimeZone = berlin) -> String? {
        var task = TaskItem(title: "t", dueDate: Fixed.instant(due), createdAt: Fixed.instant("2026-11-01T00:00:00Z"))
        if completed { task.complete(at: now) }
        return DueLabeler(calendar: LocalCalendar(timeZone: zone)).label(for: task, at: now)
    }

    @Test(arguments: [
        ("2026-11-23T09:30:00+01:00", "09:30"),
        ("2026-11-23T08:00:01+01:00", "08:00"),
        ("2026-11-23T23:59:00+01:00", "Today"),
        ("2026-11-24T00:00:00+01:00", "Tomorrow 00:00"),
        ("2026-11-24T09:00:00+01:00", "Tomorrow 09:00"),
        ("2026-11-24T23:59:00+01:00", "Tomorrow"),
        ("2026-11-25T00:00:00+01:00", "Wed 25 Nov 00:00"),
        ("2026-11-30T23:59:00+01:00", "Mon 30 Nov"),
        ("2026-11-30T10:00:00+01:00", "Mon 30 Nov 10:00"),
        ("2026-11-27T14:30:00+01:00", "Fri 27 Nov 14:30"),
        ("2026-12-31T10:00:00+01:00", "Thu 31 Dec 10:00"),
        ("2026-12-31T23:59:00+01:00", "Thu 31 Dec"),
        ("2027-01-05T10:00:00+01:00", "Tue 5 Jan 2027 10:00"),
        ("2030-06-01T10:00:00+02:00", "Sat 1 Jun 2030 10:00"),
    ])
    func labelsOfOpenTasksDueLater(due: String, expected: String) {
        #expect(label(due: due, at: Self.mondayMorning) == expected)
    }

    @Test(arguments: [
        ("2026-11-23T18:00:00+01:00", "Overdue · 18:00"),
        ("2026-11-23T17:00:00+01:00", "Overdue · 17:00"),
        ("2026-11-23T00:00:00+01:00", "Overdue · 00:00"),
        ("2026-11-22T17:00:00+01:00", "Overdue · Yesterday 17:00"),
        ("2026-11-22T23:59:00+01:00", "Overdue · Yesterday"),
        ("2026-11-21T17:00:00+01:00", "Overdue · Sat 21 Nov 17:00"),
        ("2026-11-21T23:59:00+01:00", "Overdue · Sat 21 Nov"),
        ("2025-12-31T10:00:00+01:00", "Overdue · Wed 31 Dec 2025 10:00"),
    ])
    func labelsOfOverdueTasks(due: String, expected: String) {
        #expect(label(due: due, at: Self.mondayEvening) == expected)
    }

    @Test func aTaskDueTodayWithoutATimeIsOverdueTodayInItsLastMinute() {
        #expect(label(due: "2026-11-23T23:59:00+01:00", at: Fixed.instant("2026-11-23T23:59:30+01:00")) == "Overdue · Today")
    }

    @Test(arguments: [
        ("2026-11-23T17:00:00+01:00", "17:00"),
        ("2026-11-22T17:00:00+01:00", "Yesterday 17:00"),
        ("2026-11-22T23:59:00+01:00", "Yesterday"),
        ("2026-11-21T17:00:00+01:00", "Sat 21 Nov 17:00"),
    ])
    func aCompletedTaskIsNeverOverdue(due: String, expected: String) {
        #expect(label(due: due, at: Self.mondayEvening, completed: true) == expected)
        #expect(label(due: "2026-11-22T17:00:00+01:00", at: Self.mondayEvening, completed: true)?.contains("Overdue") == false)
    }

    @Test(arguments: [
        ("2026-11-23T18:00:00+01:00", "18:00"),
        ("2026-11-23T07:00:00+01:00", "07:00"),
        ("2026-11-24T23:59:00+01:00", "Tomorrow 23:59"),
        ("2026-11-22T09:00:00+01:00", "Yesterday 09:00"),
        ("2026-11-27T17:00:00+01:00", "Fri 27 Nov 17:00"),
        ("2026-11-21T09:00:00+01:00", "Sat 21 Nov 09:00"),
        ("2027-01-04T09:00:00+01:00", "Mon 4 Jan 2027 09:00"),
    ])
    func reminderLabelsAlwaysHaveTheTime(date: String, expected: String) {
        #expect(DueLabeler(calendar: LocalCalendar(timeZone: Self.berlin)).timeLabel(for: Fixed.instant(date), at: Self.mondayMorning) == expected)
    }

    @Test(arguments: [
        ("Overdue · Tue 16 Dec 2025 09:00", ["Overdue · Tue 16 Dec 2025", "Overdue · 16 Dec 2025"]),
        ("Thu 4 Mar 2027", ["4 Mar 2027"]),
        ("Tomorrow 09:00", ["Tomorrow"]),
        ("Overdue · 17:00", []),
        ("Today", []),
    ])
    func aLabelHasShorterFormsForANarrowPlace(label: String, forms: [String]) {
        #expect(DueLabeler.shorterForms(of: label) == forms)
    }

    @Test func aTaskWithoutADueDateHasNoLabel() {
        let task = TaskItem(title: "t", createdAt: Self.mondayMorning)
        #expect(DueLabeler(calendar: LocalCalendar(timeZone: Self.berlin)).label(for: task, at: Self.mondayMorning) == nil)
    }

    /// 23:30 UTC on Monday is Tuesday 00:30 in Berlin and Monday 18:30 in New York.
    @Test(arguments: [
        ("Europe/Berlin", "Tomorrow 00:30"),
        ("UTC", "23:30"),
        ("America/New_York", "18:30"),
        ("Asia/Kolkata", "Tomorrow 05:00"),
    ])
    func labelsUseTheUsersTimeZone(zone: String, expected: String) {
        let now = Fixed.instant("2026-11-23T12:00:00Z")
        #expect(label(due: "2026-11-23T23:30:00Z", at: now, zone: Fixed.zone(zone)) == expected)
    }

    @Test(arguments: [
        // New Year's Eve: tomorrow is in the next year, a week later too.
        ("2026-12-31T20:00:00+01:00", "2027-01-01T09:00:00+01:00", "Tomorrow 09:00"),
        ("2026-12-31T20:00:00+01:00", "2027-01-04T23:59:00+01:00", "Mon 4 Jan 2027"),
        ("2027-01-01T09:00:00+01:00", "2026-12-31T17:00:00+01:00", "Overdue · Yesterday 17:00"),
        // Berlin's 23-hour and 25-hour days.
        ("2026-03-28T12:00:00+01:00", "2026-03-29T12:00:00+02:00", "Tomorrow 12:00"),
        ("2026-03-29T01:30:00+01:00", "2026-03-29T03:30:00+02:00", "03:30"),
        ("2026-10-25T02:30:00+01:00", "2026-10-25T02:15:00+02:00", "Overdue · 02:15"),
        ("2026-10-24T12:00:00+02:00", "2026-10-25T23:59:00+01:00", "Tomorrow"),
    ])
    func labelsAcrossYearsAndDaylightSavingChanges(now: String, due: String, expected: String) {
        #expect(label(due: due, at: Fixed.instant(now)) == expected)
    }

    // MARK: - Tasks

    @Test func overdueMeansOpenAndDueAtOrBeforeTheInstant() {
        let due = Fixed.instant("2026-11-23T17:00:00Z")
        var task = TaskItem(title: "t", dueDate: due, createdAt: Self.mondayMorning)
        #expect(!task.isOverdue(at: Instant(millisecondsSince1970: due.millisecondsSince1970 - 1)))
        #expect(task.isOverdue(at: due))
        #expect(task.isOverdue(at: due.adding(seconds: 86_400)))
        task.complete(at: due)
        #expect(!task.isOverdue(at: due.adding(seconds: 86_400)))
        #expect(!TaskItem(title: "t", createdAt: Self.mondayMorning).isOverdue(at: due))
    }

    @Test func tasksAreOrderedBySortOrderThenCreationThenId() {
        let early = Fixed.instant("2026-11-01T00:00:00Z")
        let late = Fixed.instant("2026-11-02T00:00:00Z")
        let expected = [
            TaskItem(id: Fixed.uuid("FFFFFFFF-0000-4000-8000-000000000000"), title: "0 early", sortOrder: 0, createdAt: early),
            TaskItem(id: Fixed.uuid("00000000-0000-4000-8000-000000000001"), title: "0 late a", sortOrder: 0, createdAt: late),
            TaskItem(id: Fixed.uuid("00000000-0000-4000-8000-000000000002"), title: "0 late b", sortOrder: 0, createdAt: late),
            TaskItem(id: Fixed.uuid("00000000-0000-4000-8000-000000000000"), title: "1 early", sortOrder: 1, createdAt: early),
            TaskItem(id: Fixed.uuid("0A000000-0000-4000-8000-000000000000"), title: "7", sortOrder: 7, createdAt: early),
        ]
        for rotation in 0..<expected.count {
            let shuffled = Array(expected[rotation...] + expected[..<rotation]).reversed()
            #expect(shuffled.sorted(by: TaskItem.precedes).map(\.title) == expected.map(\.title))
        }
        for task in expected {
            #expect(!TaskItem.precedes(task, task))
        }
    }

    @Test func completeUncompleteStartAndStopFollowTheSeeds() {
        let created = Fixed.instant("2026-11-23T08:00:00Z")
        let (t1, t2, t3, t4) = (created.adding(seconds: 60), created.adding(seconds: 120), created.adding(seconds: 180), created.adding(seconds: 240))
        var task = TaskItem(title: "t", createdAt: created)
        task.complete(at: t1)
        #expect(task.isCompleted && task.state == .completed && task.completedAt == t1 && task.modifiedAt == t1)
        task.complete(at: t2)
        #expect(task.completedAt == t1 && task.modifiedAt == t1)
        task.start(at: t2)
        #expect(!task.isCompleted && task.state == .active && task.completedAt == nil && task.modifiedAt == t2)
        task.stop(at: t3)
        #expect(task.state == .notStarted && task.modifiedAt == t3)
        task.uncomplete(at: t4)
        #expect(task.state == .notStarted && task.modifiedAt == t3)
    }

    @Test(arguments: [(nil, 0), (-1, 0), (0, 1), (41, 42), (Int.max - 1, Int.max), (Int.max, Int.max)] as [(Int?, Int)])
    func theOrderAfterTheLargestIsTheLargest(last: Int?, next: Int) {
        #expect(SortOrder.after(last) == next)
    }

    // MARK: - Time zone and clock of a run

    static let auckland = Fixed.zone("Pacific/Auckland")

    @Test(arguments: [
        ("Asia/Tokyo", [:], "Asia/Tokyo"),
        ("Asia/Tokyo", ["TZ": "Europe/Berlin"], "Asia/Tokyo"),
        ("Asia/Tokyo", ["TZ": "Nowhere/City"], "Asia/Tokyo"),
        (nil, ["TZ": "Europe/Berlin"], "Europe/Berlin"),
        (nil, ["TZ": ":Europe/Berlin"], "Europe/Berlin"),
        (nil, ["TZ": "/usr/share/zoneinfo/America/New_York"], "America/New_York"),
        (nil, ["TZ": ":/usr/share/zoneinfo/Asia/Kolkata"], "Asia/Kolkata"),
        (nil, [:], "Pacific/Auckland"),
        (nil, ["TZ": ""], "Pacific/Auckland"),
        // Foundation calls the zone UTC "GMT", which the timeline showed for `--tz UTC` (helper-86).
        ("UTC", [:], "Etc/UTC"), (nil, ["TZ": "UTC"], "Etc/UTC"), (nil, ["TZ": "/usr/share/zoneinfo/UTC"], "Etc/UTC"),
    ] as [(String?, [String: String], String)])
    func theTimeZoneComesFromTheArgumentThenTZThenTheSystem(
        argument: String?, environment: [String: String], expected: String
    ) throws {
        let zone = try RunSettings.timeZone(argument: argument, environment: environment, system: Self.auckland)
        #expect(zone.identifier == expected)
    }

    /// POSIX counts a `TZ` offset west of Greenwich: `TZ=UTC+3 date` is three hours behind UTC, and
    /// taskwidget's days must be the ones `date` shows (a Foundation name `UTC+3` is three hours
    /// ahead). `--tz` takes zone names as Foundation reads them.
    /// A whole number of hours is named as tzdata names it (the timeline's `timeZone` is an IANA
    /// name: it was `GMT-0300`, which no zone database reads).
    @Test(arguments: [
        ("UTC+3", -10_800, "Etc/GMT+3"), ("UTC-3", 10_800, "Etc/GMT-3"), ("GMT3", -10_800, "Etc/GMT+3"), ("JST-9", 32_400, "Etc/GMT-9"),
        ("<+14>-14", 50_400, "Etc/GMT-14"), ("<+0530>-5:30", 19_800, "GMT+0530"), ("XYZ+10:15:30", -36_930, nil), ("GMT0", 0, "Etc/UTC"), ("UTC0", 0, "Etc/UTC"),
    ])
    func aPOSIXOffsetInTZCountsWestOfGreenwich(value: String, secondsFromGMT: Int, name: String?) throws {
        let zone = try RunSettings.timeZone(argument: nil, environment: ["TZ": value], system: Self.auckland)
        #expect(zone.secondsFromGMT() == secondsFromGMT)
        if let name { #expect(zone.identifier == name) }
    }

    /// In `--tz` such a name would read one way there and the other in `TZ`: it is refused, with
    /// the zone that says which way.
    @Test func aFixedOffsetInTheTZOptionIsRefusedWithAZoneThatSaysWhichWay() throws {
        let error = expectError(.invalidInput) { try RunSettings.timeZone(argument: "UTC+3", environment: [:], system: Self.auckland) }
        #expect(error?.message == "--tz UTC+3 reads two ways (TZ counts its offset west of UTC): use a zone name like Europe/Moscow, or Etc/GMT-3 for 3 hours ahead of UTC")
        #expect(try RunSettings.timeZone(argument: "Etc/GMT-3", environment: [:], system: Self.auckland).secondsFromGMT() == 10_800)
        #expect(try RunSettings.timeZone(argument: "GMT0", environment: [:], system: Self.auckland).secondsFromGMT() == 0)
    }

    @Test(arguments: ["EST5EDT", "Etc/GMT+3", "UTC", "CET-1CEST,M3.5.0,M10.5.0/3", "UT+3", "UTC+25", "UTC+3:60", "UTC+003"])
    func onlyAFixedPOSIXOffsetIsReadAsOne(value: String) {
        #expect(RunSettings.posixFixedOffset(value) == nil)
    }

    @Test(arguments: [
        ("Mars/Olympus", [:]),
        ("Mars/Olympus", ["TZ": "Europe/Berlin"]),
        ("", [:]),
        (nil, ["TZ": "Nowhere/City"]),
        (nil, ["TZ": ":Nowhere/City"]),
    ] as [(String?, [String: String])])
    func anUnknownTimeZoneIsAUsageErrorNeverUTC(argument: String?, environment: [String: String]) throws {
        let error = expectError(.invalidInput) {
            try RunSettings.timeZone(argument: argument, environment: environment, system: Self.auckland)
        }
        #expect(error?.message.contains("Europe/Berlin") == true)
    }

    /// A zone file that is not one of the system's zones, or no file at all, is refused: `TZ`
    /// named Tokyo's rules there, and due dates went in at the system zone's hours.
    @Test func aZoneFileOutsideTheZoneFolderIsRefused() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("taskwidget-tz-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let copy = folder.appendingPathComponent("Tokyo")
        try FileManager.default.copyItem(atPath: "/usr/share/zoneinfo/Asia/Tokyo", toPath: copy.path)
        for (value, problem) in [(copy.path, "is no zone of /usr/share/zoneinfo"), (":" + copy.path, "is no zone of /usr/share/zoneinfo"), ("/nonexistent/zone", "does not exist")] {
            let error = expectError(.invalidInput) { try RunSettings.timeZone(argument: nil, environment: ["TZ": value], system: Self.auckland) }
            let file = value.hasPrefix(":") ? String(value.dropFirst()) : value
            #expect(error?.message == "TZ names the file \(file), which \(problem): set TZ to a zone name like Europe/Berlin, or pass --tz")
        }
        // A link into the zone folder is read as the zone it links to.
        let link = folder.appendingPathComponent("here")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: "/usr/share/zoneinfo/Asia/Tokyo")
        #expect(try RunSettings.timeZone(argument: nil, environment: ["TZ": link.path], system: Self.auckland).identifier == "Asia/Tokyo")
    }

    /// A zone name in another case, or nearly right, is no zone, but the error names the one meant.
    @Test func aZoneNameNearlyRightIsNamedInTheError() throws {
        let option = expectError(.invalidInput) { try RunSettings.timeZone(argument: "europe/berlin", environment: [:], system: Self.auckland) }
        #expect(option?.message == "unknown time zone “europe/berlin” in --tz: did you mean “Europe/Berlin”?")
        let utc = expectError(.invalidInput) { try RunSettings.timeZone(argument: "utc", environment: [:], system: Self.auckland) }
        #expect(utc?.message == "unknown time zone “utc” in --tz: did you mean “UTC”?")
        let variable = expectError(.invalidInput) { try RunSettings.timeZone(argument: nil, environment: ["TZ": "asia/tokyo"], system: Self.auckland) }
        #expect(variable?.message == "unknown time zone “asia/tokyo” in TZ: set TZ to Asia/Tokyo, or pass --tz")
        // With an accent tzdata's names lack, a typo, or a space for the underscore (helper-169).
        for (typed, meant) in [("Europe/Zürich", "Europe/Zurich"), ("America/São_Paulo", "America/Sao_Paulo"), ("Europe/Berln", "Europe/Berlin"), ("America/New York", "America/New_York"),
            // The current name, where an old one is as near (helper-174).
            ("Asia/Kolkatta", "Asia/Kolkata"), ("Europe/Kyev", "Europe/Kyiv"), ("US/Pacifc", "US/Pacific")] {
            let error = expectError(.invalidInput) { try RunSettings.timeZone(argument: typed, environment: [:], system: Self.auckland) }
            #expect(error?.message == "unknown time zone “\(typed)” in --tz: did you mean “\(meant)”?")
        }
    }

    @Test(arguments: [
        (1_795_420_800.123_456, 1_795_420_800_123),
        (1_795_420_800.999_6, 1_795_420_801_000),
        (1_795_420_800.000_4, 1_795_420_800_000),
        (-0.000_6, -1),
        (-1.234_4, -1234),
    ])
    func theClockIsRoundedToMilliseconds(clock: Double, milliseconds: Int) throws {
        let now = try RunSettings.now(argument: nil, calendar: LocalCalendar(timeZone: Self.berlin), clock: Date(timeIntervalSince1970: clock))
        #expect(now == Instant(millisecondsSince1970: Int64(milliseconds)))
    }

    @Test(arguments: [
        ("2026-11-23T17:00:30.1234+01:00", 1_795_449_630_123),
        ("2026-11-23T17:00:30.9996Z", 1_795_453_231_000),
        ("2026-11-23T17:00", 1_795_449_600_000),
        ("2026-11-23T17:00:00Z", 1_795_453_200_000),
    ])
    func nowFromTheArgumentWinsOverTheClockAndIsRounded(argument: String, milliseconds: Int) throws {
        let now = try RunSettings.now(argument: argument, calendar: LocalCalendar(timeZone: Self.berlin), clock: Self.mondayMorning.date)
        #expect(now == Instant(millisecondsSince1970: Int64(milliseconds)))
    }

    @Test(arguments: ["yesterday", "17:00", "2026-11-31T10:00", "now"])
    func aBadNowIsAUsageError(argument: String) throws {
        expectError(.invalidInput) {
            try RunSettings.now(argument: argument, calendar: LocalCalendar(timeZone: Self.berlin), clock: Self.mondayMorning.date)
        }
    }
}

/// The code point `value` as text: Swift's literals refuse noncharacters (`\u{FFFE}`).
private func scalar(_ value: UInt32) -> String {
    String(Unicode.Scalar(value)!)
}
