import Foundation
import NIOPosix
import Testing

@testable import TaskWidgetTestSupport

@testable import TaskWidgetSync

/// The client against a real Radicale that each test starts for itself (RadicaleHarness).
@Suite struct RadicaleTests {
    // MARK: Discovery

    @Test func discoversFromTheServerRoot() async throws {
        try await withRadicale { server, client, counting in
            _ = try await client.makeTaskList(server, "chores")
            try await makeEventCalendar(server, "meetings")
            counting.reset()
            let home = try await client.discover()
            #expect(counting.requestCount == 3)  // root → principal → home listing
            #expect(home.principal?.path() == "/alice/")
            #expect(home.url.path() == "/alice/")
            #expect(Set(home.collections.map { $0.url.path() }) == ["/alice/chores/", "/alice/meetings/"])
            let chores = try #require(home.taskCollections.first)
            #expect(home.taskCollections.count == 1)  // the VEVENT-only calendar is no list
            #expect(chores.displayName == "chores")
            #expect(chores.color == "#3366CCFF")
            #expect(chores.supportedComponents == ["VTODO"])
            #expect(chores.syncToken?.hasPrefix("http://radicale.org/ns/sync/") == true)
            #expect(chores.ctag?.hasPrefix("\"") == true)
        }
    }

    @Test func discoversFromWellKnownThroughItsRedirect() async throws {
        try await withRadicale { server, _, counting in
            let client = CalDAVClient(
                accountURL: server.baseURL.appendingPathComponent(".well-known/caldav"),
                credentials: CalDAVCredentials(username: server.username, password: server.password), transport: counting)
            let home = try await client.discover()
            #expect(home.url.path() == "/alice/")
            #expect(counting.requestsByMethod == ["PROPFIND": 4])  // 301 to / , then as from the root
        }
    }

    @Test func discoversFromThePrincipal() async throws {
        try await withRadicale { server, _, counting in
            let client = CalDAVClient(
                accountURL: server.baseURL.appendingPathComponent("alice/"),
                credentials: CalDAVCredentials(username: server.username, password: server.password), transport: counting)
            let home = try await client.discover()
            #expect(home.url.path() == "/alice/")
            #expect(home.principal?.path() == "/alice/")
            #expect(counting.requestCount == 2)  // principal (has the home set) → home listing
        }
    }

    /// A calendar's own link (what Nextcloud's "Copy private link" gives) names that calendar
    /// only: discovery stops there and lists none of its siblings.
    @Test func aCalendarsURLDiscoversThatCalendarOnly() async throws {
        try await withRadicale { server, rootClient, counting in
            _ = try await rootClient.makeTaskList(server, "chores")
            _ = try await rootClient.makeTaskList(server, "errands")
            let client = CalDAVClient(
                accountURL: server.baseURL.appendingPathComponent("alice/errands/"),
                credentials: CalDAVCredentials(username: server.username, password: server.password), transport: counting)
            counting.reset()
            let home = try await client.discover()
            #expect(home.isOneCalendar)
            #expect(home.url.path() == "/alice/errands/")
            #expect(home.taskCollections.map { $0.url.path() } == ["/alice/errands/"])
            #expect(home.taskCollections.first?.displayName == "errands")
            #expect(counting.requestCount == 2)  // the calendar itself, then its properties
        }
    }

    @Test func wrongPasswordIsAuthenticationFailedWithoutThePassword() async throws {
        try await withRadicale { server, _, counting in
            let client = CalDAVClient(
                accountURL: server.baseURL,
                credentials: CalDAVCredentials(username: server.username, password: "wrong-Secret-42"), transport: counting)
            let error = await #expect(throws: CalDAVError.self) { try await client.discover() }
            #expect(error?.code == .authenticationFailed)
            let auth = await #expect(throws: CalDAVError.self) {
                try await client.listCollections(in: server.baseURL.appendingPathComponent("alice/"))
            }
            #expect(auth?.code == .authenticationFailed)
            #expect(auth?.code.isTransient == false)
            for text in [error?.detailedDescription, auth?.detailedDescription, auth?.message] {
                #expect(text?.contains("wrong-Secret-42") == false)
            }
        }
    }

    /// An address where no calendar home is says why in one sentence: it said
    /// "… at URL (The server does not allow this (403 Forbidden).)" (helper-75).
    @Test func anAddressWithoutACalendarHomeSaysWhyInOneSentence() async throws {
        try await withRadicale { server, _, counting in
            let url = server.baseURL.appendingPathComponent("nothing/here/")
            let client = CalDAVClient(accountURL: url, credentials: CalDAVCredentials(username: server.username, password: server.password), transport: counting)
            let error = await #expect(throws: CalDAVError.self) { try await client.discover() }
            #expect(error?.code == .notCalDAV)
            #expect(error?.message == "No CalDAV calendar home was found at \(url.absoluteString): the server does not allow this (403 Forbidden)")
        }
    }

    // MARK: Collections and objects

    @Test func makingACalendarTwiceIsAConflict() async throws {
        try await withRadicale { server, client, _ in
            let list = try await client.makeTaskList(server, "twice")
            #expect(list.allowsTasks)
            let error = await #expect(throws: CalDAVError.self) { try await client.makeTaskList(server, "twice") }
            #expect(error?.code == .conflict)
        }
    }

    @Test func writesAreConditionalOnEntityTags() async throws {
        try await withRadicale { server, client, _ in
            let list = try await client.makeTaskList(server, "etags")
            let href = CalDAVClient.objectHref(forUID: "task-1", in: list.url)
            let created = try #require(try await client.create(vtodo(uid: "task-1", summary: "Milk"), at: href, in: list.url))

            // Creating again: something is there (also what an interrupted sync meets on its retry).
            let again = await #expect(throws: CalDAVError.self) {
                try await client.create(vtodo(uid: "task-1", summary: "Milk"), at: href, in: list.url)
            }
            #expect(again?.code == .preconditionFailed)

            let fetched = try await client.object(at: href, in: list.url)
            #expect(fetched.etag == created)
            #expect(fetched.data.contains("SUMMARY:Milk"))

            let updated = try #require(
                try await client.update(vtodo(uid: "task-1", summary: "Oat milk"), at: href, in: list.url, ifMatch: created))
            #expect(updated != created)

            for stale in [
                { try await client.update(vtodo(uid: "task-1", summary: "x"), at: href, in: list.url, ifMatch: created) },
                { try await client.delete(at: href, in: list.url, ifMatch: created); return nil },
            ] as [@Sendable () async throws -> String?] {
                let error = await #expect(throws: CalDAVError.self) { _ = try await stale() }
                #expect(error?.code == .preconditionFailed)
                // The engine re-reads and merges; one it could not resolve, the next sync will.
                #expect(error?.code.isTransient == true)
            }

            try await client.delete(at: href, in: list.url, ifMatch: updated)
            let gone = await #expect(throws: CalDAVError.self) { try await client.object(at: href, in: list.url) }
            #expect(gone?.code == .notFound)
            try await client.delete(at: href, in: list.url, ifMatch: nil)  // already gone: fine
        }
    }

    @Test func aRaceWithAnotherClientIs412ThenMergeAndRetry() async throws {
        try await withRadicale { server, client, _ in
            let list = try await client.makeTaskList(server, "race")
            let href = CalDAVClient.objectHref(forUID: "race-1", in: list.url)
            _ = try await client.create(vtodo(uid: "race-1", summary: "Before"), at: href, in: list.url)
            let read = try await client.object(at: href, in: list.url)

            // Another client (Python's caldav library) changes it between our read and our write.
            _ = try await RadicaleServer.runPython(
                """
                import sys, caldav
                url, user, password, calendar_url = sys.argv[1:5]
                dav = caldav.DAVClient(url=url, username=user, password=password)
                todo = dav.calendar(url=calendar_url).todo_by_uid("race-1")
                todo.data = todo.data.replace("SUMMARY:Before", "SUMMARY:Theirs")
                todo.save()
                """,
                arguments: [server.baseURL.absoluteString, server.username, server.password, list.url.absoluteString])

            let error = await #expect(throws: CalDAVError.self) {
                try await client.update(
                    read.data.replacingOccurrences(of: "SUMMARY:Before", with: "SUMMARY:Mine"), at: href, in: list.url,
                    ifMatch: try #require(read.etag))
            }
            #expect(error?.code == .preconditionFailed)

            // Re-read, merge (here: keep theirs and add ours), retry with the new tag.
            let theirs = try await client.object(at: href, in: list.url)
            #expect(theirs.data.contains("SUMMARY:Theirs"))
            let merged = theirs.data.replacingOccurrences(of: "SUMMARY:Theirs", with: "SUMMARY:Theirs and mine")
            _ = try await client.update(merged, at: href, in: list.url, ifMatch: try #require(theirs.etag))
            #expect(try await client.object(at: href, in: list.url).data.contains("SUMMARY:Theirs and mine"))
        }
    }

    @Test func pythonCaldavObjectIsFetchedExactly() async throws {
        try await withRadicale { server, client, _ in
            let list = try await client.makeTaskList(server, "foreign")
            let ical = [
                "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//python caldav//test//EN", "BEGIN:VTODO",
                "UID:py-parent-1", "DTSTAMP:20260101T090000Z", "SUMMARY:Parent from Python",
                "CATEGORIES:home,errands", "RELATED-TO;RELTYPE=PARENT:some-other-uid",
                "X-APPLE-SORT-ORDER:123456", "X-OTHER-CLIENT-FLAG;X-PARAM=keep:yes, please",
                "DESCRIPTION:A long note that is folded by a client because it is longer than seventy-five octets\\, with a comma",
                "END:VTODO", "END:VCALENDAR",
            ].joined(separator: "\r\n")
            let objectURL = try await RadicaleServer.runPython(
                """
                import sys, caldav
                url, user, password, calendar_url, ical = sys.argv[1:6]
                dav = caldav.DAVClient(url=url, username=user, password=password)
                todo = dav.calendar(url=calendar_url).save_todo(ical)
                print(todo.url)
                """, arguments: [server.baseURL.absoluteString, server.username, server.password, list.url.absoluteString, ical]
            ).trimmingCharacters(in: .whitespacesAndNewlines)
            let href = try #require(DAVHref(serverHref: objectURL, relativeTo: list.url))

            // GET gives exactly what Radicale stored (it re-serializes what clients send).
            let stored = try String(
                contentsOf: server.storageRoot.appendingPathComponent("alice/foreign/\(href.lastComponent)"), encoding: .utf8)
            let got = try await client.object(at: href, in: list.url)
            #expect(got.data == stored)
            for line in ["CATEGORIES:home,errands", "RELATED-TO;RELTYPE=PARENT:some-other-uid", "X-APPLE-SORT-ORDER:123456",
                "X-OTHER-CLIENT-FLAG;X-PARAM=keep:yes\\, please"]
            {
                #expect(got.data.contains(line), "\(line)")
            }
            // A REPORT gives the same text, but with LF line ends (XML parsers normalize CRLF).
            let listed = try await client.listTasks(in: list.url)
            #expect(listed.map(\.href) == [href])
            #expect(listed.first?.data == stored.replacingOccurrences(of: "\r\n", with: "\n"))
            #expect(listed.first?.etag == got.etag)
        }
    }

    // MARK: Sync

    @Test func syncCollectionReportsChangesAndDeletions() async throws {
        try await withRadicale { server, client, counting in
            let list = try await client.makeTaskList(server, "sync")
            var tags: [String: String] = [:]
            for uid in ["a", "b", "c"] {
                tags[uid] = try await client.create(
                    vtodo(uid: uid, summary: uid), at: CalDAVClient.objectHref(forUID: uid, in: list.url), in: list.url)
            }
            let first = try await client.pullChanges(in: list.url, since: nil)
            #expect(first.method == .fullListing)
            #expect(first.changed.count == 3 && first.removed.isEmpty)
            #expect(first.state.syncToken != nil)

            // Another device: adds d, changes b, deletes c.
            let href = { (uid: String) in CalDAVClient.objectHref(forUID: uid, in: list.url) }
            _ = try await client.create(vtodo(uid: "d", summary: "d"), at: href("d"), in: list.url)
            _ = try await client.update(vtodo(uid: "b", summary: "b2"), at: href("b"), in: list.url, ifMatch: tags["b"]!)
            try await client.delete(at: href("c"), in: list.url, ifMatch: tags["c"])

            counting.reset()
            let second = try await client.pullChanges(in: list.url, since: first.state)
            #expect(second.method == .syncCollection)
            #expect(Set(second.changed.map(\.href)) == [href("b"), href("d")])
            #expect(second.changed.first { $0.href == href("b") }?.data.contains("SUMMARY:b2") == true)
            #expect(second.removed == [href("c")])
            #expect(counting.requestsByMethod == ["REPORT": 2])  // sync-collection + one multiget
            #expect(Set(second.state.etags.keys) == [href("a"), href("b"), href("d")])

            // Our own writes, recorded, are not fetched back.
            var state = second.state
            let etag = try await client.update(
                vtodo(uid: "a", summary: "a2"), at: href("a"), in: list.url, ifMatch: state.etags[href("a")]!)
            state.etags[href("a")] = etag
            counting.reset()
            let third = try await client.pullChanges(in: list.url, since: state)
            #expect(third.isEmpty)
            #expect(counting.requestCount == 1)
        }
    }

    @Test func aSyncWithNothingChangedIsOneRequest() async throws {
        try await withRadicale { server, client, counting in
            let lists = [try await client.makeTaskList(server, "one"), try await client.makeTaskList(server, "two")]
            var states: [URL: CollectionSyncState] = [:]
            for list in lists {
                for index in 0..<5 {
                    _ = try await client.create(
                        vtodo(uid: "\(list.displayName!)-\(index)", summary: "t"),
                        at: CalDAVClient.objectHref(forUID: "\(list.displayName!)-\(index)", in: list.url), in: list.url)
                }
                states[list.url] = try await client.pullChanges(in: list.url, since: nil).state
            }
            counting.reset()
            for list in lists {
                let changes = try await client.pullChanges(in: list.url, since: states[list.url])
                #expect(changes.isEmpty && changes.method == .syncCollection)
            }
            #expect(counting.requestsByMethod == ["REPORT": 2])  // one per collection

            // A server without sync-collection: the ctag, one PROPFIND Depth 0 per collection.
            counting.reset()
            for list in lists {
                var state = try #require(states[list.url])
                state.syncToken = nil
                let changes = try await client.pullChanges(in: list.url, since: state)
                #expect(changes.isEmpty && changes.method == .ctagUnchanged)
            }
            #expect(counting.requestsByMethod == ["PROPFIND": 2])
        }
    }

    @Test func anInvalidTokenFallsBackToAFullListing() async throws {
        try await withRadicale { server, client, counting in
            let list = try await client.makeTaskList(server, "expired")
            let keep = CalDAVClient.objectHref(forUID: "keep", in: list.url)
            let etag = try await client.create(vtodo(uid: "keep", summary: "keep"), at: keep, in: list.url)
            let vanished = CalDAVClient.objectHref(forUID: "vanished", in: list.url)
            let stale = CollectionSyncState(
                syncToken: "http://radicale.org/ns/sync/" + String(repeating: "0", count: 64),
                etags: [keep: etag!, vanished: "\"old\""])
            counting.reset()
            let changes = try await client.pullChanges(in: list.url, since: stale)
            #expect(changes.method == .fullListing)
            #expect(changes.changed.isEmpty)  // "keep" is unchanged
            #expect(changes.removed == [vanished])
            #expect(changes.state.syncToken != stale.syncToken)
            #expect(counting.requestsByMethod == ["REPORT": 2, "PROPFIND": 1])  // refused sync, tags, query
        }
    }

    @Test func entityTagComparisonWithoutTokenOrCtag() async throws {
        try await withRadicale { server, client, counting in
            let list = try await client.makeTaskList(server, "etagonly")
            let href = { (uid: String) in CalDAVClient.objectHref(forUID: uid, in: list.url) }
            let a = try await client.create(vtodo(uid: "a", summary: "a"), at: href("a"), in: list.url)
            let b = try await client.create(vtodo(uid: "b", summary: "b"), at: href("b"), in: list.url)
            _ = try await client.update(vtodo(uid: "a", summary: "a2"), at: href("a"), in: list.url, ifMatch: a!)
            _ = try await client.create(vtodo(uid: "c", summary: "c"), at: href("c"), in: list.url)
            let known = CollectionSyncState(etags: [href("a"): a!, href("b"): b!, href("gone"): "\"x\""])
            counting.reset()
            let changes = try await client.pullChanges(in: list.url, since: known)
            #expect(changes.method == .etagComparison)
            #expect(Set(changes.changed.map(\.href)) == [href("a"), href("c")])
            #expect(changes.removed == [href("gone")])
            #expect(counting.requestsByMethod == ["PROPFIND": 1, "REPORT": 1])
            #expect(changes.state.ctag != nil && changes.state.syncToken != nil)
        }
    }

    @Test func listsHundredsOfObjects() async throws {
        var options = RadicaleServer.Options()
        options.fsync = false  // a listing test, not a measurement
        try await withRadicale(options) { server, client, counting in
            let list = try await client.makeTaskList(server, "many")
            let uids = (0..<300).map { String(format: "task-%04d", $0) }
            _ = try await concurrentMap(uids, limit: 8) { uid in
                try await client.create(
                    vtodo(uid: uid, summary: "Task \(uid)"), at: CalDAVClient.objectHref(forUID: uid, in: list.url),
                    in: list.url)
            }
            counting.reset()
            let listed = try await client.listTasks(in: list.url)
            #expect(listed.count == 300)
            #expect(counting.requestCount == 1)

            // The same through sync-collection + multiget in batches of 100.
            counting.reset()
            let report = try await client.syncCollection(list.url, token: nil)
            #expect(report.changed.count == 300)
            let fetched = try await client.fetch(report.changed.keys.sorted(), in: list.url)
            #expect(fetched.objects.count == 300 && fetched.missing.isEmpty)
            #expect(counting.requestsByMethod == ["REPORT": 4])
            #expect(Set(fetched.objects.map(\.href)) == Set(listed.map(\.href)))
        }
    }

    // MARK: HTTPS

    @Test func httpsVerifiesTheServersCertificate() async throws {
        var options = RadicaleServer.Options()
        options.tls = true
        try await RadicaleServer.withServer(options, slots: RadicaleServer.slots) { server in
            #expect(server.baseURL.scheme == "https")
            let credentials = CalDAVCredentials(username: server.username, password: server.password)
            // The system's trust roots (Debian's /etc/ssl/certs/ca-certificates.crt) do not know a
            // self-signed certificate: refused, and not worth retrying.
            try await HTTPClientTransport.withTransport { transport in
                let client = CalDAVClient(accountURL: server.baseURL, credentials: credentials, transport: transport)
                let error = await #expect(throws: CalDAVError.self) { try await client.discover() }
                #expect(error?.code == .tlsFailed, "\(error?.detailedDescription ?? "")")
                #expect(error?.code.isTransient == false)
            }
            // Accepted once the system trusts it: SyncCommandTests.httpsUsesTheSystemCAStore runs
            // taskwidget-sync with the certificate added to the system's bundle (in a private
            // mount namespace), since NIOSSL's default trust roots are the system's files only.
        }
    }

    // MARK: Network failures

    /// An event loop no other test's client shares.
    static let ownEventLoop = MultiThreadedEventLoopGroup(numberOfThreads: 1)

    /// The port stays bound without listening, so that no other test's server can take it. The
    /// client has an event loop of its own (on NIO's shared ones, another test's large body in a
    /// debug build held the loop past the connect timeout), and the test runs on threads of its
    /// own: the request's deadline starts when it is sent, and while end-to-end tests blocked both
    /// cooperative threads, the request waited past it to start (CI, 192 s). Either way the refusal
    /// read as "did not answer in time".
    @Test func connectionRefusedIsTransient() async throws {
        let refusing = try RefusingPort()
        try await withTaskExecutorPreference(DedicatedExecutor.shared) {
            try await HTTPClientTransport.withTransport(eventLoopGroup: Self.ownEventLoop) { transport in
                let client = CalDAVClient(
                    accountURL: URL(string: "http://127.0.0.1:\(refusing.port)/")!,
                    credentials: CalDAVCredentials(username: "u", password: "p"), transport: transport)
                let error = await #expect(throws: CalDAVError.self) { try await client.discover() }
                #expect(error?.code == .connectionFailed, "\(error?.detailedDescription ?? "")")
                #expect(error?.message == "Cannot connect to 127.0.0.1:\(refusing.port).")
                #expect(error?.code.isTransient == true)
            }
        }
    }

    @Test func aResponseOverTheSizeLimitIsRefused() async throws {
        try await withRadicale { server, client, _ in
            let list = try await client.makeTaskList(server, "limits")
            _ = try await client.create(
                vtodo(uid: "l1", summary: "l1"), at: CalDAVClient.objectHref(forUID: "l1", in: list.url), in: list.url)
            var configuration = HTTPClientTransport.Configuration()
            configuration.maximumResponseBytes = 100
            try await HTTPClientTransport.withTransport(configuration: configuration) { transport in
                let limited = CalDAVClient(
                    accountURL: server.baseURL, credentials: CalDAVCredentials(username: server.username, password: server.password),
                    transport: transport)
                let error = await #expect(throws: CalDAVError.self) { try await limited.pullChanges(in: list.url, since: nil) }
                #expect(error?.code == .responseTooLarge, "\(error?.detailedDescription ?? "")")
                #expect(error?.code.isTransient == false)
            }
        }
    }

    /// A VEVENT-only calendar, made by Python's caldav library as another client would.
    func makeEventCalendar(_ server: RadicaleServer, _ name: String) async throws {
        _ = try await RadicaleServer.runPython(
            """
            import sys, caldav
            url, user, password, name = sys.argv[1:5]
            dav = caldav.DAVClient(url=url, username=user, password=password)
            dav.principal().make_calendar(name=name, cal_id=name, supported_calendar_component_set=["VEVENT"])
            """, arguments: [server.baseURL.absoluteString, server.username, server.password, name])
    }
}
