import Foundation
import Logging
import Synchronization
import TaskWidgetConfig
import TaskWidgetCore
import TaskWidgetStore
import Testing

@testable import TaskWidgetSync
@testable import TaskWidgetTestSupport

/// The engine on a store and a real Radicale, with transports that fail or race on cue: what a
/// 412, an interrupted push or a concurrent command does to a sync.
@Suite struct SyncEngineTests {
    static let zone = TimeZone(identifier: "Europe/Berlin")!
    static let sunday = Fixed.instant("2026-11-22T16:27:00+01:00")
    static let monday = Fixed.instant("2026-11-23T10:00:00+01:00")

    /// Refused writes are explained by their statuses: an object sabre/dav (Nextcloud) finds
    /// invalid is 415 or 400, not a read-only calendar.
    @Test(arguments: [
        ([403], "the calendar may be read-only;"),
        ([415], "the server found a task it does not accept (its log says why);"),
        ([400, 403], "the calendar may be read-only, or the server found a task it does not accept (its log says why);"),
        ([413], "a task is too large for the server;"),
        ([409], "the calendar may have been deleted meanwhile (then the next sync makes it again) or be read-only;"),
    ])
    func refusedWritesSayWhatTheirStatusesMostLikelyMean(statuses: [Int], cause: String) throws {
        var report = SyncReport(account: "home")
        report.refused = statuses.map { .init(status: $0, collectionHref: "/alice/family/") }
        let message = try #require(report.refusalError).message
        #expect(message.contains(") in /alice/family/: \(cause) the tasks stay changed here"), "\(message)")
    }

    /// A refused deletion is undone here, and says so: it said the tasks stay changed here,
    /// where the task was gone (helper-115).
    @Test func refusedDeletionsSayTheTasksAreBack() throws {
        var report = SyncReport(account: "home")
        report.refused = [
            .init(status: 403, collectionHref: "/alice/family/", isRestoredDeletion: true),
            .init(status: 403, collectionHref: "/alice/shared/"),
        ]
        #expect(report.summary == "home: pulled 0, pushed 0, 0 conflicts merged, deleted 0, 1 change refused by the server, 1 deletion refused by the server (the task is back here)")
        #expect(
            report.refusalError?.message
                == "home: the server refused 1 change (HTTP 403) in /alice/shared/: the calendar may be read-only; the tasks stay changed here, and the next sync sends them again (change them back here, or move a new one to another list, to stop it); and the server refused to delete 1 task (HTTP 403) in /alice/family/: the calendar may be read-only; the task is back here as the server has it")
        // On a terminal, by the calendar's name (helper-120).
        report.refused[0].collectionName = "Family"
        #expect(report.refusalError?.message.contains("refused to delete 1 task (HTTP 403) in “Family”: the calendar") == true)
    }

    /// A transport that runs `hook` before passing on each request (the hook may throw, to cut
    /// the sync there, or act as another client).
    final class HookedTransport: DAVTransport {
        let base: any DAVTransport
        let hook: @Sendable (DAVRequest, Int) async throws(CalDAVError) -> Void
        private let count = Mutex(0)

        init(_ base: any DAVTransport, hook: @escaping @Sendable (DAVRequest, Int) async throws(CalDAVError) -> Void) {
            self.base = base
            self.hook = hook
        }

        func send(_ request: DAVRequest) async throws(CalDAVError) -> DAVResponse {
            let index = count.withLock { value -> Int in
                value += 1
                return value
            }
            try await hook(request, index)
            return try await base.send(request)
        }
    }

    /// The messages of the engine `make` gives, run as a dry run and then for real: each run must
    /// be refused with a configuration error.
    func configurationRefusals(_ make: () -> SyncEngine) async -> [String] {
        var messages: [String] = []
        for dryRun in [true, false] {
            let error = await #expect(throws: TaskWidgetError.self) { try await make().run(dryRun: dryRun) }
            #expect(error?.code == .badConfig)
            messages.append(error?.message ?? "")
        }
        return messages
    }

    func engine(
        _ store: TaskStore, _ server: RadicaleServer, _ transport: any DAVTransport, now: Instant = sunday, inbox: String? = "Tasks",
        url: URL? = nil, namesCollections: Bool = true
    ) -> SyncEngine {
        let url = url ?? server.baseURL
        let account = SyncAccount(name: "test", url: url.absoluteString, user: server.username, inbox: inbox)
        let client = CalDAVClient(
            accountURL: url, credentials: CalDAVCredentials(username: server.username, password: server.password),
            transport: transport)
        return SyncEngine(
            store: store, account: account, client: client, timeZone: Self.zone, now: now, receivesNewLists: true, receivesNewInboxTasks: true,
            namesCollections: namesCollections, logger: { var logger = Logger(label: "test"); logger.logLevel = .debug; return logger }())
    }

    /// A store with one task ("Local") synced to `server`, and the URL of its Inbox's collection.
    func storeWithASyncedTask(_ server: RadicaleServer, _ transport: any DAVTransport) async throws -> (TemporaryStore, URL) {
        let fixture = try TemporaryStore()
        _ = try fixture.store.addTask(NewTask(title: "Local"), now: Self.sunday)
        _ = try await engine(fixture.store, server, transport).run(dryRun: false)
        return (fixture, try syncedInboxURL(of: fixture.store))
    }

    /// The URL of the Inbox's collection, once a sync has made it.
    func syncedInboxURL(of store: TaskStore) throws -> URL {
        let inbox = try #require(try store.syncSnapshot(account: "test").collections.first { $0.isInbox })
        return try #require(URL(string: inbox.url))
    }

    /// Another client's edit, on Monday, of the object `request` is about to write: `old` in its
    /// text becomes `new`.
    static func editAsAnotherClient(
        _ request: DAVRequest, through direct: CalDAVClient, replacing old: String, with new: String
    ) async throws(CalDAVError) {
        let collection = request.url.deletingLastPathComponent()
        let href = DAVHref(serverHref: request.url.absoluteString, relativeTo: request.url)!
        let theirs = try await direct.object(at: href, in: collection)
        let edited = theirs.data.replacingOccurrences(of: old, with: new)
            .replacingOccurrences(of: "LAST-MODIFIED:20261122T152700Z", with: "LAST-MODIFIED:20261123T100000Z")
        #expect(edited != theirs.data && edited.contains(new))
        _ = try await direct.update(edited, at: href, in: collection, ifMatch: theirs.etag!)
    }

    /// An Inbox named in the account near a collection's name is a typo: it made a second
    /// collection, "Taks", beside the phone's "Tasks". A name near none is made, as before.
    @Test func anInboxNameNearACollectionsIsRefusedNotMade() async throws {
        try await withRadicale { server, _, counting in
            _ = try await storeWithASyncedTask(server, counting)
            let fixture = try TemporaryStore()
            _ = try fixture.store.addTask(NewTask(title: "Mine"), now: Self.sunday)
            counting.reset()
            for message in await configurationRefusals({ engine(fixture.store, server, counting, inbox: "Taks") }) {
                #expect(message.hasPrefix("the inbox “Taks” of the account “test” names no collection of the server: did you mean “Tasks”?"), "\(message)")
            }
            // For a journal, by its path: names are never logged (helper-80).
            for message in await configurationRefusals({ engine(fixture.store, server, counting, inbox: "Taks", namesCollections: false) }) {
                #expect(
                    message.hasPrefix("the inbox of the account “test” names no collection of the server: did you mean the calendar /\(server.username)/")
                        && !message.contains("Tasks") && !message.contains("Taks"), "\(message)")
            }
            #expect(counting.requestsByMethod["MKCALENDAR"] == nil, "no collection made")
            let made = try await engine(fixture.store, server, counting, inbox: "Errands").run(dryRun: false)
            #expect(made.pushed == 1)
            // A collection a store synced before as a list is no candidate: the Inbox "Task" is then
            // made, where it was refused for “Tasks”, which that store keeps as a list.
            let lists = try TemporaryStore()
            _ = try await engine(lists.store, server, counting, inbox: nil).run(dryRun: false)
            #expect(try lists.store.listSummaries().map(\.list.name).contains("Tasks"))
            let later = try await engine(lists.store, server, counting, inbox: "Task").run(dryRun: true)
            #expect(later.summary.hasPrefix("test: "))
            // Its very name is refused: a second collection “Tasks” was made for the Inbox.
            counting.reset()
            for message in await configurationRefusals({ engine(lists.store, server, counting, inbox: "tasks") }) {
                #expect(message.hasPrefix("the account “test” keeps the Inbox in “tasks”, a collection this store syncs as a list ("), "\(message)")
            }
            #expect(counting.requestsByMethod["MKCALENDAR"] == nil, "no collection made")
        }
    }

    /// The Inbox stays where it first synced: an inbox in config.toml that came to name a list's
    /// collection since is refused, as docs/sync.md says. Sync went on with the first collection
    /// and said nothing. A name the server does not have (after a rename on the phone, say)
    /// changes nothing.
    @Test func anInboxMovedToAListsCollectionAfterTheFirstSyncIsRefused() async throws {
        try await withRadicale { server, _, counting in
            let fixture = try TemporaryStore()
            _ = try fixture.store.addTask(NewTask(title: "At work", listName: "Work", createsList: true), now: Self.sunday)
            _ = try fixture.store.addTask(NewTask(title: "Mine"), now: Self.sunday)
            _ = try await engine(fixture.store, server, counting).run(dryRun: false)
            _ = try fixture.store.addTask(NewTask(title: "New in the Inbox"), now: Self.sunday)
            counting.reset()
            for message in await configurationRefusals({ engine(fixture.store, server, counting, inbox: "Work") }) {
                #expect(
                    message.hasPrefix("the account “test” keeps the Inbox in “Tasks”, where it first synced, but its inbox in config.toml now names another collection, “Work” (")
                        && message.hasSuffix(#"): put back inbox = "Tasks""#), "\(message)")
            }
            for message in await configurationRefusals({ engine(fixture.store, server, counting, inbox: "Work", namesCollections: false) }) {
                #expect(
                    message.hasPrefix("the account “test” keeps the Inbox in the calendar /\(server.username)/")
                        && message.hasSuffix("put back the inbox that names the first") && !message.contains("Tasks") && !message.contains("Work"),
                    "\(message)")
            }
            #expect(counting.requestsByMethod["PUT"] == nil, "nothing written")
            #expect(try await engine(fixture.store, server, counting, inbox: "Chores").run(dryRun: false).pushed == 1)
        }
    }

    /// An account URL changed to another of the same home syncs on. A changed URL under which
    /// a collection this store syncs is missing (deleted there meanwhile) is refused, dry run too,
    /// and the store stays as it was; at the URL it had, the deletion is taken as a phone's.
    @Test func aChangedAccountURLUnderWhichACollectionIsMissingIsRefused() async throws {
        try await withRadicale { server, direct, counting in
            let fixture = try TemporaryStore()
            _ = try fixture.store.addTask(NewTask(title: "One", listName: "Home", createsList: true), now: Self.sunday)
            _ = try fixture.store.addTask(NewTask(title: "Two"), now: Self.sunday)
            _ = try await engine(fixture.store, server, counting).run(dryRun: false)
            let principal = server.baseURL.appendingPathComponent("\(server.username)/")
            let same = try await engine(fixture.store, server, counting, url: principal).run(dryRun: false)
            #expect(same.summary == "test: pulled 0, pushed 0, 0 conflicts merged, deleted 0")

            let home = try #require(try fixture.store.syncSnapshot(account: "test").collections.first { !$0.isInbox })
            try await direct.deleteCollection(at: try #require(URL(string: home.url)), ifMatch: nil)
            for dryRun in [true, false] {
                let error = await #expect(throws: TaskWidgetError.self) {
                    try await engine(fixture.store, server, counting).run(dryRun: dryRun)
                }
                #expect(error?.code == .badConfig)
                #expect(
                    error?.message == "the url of the account “test” changed since the last sync, and where it leads now lacks 1 task and "
                        + "1 collection this store synced with it, so sync would delete them here: if the server is the same, set its url "
                        + "back (\(principal.absoluteString)) and sync once before changing it; if the account moved to a server that does "
                        + "not hold them yet, run `taskwidget sync account forget test` for its next sync to send this store's tasks there")
            }
            #expect(try fixture.store.listSummaries().map(\.list.name) == ["Home"])
            #expect(try fixture.store.syncSnapshot(account: "test").tasks.map(\.title).sorted() == ["One", "Two"])
            let deleted = try await engine(fixture.store, server, counting, url: principal).run(dryRun: false)
            #expect(deleted.summary == "test: pulled 0, pushed 0, 0 conflicts merged, deleted 1")
        }
    }

    /// A transport whose `Depth: 1` answers (listings of a home or a calendar, and reports) have
    /// every propstat failed (500), as a proxy or a server in trouble may send them.
    final class FailingPropstatsTransport: DAVTransport {
        let base: any DAVTransport
        let methods: Set<String>

        init(_ base: any DAVTransport, methods: Set<String> = ["PROPFIND"]) {
            self.base = base
            self.methods = methods
        }

        func send(_ request: DAVRequest) async throws(CalDAVError) -> DAVResponse {
            var response = try await base.send(request)
            let isListing = methods.contains(request.method) && request.headers.contains { $0.name.lowercased() == "depth" && $0.value == "1" }
            if isListing, let text = String(data: response.body, encoding: .utf8) {
                response.body = Data(text.replacingOccurrences(of: "HTTP/1.1 200 OK", with: "HTTP/1.1 500 Internal Server Error").utf8)
            }
            return response
        }
    }

    /// A listing of the calendar home whose properties failed says nothing of what is there: it
    /// stops the sync (a malformed answer, 69) and changes nothing. Read as "no calendars", it deleted every task and
    /// list here (helper-107).
    @Test func aListingWhosePropertiesFailedChangesNothing() async throws {
        try await withRadicale { server, _, counting in
            let fixture = try TemporaryStore()
            _ = try fixture.store.addTask(NewTask(title: "One", listName: "Home", createsList: true), now: Self.sunday)
            _ = try fixture.store.addTask(NewTask(title: "Two"), now: Self.sunday)
            #expect(try await engine(fixture.store, server, counting).run(dryRun: false).pushed == 2)
            let before = try fixture.store.syncSnapshot(account: "test")
            for dryRun in [true, false] {
                let error = await #expect(throws: CalDAVError.self) {
                    try await engine(fixture.store, server, FailingPropstatsTransport(counting)).run(dryRun: dryRun)
                }
                // Not transient: sync exits 69, "check the server and the account".
                #expect(error?.code == .malformedResponse && error?.code.isTransient == false, "\(String(describing: error))")
            }
            let after = try fixture.store.syncSnapshot(account: "test")
            #expect(after.tasks.map(\.title).sorted() == ["One", "Two"])
            #expect(after.tasks == before.tasks && after.collections == before.collections)
            #expect(try fixture.store.listSummaries().map(\.list.name) == ["Home"])
        }
    }

    /// A calendar's listing whose members' properties failed loses none of them: a task listed
    /// without its data is read on its own, and an entity-tag listing without tags is refused.
    /// Left out, each looked deleted on the server, and its task was deleted here (helper-107).
    @Test func aCalendarListingWhosePropertiesFailedLosesNoTask() async throws {
        try await withRadicale { server, _, counting in
            let fixture = try TemporaryStore()
            _ = try fixture.store.addTask(NewTask(title: "One"), now: Self.sunday)
            _ = try fixture.store.addTask(NewTask(title: "Two"), now: Self.sunday)
            #expect(try await engine(fixture.store, server, counting).run(dryRun: false).pushed == 2)
            let failing = CalDAVClient(
                accountURL: server.baseURL, credentials: CalDAVCredentials(username: server.username, password: server.password),
                transport: FailingPropstatsTransport(counting, methods: ["PROPFIND", "REPORT"]))
            let inbox = try syncedInboxURL(of: fixture.store)
            counting.reset()
            let listed = try await failing.listTasks(in: inbox)
            #expect(listed.compactMap { $0.data.contains("SUMMARY:One") ? "One" : $0.data.contains("SUMMARY:Two") ? "Two" : nil }.sorted() == ["One", "Two"])
            #expect(counting.requestsByMethod["GET"] == 2, "\(counting.requestsByMethod)")
            let error = await #expect(throws: CalDAVError.self) { try await failing.listEntityTags(in: inbox) }
            #expect(error?.code == .malformedResponse)
        }
    }

    @Test func aSecondSyncWithNothingChangedIsOneRequest() async throws {
        try await withRadicale { server, _, counting in
            let fixture = try TemporaryStore()
            _ = try fixture.store.addTask(NewTask(title: "One", listName: "Home", createsList: true), now: Self.sunday)
            _ = try fixture.store.addTask(NewTask(title: "Two"), now: Self.sunday)
            let first = try await engine(fixture.store, server, counting).run(dryRun: false)
            #expect(first.pushed == 2)
            // The home's collections are listed once on a first sync: discovery's listing is used
            // (it took 8 PROPFINDs, the engine listing the home again after discovery).
            #expect(counting.requestsByMethod["PROPFIND"] == 7, "\(counting.requestsByMethod)")
            counting.reset()
            let second = try await engine(fixture.store, server, counting).run(dryRun: false)
            #expect(second.summary == "test: pulled 0, pushed 0, 0 conflicts merged, deleted 0")
            #expect(counting.requestsByMethod == ["PROPFIND": 1])
        }
    }

    @Test func aWriteThatMeetsA412IsReadAgainMergedAndRetried() async throws {
        try await withRadicale { server, direct, counting in
            let fixture = try TemporaryStore()
            let task = try fixture.store.addTask(NewTask(title: "Buy milk", dueDate: Self.monday), now: Self.sunday).task
            _ = try await engine(fixture.store, server, counting).run(dryRun: false)
            // Here: a new title. There, just before our PUT: a new due date, by another client.
            _ = try fixture.store.editTask(task.id.shortID, TaskChanges(title: "Buy oat milk"), now: Self.monday)
            let raced = Mutex(false)
            let racing = HookedTransport(counting) { request, _ throws(CalDAVError) in
                guard request.method == "PUT", raced.withLock({ done in defer { done = true }; return !done }) else { return }
                try await Self.editAsAnotherClient(request, through: direct, replacing: "DUE:20261123T090000Z", with: "DUE:20261124T090000Z")
            }
            let report = try await engine(fixture.store, server, racing, now: Self.monday).run(dryRun: false)
            #expect(report.pushed == 1)
            let stored = try fixture.store.task(withID: task.id.shortID)
            #expect(stored.title == "Buy oat milk")
            #expect(stored.dueDate == Fixed.instant("2026-11-24T09:00:00Z"), "the other client's due date is kept")
            let objects = try await direct.listTasks(in: try syncedInboxURL(of: fixture.store))
            #expect(objects.count == 1)
            #expect(objects.first?.data.contains("SUMMARY:Buy oat milk") == true)
            #expect(objects.first?.data.contains("DUE:20261124T090000Z") == true)
        }
    }

    @Test func anInterruptedPushResumesWithoutDuplicates() async throws {
        try await withRadicale { server, direct, counting in
            let fixture = try TemporaryStore()
            for index in 1...5 {
                _ = try fixture.store.addTask(NewTask(title: "Task \(index)"), now: Self.sunday)
            }
            // The connection drops after the third PUT went through.
            let puts = Mutex(0)
            let cut = HookedTransport(counting) { request, _ throws(CalDAVError) in
                guard request.method == "PUT" else { return }
                let count = puts.withLock { value -> Int in
                    value += 1
                    return value
                }
                if count > 3 { throw CalDAVError(.connectionFailed, "Cannot connect to 127.0.0.1.") }
            }
            let error = await #expect(throws: CalDAVError.self) { try await engine(fixture.store, server, cut).run(dryRun: false) }
            #expect(error?.code == .connectionFailed)
            let report = try await engine(fixture.store, server, counting).run(dryRun: false)
            #expect(report.pushed == 2)
            let objects = try await direct.listTasks(in: try syncedInboxURL(of: fixture.store))
            #expect(objects.count == 5)
            #expect(try await engine(fixture.store, server, counting).run(dryRun: false).summary
                == "test: pulled 0, pushed 0, 0 conflicts merged, deleted 0")
        }
    }

    @Test func aFailedPullChangesNothingInTheStore() async throws {
        try await withRadicale { server, direct, counting in
            let (fixture, inboxURL) = try await storeWithASyncedTask(server, counting)
            for uid in ["r1", "r2", "r3"] {
                _ = try await direct.create(vtodo(uid: uid, summary: uid), at: CalDAVClient.objectHref(forUID: uid, in: inboxURL), in: inboxURL)
            }
            let before = try fixture.store.export()
            // The listing and the sync report pass; the multiget of the changed objects is cut.
            let cut = HookedTransport(counting) { request, _ throws(CalDAVError) in
                if request.method == "REPORT", let body = request.body, String(decoding: body, as: UTF8.self).contains("calendar-multiget") {
                    throw CalDAVError(.truncatedResponse, "127.0.0.1 closed the connection before the response was complete.")
                }
            }
            await #expect(throws: CalDAVError.self) { try await engine(fixture.store, server, cut).run(dryRun: false) }
            #expect(try fixture.store.export() == before)
            let report = try await engine(fixture.store, server, counting).run(dryRun: false)
            #expect(report.pulled == 3)
        }
    }

    /// A store with one task, "Shared", synced: the store, the task, its collection and its object.
    func storeSharingATask(_ server: RadicaleServer, _ transport: any DAVTransport) async throws -> (TemporaryStore, TaskItem, URL, DAVHref) {
        let fixture = try TemporaryStore()
        let task = try fixture.store.addTask(NewTask(title: "Shared"), now: Self.sunday).task
        _ = try await engine(fixture.store, server, transport).run(dryRun: false)
        let inboxURL = try syncedInboxURL(of: fixture.store)
        return (fixture, task, inboxURL, CalDAVClient.objectHref(forUID: SyncIdentity.uid(for: task.id), in: inboxURL))
    }

    @Test func aCommandThatWritesDuringTheSyncIsMergedNotOverwritten() async throws {
        try await withRadicale { server, direct, counting in
            let (fixture, task, inboxURL, href) = try await storeSharingATask(server, counting)
            let theirs = try await direct.object(at: href, in: inboxURL)
            _ = try await direct.update(
                theirs.data.replacingOccurrences(of: "SUMMARY:Shared", with: "SUMMARY:Shared\\, renamed there")
                    .replacingOccurrences(of: "LAST-MODIFIED:20261122T152700Z", with: "LAST-MODIFIED:20261123T090000Z"),
                at: href, in: inboxURL, ifMatch: theirs.etag!)
            // While the sync pulls, `taskwidget done` completes the task here.
            let store = fixture.store
            let once = Mutex(false)
            let meanwhile = HookedTransport(counting) { request, _ throws(CalDAVError) in
                guard request.method == "REPORT", once.withLock({ done in defer { done = true }; return !done }) else { return }
                _ = try? store.completeTasks([task.id.shortID], now: Self.monday)
            }
            _ = try await engine(fixture.store, server, meanwhile, now: Self.monday).run(dryRun: false)
            let merged = try fixture.store.task(withID: task.id.shortID)
            #expect(merged.title == "Shared, renamed there")
            #expect(merged.isCompleted, "the completion made during the sync is kept")
            #expect(try await direct.object(at: href, in: inboxURL).data.contains("STATUS:COMPLETED"))
        }
    }

    /// A task edited here whose object another client deletes just before our PUT (412, then
    /// 404 when read again): the edit wins, and the task comes back as the server last had it,
    /// the other client's note and priority too, as when the deletion came before the sync. A
    /// new object with the fields taskwidget keeps alone was written (helper-163).
    @Test func anEditMeetingADeletionMeanwhileBringsTheWholeTaskBack() async throws {
        try await withRadicale { server, direct, counting in
            let (fixture, task, inboxURL, href) = try await storeSharingATask(server, counting)
            let theirs = try await direct.object(at: href, in: inboxURL)
            _ = try await direct.update(
                theirs.data.replacingOccurrences(of: "SUMMARY:Shared", with: "SUMMARY:Shared\r\nDESCRIPTION:the phone's note\r\nPRIORITY:1"),
                at: href, in: inboxURL, ifMatch: theirs.etag!)
            _ = try await engine(fixture.store, server, counting).run(dryRun: false)
            _ = try fixture.store.editTask(task.id.shortID, TaskChanges(title: "Shared, edited here"), now: Self.monday)
            let once = Mutex(false)
            let meanwhile = HookedTransport(counting) { request, _ throws(CalDAVError) in
                guard request.method == "PUT", once.withLock({ done in defer { done = true }; return !done }) else { return }
                let current = try await direct.object(at: href, in: inboxURL)
                try await direct.delete(at: href, in: inboxURL, ifMatch: current.etag)
            }
            let report = try await engine(fixture.store, server, meanwhile, now: Self.monday).run(dryRun: false)
            #expect(report.pushed == 1)
            let back = try await direct.object(at: href, in: inboxURL).data
            for line in ["SUMMARY:Shared\\, edited here", "DESCRIPTION:the phone's note", "PRIORITY:1"] {
                #expect(back.contains(line), "\(line) in \(back)")
            }
        }
    }

    /// A transport whose server refuses to delete collections (403), as a shared or managed
    /// calendar server may.
    final class RefusingCollectionDeletes: DAVTransport {
        let base: any DAVTransport
        init(_ base: any DAVTransport) { self.base = base }

        func send(_ request: DAVRequest) async throws(CalDAVError) -> DAVResponse {
            if request.method == "DELETE", request.url.absoluteString.hasSuffix("/") { return DAVResponse(status: 403, headers: [], body: Data()) }
            return try await base.send(request)
        }
    }

    /// A transport whose server refuses to make collections (403), as a managed one may.
    final class RefusingCollectionMakes: DAVTransport {
        let base: any DAVTransport
        init(_ base: any DAVTransport) { self.base = base }

        func send(_ request: DAVRequest) async throws(CalDAVError) -> DAVResponse {
            if request.method == "MKCALENDAR" { return DAVResponse(status: 403, headers: [], body: Data()) }
            return try await base.send(request)
        }
    }

    /// A list whose collection the server refuses to make stays here, and the report says so:
    /// a task moved into it left the server, and the other devices deleted it, while the sync
    /// said nothing (helper-147). Logs get no name.
    @Test func aListTheServerRefusesToMakeStaysHereAndTheReportSaysSo() async throws {
        try await withRadicale { server, _, counting in
            let (fixture, _) = try await storeWithASyncedTask(server, counting)
            let task = try #require(try fixture.store.tasks(in: .all, includeCompleted: false).first).task
            _ = try fixture.store.addList(named: "Trips", colorHex: nil, now: Self.monday)
            _ = try fixture.store.editTask(task.id.uuidString, TaskChanges(list: .set("Trips")), now: Self.monday)
            let report = try await engine(fixture.store, server, RefusingCollectionMakes(counting), now: Self.monday).run(dryRun: false)
            #expect(report.summary(namingCollections: true) == """
                test: pulled 0, pushed 0, 0 conflicts merged, deleted 0
                test: “Trips” stays on this machine: the server did not make a calendar for it (HTTP 403), so its tasks are not on the server \
                (one moved into it was removed there); move them to a list the server has to sync them
                """)
            #expect(!report.summary.contains("Trips") && report.summary.contains("test: a list stays on this machine"))
            // Off a terminal, several are one line (helper-149).
            let two = SyncReport.KeptList.lines(for: [.init(name: "A", status: 403), .init(name: "B", status: 405)], named: false)
            #expect(two == [
                "2 lists stay on this machine: the server did not make a calendar for them (HTTP 403, HTTP 405), so their tasks are not on the server "
                    + "(one moved into them was removed there); move them to a list the server has to sync them"
            ])
        }
    }

    /// The collection of a list deleted here that the server refuses to delete stays, the
    /// report says so (it was only logged), and the deletion is not tried again.
    @Test func aCollectionTheServerRefusesToDeleteStaysAndTheReportSaysSo() async throws {
        try await withRadicale { server, _, counting in
            let fixture = try TemporaryStore()
            _ = try fixture.store.addTask(NewTask(title: "Buy bread", listName: "Errands", createsList: true), now: Self.sunday)
            _ = try await engine(fixture.store, server, counting).run(dryRun: false)
            _ = try fixture.store.deleteList("Errands", now: Self.monday)
            let report = try await engine(fixture.store, server, RefusingCollectionDeletes(counting), now: Self.monday).run(dryRun: false)
            #expect(report.collectionsDeleted == 0)
            #expect(report.summary(namingCollections: true) == """
                test: pulled 0, pushed 0, 0 conflicts merged, deleted 1
                test: “Errands” stays on the server: the server did not delete it (HTTP 403)
                """)
            // For logs and the journal, the collection is named by its path, never by its name.
            let path = try #require(report.collectionsKept.first?.href)
            #expect(report.summary.hasSuffix("\ntest: the calendar \(path) stays on the server: the server did not delete it (HTTP 403)"))
            #expect(!report.summary.contains("Errands"))
            counting.reset()
            let next = try await engine(fixture.store, server, counting, now: Self.monday).run(dryRun: false)
            #expect(next.summary == "test: pulled 0, pushed 0, 0 conflicts merged, deleted 0")
            #expect(counting.requestsByMethod["DELETE"] == nil)
        }
    }

    /// An object that comes into the collection of a list deleted here while the sync deletes its
    /// tasks keeps the collection, and the report says so; the next sync brings the list back
    /// with that task.
    @Test func aCollectionThatGotAnObjectMeanwhileStaysAndTheReportSaysSo() async throws {
        try await withRadicale { server, direct, counting in
            let fixture = try TemporaryStore()
            _ = try fixture.store.addTask(NewTask(title: "Buy bread", listName: "Errands", createsList: true), now: Self.sunday)
            _ = try await engine(fixture.store, server, counting).run(dryRun: false)
            let errands = try #require(try fixture.store.syncSnapshot(account: "test").collections.first { !$0.isInbox })
            let errandsURL = try #require(URL(string: errands.url))
            _ = try fixture.store.deleteList("Errands", now: Self.monday)
            // Another client adds a task there just before our task's deletion goes out.
            let once = Mutex(false)
            let meanwhile = HookedTransport(counting) { request, _ throws(CalDAVError) in
                guard request.method == "DELETE", once.withLock({ done in defer { done = true }; return !done }) else { return }
                _ = try await direct.create(
                    vtodo(uid: "theirs", summary: "Theirs"), at: CalDAVClient.objectHref(forUID: "theirs", in: errandsURL), in: errandsURL)
            }
            let report = try await engine(fixture.store, server, meanwhile, now: Self.monday).run(dryRun: false)
            #expect(report.summary(namingCollections: true) == """
                test: pulled 0, pushed 0, 0 conflicts merged, deleted 1
                test: “Errands” stays on the server: it still holds 1 object that this store does not know
                """)
            let next = try await engine(fixture.store, server, counting, now: Self.monday).run(dryRun: false)
            #expect(next.pulled == 1)
            #expect(try fixture.store.listSummaries().map(\.list.name) == ["Errands"])
        }
    }

    /// A title the store had to clean up (a line break, an empty SUMMARY, one past the length
    /// limit) stays as the phone wrote it when only another field changes here: the push wrote
    /// the cleaned-up title back, and 500 characters of the long one were lost.
    /// An object that held one of the store's tasks and now holds no VTODO (another client made
    /// it an event) is reported as left alone; an event new to the store is no news.
    @Test func anObjectThatHeldATaskAndNowHoldsNoTodoIsReported() async throws {
        try await withRadicale { server, direct, counting in
            let (fixture, inboxURL) = try await storeWithASyncedTask(server, counting)
            let object = try #require(try fixture.store.syncSnapshot(account: "test").objects.first)
            func event(_ uid: String) -> String {
                ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//other client//EN", "BEGIN:VEVENT", "UID:\(uid)", "DTSTAMP:20261122T120000Z",
                 "DTSTART:20261128T100000Z", "SUMMARY:Party", "END:VEVENT", "END:VCALENDAR", ""].joined(separator: "\r\n")
            }
            let uid = object.uid ?? SyncIdentity.uid(for: object.taskID)
            _ = try await direct.update(event(uid), at: DAVHref(path: object.href), in: inboxURL, ifMatch: object.etag ?? "*")
            _ = try await direct.create(event("party-2"), at: CalDAVClient.objectHref(forUID: "party-2", in: inboxURL), in: inboxURL)
            let report = try await engine(fixture.store, server, counting, now: Self.monday).run(dryRun: false)
            #expect(report.skipped == [object.href])
            // On every sync while it holds no task (each reads it again), and one that reads it as
            // it was writes nothing: watch, serve and notify follow the store's commits.
            let reader = try fixture.reopen(mode: .readOnly)
            for _ in 1...2 {
                let version = try reader.dataVersion()
                let again = try await engine(fixture.store, server, counting, now: Self.monday).run(dryRun: false)
                #expect(again.skipped == [object.href])
                #expect(try reader.dataVersion() == version)
            }
        }
    }

    /// A task moved to another list here, edited there in the old one just before our DELETE of
    /// the copy left behind (a 412): the edit comes here, the old copy goes, and the next sync
    /// writes the edit to the new copy. The old copy was written again with the merge, so the
    /// task stayed in both collections, the new one without the edit (review L10).
    @Test func aMoveWhoseOldCopyWasEditedMeanwhileEndsInTheNewListOnly() async throws {
        try await withRadicale { server, direct, counting in
            let fixture = try TemporaryStore()
            let task = try fixture.store.addTask(NewTask(title: "Local"), now: Self.sunday).task
            _ = try fixture.store.addTask(NewTask(title: "Other", listName: "Home", createsList: true), now: Self.sunday)
            _ = try await engine(fixture.store, server, counting).run(dryRun: false)
            _ = try fixture.store.editTask(task.id.shortID, TaskChanges(list: .set("Home")), now: Self.monday)
            let raced = Mutex(false)
            let racing = HookedTransport(counting) { request, _ throws(CalDAVError) in
                guard request.method == "DELETE", raced.withLock({ done in defer { done = true }; return !done }) else { return }
                try await Self.editAsAnotherClient(request, through: direct, replacing: "SUMMARY:Local", with: "SUMMARY:Edited there")
            }
            _ = try await engine(fixture.store, server, racing, now: Self.monday).run(dryRun: false)
            #expect(raced.withLock { $0 })
            let stored = try fixture.store.task(withID: task.id.shortID)
            #expect(stored.title == "Edited there")
            let collections = try fixture.store.syncSnapshot(account: "test").collections
            let inbox = try #require(collections.first { $0.isInbox }.flatMap { URL(string: $0.url) })
            let home = try #require(collections.first { $0.listID == stored.listID && !$0.isInbox }.flatMap { URL(string: $0.url) })
            #expect(try await direct.listTasks(in: inbox).isEmpty, "the copy left behind is gone")
            // The new copy, written before the edit came, gets it at the next sync.
            #expect(try await engine(fixture.store, server, counting, now: Self.monday).run(dryRun: false).pushed == 1)
            let moved = try await direct.listTasks(in: home).filter { !$0.data.contains("SUMMARY:Other") }
            #expect(moved.count == 1)
            #expect(moved.first?.data.contains("SUMMARY:Edited there") == true)
            #expect(try await direct.listTasks(in: inbox).isEmpty)
        }
    }

    @Test func aTitleCleanedUpHereIsNotWrittenBackWhenAnotherFieldChanges() async throws {
        try await withRadicale { server, direct, counting in
            let (fixture, inboxURL) = try await storeWithASyncedTask(server, counting)
            let summaries = ["two\\nlines from the phone", "", String(repeating: "L", count: 1_500)]
            for (index, summary) in summaries.enumerated() {
                let uid = "phone-\(index)"
                _ = try await direct.create(vtodo(uid: uid, summary: summary), at: CalDAVClient.objectHref(forUID: uid, in: inboxURL), in: inboxURL)
            }
            #expect(try await engine(fixture.store, server, counting).run(dryRun: false).pulled == 3)
            for listed in try fixture.store.tasks(in: .all, includeCompleted: false) where listed.task.title != "Local" {
                _ = try fixture.store.editTask(listed.task.id.uuidString, TaskChanges(dueDate: .set(Self.monday)), now: Self.monday)
            }
            #expect(try await engine(fixture.store, server, counting, now: Self.monday).run(dryRun: false).pushed == 3)
            for (index, summary) in summaries.enumerated() {
                let text = try await direct.object(at: CalDAVClient.objectHref(forUID: "phone-\(index)", in: inboxURL), in: inboxURL).data
                let unfolded = text.replacingOccurrences(of: "\r\n ", with: "")
                #expect(unfolded.contains("\r\nSUMMARY:\(summary)\r\n"), "\(index)")
                #expect(unfolded.contains("DUE:"), "\(index)")
            }
        }
    }

    /// An open phone task that still carries COMPLETED (reopened by a client that leaves it) is
    /// not rewritten by the next sync, and keeps it when a title edit here is sent (helper-144).
    @Test func anOpenTaskWithACompletionTimeIsNotPushedUnchanged() async throws {
        try await withRadicale { server, direct, counting in
            let (fixture, inboxURL) = try await storeWithASyncedTask(server, counting)
            for (uid, status) in [("reopened", "NEEDS-ACTION"), ("started", "IN-PROCESS")] {
                let object = vtodo(uid: uid, summary: uid, extra: ["STATUS:\(status)", "COMPLETED:20261130T100000Z"])
                _ = try await direct.create(object, at: CalDAVClient.objectHref(forUID: uid, in: inboxURL), in: inboxURL)
            }
            #expect(try await engine(fixture.store, server, counting).run(dryRun: false).pulled == 2)
            #expect(try await engine(fixture.store, server, counting).run(dryRun: false).pushed == 0)
            let reopened = try #require(try fixture.store.tasks(in: .all, includeCompleted: true).first { $0.task.title == "reopened" })
            _ = try fixture.store.editTask(reopened.task.id.uuidString, TaskChanges(title: "reopened, renamed"), now: Self.monday)
            #expect(try await engine(fixture.store, server, counting, now: Self.monday).run(dryRun: false).pushed == 1)
            let text = try await direct.object(at: CalDAVClient.objectHref(forUID: "reopened", in: inboxURL), in: inboxURL).data
            #expect(text.contains("SUMMARY:reopened\\, renamed\r\n") && text.contains("\r\nCOMPLETED:20261130T100000Z\r\n"), "\(text)")
        }
    }
}
