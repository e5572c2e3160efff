import Foundation
import Testing

@testable import TaskWidgetTestSupport

/// `taskwidget sync` against a real Radicale (Debian's, with htpasswd auth, started by each test
/// on a free loopback port), run through the built binaries as a user runs them (SPEC §12).
/// Serialized: each test already runs a server, a proxy or two, and Python clients.
@Suite(.serialized, .runsPrograms(onThreadNamed: "sync end-to-end")) struct SyncCommandTests {
    /// Sunday 22 November 2026, Berlin: the sandboxes' clock, and later instants for later edits.
    static let monday = "2026-11-23T10:00:00+01:00"
    static let tuesday = "2026-11-24T10:00:00+01:00"
    static let wednesday = "2026-11-25T10:00:00+01:00"
    /// The suite's own server slot: it runs one server at a time, and in the shared slots each of
    /// its tests waited behind the in-process CalDAV tests' servers (a test took 200 s in CI).
    static let serverSlot = ServerSlots(count: 1)

    /// A private Radicale whose collection "Tasks" holds `todos`, as a phone wrote them, and a
    /// sandbox that has synced them once.
    static func withTasksFromThePhone(_ todos: [String], _ body: (borrowing SyncSandbox) throws -> Void) async throws {
        try await RadicaleServer.withServer(slots: serverSlot) { server in
            let mine = try SyncSandbox(server: server)
            for todo in todos { _ = try await PythonCalDAV.saveTodo(todo, in: "Tasks", server: server) }
            try mine.syncSucceeds()
            try body(mine)
        }
    }

    // MARK: Round trips

    @Test func tasksListsDatesStatesAndRemindersRoundTripBothWays() async throws {
        try await RadicaleServer.withServer(slots: Self.serverSlot) { server in
            let mine = try SyncSandbox(server: server)
            try mine.sandbox.succeed(["list", "add", "Work", "--color", "1E90FF"])
            let allDay = try mine.sandbox.succeed(["add", "File taxes", "--due", "2026-11-27"]).trimmingCharacters(in: .newlines)
            let timed = try mine.sandbox.succeed(["add", "Call Bob", "--due", "2026-11-25T14:30", "--remind", "2026-11-25T14:00", "--list", "Work", "--new-list"])
                .trimmingCharacters(in: .newlines)
            let started = try mine.sandbox.succeed(["add", "Write report", "--list", "Work", "--new-list"]).trimmingCharacters(in: .newlines)
            let done = try mine.sandbox.succeed(["add", "Buy milk"]).trimmingCharacters(in: .newlines)
            try mine.sandbox.succeed(["start", started])
            try mine.sandbox.succeed(["done", done])
            try mine.sandbox.succeed(["move", started, "--to", "1"])

            #expect(try mine.syncSucceeds() == "rad: pulled 0, pushed 4, 0 conflicts merged, deleted 0")
            // What the server got, as iCalendar.
            let allDayText = try #require(try mine.serverObject(containing: "SUMMARY:File taxes"))
            #expect(allDayText.contains("DUE;VALUE=DATE:20261127"))
            #expect(allDayText.contains("STATUS:NEEDS-ACTION"))
            let timedText = try #require(try mine.serverObject(containing: "SUMMARY:Call Bob"))
            #expect(timedText.contains("DUE:20261125T133000Z"))
            #expect(timedText.contains("TRIGGER;VALUE=DATE-TIME:20261125T130000Z"))
            #expect(try mine.serverObject(containing: "SUMMARY:Write report")?.contains("STATUS:IN-PROCESS") == true)
            // Moved to the top, above Call Bob's 0: the one task edited by the move.
            #expect(try mine.serverObject(containing: "SUMMARY:Write report")?.contains("X-APPLE-SORT-ORDER:-1") == true)
            let doneText = try #require(try mine.serverObject(containing: "SUMMARY:Buy milk"))
            #expect(doneText.contains("STATUS:COMPLETED") && doneText.contains("COMPLETED:20261122T152700Z"))
            _ = (allDay, timed)

            // Another client adds tasks with a TZID due (and its VTIMEZONE), a UTC due, a
            // completion and a relative alarm.
            let zone = [
                "BEGIN:VTIMEZONE", "TZID:America/New_York", "BEGIN:STANDARD", "DTSTART:19701101T020000",
                "TZOFFSETFROM:-0400", "TZOFFSETTO:-0500", "END:STANDARD", "END:VTIMEZONE",
            ]
            _ = try await PythonCalDAV.saveTodo(
                foreignTodo(
                    [
                        "UID:ny-call", "DTSTAMP:20261122T120000Z", "LAST-MODIFIED:20261122T120000Z", "SUMMARY:Call New York",
                        "DUE;TZID=America/New_York:20261128T090000", "X-APPLE-SORT-ORDER:5", "BEGIN:VALARM", "ACTION:DISPLAY",
                        "DESCRIPTION:Call", "TRIGGER;RELATED=END:-PT30M", "END:VALARM",
                    ], extraComponents: zone), in: "Work", server: server)
            _ = try await PythonCalDAV.saveTodo(
                foreignTodo([
                    "UID:utc-done", "DTSTAMP:20261122T120000Z", "LAST-MODIFIED:20261122T120000Z", "SUMMARY:Renew passport",
                    "DUE:20261130T080000Z", "STATUS:COMPLETED", "COMPLETED:20261122T110000Z",
                ]), in: "Tasks", server: server)
            // Done without a COMPLETED time (CANCELLED, from another client): its time is the
            // object's, and nothing about it goes back to the server at the next sync.
            _ = try await PythonCalDAV.saveTodo(
                foreignTodo(["UID:cancelled-no-time", "DTSTAMP:20261122T120000Z", "SUMMARY:Old plan", "STATUS:CANCELLED"]), in: "Tasks",
                server: server)
            #expect(try mine.syncSucceeds() == "rad: pulled 3, pushed 0, 0 conflicts merged, deleted 0")
            let newYork = try #require(try mine.task(titled: "Call New York"))
            #expect(newYork["dueDate"] as? String == "2026-11-28T14:00:00Z")
            #expect(newYork["reminderDate"] as? String == "2026-11-28T13:30:00Z")
            #expect(newYork["sortOrder"] as? Int == 5)
            let passport = try #require(try mine.task(titled: "Renew passport"))
            #expect(passport["isCompleted"] as? Bool == true)
            #expect(passport["completedAt"] as? String == "2026-11-22T11:00:00Z")
            #expect(try mine.task(titled: "Old plan")?["completedAt"] as? String == "2026-11-22T12:00:00Z")
            #expect(try mine.sandbox.succeed(["list", "ls"]).contains("Work"))

            // A second store on the same account gets the same tasks and lists, field for field.
            let other = try SyncSandbox(server: server)
            #expect(try other.syncSucceeds() == "rad: pulled 7, pushed 0, 0 conflicts merged, deleted 0")
            #expect(try other.export() == mine.export())

            // Nothing changed: one request (the home's listing), and nothing written anywhere.
            let serverBefore = try mine.serverObjects()
            let exportBefore = try mine.export()
            let quiet = try mine.sync(["--verbose"])
            #expect(quiet.status == 0, "\(quiet.stderr)")
            #expect(quiet.stdout == "rad: pulled 0, pushed 0, 0 conflicts merged, deleted 0\n")
            #expect(SyncSandbox.requestCount(quiet) == 1, "\(quiet.stderr)")
            #expect(try mine.serverObjects() == serverBefore)
            #expect(try mine.export() == exportBefore)
        }
    }

    @Test func anotherClientsPropertiesSurviveARoundTripWithATitleEditedHere() async throws {
        try await RadicaleServer.withServer(slots: Self.serverSlot) { server in
            let mine = try SyncSandbox(server: server)
            let longTitle = String(repeating: "東京で会議の資料を準備する", count: 12).prefix(150)
            #expect(longTitle.count == 150)
            _ = try await PythonCalDAV.saveTodo(
                foreignTodo([
                    "UID:interop-1", "DTSTAMP:20261122T120000Z", "LAST-MODIFIED:20261122T120000Z", "SUMMARY:\(longTitle)",
                    "CATEGORIES:work,japan", "RELATED-TO;RELTYPE=PARENT:interop-parent", "DESCRIPTION:Bring the slides\\, and a pen",
                    "PRIORITY:1", "X-OTHER-CLIENT;X-PARAM=keep:yes", "DUE:20261126T090000Z", "BEGIN:VALARM", "ACTION:DISPLAY",
                    "DESCRIPTION:Meeting", "TRIGGER;RELATED=END:-PT15M", "END:VALARM",
                ]), in: "Tasks", server: server)
            let before = try await PythonCalDAV.todoData(uid: "interop-1", server: server)
            #expect(before.contains("CATEGORIES:work,japan"))

            #expect(try mine.syncSucceeds() == "rad: pulled 1, pushed 0, 0 conflicts merged, deleted 0")
            let task = try #require(try mine.task(titled: String(longTitle)))
            #expect(task["dueDate"] as? String == "2026-11-26T09:00:00Z")
            #expect(task["reminderDate"] as? String == "2026-11-26T08:45:00Z")
            try mine.sandbox.succeed(["edit", try #require(task["shortId"] as? String), "--title", "会議の資料 (edited here)"])
            #expect(try mine.syncSucceeds(now: Self.monday) == "rad: pulled 0, pushed 1, 0 conflicts merged, deleted 0")

            let after = try await PythonCalDAV.todoData(uid: "interop-1", server: server)
            #expect(unfolded(before).contains("SUMMARY:\(longTitle)"), "the folded CJK title as caldav reads it")
            #expect(unfolded(after).contains("SUMMARY:会議の資料 (edited here)"))
            // Every other client's property reads back as caldav read it before the round trip.
            for name in ["CATEGORIES", "RELATED-TO", "DESCRIPTION", "PRIORITY", "X-OTHER-CLIENT", "TRIGGER", "DUE", "ACTION"] {
                #expect(properties(name, in: after) == properties(name, in: before), "\(name) changed")
                #expect(!properties(name, in: before).isEmpty, "\(name) missing before")
            }

            // Deleted on the phone, edited here since: the edit wins, and the task goes back as
            // the server had it, with the edit (it went back with taskwidget's fields alone).
            try await PythonCalDAV.deleteTodo(uid: "interop-1", server: server)
            try mine.sandbox.succeed(["edit", try #require(task["shortId"] as? String), "--title", "会議の資料 (kept here)", "--now", Self.monday])
            #expect(try mine.syncSucceeds(now: Self.tuesday) == "rad: pulled 0, pushed 1, 0 conflicts merged, deleted 0")
            let back = try await PythonCalDAV.todoData(uid: "interop-1", server: server)
            #expect(unfolded(back).contains("SUMMARY:会議の資料 (kept here)"), "\(back)")
            for name in ["CATEGORIES", "RELATED-TO", "DESCRIPTION", "PRIORITY", "X-OTHER-CLIENT", "TRIGGER", "DUE", "ACTION"] {
                #expect(properties(name, in: back) == properties(name, in: before), "\(name) changed")
            }
        }
    }

    /// iCalendar text with its folded lines joined.
    func unfolded(_ text: String) -> String {
        text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\n ", with: "").replacingOccurrences(of: "\n\t", with: "")
    }

    /// The unfolded lines of property `name` (any parameters), in order.
    func properties(_ name: String, in text: String) -> [String] {
        unfolded(text).split(separator: "\n").map(String.init).filter { $0.hasPrefix(name + ":") || $0.hasPrefix(name + ";") }
    }

    // MARK: Conflicts

    @Test func twoStoresSyncingThroughOneServerEndWithTheSameExport() async throws {
        try await RadicaleServer.withServer(slots: Self.serverSlot) { server in
            let a = try SyncSandbox(server: server)
            let b = try SyncSandbox(server: server)
            let rename = try a.sandbox.succeed(["add", "Pay rent", "--due", "2026-11-30"]).trimmingCharacters(in: .newlines)
            let complete = try a.sandbox.succeed(["add", "Water plants", "--list", "Home", "--new-list"]).trimmingCharacters(in: .newlines)
            let delete = try a.sandbox.succeed(["add", "Old idea"]).trimmingCharacters(in: .newlines)
            let deleteEdited = try a.sandbox.succeed(["add", "Keep me"]).trimmingCharacters(in: .newlines)
            try a.syncSucceeds()
            #expect(try b.syncSucceeds() == "rad: pulled 4, pushed 0, 0 conflicts merged, deleted 0")

            // Both sides edit: different fields of one task, completion against a later rename,
            // a deletion against nothing, a deletion against a later edit.
            try a.sandbox.succeed(["edit", rename, "--title", "Pay the rent", "--now", Self.monday])
            try b.sandbox.succeed(["edit", rename, "--due", "2026-12-01", "--now", Self.tuesday])
            try a.sandbox.succeed(["done", complete, "--now", Self.monday])
            try b.sandbox.succeed(["edit", complete, "--title", "Water the plants", "--now", Self.tuesday])
            try a.sandbox.succeed(["rm", delete, "--now", Self.monday])
            try a.sandbox.succeed(["rm", deleteEdited, "--now", Self.monday])
            try b.sandbox.succeed(["edit", deleteEdited, "--title", "Keep me, edited later", "--now", Self.tuesday])

            try a.syncSucceeds(now: Self.wednesday)
            try b.syncSucceeds(now: Self.wednesday)
            try a.syncSucceeds(now: Self.wednesday)
            #expect(try a.export() == b.export())

            let renamed = try #require(try a.task(titled: "Pay the rent"))
            #expect(renamed["dueDate"] as? String == "2026-12-01T22:59:00Z")
            let watered = try #require(try a.task(titled: "Water the plants"))
            #expect(watered["isCompleted"] as? Bool == true, "completion is additive")
            #expect(try a.task(titled: "Old idea") == nil)
            #expect(try a.task(titled: "Keep me, edited later") != nil, "an edit after the deletion wins")
            #expect(try a.serverObject(containing: "SUMMARY:Old idea") == nil)
            #expect(try a.serverObject(containing: "SUMMARY:Keep me\\, edited later") != nil)
            #expect(try a.sandbox.integrity() == "ok" && b.sandbox.integrity() == "ok")
        }
    }

    /// A deletion here against a later edit on the phone of what taskwidget does not keep (a
    /// note): the edit wins, and the task comes back, as for any edit. The deletion went through,
    /// and the note with it (helper-75). An edit from before the deletion still loses to it.
    @Test func aDeletionLosesToALaterPhoneEditOfANote() async throws {
        try await RadicaleServer.withServer(slots: Self.serverSlot) { server in
            let mine = try SyncSandbox(server: server)
            let noted = try mine.sandbox.succeed(["add", "Call the bank"]).trimmingCharacters(in: .newlines)
            let old = try mine.sandbox.succeed(["add", "Old note"]).trimmingCharacters(in: .newlines)
            try mine.syncSucceeds()
            let uids = try ["Call the bank", "Old note"].map { title in try #require(try mine.task(titled: title)?["id"] as? String).lowercased() }
            try mine.sandbox.succeed(["rm", noted, old, "--now", Self.monday])
            for (uid, summary, modified) in [(uids[0], "Call the bank", "20261124T090000Z"), (uids[1], "Old note", "20261122T160000Z")] {
                try await PythonCalDAV.editTodo(
                    uid: uid, replacing: "SUMMARY:\(summary)", with: "SUMMARY:\(summary)\r\nDESCRIPTION:ask for the new card", server: server)
                try await PythonCalDAV.editTodo(
                    uid: uid, replacing: "LAST-MODIFIED:20261122T152700Z", with: "LAST-MODIFIED:\(modified)", server: server)
            }
            #expect(try mine.syncSucceeds(now: Self.wednesday) == "rad: pulled 1, pushed 0, 0 conflicts merged, deleted 1")
            #expect(try mine.task(titled: "Call the bank") != nil)
            #expect(try mine.serverObject(containing: "DESCRIPTION:ask for the new card")?.contains("SUMMARY:Call the bank") == true)
            #expect(try mine.task(titled: "Old note") == nil)
            #expect(try mine.serverObject(containing: "SUMMARY:Old note") == nil)
        }
    }

    /// A phone that completes a task without moving its LAST-MODIFIED (Python caldav's
    /// `complete()`), after this store deleted it: the change there is kept, the task comes back
    /// completed, where the deletion took it without a word (helper-130).
    @Test func aPhoneChangeWithoutANewLastModifiedBeatsADeletionHere() async throws {
        try await RadicaleServer.withServer(slots: Self.serverSlot) { server in
            let mine = try SyncSandbox(server: server)
            let id = try mine.sandbox.succeed(["add", "Return the parcel"]).trimmingCharacters(in: .newlines)
            try mine.syncSucceeds()
            let uid = try #require(try mine.task(titled: "Return the parcel")?["id"] as? String).lowercased()
            try mine.sandbox.succeed(["rm", id, "--now", Self.monday])
            try await PythonCalDAV.editTodo(
                uid: uid, replacing: "STATUS:NEEDS-ACTION", with: "STATUS:COMPLETED\r\nCOMPLETED:20261124T090000Z", server: server)
            #expect(try mine.serverObject(containing: "SUMMARY:Return the parcel")?.contains("LAST-MODIFIED:20261122T152700Z") == true)
            #expect(try mine.syncSucceeds(now: Self.wednesday) == "rad: pulled 1, pushed 0, 0 conflicts merged, deleted 0")
            #expect(try mine.task(titled: "Return the parcel")?["isCompleted"] as? Bool == true)
            #expect(try mine.serverObject(containing: "SUMMARY:Return the parcel")?.contains("STATUS:COMPLETED") == true)
        }
    }

    /// A deletion that sync took to the server, or brought from it, still keeps an older export's
    /// copy out of `import`: the tombstone that said so went once the deletion was on the server,
    /// and the import brought the task back, which the next sync took to every device (helper-130).
    @Test func anOlderExportDoesNotBringBackADeletionSyncCarried() async throws {
        try await RadicaleServer.withServer(slots: Self.serverSlot) { server in
            let mine = try SyncSandbox(server: server)
            let other = try SyncSandbox(server: server)
            let here = try mine.sandbox.succeed(["add", "Deleted here"]).trimmingCharacters(in: .newlines)
            try mine.sandbox.succeed(["add", "Deleted elsewhere"])
            try mine.sandbox.succeed(["add", "Kept"])
            try mine.syncSucceeds()
            let old = mine.sandbox.folder.appendingPathComponent("old.json")
            try Data(try mine.export().utf8).write(to: old)
            #expect(try other.syncSucceeds() == "rad: pulled 3, pushed 0, 0 conflicts merged, deleted 0")
            let elsewhere = try #require(try other.task(titled: "Deleted elsewhere")?["id"] as? String)
            try other.sandbox.succeed(["rm", elsewhere, "--now", Self.monday])
            try other.syncSucceeds(now: Self.monday)
            try mine.sandbox.succeed(["rm", here, "--now", Self.monday])
            #expect(try mine.syncSucceeds(now: Self.tuesday) == "rad: pulled 0, pushed 0, 0 conflicts merged, deleted 2")

            #expect(try mine.sandbox.succeed(["import", old.path]) == "Imported 0 lists, 3 tasks and 0 habits (tasks: 1 unchanged, 2 kept deleted)\n")
            #expect(try mine.tasks().compactMap { $0["title"] as? String } == ["Kept"])
            #expect(try mine.syncSucceeds(now: Self.wednesday) == "rad: pulled 0, pushed 0, 0 conflicts merged, deleted 0")
            #expect(try mine.serverObject(containing: "SUMMARY:Deleted") == nil)
            // An export edited after the deletion still brings its task back (SPEC §12).
            var document = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: old)) as? [String: Any])
            document["tasks"] = (document["tasks"] as? [[String: Any]] ?? []).map { task in
                task["title"] as? String == "Deleted here" ? task.merging(["modifiedAt": "2026-11-24T12:00:00Z"]) { $1 } : task
            }
            try JSONSerialization.data(withJSONObject: document).write(to: old)
            #expect(try mine.sandbox.succeed(["import", old.path]) == "Imported 0 lists, 3 tasks and 0 habits (tasks: 1 new, 1 unchanged, 1 kept deleted)\n")
            #expect(try mine.syncSucceeds(now: Self.wednesday) == "rad: pulled 0, pushed 1, 0 conflicts merged, deleted 0")
        }
    }

    /// A restore goes to the server at the next sync: a task deleted and synced after the backup
    /// comes back there, and a rename synced after it is undone there. With what the backup's
    /// sync knew, the next sync undid the restore instead (helper-127).
    @Test func aRestoreGoesToTheServerAtTheNextSync() async throws {
        try await RadicaleServer.withServer(slots: Self.serverSlot) { server in
            let mine = try SyncSandbox(server: server)
            let deleted = try mine.sandbox.succeed(["add", "Call the bank"]).trimmingCharacters(in: .newlines)
            let renamed = try mine.sandbox.succeed(["add", "Pay rent"]).trimmingCharacters(in: .newlines)
            try mine.syncSucceeds()
            let backup = mine.sandbox.folder.appendingPathComponent("backup.sqlite").path
            try mine.sandbox.succeed(["backup", backup])
            try mine.sandbox.succeed(["rm", deleted, "--now", Self.monday])
            try mine.sandbox.succeed(["edit", renamed, "--title", "Pay the rent", "--now", Self.monday])
            try mine.syncSucceeds(now: Self.monday)
            #expect(try mine.serverObject(containing: "SUMMARY:Call the bank") == nil)

            try mine.sandbox.succeed(["restore", backup, "--yes", "--now", Self.tuesday])
            try mine.syncSucceeds(now: Self.tuesday)
            #expect(try mine.task(titled: "Call the bank") != nil)
            #expect(try mine.task(titled: "Pay rent") != nil)
            #expect(try mine.serverObject(containing: "SUMMARY:Call the bank") != nil)
            #expect(try mine.serverObject(containing: "SUMMARY:Pay rent") != nil)
            #expect(try mine.serverObject(containing: "SUMMARY:Pay the rent") == nil)
            // And it stays so.
            #expect(try mine.syncSucceeds(now: Self.wednesday) == "rad: pulled 0, pushed 0, 0 conflicts merged, deleted 0")
        }
    }

    /// A server restored from an old copy lacks the tasks synced since, which read as deleted
    /// there: a sync that would delete most of the store's synced tasks here is refused before it
    /// writes anything, dry run too (it deleted 519 of 524 tasks and exited 0, helper-147).
    /// `forget` sends them back; `--force-delete` carries a deletion made on purpose.
    @Test func aSyncThatWouldDeleteMostSyncedTasksHereNeedsForceDelete() async throws {
        try await RadicaleServer.withServer(slots: Self.serverSlot) { server in
            let mine = try SyncSandbox(server: server)
            try mine.sandbox.succeed(["add", "Pay rent"])
            try mine.sandbox.succeed(["add", "Buy milk"])
            #expect(try mine.syncSucceeds() == "rad: pulled 0, pushed 2, 0 conflicts merged, deleted 0")
            let home = server.storageRoot.appendingPathComponent(server.username)
            let oldCopy = mine.sandbox.folder.appendingPathComponent("radicale-copy")
            try FileManager.default.copyItem(at: home, to: oldCopy)
            try mine.sandbox.succeed(["list", "add", "Trip"])
            for number in 1...8 { try mine.sandbox.succeed(["add", "Pack item \(number)", "--list", "Trip"]) }
            #expect(try mine.syncSucceeds() == "rad: pulled 0, pushed 8, 0 conflicts merged, deleted 0")
            let synced = try mine.export()
            let folders = Self.collectionFolders(server)

            try FileManager.default.removeItem(at: home)
            try FileManager.default.copyItem(at: oldCopy, to: home)
            // The list by its collection's path: off a terminal names are never written (helper-173).
            let trip = try #require(folders.subtracting(Self.collectionFolders(home: oldCopy)).first)
            let refusal =
                "taskwidget: the server no longer has 8 of the 10 tasks this store synced with the account “rad” (the collection of "
                + "/\(server.username)/\(trip)/ is gone from the server), so this sync would delete them here (`taskwidget sync --account rad --store "
                + "\(mine.sandbox.storePath) --dry-run --force-delete` lists them, deleting nothing): if they were deleted on purpose, "
                + "run `taskwidget sync --account rad --store \(mine.sandbox.storePath) "
                + "--force-delete`; if the server lost them (restored from an old copy, emptied), run `taskwidget sync account forget rad "
                + "--store \(mine.sandbox.storePath)` and sync again to send them back\n"
            #expect(try mine.syncRefused() == refusal)
            #expect(try mine.sandbox.run(["sync", "--dry-run"]).stderr == refusal)
            #expect(try mine.export() == synced)
            #expect(Self.collectionFolders(server).count == 1, "nothing made on the server")
            // The advice repeats a --config given, as the commands need it (helper-155).
            let config = mine.sandbox.folder.appendingPathComponent("other.toml").path
            try FileManager.default.copyItem(atPath: mine.configPath, toPath: config)
            let withConfig = try mine.sandbox.run(["sync", "--config", config])
            #expect(withConfig.status == 64)
            #expect(withConfig.stderr.contains("run `taskwidget sync --account rad --store \(mine.sandbox.storePath) --config \(config) --force-delete`"), "\(withConfig.stderr)")
            #expect(withConfig.stderr.contains("run `taskwidget sync account forget rad --store \(mine.sandbox.storePath) --config \(config)`"), "\(withConfig.stderr)")

            try mine.sandbox.succeed(["sync", "account", "forget", "rad"])
            #expect(try mine.syncSucceeds() == "rad: pulled 0, pushed 8, 0 conflicts merged, deleted 0")
            #expect(try mine.export() == synced)
            #expect(Self.collectionFolders(server) == folders)
            #expect(try server.storedTitles().count == 10)

            // The phone deletes the list's calendar on purpose.
            try FileManager.default.removeItem(at: home.appendingPathComponent(trip))
            #expect(try mine.syncRefused() == refusal)
            #expect(try mine.syncSucceeds(["--force-delete"]) == "rad: pulled 0, pushed 0, 0 conflicts merged, deleted 8")
            #expect(try mine.tasks().compactMap { $0["title"] as? String }.sorted() == ["Buy milk", "Pay rent"])
            #expect(try mine.syncSucceeds() == "rad: pulled 0, pushed 0, 0 conflicts merged, deleted 0")
        }
    }

    @Test func aCompletedTaskIsNotReopenedByAnotherClientsOlderCopy() async throws {
        try await RadicaleServer.withServer(slots: Self.serverSlot) { server in
            let mine = try SyncSandbox(server: server)
            let id = try mine.sandbox.succeed(["add", "Submit form"]).trimmingCharacters(in: .newlines)
            try mine.syncSucceeds()
            try mine.sandbox.succeed(["done", id, "--now", Self.tuesday])
            // Meanwhile, an edit of the title on the phone, earlier than the completion.
            let uid = try #require(try mine.task(titled: "Submit form")?["id"] as? String).lowercased()
            try await PythonCalDAV.editTodo(uid: uid, replacing: "SUMMARY:Submit form", with: "SUMMARY:Submit the form", server: server)
            try await PythonCalDAV.editTodo(
                uid: uid, replacing: "LAST-MODIFIED:20261122T152700Z", with: "LAST-MODIFIED:20261123T090000Z", server: server)
            try mine.syncSucceeds(now: Self.wednesday)
            let task = try #require(try mine.task(titled: "Submit the form"))
            #expect(task["isCompleted"] as? Bool == true)
            #expect(try mine.serverObject(containing: "SUMMARY:Submit the form")?.contains("STATUS:COMPLETED") == true)
            // An explicit undo here reopens it, on the server too.
            try mine.sandbox.succeed(["undo", id, "--now", Self.wednesday])
            try mine.syncSucceeds(now: Self.wednesday)
            #expect(try mine.serverObject(containing: "SUMMARY:Submit the form")?.contains("STATUS:NEEDS-ACTION") == true)
        }
    }

    // MARK: Deleted lists

    /// The collections in the user's folder on the server, by name.
    static func collectionFolders(_ server: RadicaleServer) -> Set<String> {
        collectionFolders(home: server.storageRoot.appendingPathComponent(server.username))
    }

    /// The collections' folders in a Radicale user's storage folder (or a copy of it).
    static func collectionFolders(home: URL) -> Set<String> {
        Set(((try? FileManager.default.contentsOfDirectory(atPath: home.path)) ?? []).filter { !$0.hasPrefix(".") })
    }

    /// The phone renames a task of this store's (made at the sandbox's clock) and stamps the edit
    /// `modified` (iCalendar UTC).
    static func renameOnThePhone(uid: String, _ title: String, to newTitle: String, modified: String, server: RadicaleServer) async throws {
        try await PythonCalDAV.editTodo(uid: uid, replacing: "SUMMARY:\(title)", with: "SUMMARY:\(newTitle)", server: server)
        try await PythonCalDAV.editTodo(
            uid: uid, replacing: "LAST-MODIFIED:20261122T152700Z", with: "LAST-MODIFIED:\(modified)", server: server)
    }

    /// A list deleted here is deleted on the server too, as a phone's deletion of a list is, and
    /// does not come back (it came back at once, empty).
    @Test func aListDeletedHereIsDeletedOnTheServerAndStaysDeleted() async throws {
        try await RadicaleServer.withServer(slots: Self.serverSlot) { server in
            let mine = try SyncSandbox(server: server)
            let id = try mine.sandbox.succeed(["add", "Buy bread", "--list", "Errands", "--new-list"]).trimmingCharacters(in: .newlines)
            try mine.sandbox.succeed(["add", "Inbox task"])
            try mine.syncSucceeds()
            let withErrands = Self.collectionFolders(server)
            #expect(withErrands.count == 2)
            try mine.sandbox.succeed(["list", "rm", "Errands", "--yes"])
            let plan = try mine.syncSucceeds(["--dry-run"])
            #expect(plan.contains(": delete there 1: \(id); delete the collection once empty (its list was deleted here)"), "\(plan)")
            #expect(Self.collectionFolders(server) == withErrands)
            #expect(try mine.syncSucceeds() == "rad: pulled 0, pushed 0, 0 conflicts merged, deleted 1, 1 deleted list removed from the server")
            #expect(Self.collectionFolders(server).count == 1)
            #expect(try mine.serverObject(containing: "SUMMARY:Buy bread") == nil)
            #expect(try mine.syncSucceeds() == "rad: pulled 0, pushed 0, 0 conflicts merged, deleted 0")
            #expect(try mine.sandbox.succeed(["list", "ls"]).hasPrefix("No lists."))
            #expect(try mine.tasks().map { $0["title"] as? String } == ["Inbox task"])
        }
    }

    /// New collections are planned by name: they all share "(new collection)", and came in
    /// another order from run to run, so two dry runs did not compare (helper-113).
    @Test func aDryRunPlansNewCollectionsByName() async throws {
        try await RadicaleServer.withServer(slots: Self.serverSlot) { server in
            let mine = try SyncSandbox(server: server)
            for list in ["Zeta", "Alpha", "Mid", "Beta"] { try mine.sandbox.succeed(["add", "Task in \(list)", "--list", list, "--new-list"]) }
            try mine.sandbox.succeed(["add", "Inbox task"])
            try mine.sandbox.succeed(["list", "add", "Empty"])
            for _ in 1...3 {
                let plan = try mine.syncSucceeds(["--dry-run"])
                let names = plan.split(separator: "\n").filter { $0.contains("(new collection)") }.map {
                    String($0.trimmingCharacters(in: .whitespaces).split(separator: " ")[0])
                }
                #expect(names == ["Alpha", "Beta", "Empty", "Inbox", "Mid", "Zeta"], "\(plan)")
                // A list without tasks gets its collection too: it said "no change" (helper-120).
                #expect(plan.contains("  Empty (new collection): make the collection"), "\(plan)")
            }
        }
    }

    /// A deletion loses to an edit made after it (SPEC §12): a list deleted here whose task was
    /// edited on the phone since comes back with that task, and the other task's deletion holds.
    @Test func aListDeletedHereComesBackWithATaskEditedThereSince() async throws {
        try await RadicaleServer.withServer(slots: Self.serverSlot) { server in
            let mine = try SyncSandbox(server: server)
            let kept = try mine.sandbox.succeed(["add", "Buy bread", "--list", "Errands", "--new-list"]).trimmingCharacters(in: .newlines)
            try mine.sandbox.succeed(["add", "Buy jam", "--list", "Errands"])
            try mine.syncSucceeds()
            let uid = try #require(try mine.task(titled: "Buy bread")?["id"] as? String).lowercased()
            try mine.sandbox.succeed(["list", "rm", "Errands", "--yes", "--now", Self.monday])
            try await Self.renameOnThePhone(uid: uid, "Buy bread", to: "Buy rye bread", modified: "20261124T090000Z", server: server)
            try mine.syncSucceeds(now: Self.wednesday)
            #expect(try mine.tasks().map { $0["title"] as? String } == ["Buy rye bread"])
            #expect((try mine.task(titled: "Buy rye bread")?["id"] as? String)?.lowercased().hasPrefix(kept) == true)
            #expect(try mine.sandbox.succeed(["list", "ls"]).contains("Errands"))
            #expect(try mine.serverObject(containing: "SUMMARY:Buy jam") == nil)
            #expect(Self.collectionFolders(server).count == 2)
        }
    }

    /// A task edited on the phone *before* its list was deleted here loses to the deletion: the
    /// list does not come back (empty, as it did when any change there brought it back), and the
    /// collection goes.
    @Test func aListDeletedHereStaysDeletedWhenItsTaskWasEditedThereBefore() async throws {
        try await RadicaleServer.withServer(slots: Self.serverSlot) { server in
            let mine = try SyncSandbox(server: server)
            try mine.sandbox.succeed(["add", "Buy bread", "--list", "Errands", "--new-list"])
            try mine.syncSucceeds()
            let uid = try #require(try mine.task(titled: "Buy bread")?["id"] as? String).lowercased()
            try await Self.renameOnThePhone(uid: uid, "Buy bread", to: "Buy rye bread", modified: "20261122T200000Z", server: server)
            try mine.sandbox.succeed(["list", "rm", "Errands", "--yes", "--now", Self.monday])
            #expect(
                try mine.syncSucceeds(now: Self.tuesday)
                    == "rad: pulled 0, pushed 0, 0 conflicts merged, deleted 1, 1 deleted list removed from the server")
            #expect(try mine.sandbox.succeed(["list", "ls"]).hasPrefix("No lists."))
            #expect(try mine.tasks().isEmpty)
            #expect(Self.collectionFolders(server).count == 1)
            #expect(try mine.syncSucceeds(now: Self.tuesday) == "rad: pulled 0, pushed 0, 0 conflicts merged, deleted 0")
        }
    }

    /// A calendar that may hold events is never deleted: its tasks' deletions go out, its events
    /// stay, and the list does not come back until one of its tasks changes there.
    @Test func aCalendarThatMayHoldEventsStaysWhenItsListIsDeletedHere() async throws {
        try await RadicaleServer.withServer(slots: Self.serverSlot) { server in
            let mine = try SyncSandbox(server: server)
            _ = try await RadicaleServer.runPython(
                """
                import sys, caldav
                url, user, password, todo, event = sys.argv[1:6]
                principal = caldav.DAVClient(url=url, username=user, password=password).principal()
                family = principal.make_calendar(name="Family", supported_calendar_component_set=["VEVENT", "VTODO"])
                family.save_todo(todo)
                family.save_event(event)
                """,
                arguments: [
                    server.baseURL.absoluteString, server.username, server.password,
                    foreignTodo(["UID:family-todo", "DTSTAMP:20261122T120000Z", "LAST-MODIFIED:20261122T120000Z", "SUMMARY:Water the plants"]),
                    (["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//other client//EN", "BEGIN:VEVENT", "UID:family-event",
                      "DTSTAMP:20261122T120000Z", "DTSTART:20261128T100000Z", "DTEND:20261128T110000Z", "SUMMARY:Birthday",
                      "END:VEVENT", "END:VCALENDAR", ""]).joined(separator: "\r\n"),
                ])
            // The event is no task: nothing to report (it was "1 left alone (not valid iCalendar)").
            #expect(try mine.syncSucceeds() == "rad: pulled 1, pushed 0, 0 conflicts merged, deleted 0")
            #expect(try mine.sandbox.succeed(["list", "ls"]).contains("Family"))
            try mine.sandbox.succeed(["list", "rm", "Family", "--yes"])
            let plan = try mine.syncSucceeds(["--dry-run"])
            #expect(plan.contains("keep the collection (it may hold events)"), "\(plan)")
            // Not on a terminal (as under a timer, into the journal): the calendar by its path.
            let kept = try mine.syncSucceeds().split(separator: "\n")
            #expect(kept.first == "rad: pulled 0, pushed 0, 0 conflicts merged, deleted 1")
            #expect(kept.count == 2 && kept[1].hasPrefix("rad: the calendar /\(server.username)/"), "\(kept)")
            #expect(kept.last?.hasSuffix("/ stays on the server: it may hold events, so only its tasks were deleted; delete it in a calendar app if it is no longer needed") == true)
            #expect(!kept.joined().contains("Family"))
            #expect(try mine.serverObject(containing: "SUMMARY:Water the plants") == nil)
            #expect(try mine.serverObject(containing: "SUMMARY:Birthday") != nil)
            #expect(try mine.syncSucceeds() == "rad: pulled 0, pushed 0, 0 conflicts merged, deleted 0")
            #expect(!(try mine.sandbox.succeed(["list", "ls"]).contains("Family")))
        }
    }

    /// A list deleted on the phone whose task was edited here since keeps that task (the edit
    /// wins), and the same sync makes the list's collection again and pushes it: it took a second
    /// sync.
    @Test func aCollectionDeletedThereIsMadeAgainInTheSameSyncForATaskEditedHere() async throws {
        try await RadicaleServer.withServer(slots: Self.serverSlot) { server in
            let mine = try SyncSandbox(server: server)
            let edited = try mine.sandbox.succeed(["add", "Buy bread", "--list", "Errands", "--new-list"]).trimmingCharacters(in: .newlines)
            try mine.sandbox.succeed(["add", "Buy jam", "--list", "Errands"])
            try mine.syncSucceeds()
            _ = try await RadicaleServer.runPython(
                """
                import sys, caldav
                url, user, password = sys.argv[1:4]
                principal = caldav.DAVClient(url=url, username=user, password=password).principal()
                [calendar.delete() for calendar in principal.calendars() if calendar.name == "Errands"]
                """, arguments: [server.baseURL.absoluteString, server.username, server.password])
            #expect(try mine.serverObject(containing: "SUMMARY:Buy bread") == nil)
            try mine.sandbox.succeed(["edit", edited, "--title", "Buy brown bread", "--now", Self.monday])
            #expect(try mine.syncSucceeds(now: Self.tuesday) == "rad: pulled 0, pushed 1, 0 conflicts merged, deleted 1")
            #expect(try mine.tasks().map { $0["title"] as? String } == ["Buy brown bread"])
            #expect(try mine.serverObject(containing: "SUMMARY:Buy brown bread") != nil)
            #expect(try mine.syncSucceeds(now: Self.tuesday) == "rad: pulled 0, pushed 0, 0 conflicts merged, deleted 0")
        }
    }

    /// The Inbox's collection deleted on the phone is a list's deleted there: the Inbox tasks not
    /// edited here since are deleted here, and a new collection gets the others (an edited one,
    /// one added since). Before, the collection was made again at its old path in the same sync,
    /// whose listing then had nothing to say about the tasks: they stayed here, never sent again.
    /// The dry run says what the sync then does. A phone's task kept goes back with what the phone
    /// wrote into it.
    @Test func anInboxCollectionDeletedThereIsMadeAgainForTheTasksThatStay() async throws {
        try await RadicaleServer.withServer(slots: Self.serverSlot) { server in
            let mine = try SyncSandbox(server: server)
            let edited = try mine.sandbox.succeed(["add", "Buy bread"]).trimmingCharacters(in: .newlines)
            try mine.sandbox.succeed(["add", "Buy jam"])
            try mine.syncSucceeds()
            _ = try await PythonCalDAV.saveTodo(
                foreignTodo(["UID:phone-1", "DTSTAMP:20261122T120000Z", "SUMMARY:Call the plumber", "CATEGORIES:home", "DESCRIPTION:The boiler"]),
                in: "Tasks", server: server)
            #expect(try mine.syncSucceeds() == "rad: pulled 1, pushed 0, 0 conflicts merged, deleted 0")
            let phoneTask = try #require(try mine.task(titled: "Call the plumber")?["shortId"] as? String)
            _ = try await RadicaleServer.runPython(
                """
                import sys, caldav
                url, user, password = sys.argv[1:4]
                principal = caldav.DAVClient(url=url, username=user, password=password).principal()
                [calendar.delete() for calendar in principal.calendars() if calendar.name == "Tasks"]
                """, arguments: [server.baseURL.absoluteString, server.username, server.password])
            try mine.sandbox.succeed(["edit", edited, "--title", "Buy brown bread", "--now", Self.monday])
            try mine.sandbox.succeed(["edit", phoneTask, "--due", "2026-11-30", "--now", Self.monday])
            let added = try mine.sandbox.succeed(["add", "Buy butter", "--now", Self.monday]).trimmingCharacters(in: .newlines)
            let plan = try mine.sync(["--dry-run"], now: Self.tuesday).stdout
            #expect(plan.hasPrefix("rad (dry run, nothing changed): pulled 0, pushed 3, 0 conflicts merged, deleted 1\n"), "\(plan)")
            #expect(plan.contains("(deleted on the server; made again): push 3: "), "\(plan)")
            #expect(plan.contains(edited.prefix(8)) && plan.contains(added.prefix(8)), "\(plan)")
            #expect(try mine.syncSucceeds(now: Self.tuesday) == "rad: pulled 0, pushed 3, 0 conflicts merged, deleted 1")
            #expect(try mine.tasks().compactMap { $0["title"] as? String }.sorted() == ["Buy brown bread", "Buy butter", "Call the plumber"])
            #expect(try server.storedTitles() == ["Buy brown bread", "Buy butter", "Call the plumber"])
            let plumber = try await PythonCalDAV.todoData(uid: "phone-1", server: server)
            #expect(plumber.contains("CATEGORIES:home") && plumber.contains("DESCRIPTION:The boiler"), "\(plumber)")
            #expect(try mine.syncSucceeds(now: Self.tuesday) == "rad: pulled 0, pushed 0, 0 conflicts merged, deleted 0")
        }
    }

    /// The Inbox's collection deleted on the phone with nothing kept here: the dry run says a new
    /// one is made, as the sync does. Deleted again and made anew by the phone under another
    /// path: that one is the Inbox, and the task kept here goes there, once.
    @Test func anInboxCollectionDeletedThereIsMadeAgainEvenEmptyAndNotWhenThePhoneMadeOne() async throws {
        try await RadicaleServer.withServer(slots: Self.serverSlot) { server in
            let mine = try SyncSandbox(server: server)
            try mine.sandbox.succeed(["add", "Buy bread"])
            try mine.sandbox.succeed(["add", "Buy jam"])
            try mine.syncSucceeds()
            func phone(_ code: String) async throws -> String {
                try await RadicaleServer.runPython(
                    """
                    import sys, caldav
                    url, user, password = sys.argv[1:4]
                    principal = caldav.DAVClient(url=url, username=user, password=password).principal()
                    \(code)
                    """, arguments: [server.baseURL.absoluteString, server.username, server.password])
            }
            let delete = "[calendar.delete() for calendar in principal.calendars() if calendar.name == 'Tasks']"
            let listing = "print(sorted((c.name, len(c.todos(include_completed=True))) for c in principal.calendars()))"
            _ = try await phone(delete)
            let plan = try mine.sync(["--dry-run"]).stdout
            #expect(plan.hasPrefix("rad (dry run, nothing changed): pulled 0, pushed 0, 0 conflicts merged, deleted 2\n"), "\(plan)")
            #expect(plan.contains("(deleted on the server; made again): delete here 2: "), "\(plan)")
            #expect(try mine.syncSucceeds() == "rad: pulled 0, pushed 0, 0 conflicts merged, deleted 2")
            #expect(try await phone(listing) == "[('Tasks', 0)]\n")

            let kept = try mine.sandbox.succeed(["add", "Buy milk"]).trimmingCharacters(in: .newlines)
            #expect(try mine.syncSucceeds() == "rad: pulled 0, pushed 1, 0 conflicts merged, deleted 0")
            _ = try await phone(delete + "\nprincipal.make_calendar(name='Tasks', supported_calendar_component_set=['VTODO'])")
            try mine.sandbox.succeed(["edit", kept, "--title", "Buy oat milk", "--now", Self.monday])
            let again = try mine.sync(["--dry-run"], now: Self.tuesday).stdout
            #expect(again.hasPrefix("rad (dry run, nothing changed): pulled 0, pushed 1, 0 conflicts merged, deleted 0\n"), "\(again)")
            #expect(again.contains("(deleted on the server)\n") || again.contains("(deleted on the server): "), "\(again)")
            #expect(!again.contains("made again"), "\(again)")
            #expect(try mine.syncSucceeds(now: Self.tuesday) == "rad: pulled 0, pushed 1, 0 conflicts merged, deleted 0")
            #expect(try await phone(listing) == "[('Tasks', 1)]\n")
            #expect(try server.storedTitles() == ["Buy oat milk"])
        }
    }

    /// Another client's CANCELLED task has no COMPLETED, no X-APPLE-SORT-ORDER and no CREATED;
    /// edited on both sides between two syncs, it gets none of them from the store's filled-in
    /// values: only the edits go out.
    @Test func aTaskEditedOnBothSidesGetsNoFilledInFields() async throws {
        try await RadicaleServer.withServer(slots: Self.serverSlot) { server in
            let mine = try SyncSandbox(server: server)
            _ = try await PythonCalDAV.saveTodo(
                foreignTodo(["UID:cancelled-1", "DTSTAMP:20261122T120000Z", "SUMMARY:Old plan", "STATUS:CANCELLED"]), in: "Tasks", server: server)
            #expect(try mine.syncSucceeds() == "rad: pulled 1, pushed 0, 0 conflicts merged, deleted 0")
            try await PythonCalDAV.editTodo(uid: "cancelled-1", replacing: "SUMMARY:Old plan", with: "SUMMARY:Old plan\r\nDESCRIPTION:Dropped", server: server)
            let id = try #require(try mine.task(titled: "Old plan")?["shortId"] as? String)
            try mine.sandbox.succeed(["edit", id, "--title", "Old plan (dropped)", "--now", Self.monday])
            // The phone's edit is to a property taskwidget does not model: nothing to pull.
            #expect(try mine.syncSucceeds(now: Self.tuesday) == "rad: pulled 0, pushed 1, 0 conflicts merged, deleted 0")
            let text = try await PythonCalDAV.todoData(uid: "cancelled-1", server: server)
            #expect(text.contains("SUMMARY:Old plan (dropped)") && text.contains("DESCRIPTION:Dropped") && text.contains("STATUS:CANCELLED"), "\(text)")
            for name in ["COMPLETED", "X-APPLE-SORT-ORDER", "CREATED"] {
                #expect(properties(name, in: text).isEmpty, "\(name) in \(text)")
            }
        }
    }

    // MARK: Faults

    @Test(arguments: [
        ("status500", Int32(75)), ("status503", 75), ("after:1:truncate", 75), ("after:1:garble", 69), ("after:1:reset", 75),
        ("only:PUT:status500", 75),
    ])
    func aFailingServerChangesNothingHereAndTheNextSyncFinishes(rule: String, status: Int32) async throws {
        try await RadicaleServer.withServer(slots: Self.serverSlot) { server in
            try await withProxy(server) { proxy in
            let mine = try SyncSandbox(server: server, url: proxy.baseURL)
            try mine.sandbox.succeed(["add", "Local task"])
            try mine.syncSucceeds()
            _ = try await PythonCalDAV.saveTodo(
                foreignTodo(["UID:remote-1", "DTSTAMP:20261122T120000Z", "SUMMARY:Remote task"]), in: "Tasks", server: server)
            try mine.sandbox.succeed(["add", "Second local task"])

            proxy.setRule(rule)
            let before = try mine.export()
            let failed = try mine.sync()
            #expect(failed.status == status, "\(rule): \(failed.stderr)")
            #expect(failed.stderrLines.count == 1 && failed.stderr.hasPrefix("taskwidget: sync of “rad”: "), "\(failed.stderr)")
            #expect(!failed.stderr.contains(server.password))
            if rule.hasPrefix("only:PUT") {
                // The pull went through whole before the push failed.
                #expect(try mine.task(titled: "Remote task") != nil)
            } else {
                #expect(try mine.export() == before, "\(rule) changed the store")
            }
            #expect(try mine.sandbox.integrity() == "ok")

            proxy.setRule("pass")
            try mine.syncSucceeds()
            #expect(try mine.task(titled: "Remote task") != nil)
            #expect(try mine.serverObject(containing: "SUMMARY:Second local task") != nil)
            #expect(try mine.serverObjects().count == 3, "no duplicates")
            }
        }
    }

    /// A fault proxy in front of `server` for `body`, stopped afterwards.
    func withProxy(_ server: RadicaleServer, _ body: (FaultProxy) async throws -> Void) async throws {
        let proxy = try await FaultProxy.start(upstream: server)
        do {
            try await body(proxy)
        } catch {
            await proxy.stop()
            throw error
        }
        await proxy.stop()
    }

    @Test func aStoppedServerIsRetryLaterAndChangesNothing() async throws {
        let server = try await RadicaleServer.start()
        let mine = try SyncSandbox(server: server)
        try mine.sandbox.succeed(["add", "Local task"])
        try mine.syncSucceeds()
        try mine.sandbox.succeed(["add", "Another"])
        await server.stop()
        let before = try mine.export()
        let failed = try mine.sync()
        #expect(failed.status == 75, "\(failed.stderr)")
        #expect(failed.stderr.hasPrefix("taskwidget: sync of “rad”: cannot connect to 127.0.0.1:\(server.port): "), "\(failed.stderr)")
        #expect(try mine.export() == before)
        #expect(try mine.sandbox.integrity() == "ok")
    }

    /// Without a home folder there is no config.toml, so no account: sync says why, where it
    /// advised adding one, which then failed for the same reason (helper-90).
    @Test func withoutAHomeSyncSaysThereIsNoConfig() throws {
        let sandbox = try Sandbox()
        let result = try ProcessRunner.run(Sandbox.binary.path, ["sync", "--store", sandbox.storePath], environment: ["TZ": "UTC"])
        #expect(result.status == 64)
        #expect(result.stderr == "taskwidget: there is no home folder for config.toml, which holds the sync accounts: set HOME or XDG_CONFIG_HOME, or pass --config\n")
        // account ls said there were none and advised an `account add` that failed so (helper-110).
        let listed = try ProcessRunner.run(Sandbox.binary.path, ["sync", "account", "ls", "--store", sandbox.storePath], environment: ["TZ": "UTC"])
        #expect(listed.status == 64)
        #expect(listed.stderr == "taskwidget: there is no home folder for config.toml: set HOME or XDG_CONFIG_HOME, or pass --config\n")
    }

    /// An account's port that no server can listen on, written into config.toml by hand: past
    /// 65535 sync trapped (exit 132), and 0 said "try again later" (75) (helper-109).
    @Test(arguments: ["http://127.0.0.1:99999/", "http://127.0.0.1:0/", "http://[::1]:70000/"])
    func anAccountsImpossiblePortIsAConfigurationError(url: String) throws {
        let sandbox = try Sandbox()
        try sandbox.succeed(["add", "Pay rent"])
        try sandbox.writeConfig("[sync.accounts.z]\nurl = \"\(url)\"\n")
        let port = url.split(separator: ":").last!.dropLast()
        for arguments in [["sync"], ["sync", "--dry-run"]] {
            let result = try sandbox.run(arguments)
            #expect(result.status == 64, "\(arguments)")
            #expect(result.stderr == "taskwidget: the url of the account “z” has the port \(port), which no server can listen on: fix it in the configuration\n")
        }
    }

    /// Without a home folder, `--config ~/…` is refused by every sync command, as `~/` is in
    /// every other path option (`account add` wrote the file into the passwd entry's home, where
    /// nothing read it: helper-102); a file named in full lists its accounts without a store.
    @Test func withoutAHomeATildeConfigIsRefusedAndAFullPathWorks() throws {
        let sandbox = try Sandbox()
        let refusal = "taskwidget: HOME is not set, so ~/ in --config names no folder: give an absolute path\n"
        let add = ["sync", "account", "add", "n", "--url", "http://127.0.0.1:1/", "--user", "a", "--password-command", "true", "--config"]
        for arguments in [add + ["~/c.toml"], ["sync", "account", "ls", "--config", "~/c.toml"], ["sync", "account", "rm", "n", "--config", "~/c.toml"],
            ["sync", "--store", sandbox.storePath, "--config", "~/c.toml"]]
        {
            let result = try ProcessRunner.run(Sandbox.binary.path, arguments, environment: ["TZ": "UTC"])
            #expect(result.status == 64, "\(arguments)")
            #expect(result.stderr == refusal, "\(arguments)")
        }
        let config = sandbox.folder.appendingPathComponent("c.toml").path
        #expect(try ProcessRunner.run(Sandbox.binary.path, add + [config], environment: ["TZ": "UTC"]).status == 0)
        // Its advice repeats the --store and --config given: it synced the default store (helper-173).
        let second = try ProcessRunner.run(
            Sandbox.binary.path, ["sync", "account", "add", "m", "--url", "http://127.0.0.1:1/", "--user", "a", "--password-command", "true",
                "--config", config, "--store", sandbox.storePath], environment: ["TZ": "UTC"])
        #expect(second.stdout == "Added the account m to \(config). Try: taskwidget sync --account m --store \(sandbox.storePath) --config \(config) --dry-run\n", "\(second.stdout)")
        let listed = try ProcessRunner.run(Sandbox.binary.path, ["sync", "account", "ls", "--config", config], environment: ["TZ": "UTC"])
        #expect(listed.status == 0, "\(listed.stderr)")
        #expect(listed.stdout.hasPrefix("NAME  URL                  USER  PASSWORD  INBOX\nn     http://127.0.0.1:1/  a     command   -\nm "), "\(listed.stdout)")
    }

    /// A first sync that fails, and a dry run, leave no store and no lock file: a typo in
    /// TASKWIDGET_STORE must not turn into a new store beside the old one.
    @Test func aSyncThatMakesNoStoreLeavesNothingBehind() throws {
        let sandbox = try Sandbox()
        let passwordFile = sandbox.folder.appendingPathComponent("dav.password").path
        try Data("secret\n".utf8).write(to: URL(fileURLWithPath: passwordFile))
        chmod(passwordFile, 0o600)
        try sandbox.succeed(["sync", "account", "add", "down", "--url", "http://127.0.0.1:1/", "--user", "a", "--password-file", passwordFile])
        let before = try FileManager.default.contentsOfDirectory(atPath: sandbox.folder.path).sorted()
        for arguments in [["sync"], ["sync", "--dry-run"]] {
            #expect(try sandbox.run(arguments).status == 75)
            #expect(try FileManager.default.contentsOfDirectory(atPath: sandbox.folder.path).sorted() == before, "\(arguments)")
        }
        // At the default location, whose folder a first sync finds missing: it makes the folder
        // for its lock (it failed with 74 on the lock before), and as it made no store, it
        // removes the folder again (it left it empty).
        let defaultFolder = sandbox.folder.appendingPathComponent("data/taskwidget")
        let atDefault = try sandbox.run(["sync", "--now", sandbox.now], global: false)
        #expect(atDefault.status == 75, "\(atDefault.stderr)")
        #expect(!FileManager.default.fileExists(atPath: defaultFolder.path))
        #expect(try FileManager.default.contentsOfDirectory(atPath: sandbox.folder.path).sorted() == before)
    }

    /// A server name that does not exist is an address to check (69), not a server to try again
    /// later; a name that could not be looked up for now (no resolver to ask) is (75). Each runs
    /// in a mount namespace of its own whose nsswitch.conf and resolv.conf the test writes, so the
    /// real resolver answers the same on any machine.
    @Test(.enabled(if: getuid() == 0, "mount namespaces need root"))
    func aServerNameThatDoesNotExistIsTheAddressToCheck() throws {
        let sandbox = try Sandbox()
        let passwordFile = sandbox.folder.appendingPathComponent("dav.password").path
        try Data("secret\n".utf8).write(to: URL(fileURLWithPath: passwordFile))
        chmod(passwordFile, 0o600)
        try sandbox.succeed(["sync", "account", "add", "typo", "--url", "https://dav.example.invalid/", "--user", "a", "--password-file", passwordFile])
        func syncWithResolver(nsswitch: String, resolvConf: String) throws -> RunResult {
            let nsswitchFile = sandbox.folder.appendingPathComponent("nsswitch.conf").path
            let resolvFile = sandbox.folder.appendingPathComponent("resolv.conf").path
            try nsswitch.write(toFile: nsswitchFile, atomically: true, encoding: .utf8)
            try resolvConf.write(toFile: resolvFile, atomically: true, encoding: .utf8)
            let script = "mount --bind \(nsswitchFile.shellQuoted) /etc/nsswitch.conf && mount --bind \(resolvFile.shellQuoted) /etc/resolv.conf && exec "
                + sandbox.shellCommand(["sync"])
            return try ProcessRunner.run("/usr/bin/unshare", ["--mount", "/bin/sh", "-c", script], environment: sandbox.environment)
        }
        // Only /etc/hosts is asked: the name is not there.
        let unknown = try syncWithResolver(nsswitch: "hosts: files\n", resolvConf: "")
        #expect(unknown.status == 69, "\(unknown.stderr)")
        #expect(unknown.stderr == "taskwidget: sync of “typo”: no server is named dav.example.invalid: check the account's url\n")
        // DNS is asked, on a port where nothing answers.
        let unasked = try syncWithResolver(nsswitch: "hosts: dns\n", resolvConf: "nameserver 127.0.0.1\noptions attempts:1 timeout:1\n")
        #expect(unasked.status == 75, "\(unasked.stderr)")
        #expect(unasked.stderr == "taskwidget: sync of “typo”: cannot connect to dav.example.invalid: try again later (the next sync goes on from where this one stopped)\n")
    }

    /// `https` to a server that speaks plain HTTP on that port (Radicale's default) says so,
    /// where it sent the user to check the certificate (helper-84).
    @Test func anHTTPSURLForAPlainHTTPServerSaysSo() async throws {
        try await RadicaleServer.withServer(slots: Self.serverSlot) { server in
            var https = try #require(URLComponents(url: server.baseURL, resolvingAgainstBaseURL: false))
            https.scheme = "https"
            let mine = try SyncSandbox(server: server, url: try #require(https.url))
            let result = try mine.sync()
            #expect(result.status == 69, "\(result.stderr)")
            let address = "\(server.baseURL.host ?? ""):\(server.baseURL.port ?? 0)"
            #expect(
                result.stderr == "taskwidget: sync of “rad”: \(address) does not speak TLS (https): check the account's url: http:// for a server without TLS, or the port of its https\n")
        }
    }

    /// Of several accounts, one down (try again later, 75) before one with a wrong password (69):
    /// the exit status is 69, which a timer that retries on 75 reports; the good account syncs.
    @Test func aFailureThatRetryingWillNotMendDecidesTheExitStatus() async throws {
        try await RadicaleServer.withServer(slots: Self.serverSlot) { server in
            let mine = try SyncSandbox(server: server)
            let wrongPassword = mine.sandbox.folder.appendingPathComponent("wrong.password").path
            try Data("not the password\n".utf8).write(to: URL(fileURLWithPath: wrongPassword))
            chmod(wrongPassword, 0o600)
            for (name, url) in [("down", "http://127.0.0.1:1/"), ("wrong", server.baseURL.absoluteString)] {
                try mine.sandbox.succeed([
                    "sync", "account", "add", name, "--url", url, "--user", server.username, "--password-file", wrongPassword,
                ])
            }
            try mine.sandbox.succeed(["add", "Local task"])
            let result = try mine.sync()
            #expect(result.status == 69, "\(result.stderr)")
            #expect(result.stdout.hasPrefix("rad: pulled 0, pushed 1"), "\(result.stdout)")
            #expect(result.stderrLines.count == 2 && result.stderr.contains("“down”") && result.stderr.contains("“wrong”"), "\(result.stderr)")
        }
    }

    @Test func aCalendarObjectThatIsNotICalendarIsLeftAloneAndTheRestSyncs() async throws {
        try await RadicaleServer.withServer(slots: Self.serverSlot) { server in
            try await withProxy(server) { proxy in
            let mine = try SyncSandbox(server: server, url: proxy.baseURL)
            _ = try await PythonCalDAV.saveTodo(
                foreignTodo(["UID:broken-1", "DTSTAMP:20261122T120000Z", "SUMMARY:Broken"]), in: "Tasks", server: server)
            _ = try await PythonCalDAV.saveTodo(
                foreignTodo(["UID:fine-1", "DTSTAMP:20261122T120000Z", "SUMMARY:Fine"]), in: "Tasks", server: server)
            proxy.setRule("corrupt:UID:broken-1")
            let result = try mine.sync()
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.contains("pulled 1") && result.stdout.contains("1 left alone (not valid iCalendar)"), "\(result.stdout)")
            #expect(try mine.task(titled: "Fine") != nil)
            #expect(try mine.task(titled: "Broken") == nil)
            #expect(!result.stderr.contains("Broken"), "titles never in logs")
            // Nor the object's path, which may name its list or task: hashed, as in --verbose (helper-136).
            let logged = try #require(result.stderr.firstMatch(of: /href=(\S+)/), "\(result.stderr)").1
            #expect(logged.split(separator: "/").dropFirst().allSatisfy { $0.count == 8 && $0.allSatisfy(\.isHexDigit) }, "\(logged)")
            #expect(!result.stderr.contains("broken-1"), "\(result.stderr)")
            // It is reported on every sync until it is fixed (it was once, on the sync that read it).
            #expect(try mine.sync().stdout.contains("pulled 0, pushed 0, 0 conflicts merged, deleted 0, 1 left alone (not valid iCalendar)"))
            // Once the object is fixed (here: the proxy stops breaking it) and changes, it syncs.
            proxy.setRule("pass")
            try await PythonCalDAV.editTodo(uid: "broken-1", replacing: "SUMMARY:Broken", with: "SUMMARY:Repaired", server: server)
            try mine.syncSucceeds()
            #expect(try mine.task(titled: "Repaired") != nil)

            // A task synced before whose object turns invalid, and then is fixed, syncs again: each
            // sync reads the object again, since the store kept only the invalid one.
            proxy.setRule("corrupt:UID:fine-1")
            try await PythonCalDAV.editTodo(uid: "fine-1", replacing: "SUMMARY:Fine", with: "SUMMARY:Edited", server: server)
            #expect(try mine.sync().stdout.contains("1 left alone (not valid iCalendar)"))
            #expect(try mine.task(titled: "Fine") != nil)
            // Read again at the next sync, though the phone did not change it since: it came broken.
            proxy.setRule("pass")
            let again = try mine.sync().stdout
            #expect(again.hasPrefix("rad: pulled 1,") && !again.contains("left alone"), "\(again)")
            #expect(try mine.task(titled: "Edited") != nil)
            try await PythonCalDAV.editTodo(uid: "fine-1", replacing: "SUMMARY:Edited", with: "SUMMARY:Fixed", server: server)
            try mine.syncSucceeds()
            #expect(try mine.task(titled: "Fixed") != nil && mine.task(titled: "Fine") == nil)
            }
        }
    }

    /// A task edited here and on the phone while its object read as invalid iCalendar keeps both
    /// edits once it reads as valid again. The object kept no last common copy then, so the later
    /// side's whole copy won, and the other side's edit was lost on both (helper-84).
    @Test func aTaskEditedOnBothSidesWhileItsObjectWasInvalidKeepsBothEdits() async throws {
        try await RadicaleServer.withServer(slots: Self.serverSlot) { server in
            try await withProxy(server) { proxy in
            let mine = try SyncSandbox(server: server, url: proxy.baseURL)
            try mine.sandbox.succeed(["add", "Pay rent", "--due", "2026-12-10"])
            try mine.syncSucceeds()
            let uid = try #require(try mine.task(titled: "Pay rent")?["id"] as? String).lowercased()
            proxy.setRule("corrupt:UID:\(uid)")
            try await PythonCalDAV.editTodo(uid: uid, replacing: "SUMMARY:Pay rent", with: "SUMMARY:Pay rent (phone)", server: server)
            try mine.sandbox.succeed(["edit", String(uid.prefix(8)), "--due", "2026-12-15"])
            #expect(try mine.sync().stdout.contains("1 left alone (not valid iCalendar)"))
            proxy.setRule("pass")
            let fixed = try mine.syncSucceeds()
            #expect(fixed.contains("0 conflicts merged"), "\(fixed)")
            let task = try #require(try mine.task(titled: "Pay rent (phone)"))
            #expect((task["dueDate"] as? String)?.hasPrefix("2026-12-15") == true, "\(task)")
            #expect(try mine.serverObjects().values.contains { $0.contains("SUMMARY:Pay rent (phone)") && $0.contains("20261215") })
            }
        }
    }

    /// A list renamed and recolored on the phone is renamed and recolored here at the next sync
    /// (SPEC §12: the name is the display name, the color the calendar-color); it kept the name it
    /// had when first synced. A rename here is not sent, and stays until the phone renames it.
    @Test func aCollectionRenamedOnThePhoneRenamesItsList() async throws {
        try await RadicaleServer.withServer(slots: Self.serverSlot) { server in
            let mine = try SyncSandbox(server: server)
            _ = try await PythonCalDAV.saveTodo(
                foreignTodo(["UID:errand-1", "DTSTAMP:20261122T120000Z", "SUMMARY:Post a letter"]), in: "Errands", server: server)
            try mine.syncSucceeds()
            #expect(try mine.sandbox.succeed(["list", "ls"]).contains("Errands"))
            try mine.sandbox.succeed(["list", "rename", "Errands", "Chores"])
            #expect(try mine.syncSucceeds() == "rad: pulled 0, pushed 0, 0 conflicts merged, deleted 0")
            #expect(try mine.sandbox.succeed(["list", "ls"]).contains("Chores"))

            try await PythonCalDAV.renameCalendar(named: "Errands", to: "Town errands", color: "#FF9500FF", server: server)
            let dryRun = try mine.syncSucceeds(["--dry-run"])
            #expect(dryRun.contains("1 list renamed or recolored as on the server"), "\(dryRun)")
            #expect(try mine.syncSucceeds().hasSuffix("deleted 0, 1 list renamed or recolored as on the server"))
            let lists = try mine.sandbox.succeed(["list", "ls"])
            #expect(lists.contains("Town errands") && !lists.contains("Chores"), "\(lists)")
            let json = try mine.sandbox.succeed(["ls", "--format", "json"])
            #expect(json.contains("\"list\" : \"Town errands\"") || json.contains("\"list\":\"Town errands\""), "\(json)")
            #expect(try mine.sandbox.succeed(["export"]).contains("\"colorHex\" : \"FF9500\""))
            // Nothing more to take at the next sync.
            #expect(try mine.syncSucceeds() == "rad: pulled 0, pushed 0, 0 conflicts merged, deleted 0")
        }
    }

    /// `--dry-run` names two tasks whose first 8 digits are the same as `ls` does, by longer
    /// prefixes (it showed `abcd1234` twice, which `edit` refuses as ambiguous).
    @Test func aDryRunTellsTasksThatShareTheirShortIDApart() async throws {
        try await RadicaleServer.withServer(slots: Self.serverSlot) { server in
            let mine = try SyncSandbox(server: server)
            let tasks = ["abcd1234-0000-4000-8000-000000000001", "abcd1234-1000-4000-8000-000000000002"].enumerated().map { index, id in
                "{\"id\":\"\(id)\",\"title\":\"Task \(index)\",\"isCompleted\":false,\"state\":\"notStarted\",\"sortOrder\":\(index),"
                    + "\"createdAt\":\"2026-11-22T10:00:00Z\",\"modifiedAt\":\"2026-11-22T10:00:00Z\"}"
            }
            let file = mine.sandbox.folder.appendingPathComponent("two.json")
            try "{\"schema\":\"taskwidget.export/1\",\"lists\":[],\"habits\":[],\"tasks\":[\(tasks.joined(separator: ","))]}"
                .write(to: file, atomically: true, encoding: .utf8)
            try mine.sandbox.succeed(["import", file.path])
            let shown = try mine.sandbox.succeed(["ls"])
            #expect(shown.contains("abcd1234-0 ") && shown.contains("abcd1234-1 "), "\(shown)")
            let plan = try mine.syncSucceeds(["--dry-run"])
            #expect(plan.contains(": push 2: abcd1234-0 abcd1234-1") || plan.contains(": push 2: abcd1234-1 abcd1234-0"), "\(plan)")
        }
    }

    /// An all-day task from the phone stays all-day when a run in another zone (a timer without
    /// `TZ`) pushes it with only its title changed here: it became a due time, 22:59 UTC, since
    /// the DATE reads as 23:59 in the zone of each run.
    @Test func anAllDayTaskStaysAllDayWhenARunInAnotherZonePushesIt() async throws {
        try await Self.withTasksFromThePhone([
            foreignTodo(["UID:allday-1", "DTSTAMP:20261122T120000Z", "SUMMARY:Bins", "DUE;VALUE=DATE:20261210"])
        ]) { mine in
            let id = try #require(try mine.task(titled: "Bins")?["id"] as? String)
            try mine.sandbox.succeed(["edit", id, "--title", "Bins out"])
            let result = try mine.sandbox.run(["sync"], environment: ["TZ": "UTC"])
            #expect(result.status == 0 && result.stdout.contains("pushed 1"), "\(result.stdout)\(result.stderr)")
            let object = try #require(try mine.serverObjects().values.first { $0.contains("UID:allday-1") })
            #expect(object.contains("SUMMARY:Bins out") && object.contains("DUE;VALUE=DATE:20261210"), "\(object)")
            // Moved to another list, so written into another collection from its old text.
            try mine.sandbox.succeed(["list", "add", "Home"])
            try mine.syncSucceeds()
            try mine.sandbox.succeed(["edit", id, "--list", "Home"])
            // A move, which deletes nothing ("deleted 1" it said: helper-130).
            let plan = try mine.sandbox.run(["sync", "--dry-run"], environment: ["TZ": "UTC"])
            #expect(plan.stdout.hasPrefix("rad (dry run, nothing changed): pulled 0, pushed 1, 0 conflicts merged, deleted 0\n"), "\(plan.stdout)")
            #expect(plan.stdout.contains("move to another list 1: ") && !plan.stdout.contains("delete there"), "\(plan.stdout)")
            let move = try mine.sandbox.run(["sync"], environment: ["TZ": "UTC"])
            #expect(move.status == 0 && move.stdout == "rad: pulled 0, pushed 1, 0 conflicts merged, deleted 0\n", "\(move.stdout)\(move.stderr)")
            let moved = try mine.serverObjects().filter { $0.value.contains("UID:allday-1") }
            #expect(moved.count == 1 && moved.values.first?.contains("DUE;VALUE=DATE:20261210") == true, "\(moved)")
        }
    }

    /// A task with a start day from the phone (tasks.org, Thunderbird, Apple write DTSTART) given a
    /// due time here, then moved before its start: each push keeps DTSTART of DUE's value type and
    /// not after it (RFC 5545 §3.8.2.3), which sabre/dav servers (Nextcloud) require of a PUT.
    @Test func aStartDayFromThePhoneAgreesWithADueTimeSetHere() async throws {
        try await Self.withTasksFromThePhone([
            foreignTodo([
                "UID:start-1", "DTSTAMP:20261122T120000Z", "SUMMARY:Plan the trip", "DTSTART;VALUE=DATE:20261201",
                "DUE;VALUE=DATE:20261210",
            ])
        ]) { mine in
            let id = try #require(try mine.task(titled: "Plan the trip")?["id"] as? String)
            for (due, pushed) in [
                ("2026-12-09T15:00", ["DTSTART:20261130T230000Z", "DUE:20261209T140000Z"]),
                ("2026-11-28T09:00", ["DTSTART:20261128T080000Z", "DUE:20261128T080000Z"]),
            ] {
                try mine.sandbox.succeed(["edit", id, "--due", due])
                try mine.syncSucceeds()
                let object = try #require(try mine.serverObjects().values.first { $0.contains("UID:start-1") })
                #expect(object.components(separatedBy: "\r\n").filter { $0.hasPrefix("DTSTART") || $0.hasPrefix("DUE") } == pushed)
            }
            #expect(try mine.task(titled: "Plan the trip")?["dueDate"] as? String == "2026-11-28T08:00:00Z")
        }
    }

    /// `done` on a task that repeats on the server (the phone's weekly one) says that the next
    /// sync completes the whole series there, and how to keep it; a task whose object only has a
    /// time zone's rules (Thunderbird writes a VTIMEZONE with RRULEs) does not repeat. A bar's
    /// click (`done --top`) is refused: its warning went to the bar's log, and the series ended
    /// on every device at the next sync (helper-154).
    @Test func doneOnATaskThatRepeatsOnTheServerSaysWhatSyncWillDo() async throws {
        let zone = [
            "BEGIN:VTIMEZONE", "TZID:Europe/Berlin", "BEGIN:STANDARD", "DTSTART:19701025T030000",
            "RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=10", "TZOFFSETFROM:+0200", "TZOFFSETTO:+0100", "END:STANDARD", "END:VTIMEZONE",
        ]
        try await Self.withTasksFromThePhone([
            foreignTodo([
                "UID:weekly-1", "DTSTAMP:20261122T120000Z", "SUMMARY:Water the plants", "DTSTART;VALUE=DATE:20261123",
                "DUE;VALUE=DATE:20261123", "RRULE:FREQ=WEEKLY;BYDAY=MO",
            ]),
            foreignTodo(
                ["UID:once-1", "DTSTAMP:20261122T120000Z", "SUMMARY:Call the plumber", "DUE;TZID=Europe/Berlin:20261124T090000"],
                extraComponents: zone),
        ]) { mine in
            let weekly = try #require(try mine.task(titled: "Water the plants")?["shortId"] as? String)
            let once = try #require(try mine.task(titled: "Call the plumber")?["shortId"] as? String)
            #expect(
                try mine.sandbox.expectRefused(["done", "--top"], status: 64).stderr
                    == "taskwidget: the task a bar shows (\(weekly)) repeats on the server: a click would complete the whole series there "
                    + "at the next sync; complete it on the phone, or run `taskwidget done \(weekly)` to end the series (nothing was completed)\n")
            // The same click through watch (i3bar's click events), which names the task by its id.
            let watch = try StreamingProcess(
                mine.sandbox.arguments(["watch", "--format", "i3bar"]), environment: mine.sandbox.environment, writableInput: true)
            #expect(watch.nextLine() == #"{"version":1,"click_events":true}"#)
            #expect(watch.nextLine() == "[")
            #expect(watch.nextLine()?.contains("Water the plants") == true)
            watch.writeInput("[\n{\"name\":\"taskwidget\",\"instance\":\"all\",\"button\":1}\n")
            #expect(watch.waitForStderr(containing: "taskwidget: the task a bar shows (\(weekly)) repeats on the server: a click would complete"))
            watch.send(SIGTERM)
            #expect(watch.waitForExit() == 0)
            #expect(!watch.stderrText.contains("Water the plants"), "logs never carry titles: \(watch.stderrText)")
            #expect(try mine.task(titled: "Water the plants")?["state"] as? String != "completed")
            let done = try mine.sandbox.run(["done", weekly, once])
            #expect(done.status == 0)
            #expect(done.stdout == "Completed \(weekly) Water the plants\nCompleted \(once) Call the plumber\n")
            #expect(
                done.stderr == "taskwidget: “Water the plants” repeats on the server: the next sync completes the whole series there "
                    + "(`taskwidget undo \(weekly)` before it keeps the series; complete it on the phone for the next one)\n")
            // Said once: a second `done` changes nothing.
            #expect(try mine.sandbox.run(["done", weekly]).stderr.isEmpty)
        }
    }

    /// `rm` of a task that repeats on the server asks for --yes: the next sync deleted the whole
    /// series on the phone without a word, and no undo brings a deleted task back (helper-171).
    /// Nothing is deleted, not even the other task named.
    @Test func rmOfATaskThatRepeatsOnTheServerAsksForYes() async throws {
        try await Self.withTasksFromThePhone([
            foreignTodo([
                "UID:weekly-1", "DTSTAMP:20261122T120000Z", "SUMMARY:Water the plants", "DUE:20261122T170000Z", "RRULE:FREQ=WEEKLY",
            ]),
            foreignTodo(["UID:once-1", "DTSTAMP:20261122T120000Z", "SUMMARY:Call the plumber", "DUE:20261124T080000Z"]),
        ]) { mine in
            let weekly = try #require(try mine.task(titled: "Water the plants")?["shortId"] as? String)
            let once = try #require(try mine.task(titled: "Call the plumber")?["shortId"] as? String)
            #expect(
                try mine.sandbox.expectRefused(["rm", once, weekly], status: 64).stderr
                    == "taskwidget: “Water the plants” repeats on the server: deleting it here deletes the whole series there at the next "
                    + "sync; delete one occurrence on the phone, or run `taskwidget rm \(once) \(weekly) --store \(mine.sandbox.storePath) --yes` to "
                    + "delete the series (nothing was deleted)\n")
            #expect(try mine.task(titled: "Call the plumber") != nil, "nor the other task named")
            #expect(try mine.sandbox.succeed(["rm", weekly, once, "--yes"]) == "Deleted \(weekly) Water the plants\nDeleted \(once) Call the plumber\n")
        }
    }

    /// `snooze` on a task that repeats on the server is refused in one line: the next sync would
    /// move the whole series there (its due date, and an alarm set relative to it). Nothing is
    /// snoozed, not even the other task named; a task that does not repeat still snoozes.
    @Test func snoozeOnATaskThatRepeatsOnTheServerIsRefused() async throws {
        try await Self.withTasksFromThePhone([
            foreignTodo([
                "UID:weekly-1", "DTSTAMP:20261122T120000Z", "SUMMARY:Water the plants", "DTSTART:20261122T160000Z",
                "DUE:20261122T170000Z", "RRULE:FREQ=WEEKLY;BYDAY=SU",
            ]),
            foreignTodo(["UID:once-1", "DTSTAMP:20261122T120000Z", "SUMMARY:Call the plumber", "DUE:20261124T080000Z"]),
        ]) { mine in
            let weekly = try #require(try mine.task(titled: "Water the plants")?["shortId"] as? String)
            let once = try #require(try mine.task(titled: "Call the plumber")?["shortId"] as? String)
            let refusal =
                "taskwidget: “Water the plants” repeats on the server: snoozing it here would move the whole series there at the next sync; "
                + "snooze it on the phone (nothing was snoozed)\n"
            // Snooze moves a reminder, else the due date.
            let before = try Self.dates(of: "Call the plumber", in: mine)
            #expect(try mine.sandbox.expectRefused(["snooze", once, weekly], status: 64).stderr == refusal)
            #expect(try Self.dates(of: "Call the plumber", in: mine) == before, "nor the other task named")
            // The task a bar shows: the weekly one, due first. A click's message goes to the bar's
            // log: the task by its id, never its title.
            #expect(
                try mine.sandbox.expectRefused(["snooze", "--top"], status: 64).stderr
                    == "taskwidget: the task a bar shows (\(weekly)) repeats on the server: snoozing it here would move the whole series "
                    + "there at the next sync; snooze it on the phone (nothing was snoozed)\n")
            #expect(try mine.sandbox.succeed(["snooze", once]) == "Snoozed \(once) Call the plumber (due Tue 24 Nov 10:00)\n")
            #expect(try Self.dates(of: "Call the plumber", in: mine) != before)
            // `edit --remind` and `--due` as well: a reminder set here was pinned to this
            // occurrence, and later ones were reminded nowhere (helper-93). A new title is fine.
            let weeklyBefore = try Self.dates(of: "Water the plants", in: mine)
            for change in [["--remind", "13:25"], ["--due", "tomorrow 9am"], ["--remind", "none"]] {
                let edit = try mine.sandbox.expectRefused(["edit", weekly] + change, status: 64)
                #expect(edit.stderr.hasPrefix("taskwidget: “Water the plants” repeats on the server: a due date or reminder set here"), "\(edit.stderr)")
            }
            #expect(try Self.dates(of: "Water the plants", in: mine) == weeklyBefore)
            #expect(try mine.sandbox.succeed(["edit", weekly, "--title", "Water the ferns"]) == "Edited \(weekly) Water the ferns\n")
        }
    }

    /// The due date and reminder of the task titled `title`.
    static func dates(of title: String, in mine: borrowing SyncSandbox) throws -> String {
        let task = try mine.task(titled: title)
        return "\(task?["dueDate"] as? String ?? "-") \(task?["reminderDate"] as? String ?? "-")"
    }

    /// An account URL that names one calendar (a calendar's own link) syncs that calendar only:
    /// its siblings stay on the server, no collection is made for lists made here, and an inbox
    /// other than that calendar is refused (and that calendar too, once synced as a list). Widened
    /// to the whole home later, it syncs every collection; narrowed back, or moved to another
    /// calendar, it is refused, as the others would read as deleted, until the account is
    /// forgotten.
    @Test func anAccountURLNamingOneCalendarSyncsThatCalendarOnly() async throws {
        try await RadicaleServer.withServer(slots: Self.serverSlot) { server in
            let bank = try await PythonCalDAV.saveTodo(
                foreignTodo(["UID:inbox-1", "DTSTAMP:20261122T120000Z", "SUMMARY:Call the bank"]), in: "Tasks", server: server)
            let bike = try await PythonCalDAV.saveTodo(
                foreignTodo(["UID:errand-1", "DTSTAMP:20261122T120000Z", "SUMMARY:Fix the bike"]), in: "Errands", server: server)
            let errands = try #require(URL(string: bike)).deletingLastPathComponent()
            let mine = try SyncSandbox(server: server, url: errands)
            func collectionsOnTheServer() throws -> Int {
                try FileManager.default.contentsOfDirectory(atPath: server.storageRoot.appendingPathComponent(server.username).path)
                    .filter { !$0.hasPrefix(".") }.count
            }

            // The sandbox's account keeps the Inbox in "Tasks", which is not this calendar. Into a
            // pipe (a journal), the calendar is named by its path: collection names are never logged.
            #expect(
                try mine.syncRefused() == "taskwidget: the url of the account “rad” names one calendar, \(errands.path)/, which is not its inbox: "
                    + "name that calendar in config.toml's inbox to keep the Inbox there, or leave inbox out (Inbox tasks then stay here)\n")
            #expect(!FileManager.default.fileExists(atPath: mine.sandbox.storePath))

            try mine.setConfigLine("# no inbox", replacing: "inbox =")
            #expect(try mine.syncSucceeds() == "rad: pulled 1, pushed 0, 0 conflicts merged, deleted 0")
            #expect(try mine.tasks().map { "\($0["title"] ?? "") in \($0["list"] ?? "Inbox")" } == ["Fix the bike in Errands"])
            try mine.sandbox.succeed(["add", "Buy stamps", "--list", "Home", "--new-list"])
            try mine.sandbox.succeed(["add", "Water the plants", "--list", "Errands"])
            #expect(try mine.syncSucceeds() == "rad: pulled 0, pushed 1, 0 conflicts merged, deleted 0")
            #expect(try collectionsOnTheServer() == 2)
            #expect(try mine.serverObject(containing: "SUMMARY:Buy stamps") == nil)
            // Synced as a list, the calendar cannot become the Inbox afterwards.
            try mine.setConfigLine("inbox = \"Errands\"", replacing: "# no inbox")
            #expect(
                try mine.syncRefused() == "taskwidget: the account “rad” keeps the Inbox in the collection its inbox in config.toml names, "
                    + "the one calendar its url names, which this store syncs as a list (\(errands.path)/): leave inbox out\n")
            try mine.setConfigLine("# no inbox", replacing: "inbox =")

            // The whole home: the other collection comes in, and Home is made there.
            try mine.setConfigLine("url = \"\(server.baseURL.absoluteString)\"", replacing: "url =")
            #expect(try mine.syncSucceeds() == "rad: pulled 1, pushed 1, 0 conflicts merged, deleted 0")
            #expect(try collectionsOnTheServer() == 3)
            // And back to the one calendar: refused, the store as it was.
            let before = try mine.export()
            try mine.setConfigLine("url = \"\(errands.absoluteString)\"", replacing: "url =")
            #expect(
                try mine.syncRefused() == "taskwidget: the url of the account “rad” now names one calendar, but this store syncs 2 other "
                    + "collections of it, which would read as deleted: set its url back to the one it had (\(server.baseURL.absoluteString)), "
                    + "or run `taskwidget sync account forget rad` to sync that calendar only from now on (the others' lists then stay "
                    + "here only)\n")
            #expect(try mine.export() == before)
            // Forgotten, the account syncs that calendar only: the others' lists stay, here only.
            try mine.sandbox.succeed(["sync", "account", "forget", "rad"])
            #expect(try mine.syncSucceeds() == "rad: pulled 0, pushed 0, 0 conflicts merged, deleted 0")
            #expect(try mine.export() == before)
            #expect(try collectionsOnTheServer() == 3)

            // Another store syncs the one calendar, then is pointed at another: refused too.
            let other = try SyncSandbox(server: server, url: errands)
            try other.setConfigLine("# no inbox", replacing: "inbox =")
            try other.syncSucceeds()
            let tasks = try #require(URL(string: bank)).deletingLastPathComponent()
            try other.setConfigLine("url = \"\(tasks.absoluteString)\"", replacing: "url =")
            #expect(
                try other.syncRefused() == "taskwidget: the url of the account “rad” now names another calendar than the one this store syncs "
                    + "with it: set its url back to the one it had (\(errands.absoluteString)), and add the other calendar as an account of "
                    + "its own (`taskwidget sync account add NAME --url URL`), or run `taskwidget sync account forget rad` to sync the new "
                    + "one instead (the old one's list then stays here only)\n")
        }
    }

    /// An account moved to another server is refused, the store unchanged: the collections it
    /// synced would read as deleted there, and their tasks here with them (they were deleted).
    /// The same server by another name syncs on. `sync account forget` makes the next sync a
    /// first sync: it sends the tasks to the new server. `rm` keeps what was synced: the account
    /// added again resumes, its lists sent to no other account meanwhile.
    @Test func anAccountMovedToAnotherServerIsRefusedUntilForgotten() async throws {
        try await RadicaleServer.withServer(slots: Self.serverSlot) { server in
            // The second server takes a slot of its own: the suite's one is the first server's.
            try await RadicaleServer.withServer(slots: ServerSlots(count: 1)) { newServer in
                let mine = try SyncSandbox(server: server)
                try mine.sandbox.succeed(["add", "Pay rent", "--list", "Home", "--new-list"])
                try mine.sandbox.succeed(["add", "Buy milk"])
                #expect(try mine.syncSucceeds() == "rad: pulled 0, pushed 2, 0 conflicts merged, deleted 0")
                let before = try mine.export()

                // Another name of the same server: nothing is missing there.
                try mine.setConfigLine("url = \"http://localhost:\(server.port)/\"", replacing: "url =")
                #expect(try mine.syncSucceeds() == "rad: pulled 0, pushed 0, 0 conflicts merged, deleted 0")

                try mine.setConfigLine("url = \"\(newServer.baseURL.absoluteString)\"", replacing: "url =")
                let refusal =
                    "taskwidget: the url of the account “rad” changed since the last sync, and where it leads now lacks 2 tasks and "
                    + "2 collections this store synced with it, so sync would delete them here: if the server is the same, set its url "
                    + "back (http://localhost:\(server.port)/) and sync once before changing it; if the account moved to a server that "
                    + "does not hold them yet, run `taskwidget sync account forget rad --store \(mine.sandbox.storePath)` for its next sync to "
                    + "send this store's tasks there\n"
                #expect(try mine.syncRefused() == refusal)
                #expect(try mine.sandbox.run(["sync", "--dry-run"]).stderr == refusal)
                #expect(try mine.export() == before)
                let newHome = newServer.storageRoot.appendingPathComponent(newServer.username).path
                let madeThere = (try? FileManager.default.contentsOfDirectory(atPath: newHome)) ?? []
                #expect(madeThere.filter { !$0.hasPrefix(".") }.isEmpty, "nothing made on the new server: \(madeThere)")

                // rm, then add: the same refusal, as the store kept what it synced.
                try mine.sandbox.succeed(["sync", "account", "rm", "rad"])
                try mine.addAccount(url: newServer.baseURL)
                #expect(try mine.syncRefused() == refusal)
                #expect(
                    try mine.sandbox.succeed(["sync", "account", "forget", "rad"]) == "Forgot what this store synced with the account rad; "
                        + "its 1 list and 2 tasks stay here, kept for it. Its next sync is a first sync: it sends them to the server and "
                        + "takes what is there.\n")
                #expect(try mine.export() == before)
                #expect(try mine.syncSucceeds() == "rad: pulled 0, pushed 2, 0 conflicts merged, deleted 0")
                #expect(try mine.export() == before)
                #expect(try SyncSandbox(server: newServer).syncSucceeds() == "rad: pulled 2, pushed 0, 0 conflicts merged, deleted 0")
                // A name neither configured nor synced is a typo: exit 64, as for `account rm` (it
                // exited 0, helper-80).
                let typo = try mine.sandbox.run(["sync", "account", "forget", "Rad"])
                #expect(typo.status == 64 && typo.stdout.isEmpty)
                #expect(
                    typo.stderr == "taskwidget: this store has synced nothing with an account named “Rad”, and config.toml names none: "
                        + "it keeps what it synced with rad\n")
            }
        }
    }

    /// The lists and tasks of a forgotten account stay its own until its next sync places them:
    /// the first account, which receives new lists, does not take its list, and another account
    /// with an Inbox does not take the Inbox tasks of a forgotten first account.
    @Test func aForgottenAccountsListsAndTasksGoToNoOtherAccount() async throws {
        try await RadicaleServer.withServer(slots: Self.serverSlot) { home in
            // Two more servers, a slot of their own each: the suite's one is the first server's.
            try await RadicaleServer.withServer(slots: ServerSlots(count: 1)) { work in
                try await RadicaleServer.withServer(slots: ServerSlots(count: 1)) { newWork in
                    let mine = try SyncSandbox(server: home)
                    try mine.addAccount(url: work.baseURL, named: "work", inbox: "Errands")
                    _ = try await PythonCalDAV.saveTodo(
                        foreignTodo(["UID:job-1", "DTSTAMP:20261122T120000Z", "SUMMARY:Write the report"]), in: "Job", server: work)
                    try mine.sandbox.succeed(["add", "Buy milk"])
                    #expect(
                        try mine.syncSucceeds() == "rad: pulled 0, pushed 1, 0 conflicts merged, deleted 0\n"
                            + "work: pulled 1, pushed 0, 0 conflicts merged, deleted 0")

                    // work moves: refused; forgotten, its list goes to its new server, not to rad's.
                    let config = try String(contentsOfFile: mine.configPath, encoding: .utf8)
                    try Data(config.replacingOccurrences(of: work.baseURL.absoluteString, with: newWork.baseURL.absoluteString).utf8)
                        .write(to: URL(fileURLWithPath: mine.configPath))
                    #expect(try mine.sync().status == 64)
                    #expect(
                        try mine.sandbox.succeed(["sync", "account", "forget", "work"]) == "Forgot what this store synced with the account "
                            + "work; its 1 list and 1 task stay here, kept for it. Its next sync is a first sync: it sends them to the server "
                            + "and takes what is there.\n")
                    #expect(try mine.sync(["--account", "rad"]).stdout == "rad: pulled 0, pushed 0, 0 conflicts merged, deleted 0\n")
                    #expect(try mine.syncSucceeds() == "rad: pulled 0, pushed 0, 0 conflicts merged, deleted 0\n"
                        + "work: pulled 0, pushed 1, 0 conflicts merged, deleted 0")
                    #expect(try home.storedTitles() == ["Buy milk"])
                    #expect(try newWork.storedTitles() == ["Write the report"])

                    // rad forgotten: work, which has an Inbox too, leaves rad's Inbox task alone.
                    try mine.sandbox.succeed(["sync", "account", "forget", "rad"])
                    #expect(try mine.sync(["--account", "work"]).stdout == "work: pulled 0, pushed 0, 0 conflicts merged, deleted 0\n")
                    #expect(try newWork.storedTitles() == ["Write the report"])
                    #expect(try mine.syncSucceeds() == "rad: pulled 0, pushed 0, 0 conflicts merged, deleted 0\n"
                        + "work: pulled 0, pushed 0, 0 conflicts merged, deleted 0")
                }
            }
        }
    }

    /// `--account` takes the account of exactly that name, where two differ in case only (it took
    /// the first of them, helper-97), and refuses a name in another case that matches both
    /// (helper-102); an unknown name's advice gives the options `account add` needs.
    @Test func anAccountIsChosenByItsExactName() async throws {
        try await RadicaleServer.withServer(slots: Self.serverSlot) { server in
            let mine = try SyncSandbox(server: server)
            try mine.addAccount(url: server.baseURL, named: "Rad", inbox: nil)
            #expect(try mine.syncSucceeds(["--account", "Rad", "--dry-run"]).hasPrefix("Rad (dry run, nothing changed): "))
            #expect(try mine.syncSucceeds(["--account", "rad", "--dry-run"]).hasPrefix("rad (dry run, nothing changed): "))
            let ambiguous = try mine.sync(["--account", "RAD", "--dry-run"])
            #expect(ambiguous.status == 64)
            #expect(ambiguous.stderr == "taskwidget: “RAD” matches the sync accounts “rad” and “Rad”, which differ in case only: give the name exactly as written\n")
            let unknown = try mine.sync(["--account", "red"])
            #expect(unknown.status == 64)
            #expect(
                unknown.stderr == "taskwidget: no sync account is named “red”: did you mean “rad”? (add one with "
                    + "`taskwidget sync account add NAME --url URL --user USER --password-command CMD`)\n")
        }
    }

    /// With two accounts that have an Inbox, a new Inbox task goes to the first one's, as new
    /// lists go to the first account: not to whichever syncs first (`--account`), and the dry run
    /// no longer shows both pushing it.
    @Test func aNewInboxTaskGoesToTheFirstAccountWithAnInbox() async throws {
        try await RadicaleServer.withServer(slots: Self.serverSlot) { home in
            try await RadicaleServer.withServer(slots: ServerSlots(count: 1)) { work in
                let mine = try SyncSandbox(server: home)
                try mine.addAccount(url: work.baseURL, named: "work", inbox: "Errands")
                try mine.sandbox.succeed(["add", "Buy milk"])
                let plan = try mine.syncSucceeds(["--dry-run"])
                #expect(plan.contains("rad (dry run, nothing changed): pulled 0, pushed 1,"), "\(plan)")
                #expect(plan.contains("work (dry run, nothing changed): pulled 0, pushed 0,"), "\(plan)")
                #expect(try mine.sync(["--account", "work"]).stdout == "work: pulled 0, pushed 0, 0 conflicts merged, deleted 0\n")
                #expect(try mine.syncSucceeds() == "rad: pulled 0, pushed 1, 0 conflicts merged, deleted 0\n"
                    + "work: pulled 0, pushed 0, 0 conflicts merged, deleted 0")
                #expect(try home.storedTitles() == ["Buy milk"] && work.storedTitles() == [])
                // An Inbox task of the second account's phone stays that account's.
                _ = try await PythonCalDAV.saveTodo(
                    foreignTodo(["UID:errand-1", "DTSTAMP:20261122T120000Z", "SUMMARY:Post the letter"]), in: "Errands", server: work)
                _ = try mine.syncSucceeds()
                let id = try #require(try mine.sandbox.succeed(["ls"]).split(separator: "\n").first { $0.contains("Post the letter") }?.split(separator: " ").first)
                try mine.sandbox.succeed(["edit", String(id), "--title", "Post the letters"])
                #expect(try mine.syncSucceeds() == "rad: pulled 0, pushed 0, 0 conflicts merged, deleted 0\n"
                    + "work: pulled 0, pushed 1, 0 conflicts merged, deleted 0")
                #expect(try home.storedTitles() == ["Buy milk"] && work.storedTitles() == ["Post the letters"])
            }
        }
    }

    /// A task moved here between two accounts' lists leaves one server and reaches the other in
    /// one sync, whichever account syncs first: it was on neither server until a second sync when
    /// its new list was the first account's. The dry run shows both halves.
    @Test func aTaskMovedToAnotherAccountsListChangesServerInOneSync() async throws {
        try await RadicaleServer.withServer(slots: Self.serverSlot) { home in
            try await RadicaleServer.withServer(slots: ServerSlots(count: 1)) { work in
                let mine = try SyncSandbox(server: home)
                try mine.addAccount(url: work.baseURL, named: "work", inbox: "Errands")
                _ = try await PythonCalDAV.saveTodo(
                    foreignTodo(["UID:job-1", "DTSTAMP:20261122T120000Z", "SUMMARY:Write the report"]), in: "Job", server: work)
                try mine.sandbox.succeed(["list", "add", "House"])
                let id = try mine.sandbox.succeed(["add", "Fix the tap", "--list", "House"]).trimmingCharacters(in: .whitespacesAndNewlines)
                _ = try mine.syncSucceeds()
                #expect(try home.storedTitles() == ["Fix the tap"])

                try mine.sandbox.succeed(["edit", id, "--list", "Job"])
                let toWork = try mine.syncSucceeds(["--dry-run"])
                // Each half a move, not a deletion.
                #expect(toWork.contains("rad (dry run, nothing changed): pulled 0, pushed 0, 0 conflicts merged, deleted 0"), "\(toWork)")
                #expect(toWork.contains("move to another list 1: ") && !toWork.contains("delete there"), "\(toWork)")
                #expect(toWork.contains("work (dry run, nothing changed): pulled 0, pushed 1, 0 conflicts merged, deleted 0"), "\(toWork)")
                #expect(try mine.syncSucceeds() == "rad: pulled 0, pushed 0, 0 conflicts merged, deleted 0\n"
                    + "work: pulled 0, pushed 1, 0 conflicts merged, deleted 0")
                #expect(try home.storedTitles() == [] && work.storedTitles() == ["Fix the tap", "Write the report"])

                // Back to the first account's list: rad syncs first, while work still has its copy.
                try mine.sandbox.succeed(["edit", id, "--list", "House"])
                let toHome = try mine.syncSucceeds(["--dry-run"])
                #expect(toHome.contains("rad (dry run, nothing changed): pulled 0, pushed 1, 0 conflicts merged, deleted 0"), "\(toHome)")
                #expect(toHome.contains("work (dry run, nothing changed): pulled 0, pushed 0, 0 conflicts merged, deleted 0"), "\(toHome)")
                #expect(try mine.syncSucceeds() == "rad: pulled 0, pushed 1, 0 conflicts merged, deleted 0\n"
                    + "work: pulled 0, pushed 0, 0 conflicts merged, deleted 0")
                #expect(try home.storedTitles() == ["Fix the tap"] && work.storedTitles() == ["Write the report"])
                #expect(try mine.syncSucceeds() == "rad: pulled 0, pushed 0, 0 conflicts merged, deleted 0\n"
                    + "work: pulled 0, pushed 0, 0 conflicts merged, deleted 0")
            }
        }
    }

    /// A task moved from the list of an account without an Inbox into the Inbox goes to the
    /// first account's Inbox in the same sync: the Inbox was left to the account that still had
    /// its object, which deletes it, and the task was on neither server until a second sync.
    @Test func aTaskMovedIntoTheInboxFromAnAccountWithoutOneChangesServerInOneSync() async throws {
        try await RadicaleServer.withServer(slots: Self.serverSlot) { home in
            try await RadicaleServer.withServer(slots: ServerSlots(count: 1)) { work in
                let mine = try SyncSandbox(server: home)
                try mine.addAccount(url: work.baseURL, named: "work", inbox: nil)
                _ = try await PythonCalDAV.saveTodo(
                    foreignTodo(["UID:job-1", "DTSTAMP:20261122T120000Z", "SUMMARY:Write the report"]), in: "Job", server: work)
                _ = try mine.syncSucceeds()
                let id = try #require(try mine.sandbox.succeed(["ls"]).split(separator: "\n").first { $0.contains("Write the report") }?.split(separator: " ").first)
                try mine.sandbox.succeed(["edit", String(id), "--list", "inbox"])
                let plan = try mine.syncSucceeds(["--dry-run"])
                #expect(plan.contains("rad (dry run, nothing changed): pulled 0, pushed 1,"), "\(plan)")
                #expect(plan.contains("work (dry run, nothing changed): pulled 0, pushed 0, 0 conflicts merged, deleted 0"), "\(plan)")
                #expect(plan.contains("move to another list 1: "), "\(plan)")
                #expect(try mine.syncSucceeds() == "rad: pulled 0, pushed 1, 0 conflicts merged, deleted 0\n"
                    + "work: pulled 0, pushed 0, 0 conflicts merged, deleted 0")
                #expect(try home.storedTitles() == ["Write the report"] && work.storedTitles() == [])
            }
        }
    }

    /// What an account holds here is said without a count of 0 and with the verb agreeing: it
    /// said "its 0 lists and 1 tasks stay" and "its 1 task stay" (helper-155).
    @Test func whatAnAccountHoldsIsSaidInPlainWords() async throws {
        try await RadicaleServer.withServer(slots: Self.serverSlot) { server in
            let mine = try SyncSandbox(server: server)
            try mine.sandbox.succeed(["add", "Buy milk"])
            #expect(try mine.syncSucceeds() == "rad: pulled 0, pushed 1, 0 conflicts merged, deleted 0")
            #expect(
                try mine.sandbox.succeed(["sync", "account", "rm", "rad"]) == "Removed the account rad from \(mine.configPath)\n"
                    + "The store keeps its 1 task for it, and no other account takes it: add it again to sync on, or "
                    + "run `taskwidget sync account forget rad` to let it go.\n")
            #expect(
                try mine.sandbox.succeed(["sync", "account", "forget", "rad"]) == "Forgot what this store synced with the account rad, "
                    + "which the configuration does not name; its 1 task stays here as this machine's own.\n")
            try mine.addAccount(url: server.baseURL)
            #expect(
                try mine.sandbox.succeed(["sync", "account", "forget", "rad"]) == "This store has synced nothing with an account named rad: "
                    + "nothing to forget.\n")
        }
    }

    /// What the store keeps for an account that config.toml no longer names (renamed by hand,
    /// or removed) claims its lists and tasks from every other account, so `sync`, `account ls`
    /// and `account rm` say so and name the way out; forgotten, it is gone from all three.
    @Test func stateKeptForAnAccountConfigDoesNotNameIsPointedOut() async throws {
        try await RadicaleServer.withServer(slots: Self.serverSlot) { server in
            let mine = try SyncSandbox(server: server)
            try mine.sandbox.succeed(["add", "Pay rent", "--list", "Home", "--new-list"])
            try mine.sandbox.succeed(["add", "Buy milk"])
            #expect(try mine.syncSucceeds() == "rad: pulled 0, pushed 2, 0 conflicts merged, deleted 0")
            #expect(try mine.sync().stderr == "")

            try mine.setConfigLine("[sync.accounts.home]", replacing: "[sync.accounts.rad]")
            let renamed = try mine.sync()
            #expect(renamed.status == 0 && renamed.stdout == "home: pulled 0, pushed 0, 0 conflicts merged, deleted 0\n")
            #expect(
                renamed.stderr == "taskwidget: note: this store keeps what it synced with “rad”, an account config.toml does not "
                    + "name, and no other account takes its 1 list and 2 tasks: if it was renamed or is gone for good, run "
                    + "`taskwidget sync account forget rad`\n")
            let listed = try mine.sandbox.succeed(["sync", "account", "ls"])
            #expect(
                listed.hasSuffix("\nNot in config.toml: rad, whose 1 list and 2 tasks here go to no other account until "
                    + "`taskwidget sync account forget rad`.\n"), "\(listed)")
            #expect(
                try mine.sandbox.succeed(["sync", "account", "rm", "home"]) == "Removed the account home from \(mine.configPath)\n"
                    + "The store keeps its 1 list and 2 tasks for it, and no other account takes them: add it again to sync on, or "
                    + "run `taskwidget sync account forget home` to let them go.\n")
            // With no account left, sync names both as well as the lack of one (it named neither, helper-115).
            let none = try mine.sync()
            #expect(none.status == 64)
            #expect(
                none.stderrLines == [
                    "taskwidget: note: this store keeps what it synced with “home”, an account config.toml does not name, and no other "
                        + "account takes its 1 list and 2 tasks: if it was renamed or is gone for good, run `taskwidget sync account forget home`",
                    "taskwidget: note: this store keeps what it synced with “rad”, an account config.toml does not name, and no other "
                        + "account takes its 1 list and 2 tasks: if it was renamed or is gone for good, run `taskwidget sync account forget rad`",
                    "taskwidget: there is no sync account yet: add one with `taskwidget sync account add NAME --url URL --user USER --password-command CMD`",
                ], "\(none.stderr)")

            try mine.sandbox.succeed(["sync", "account", "forget", "rad"])
            try mine.sandbox.succeed(["sync", "account", "forget", "home"])
            #expect(try mine.sandbox.succeed(["sync", "account", "ls"]) == "No sync accounts. Add one with `taskwidget sync account add NAME --url URL --user USER --password-command CMD`.\n")
            try mine.addAccount(url: server.baseURL)
            let again = try mine.sync()
            #expect(again.stdout == "rad: pulled 0, pushed 0, 0 conflicts merged, deleted 0\n" && again.stderr == "")
        }
    }

    /// `sync --config FILE` takes the store from that file too, not only the accounts: it synced
    /// the store of the default config.toml (or the default store) with the file's accounts.
    @Test func aConfigFileNamesItsStoreForSync() async throws {
        try await RadicaleServer.withServer(slots: Self.serverSlot) { server in
            let mine = try SyncSandbox(server: server)
            let other = mine.sandbox.folder.appendingPathComponent("other.sqlite").path
            try mine.sandbox.succeed(["add", "In the other store", "--store", other])
            let file = mine.sandbox.folder.appendingPathComponent("other.toml")
            try Data(("store = \"~/other.sqlite\"\n\n" + (try String(contentsOfFile: mine.configPath, encoding: .utf8))).utf8).write(to: file)
            let result = try mine.sandbox.run(["sync", "--config", file.path, "--now", mine.sandbox.now], global: false)
            #expect(result.status == 0 && result.stdout.hasPrefix("rad: pulled 0, pushed 1,"), "\(result.stdout) \(result.stderr)")
            #expect(try mine.serverObject(containing: "SUMMARY:In the other store") != nil)
        }
    }

    /// A write the server refuses for good (a read-only calendar's 403) does not stop the others,
    /// and the next sync sends it again: it stopped the push, and every later sync, for good.
    @Test func aWriteTheServerRefusesDoesNotStopTheOthers() async throws {
        try await RadicaleServer.withServer(slots: Self.serverSlot) { server in
            try await withProxy(server) { proxy in
            let mine = try SyncSandbox(server: server, url: proxy.baseURL)
            try mine.sandbox.succeed(["add", "Locked task"])
            for index in 1...5 { try mine.sandbox.succeed(["add", "Open task \(index)"]) }
            proxy.setRule("refuse:SUMMARY:Locked")
            let refused = try mine.sync()
            #expect(refused.status == 69, "\(refused.stderr)")
            #expect(refused.stdout.contains("pushed 5") && refused.stdout.contains("1 change refused by the server"), "\(refused.stdout)")
            #expect(refused.stderrLines.count == 1 && refused.stderr.contains("refused 1 change (HTTP 403)"), "\(refused.stderr)")
            #expect(!refused.stderr.contains("Locked"), "titles never in logs")
            #expect(try mine.serverObject(containing: "SUMMARY:Open task 5") != nil)
            #expect(try mine.serverObject(containing: "SUMMARY:Locked task") == nil)
            proxy.setRule("pass")
            #expect(try mine.syncSucceeds().contains("pushed 1"))
            #expect(try mine.serverObject(containing: "SUMMARY:Locked task") != nil)
            }
        }
    }

    /// Renaming, recoloring or moving a synced list says that sync does not send it: the other
    /// devices kept the old name without a word (helper-115). A list never synced says nothing.
    @Test func changesToASyncedListThatSyncDoesNotSendAreNoted() async throws {
        try await RadicaleServer.withServer(slots: Self.serverSlot) { server in
            let mine = try SyncSandbox(server: server)
            try mine.sandbox.succeed(["add", "Buy milk", "--list", "Errands", "--new-list"])
            try mine.syncSucceeds()
            try mine.sandbox.succeed(["list", "add", "Local"])
            for (arguments, what) in [
                (["list", "rename", "Errands", "Shopping"], "a list's name"), (["list", "color", "Shopping", "FF9500"], "a list's color"),
                (["list", "move", "Shopping", "--to", "2"], "the order of lists"),
            ] {
                let result = try mine.sandbox.run(arguments)
                #expect(result.status == 0, "\(result.stderr)")
                #expect(
                    result.stderr == "taskwidget: note: Shopping is synced, and sync does not send \(what): change it on the server too "
                        + "(in a calendar app), or the other devices keep the old one\n")
            }
            let local = try mine.sandbox.run(["list", "rename", "Local", "Mine"])
            #expect(local.status == 0 && local.stderr == "", "\(local.stderr)")
        }
    }

    /// A deletion the server refuses (a read-only calendar) brings the task back here: sent
    /// again, it was refused at every later sync, which failed for good, and `undo` found no task
    /// to undo (helper-115).
    @Test func aDeletionTheServerRefusesBringsTheTaskBack() async throws {
        try await RadicaleServer.withServer(slots: Self.serverSlot) { server in
            try await withProxy(server) { proxy in
            let mine = try SyncSandbox(server: server, url: proxy.baseURL)
            try mine.sandbox.succeed(["add", "Shared chore", "--due", "2026-11-25 18:00"])
            try mine.syncSucceeds()
            let id = try #require(try mine.task(titled: "Shared chore")?["shortId"] as? String)
            let synced = try mine.export()
            try mine.sandbox.succeed(["rm", id])
            proxy.setRule("only:DELETE:status403")
            let refused = try mine.sync()
            #expect(refused.status == 69, "\(refused.stderr)")
            #expect(refused.stdout.contains("1 deletion refused by the server (the task is back here)"), "\(refused.stdout)")
            #expect(
                refused.stderrLines.count == 1 && refused.stderr.contains("refused to delete 1 task (HTTP 403) in /")
                    && refused.stderr.contains("the task is back here as the server has it"), "\(refused.stderr)")
            #expect(!refused.stderr.contains("Shared chore"), "titles never in logs")
            #expect(try mine.task(titled: "Shared chore")?["shortId"] as? String == id)
            #expect(try mine.export() == synced)
            #expect(try mine.serverObject(containing: "SUMMARY:Shared chore") != nil)
            // Nothing is left to send: the next sync, the server still refusing, is clean.
            #expect(try mine.syncSucceeds().hasSuffix("pulled 0, pushed 0, 0 conflicts merged, deleted 0"))
            #expect(try mine.sandbox.integrity() == "ok")
            }
        }
    }

    @Test func aTenMegabyteCalendarObjectSyncsBothWays() async throws {
        try await RadicaleServer.withServer(slots: Self.serverSlot) { server in
            let mine = try SyncSandbox(server: server)
            let note = String(repeating: "0123456789abcdef", count: 10 * 1024 * 1024 / 16)
            _ = try await PythonCalDAV.saveTodo(
                foreignTodo(["UID:huge-1", "DTSTAMP:20261122T120000Z", "SUMMARY:Huge", "DESCRIPTION:\(note)"]), in: "Tasks",
                server: server)
            try mine.syncSucceeds()
            let task = try #require(try mine.task(titled: "Huge"))
            try mine.sandbox.succeed(["edit", try #require(task["shortId"] as? String), "--title", "Huge, renamed"])
            #expect(try mine.syncSucceeds(now: Self.monday).contains("pushed 1"))
            let stored = try #require(try mine.serverObject(containing: "SUMMARY:Huge\\, renamed"))
            #expect(stored.replacingOccurrences(of: "\r\n ", with: "").contains(note))
            #expect(try mine.sandbox.integrity() == "ok")
        }
    }

    // MARK: Accounts

    /// A password over http:// to another machine is noted at `account add` and at every sync:
    /// nothing said so (helper-117). https, loopback and an account without a password are not.
    @Test func aPasswordSentInClearIsNoted() throws {
        let sandbox = try Sandbox()
        for (name, url, noted) in [
            ("plain", "http://0.0.0.0:1/", true), ("secure", "https://dav.example.com/", false), ("local", "http://127.0.0.1:5232/", false),
            ("localhost", "http://localhost:5232/", false), ("upper", "HTTPS://dav.example.com/", false),  // any case (helper-120)
        ] {
            let added = try sandbox.run(["sync", "account", "add", name, "--url", url, "--user", "bob", "--password-command", "echo pw"], global: false)
            #expect(added.status == 0, "\(added.stderr)")
            let note = "taskwidget: note: the account “\(name)” sends its password unencrypted (http://) to 0.0.0.0: use https:// if the server offers it\n"
            #expect(added.stderr == (noted ? note : ""), "\(url): \(added.stderr)")
        }
        let synced = try sandbox.run(["sync", "--account", "plain"])
        #expect(synced.status == 75, "\(synced.stderr)")
        #expect(synced.stderrLines.first == "taskwidget: note: the account “plain” sends its password unencrypted (http://) to 0.0.0.0: use https:// if the server offers it")
    }

    @Test func accountsAreAddedListedAndRemovedWithoutRewritingTheFile() throws {
        let sandbox = try Sandbox()
        let config = sandbox.folder.appendingPathComponent(".config/taskwidget")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        let original = """
            # My settings
            store = "~/tasks.sqlite"  # keep this comment

            [views.work]
            list = "Work"
            """
        try Data(original.utf8).write(to: config.appendingPathComponent("config.toml"))
        try sandbox.succeed(["sync", "account", "add", "home", "--url", "https://dav.example.com/", "--user", "alice", "--password-command", "pass show dav"])
        let added = try String(contentsOf: config.appendingPathComponent("config.toml"), encoding: .utf8)
        #expect(added.hasPrefix(original + "\n"))
        #expect(added.contains("[sync.accounts.home]\nurl = \"https://dav.example.com/\"\nuser = \"alice\"\npassword_command = \"pass show dav\"\n"))
        let listed = try sandbox.succeed(["sync", "account", "ls"])
        #expect(listed.contains("home") && listed.contains("command") && !listed.contains("pass show"))
        // A new password command: --replace changes the account where it is, so it stays the
        // first one; rm and add again made it the last, and new lists went to another server
        // (helper-80). Without --replace, the error says it.
        try sandbox.succeed(["sync", "account", "add", "work", "--url", "https://work.example.com/", "--user", "bob", "--password-command", "pass work"])
        let again = try sandbox.run(["sync", "account", "add", "home", "--url", "https://dav.example.com/", "--user", "alice", "--password-command", "pass new"])
        #expect(again.status == 64 && again.stderr.contains("already has an account “home”: add --replace to change it where it is"), "\(again.stderr)")
        // What is not given stays (an inbox dropped by --replace stopped new Inbox tasks syncing);
        // a name that is no account is refused (a typo added one).
        #expect(
            try sandbox.succeed(["sync", "account", "add", "home", "--url", "https://dav.example.com/", "--password-command", "pass new", "--replace"])
                .hasPrefix("Changed the account home in "))
        let replaced = try String(contentsOf: config.appendingPathComponent("config.toml"), encoding: .utf8)
        #expect(replaced.hasPrefix(original + "\n\n[sync.accounts.home]\nurl = \"https://dav.example.com/\"\nuser = \"alice\"\npassword_command = \"pass new\"\n\n[sync.accounts.work]\n"), "\(replaced)")
        let typo = try sandbox.run(["sync", "account", "add", "hmoe", "--url", "https://dav.example.com/", "--replace"])
        #expect(typo.status == 64 && typo.stderr == "taskwidget: there is no sync account “hmoe” to replace: the accounts are home, work\n", "\(typo.stderr)")
        // --url may be left out with --replace, as the others may (it was required: helper-102).
        try sandbox.succeed(["sync", "account", "add", "home", "--user", "carol", "--replace"])
        let newUser = try String(contentsOf: config.appendingPathComponent("config.toml"), encoding: .utf8)
        #expect(newUser.contains("[sync.accounts.home]\nurl = \"https://dav.example.com/\"\nuser = \"carol\"\npassword_command = \"pass new\"\n"), "\(newUser)")
        let typoWithoutURL = try sandbox.run(["sync", "account", "add", "hmoe", "--replace"])
        #expect(typoWithoutURL.status == 64)
        #expect(typoWithoutURL.stderr == "taskwidget: there is no sync account “hmoe” to replace: the accounts are home, work\n")
        let badPort = try sandbox.run(["sync", "account", "add", "other", "--url", "http://localhost:99999/"])
        #expect(badPort.status == 64)
        #expect(badPort.stderr.hasPrefix("taskwidget: --url has the port 99999, which no server can listen on: give one from 1 to 65535, or none"), "\(badPort.stderr)")
        let withoutURL = try sandbox.run(["sync", "account", "add", "other"])
        #expect(withoutURL.status == 64)
        #expect(withoutURL.stderr.hasPrefix("taskwidget: missing --url <url>: the address of the CalDAV server, e.g. https://dav.example.com/"), "\(withoutURL.stderr)")
        try sandbox.succeed(["sync", "account", "rm", "work"])
        try sandbox.succeed(["sync", "account", "rm", "home"])
        #expect(try String(contentsOf: config.appendingPathComponent("config.toml"), encoding: .utf8) == original + "\n")

        // A config.toml that is a link to the user's dotfiles: the file it names stays private. The
        // mode was read from the link (0777) and then set on the file, open to everyone (helper-72).
        let dotfile = sandbox.folder.appendingPathComponent("dotfiles-config.toml").path
        try Data(original.utf8).write(to: URL(fileURLWithPath: dotfile))
        chmod(dotfile, 0o600)
        try FileManager.default.removeItem(at: config.appendingPathComponent("config.toml"))
        try FileManager.default.createSymbolicLink(atPath: config.appendingPathComponent("config.toml").path, withDestinationPath: dotfile)
        for arguments in [["add", "home", "--url", "https://dav.example.com/", "--user", "alice", "--password-command", "pass show dav"], ["rm", "home"]] {
            try sandbox.succeed(["sync", "account"] + arguments)
            #expect(try FileManager.default.attributesOfItem(atPath: dotfile)[.posixPermissions] as? Int == 0o600, "\(arguments)")
            #expect(try FileManager.default.destinationOfSymbolicLink(atPath: config.appendingPathComponent("config.toml").path) == dotfile)
        }
        // One others may change gets no account: made private after, it made their edits trusted.
        chmod(dotfile, 0o666)
        let loose = try sandbox.run(["sync", "account", "add", "home", "--url", "https://dav.example.com/", "--user", "alice", "--password-command", "pass"])
        #expect(loose.status == 64 && loose.stderr.contains("can be changed by others"), "\(loose.stderr)")
        #expect(try String(contentsOfFile: dotfile, encoding: .utf8) == original + "\n")
        chmod(dotfile, 0o600)

        // A password file others can read is refused, in one line.
        let passwordFile = sandbox.folder.appendingPathComponent("loose.password").path
        try Data("secret\n".utf8).write(to: URL(fileURLWithPath: passwordFile))
        chmod(passwordFile, 0o644)
        let refused = try sandbox.run(["sync", "account", "add", "loose", "--url", "https://dav.example.com/", "--user", "a", "--password-file", passwordFile])
        #expect(refused.status == 64)
        #expect(refused.stderrLines == ["taskwidget: the password file of the account “loose” \(passwordFile) can be read by others: run `chmod 600 \(passwordFile)`"])

        // A task's own address, copied from a client, synced the whole calendar home (helper-75).
        let object = try sandbox.run(["sync", "account", "add", "one", "--url", "http://127.0.0.1:1/alice/errands/3f2a.ics"])
        #expect(object.status == 64 && object.stderr.hasPrefix("taskwidget: --url names one calendar object (…/3f2a.ics): give its calendar's address"), "\(object.stderr)")

        // A password in the URL was kept in config.toml, listed by `account ls`, and never sent.
        let inURL = try sandbox.run(["sync", "account", "add", "ui", "--url", "http://bob:S3CRET@127.0.0.1:1/dav"])
        #expect(inURL.status == 64 && inURL.stderr.hasPrefix("taskwidget: --url must not hold a user name or password (…@host)"), "\(inURL.stderr)")
        try Data((original + "\n\n[sync.accounts.ui]\nurl = \"http://bob:S3CRET@127.0.0.1:1/dav\"\n").utf8).write(to: config.appendingPathComponent("config.toml"))
        let listedByHand = try sandbox.succeed(["sync", "account", "ls"])
        #expect(listedByHand.contains("http://bob:***@127.0.0.1:1/dav") && !listedByHand.contains("S3CRET"), "\(listedByHand)")
        let synced = try sandbox.run(["sync"])
        #expect(synced.status == 64 && synced.stderr.contains("the url of the account “ui” holds a password"), "\(synced.stderr)")

        // An account whose own table has a mistake could not be removed, and with two such
        // tables each stopped the other's removal (helper-161).
        let twoMistakes = "\n\n[sync.accounts.typo]\nurl = \"https://dav.example.com/\"\npasword_file = \"x\"\n\n[sync.accounts.number]\nurl = 5\n"
        try Data((original + twoMistakes).utf8).write(to: config.appendingPathComponent("config.toml"))
        let listedWithMistakes = try sandbox.run(["sync", "account", "ls"])
        #expect(listedWithMistakes.status == 64 && listedWithMistakes.stderr.contains("did you mean “password_file”"), "\(listedWithMistakes.stderr)")
        let unknown = try sandbox.run(["sync", "account", "rm", "typ"])
        #expect(unknown.status == 64 && unknown.stderr.contains("did you mean “password_file”"), "\(unknown.stderr)")
        for name in ["typo", "number"] {
            #expect(try sandbox.succeed(["sync", "account", "rm", name]) == "Removed the account \(name) from \(config.appendingPathComponent("config.toml").path)\n")
        }
        #expect(try String(contentsOf: config.appendingPathComponent("config.toml"), encoding: .utf8) == original + "\n")

        // Its sub-tables go with it (left behind, no command could read the file), a table written
        // twice is refused as TOML refuses it, and a file with CRLF line endings keeps them: every
        // account after its first line was "not a table of its own" (helper-168).
        let file = config.appendingPathComponent("config.toml")
        try Data((original + "\n\n[sync.accounts.home]\nurl = \"https://a.example/\"\n\n[sync.accounts.home.extra]\nx = 1\n").utf8).write(to: file)
        try sandbox.succeed(["sync", "account", "rm", "home"])
        #expect(try String(contentsOf: file, encoding: .utf8) == original + "\n")
        let twice = original + "\n\n[sync.accounts.home]\nurl = \"https://a.example/\"\n\n[sync.accounts.home]\nuser = \"again\"\n"
        try Data(twice.utf8).write(to: file)
        let refusedTwice = try sandbox.run(["sync", "account", "rm", "home"])
        #expect(refusedTwice.status == 64 && refusedTwice.stderr.hasSuffix("the table [sync.accounts.home] is in the file twice: fix the file by hand\n"), "\(refusedTwice.stderr)")
        #expect(try String(contentsOf: file, encoding: .utf8) == twice)
        let crlf = "[sync.accounts.a]\r\nurl = \"https://a.example/\"\r\n\r\n[sync.accounts.b]\r\nurl = \"https://b.example/\"\r\n"
        try Data(crlf.utf8).write(to: file)
        try sandbox.succeed(["sync", "account", "rm", "b"])
        #expect(try String(contentsOf: file, encoding: .utf8) == "[sync.accounts.a]\r\nurl = \"https://a.example/\"\r\n")
        try sandbox.succeed(["sync", "account", "add", "c", "--url", "https://c.example/"])
        #expect(try String(contentsOf: file, encoding: .utf8) == "[sync.accounts.a]\r\nurl = \"https://a.example/\"\r\n\r\n[sync.accounts.c]\r\nurl = \"https://c.example/\"\r\n")
    }

    @Test func aDryRunPrintsThePlanAndChangesNothingAnywhere() async throws {
        try await RadicaleServer.withServer(slots: Self.serverSlot) { server in
            let mine = try SyncSandbox(server: server)
            let id = try mine.sandbox.succeed(["add", "Local task", "--list", "Home", "--new-list"]).trimmingCharacters(in: .newlines)
            _ = try await PythonCalDAV.saveTodo(
                foreignTodo(["UID:remote-1", "DTSTAMP:20261122T120000Z", "SUMMARY:Remote task"]), in: "Tasks", server: server)
            let before = try mine.export()
            let serverBefore = try mine.serverObjects()
            let plan = try mine.syncSucceeds(["--dry-run"])
            #expect(plan.hasPrefix("rad (dry run, nothing changed): pulled 1, pushed 1, 0 conflicts merged, deleted 0"), "\(plan)")
            #expect(plan.contains("Home (new collection): push 1: \(id)"), "\(plan)")
            #expect(try mine.export() == before)
            #expect(try mine.serverObjects() == serverBefore)
        }
    }

    /// The Inbox's collection ("Tasks") is made by the first real sync; the dry run before it
    /// shows the Inbox's tasks going there, as it shows a new list's.
    @Test func aDryRunShowsTheInboxTasksOfACollectionStillToBeMade() async throws {
        try await RadicaleServer.withServer(slots: Self.serverSlot) { server in
            let mine = try SyncSandbox(server: server)
            let id = try mine.sandbox.succeed(["add", "Inbox task"]).trimmingCharacters(in: .newlines)
            let plan = try mine.syncSucceeds(["--dry-run"])
            #expect(plan.hasPrefix("rad (dry run, nothing changed): pulled 0, pushed 1, 0 conflicts merged, deleted 0"), "\(plan)")
            #expect(plan.contains("Inbox (new collection): push 1: \(id)"), "\(plan)")
            #expect(try mine.serverObjects().isEmpty)
            #expect(try mine.syncSucceeds() == "rad: pulled 0, pushed 1, 0 conflicts merged, deleted 0")
        }
    }

    @Test func aPushCountsItsChangesOnATerminalAndNowhereElse() async throws {
        try await RadicaleServer.withServer(slots: Self.serverSlot) { server in
            let mine = try SyncSandbox(server: server)
            for title in ["One", "Two", "Three"] { try mine.sandbox.succeed(["add", title]) }
            let seen = try mine.syncOnTerminal()
            #expect(seen.status == 0, "\(seen.stdout)")
            // One line: the server it waits for, then rewritten after each request, then cleared
            // for the summary.
            let progress = "rad: syncing with 127.0.0.1…" + (1...3).map { "\r\u{1B}[Krad: pushing \($0) of 3…" }.joined()
            #expect(seen.stdout == progress + "\r\u{1B}[Krad: pulled 0, pushed 3, 0 conflicts merged, deleted 0\r\n")

            // Into a pipe, and with log lines: no progress.
            try mine.sandbox.succeed(["add", "Four"])
            let piped = try mine.sync()
            #expect(piped.stdout == "rad: pulled 0, pushed 1, 0 conflicts merged, deleted 0\n")
            #expect(piped.stderr.isEmpty)
            try mine.sandbox.succeed(["add", "Five"])
            let logged = try mine.syncOnTerminal(["--verbose"])
            #expect(logged.status == 0)
            #expect(!logged.stdout.contains("pushing"))
        }
    }

    /// Ctrl-C during a push: the progress line is cleared before SIGINT ends the process (the
    /// prompt started after "pushing 3 of 120…"), and the next sync finishes the push with no
    /// task twice on the server. So does SIGTERM (`kill`), which left the line (helper-80).
    @Test(arguments: ["INT", "TERM"])
    func anInterruptInAPushClearsItsLineAndTheNextSyncFinishesIt(signalName: String) async throws {
        try await RadicaleServer.withServer(slots: Self.serverSlot) { server in
            let mine = try SyncSandbox(server: server)
            try mine.sandbox.importTasks((1...120).map { (UUID().uuidString, "Task \($0)") })
            let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Support/interrupt_on_terminal.py")
            let run = try ProcessRunner.run(
                "/usr/bin/python3", [script.path, "--signal", signalName, "pushing 3 of", Sandbox.binary.path] + mine.sandbox.arguments(["sync"]),
                environment: mine.sandbox.environment)
            let outcome = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any], "\(run.stderr)")
            #expect(outcome["interrupted"] as? Bool == true, "\(outcome)")
            #expect(outcome["signal"] as? Int == Int(signalName == "INT" ? SIGINT : SIGTERM), "\(outcome)")
            #expect((outcome["tail"] as? String)?.hasSuffix("of 120…\r\u{1B}[K") == true, "\(outcome)")
            try mine.syncSucceeds()
            #expect(try mine.serverObjects().count == 120)
            #expect(try mine.syncSucceeds() == "rad: pulled 0, pushed 0, 0 conflicts merged, deleted 0")
        }
    }

    // MARK: HTTPS

    /// HTTPS goes through the system's CA store: a self-signed server is refused (69), and
    /// accepted once the system trusts its certificate. "The system" here is a private mount
    /// namespace whose /etc/ssl/certs/ca-certificates.crt has the certificate appended, so the
    /// machine's own store is never touched. Needs `unshare` (root, or user namespaces).
    @Test func httpsUsesTheSystemCAStore() async throws {
        var options = RadicaleServer.Options()
        options.tls = true
        try await RadicaleServer.withServer(options, slots: Self.serverSlot) { server in
            let mine = try SyncSandbox(server: server)
            try mine.sandbox.succeed(["add", "Over TLS"])
            let refused = try mine.sync()
            #expect(refused.status == 69, "\(refused.stderr)")
            #expect(refused.stderr.contains("secure connection") && refused.stderr.contains("CA store"), "\(refused.stderr)")

            let bundle = mine.sandbox.folder.appendingPathComponent("ca-certificates.crt")
            let system = try Data(contentsOf: URL(fileURLWithPath: "/etc/ssl/certs/ca-certificates.crt"))
            try (system + Data(contentsOf: server.certificateFile)).write(to: bundle)
            let probe = try ProcessRunner.run("/usr/bin/unshare", ["-m", "--propagation", "private", "true"])
            guard probe.status == 0 else {
                print("skipped the trusted half: no mount namespace here (\(probe.stderr.prefix(100)))")
                return
            }
            let command = ["-m", "--propagation", "private", "/bin/sh", "-c", "/usr/bin/mount --bind \"$0\" /etc/ssl/certs/ca-certificates.crt && exec \"$@\"", bundle.path, Sandbox.binary.path]
                + mine.sandbox.arguments(["sync"])
            let trusted = try ProcessRunner.run("/usr/bin/unshare", command, environment: mine.sandbox.environment)
            #expect(trusted.status == 0, "\(trusted.stderr)")
            #expect(trusted.stdout == "rad: pulled 0, pushed 1, 0 conflicts merged, deleted 0\n")
        }
    }
}
