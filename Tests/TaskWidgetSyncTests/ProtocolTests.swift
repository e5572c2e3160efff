import Foundation
import Testing

@testable import TaskWidgetSync

/// The XML and protocol logic, without a network.
@Suite struct ProtocolTests {
    let base = URL(string: "https://dav.example.com/alice/tasks/")!

    /// `--verbose` names no list: a collection a phone named after its list (`/alice/Secret
    /// Project/`) was logged as such. Its segments are hashes, the same in every line; the host,
    /// the user's segment and the shape stay, and no user info or query.
    @Test func theVerboseLogNamesNoCollection() throws {
        let url = try #require(URL(string: "https://bob:pw@dav.example.com:8443/alice/Secret%20Project/item-1.ics?x=1"))
        let logged = CalDAVError.redactForLog(url)
        #expect(logged.hasPrefix("https://dav.example.com:8443/alice/") && logged.split(separator: "/").count == 5, "\(logged)")
        #expect(!logged.contains("Secret") && !logged.contains("item-1") && !logged.contains("bob") && !logged.contains("x=1"), "\(logged)")
        #expect(CalDAVError.redactForLog(url) == logged)
        #expect(CalDAVError.redactForLog(try #require(URL(string: "https://dav.example.com/alice/Work/"))).hasSuffix("/"))
        // The discovery address names nothing of the user's: it stays (it was hashed, helper-117).
        #expect(CalDAVError.redactForLog(try #require(URL(string: "http://u:p@dav.example.com/.well-known/caldav?a"))) == "http://dav.example.com/.well-known/caldav")
        // So is a failed request's, in the error's description, which `--verbose` logs (helper-75).
        let failed = CalDAVError(.connectionFailed, "The connection closed.", method: "PUT", url: url)
        #expect(failed.description == "The connection closed. [PUT \(logged)]")
    }

    @Test func parsesMultistatusWhateverThePrefixes() throws {
        // Same document three ways: default namespace, prefixes of our own, prefixes of another's.
        let documents = [
            #"<multistatus xmlns="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav"><response><href>/a/1.ics</href><propstat><prop><getetag>"x"</getetag><C:calendar-data>BEGIN:VCALENDAR</C:calendar-data></prop><status>HTTP/1.1 200 OK</status></propstat></response></multistatus>"#,
            #"<D:multistatus xmlns:D="DAV:"><D:response><D:href>/a/1.ics</D:href><D:propstat><D:prop><D:getetag>"x"</D:getetag><cal:calendar-data xmlns:cal="urn:ietf:params:xml:ns:caldav"><![CDATA[BEGIN:VCALENDAR]]></cal:calendar-data></D:prop><D:status>HTTP/1.1 200 OK</D:status></D:propstat></D:response></D:multistatus>"#,
            #"<?xml version="1.0" encoding="utf-8"?><x:multistatus xmlns:x="DAV:" xmlns:y="urn:ietf:params:xml:ns:caldav"><x:response><x:href>https://dav.example.com/a/1.ics</x:href><x:propstat><x:prop><x:getetag>"x"</x:getetag><y:calendar-data>BEGIN:VCALENDAR</y:calendar-data></x:prop><x:status>HTTP/1.1 200 OK</x:status></x:propstat></x:response></x:multistatus>"#,
        ]
        for document in documents {
            let status = try Multistatus(parsing: Data(document.utf8))
            #expect(status.responses.count == 1)
            let response = try #require(status.responses.first)
            #expect(DAVHref(serverHref: response.hrefs[0], relativeTo: base) == DAVHref(path: "/a/1.ics"))
            #expect(response.property(DAVNamespace.dav, "getetag")?.trimmedText == "\"x\"")
            #expect(response.property(DAVNamespace.caldav, "calendar-data")?.text == "BEGIN:VCALENDAR")
            // The same local name in another namespace is not the property.
            #expect(response.property(DAVNamespace.calendarServer, "getetag") == nil)
        }
    }

    @Test func propertiesOnlyFromSuccessfulPropstats() throws {
        let document = #"<multistatus xmlns="DAV:"><response><href>/a/</href><propstat><prop><displayname>Home</displayname></prop><status>HTTP/1.1 200 OK</status></propstat><propstat><prop><sync-token/></prop><status>HTTP/1.1 404 Not Found</status></propstat></response></multistatus>"#
        let response = try #require(try Multistatus(parsing: Data(document.utf8)).responses.first)
        #expect(response.property(DAVNamespace.dav, "displayname")?.trimmedText == "Home")
        #expect(response.property(DAVNamespace.dav, "sync-token") == nil)
    }

    @Test func xmlLineEndsBecomeLF() throws {
        // XML 1.0 §2.11: a parser hands CRLF over as LF; only &#13; keeps a CR.
        let document = "<multistatus xmlns=\"DAV:\" xmlns:C=\"urn:ietf:params:xml:ns:caldav\"><response><href>/1.ics</href><propstat><prop><C:calendar-data>A\r\nB&#13;\nC</C:calendar-data></prop><status>HTTP/1.1 200 OK</status></propstat></response></multistatus>"
        let response = try #require(try Multistatus(parsing: Data(document.utf8)).responses.first)
        #expect(response.property(DAVNamespace.caldav, "calendar-data")?.text == "A\nB\r\nC")
    }

    @Test(arguments: [
        "",
        "not xml at all",
        #"<multistatus xmlns="DAV:"><response><href>/1.ics</href><propstat><prop><getetag>"#,  // truncated
        #"<error xmlns="DAV:"><valid-sync-token/></error>"#,  // XML, but no multistatus
        #"<multistatus xmlns="DAV:"><response></multistatus>"#,  // mismatched
    ])
    func malformedBodiesAreRefused(_ body: String) {
        let failure = #expect(throws: XMLParseFailure.self) { try Multistatus(parsing: Data(body.utf8)) }
        // In our words: Foundation's own text names its error domain.
        #expect(failure?.description.contains("Domain") == false, "\(failure?.description ?? "")")
    }

    @Test func externalEntitiesAreNotResolved() throws {
        let document = #"<?xml version="1.0"?><!DOCTYPE m [<!ENTITY x SYSTEM "file:///etc/passwd">]><multistatus xmlns="DAV:"><response><href>&x;</href></response></multistatus>"#
        let status = try? Multistatus(parsing: Data(document.utf8))
        #expect(status?.responses.first?.hrefs.first?.contains("root:") != true)
    }

    @Test func davErrorConditionsAreRead() {
        let conditions = davErrorConditions(in: Data(#"<D:error xmlns:D="DAV:"><D:valid-sync-token/></D:error>"#.utf8))
        #expect(conditions.map(\.name) == ["valid-sync-token"])
        #expect(davErrorConditions(in: Data("Precondition failed.".utf8)).isEmpty)
    }

    @Test func requestBodiesEscapeAndEncode() throws {
        let body = String(decoding: DAVRequestBody.makeCalendar(displayName: "Tom & <Jerry>", color: "#FF0000", order: 3, listCreated: "2026-11-22T12:00:00Z"), as: UTF8.self)
        #expect(body.contains("<d:displayname>Tom &amp; &lt;Jerry&gt;</d:displayname>"))
        #expect(body.contains(#"<c:comp name="VTODO"/>"#))
        let multiget = String(decoding: DAVRequestBody.calendarMultiget([DAVHref(path: "/a/b c&d.ics")]), as: UTF8.self)
        #expect(multiget.contains("<d:href>/a/b%20c&amp;d.ics</d:href>"))
        // Every body we send is well-formed XML.
        for data in [
            DAVRequestBody.propfind(DAVRequestBody.collectionProperties(includingCtag: true)), DAVRequestBody.calendarQueryTasks,
            DAVRequestBody.syncCollection(token: nil), DAVRequestBody.syncCollection(token: "http://x/<1>"),
        ] {
            _ = try XMLNode.parse(data)
        }
    }

    @Test func hrefsCompareDecoded() {
        let a = DAVHref(serverHref: "/alice/tasks/a%20b.ics", relativeTo: base)
        let b = DAVHref(serverHref: "https://dav.example.com/alice/tasks/a%20b.ics", relativeTo: base)
        let c = DAVHref(serverHref: "a%20b.ics", relativeTo: base)
        #expect(a == b && b == c)
        #expect(a?.path == "/alice/tasks/a b.ics")
        #expect(a?.url(on: base).absoluteString == "https://dav.example.com/alice/tasks/a%20b.ics")
    }

    @Test func objectNamesFollowTheUID() {
        let list = URL(string: "http://h/alice/tasks/")!
        #expect(CalDAVClient.objectHref(forUID: "6F9619FF-8B86-D011-B42D-00C04FC964FF", in: list).path
            == "/alice/tasks/6F9619FF-8B86-D011-B42D-00C04FC964FF.ics")
        let odd = CalDAVClient.objectHref(forUID: "a/b c", in: list)
        #expect(odd.path.hasPrefix("/alice/tasks/a_b_c-") && odd.path.hasSuffix(".ics"))
        #expect(odd == CalDAVClient.objectHref(forUID: "a/b c", in: list))  // stable
        #expect(odd != CalDAVClient.objectHref(forUID: "a_b c", in: list))  // no collision by cleaning
    }

    @Test func entityTagsAreNormalized() {
        #expect(EntityTag.normalize(" \"abc\" ") == "\"abc\"")
        #expect(EntityTag.normalize("abc") == "\"abc\"")
        #expect(EntityTag.normalize("W/\"abc\"") == "W/\"abc\"")
        #expect(EntityTag.normalize("") == nil)
    }

    @Test func syncStateRoundTripsThroughJSON() throws {
        let state = CollectionSyncState(
            syncToken: "http://radicale.org/ns/sync/abc", ctag: "\"1\"", etags: [DAVHref(path: "/a/1.ics"): "\"e\""])
        let json = try JSONEncoder().encode(state)
        #expect(String(decoding: json, as: UTF8.self).contains(#""\/a\/1.ics":"\"e\"""#))
        #expect(try JSONDecoder().decode(CollectionSyncState.self, from: json) == state)
    }

    @Test func secretsStayOutOfTextAndErrors() {
        let credentials = CalDAVCredentials(username: "alice", password: "hunter2")
        #expect(!"\(credentials)".contains("hunter2"))
        #expect(!String(reflecting: credentials).contains("hunter2"))
        var dumped = ""
        dump(credentials, to: &dumped)
        #expect(!dumped.contains("hunter2"))
        let error = CalDAVError(.notFound, "gone", url: URL(string: "https://alice:hunter2@h/p?token=hunter2")!)
        #expect(error.url == "https://h/p")
        #expect(!error.detailedDescription.contains("hunter2"))
    }

    @Test func transienceAndRefusalsFollowTheCode() {
        #expect(CalDAVError(.connectionFailed, "").code.isTransient)
        #expect(CalDAVError(.timedOut, "").code.isTransient)
        #expect(CalDAVError(.serverError, "").code.isTransient)
        #expect(CalDAVError(.truncatedResponse, "").code.isTransient)
        // A write refused for good lets the others go on; a 408 (try again) or a 418 is no refusal of the object.
        #expect([403, 409, 400, 415].allSatisfy { status in
            CalDAVError(status == 403 ? .forbidden : status == 409 ? .conflict : .unexpectedStatus, "", status: status).refusesOneObject
        })
        #expect(!CalDAVError(.serverError, "", status: 408).refusesOneObject && !CalDAVError(.unexpectedStatus, "", status: 418).refusesOneObject)
        // A 412 that the retries could not resolve: the next sync will (it said so, with 69).
        #expect(CalDAVError(.preconditionFailed, "").code.isTransient)
        #expect(!CalDAVError(.authenticationFailed, "").code.isTransient)
        #expect(!CalDAVError(.malformedResponse, "").code.isTransient)
        #expect(!CalDAVError(.tlsFailed, "").code.isTransient)
        #expect(!CalDAVError(.unknownHost, "").code.isTransient)
    }

    // MARK: Redirects and credentials

    func client(_ transport: ScriptedTransport, account: String = "https://dav.example.com/") -> CalDAVClient {
        CalDAVClient(
            accountURL: URL(string: account)!, credentials: CalDAVCredentials(username: "alice", password: "pw"),
            transport: transport)
    }

    static let principalAnswer: @Sendable (DAVRequest) -> DAVResponse = { _ in
        multistatus(
            #"<d:response><d:href>/</d:href><d:propstat><d:prop><d:current-user-principal><d:href>/p/alice/</d:href></d:current-user-principal></d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>"#
        )
    }

    @Test func redirectsKeepMethodBodyAndCredentialsOnTheSameOrigin() async throws {
        let transport = ScriptedTransport([
            { _ in DAVResponse(status: 301, headers: [("Location", "/dav/")]) },
            Self.principalAnswer,
        ])
        let tags = try await client(transport).collectionTags(of: URL(string: "https://dav.example.com/.well-known/caldav")!)
        #expect(tags.ctag == nil)
        let sent = transport.sent
        #expect(sent.map(\.method) == ["PROPFIND", "PROPFIND"])
        #expect(sent[1].url.absoluteString == "https://dav.example.com/dav/")
        #expect(sent[1].body == sent[0].body)
        #expect(sent.allSatisfy { $0.header("Authorization") == "Basic YWxpY2U6cHc=" })
        #expect(sent.allSatisfy { $0.header("Depth") == "0" })
    }

    @Test func credentialsNeverGoToAnotherOriginOverHTTP() async throws {
        let transport = ScriptedTransport([
            { _ in DAVResponse(status: 302, headers: [("Location", "http://elsewhere.example/dav/")]) },
            Self.principalAnswer,
        ])
        _ = try await client(transport, account: "http://dav.example.com/")
            .collectionTags(of: URL(string: "http://dav.example.com/")!)
        #expect(transport.sent[0].header("Authorization") != nil)
        #expect(transport.sent[1].header("Authorization") == nil)
    }

    /// A 401 where the password was withheld (another origin over HTTP) is no wrong password: it
    /// said "rejected the user name or password", and sent the user to fix one that was right.
    @Test func a401WhereThePasswordWasWithheldSaysWhy() async {
        let transport = ScriptedTransport([
            { _ in DAVResponse(status: 301, headers: [("Location", "http://elsewhere.example/dav/")]) },
            { _ in DAVResponse(status: 401, headers: [("WWW-Authenticate", "Basic")]) },
        ])
        let error = await #expect(throws: CalDAVError.self) {
            try await client(transport, account: "http://dav.example.com/").collectionTags(of: URL(string: "http://dav.example.com/")!)
        }
        #expect(error?.code == .badRedirect)
        #expect(error?.message == "The server redirected to http://elsewhere.example:80 over plain HTTP, where the password is not sent.")
    }

    /// A 401 to an account without a password says that it has none.
    @Test func a401ToAnAccountWithoutAPasswordSaysSo() async {
        let transport = ScriptedTransport([{ _ in DAVResponse(status: 401, headers: [("WWW-Authenticate", "Basic")]) }])
        let client = CalDAVClient(
            accountURL: URL(string: "https://dav.example.com/")!, credentials: CalDAVCredentials(username: "alice", password: ""), transport: transport)
        let error = await #expect(throws: CalDAVError.self) {
            try await client.collectionTags(of: URL(string: "https://dav.example.com/")!)
        }
        #expect(error?.code == .authenticationFailed)
        #expect(error?.message == "The server asks for a password, and the account has none (no password_file or password_command).")
    }

    /// A 429 is rate limiting, not a failure, and the wait it asks for is said (helper-107).
    @Test func a429SaysTheServerAsksForFewerRequests() async {
        let transport = ScriptedTransport([{ _ in DAVResponse(status: 429, headers: [("Retry-After", "120")]) }])
        let error = await #expect(throws: CalDAVError.self) {
            try await client(transport).collectionTags(of: URL(string: "https://dav.example.com/")!)
        }
        #expect(error?.code == .serverError && error?.code.isTransient == true)
        #expect(error?.message == "The server asks for fewer requests (HTTP 429) and to wait 120 s; try again later.")
    }

    @Test func redirectToPlainHTTPIsRefused() async {
        let transport = ScriptedTransport([
            { _ in DAVResponse(status: 301, headers: [("Location", "http://dav.example.com/")]) }
        ])
        let error = await #expect(throws: CalDAVError.self) {
            try await client(transport).collectionTags(of: URL(string: "https://dav.example.com/")!)
        }
        #expect(error?.code == .badRedirect)
    }

    @Test func redirectLoopsAndLongChainsStop() async {
        let loop = ScriptedTransport(
            Array(repeating: { request in
                DAVResponse(status: 307, headers: [("Location", request.url.path == "/a" ? "/b" : "/a")])
            }, count: 10))
        let error = await #expect(throws: CalDAVError.self) {
            try await client(loop).collectionTags(of: URL(string: "https://dav.example.com/a")!)
        }
        #expect(error?.code == .badRedirect)
        #expect(loop.sent.count == 2)
    }

    // MARK: Status mapping

    @Test(arguments: [
        (401, CalDAVError.Code.authenticationFailed), (403, .forbidden), (404, .notFound), (405, .notSupported),
        (409, .conflict), (412, .preconditionFailed), (408, .serverError), (423, .serverError), (429, .serverError), (500, .serverError), (503, .serverError),
        (418, .unexpectedStatus),
    ])
    func statusesBecomeTypedErrors(status: Int, code: CalDAVError.Code) async {
        let transport = ScriptedTransport([{ _ in DAVResponse(status: status) }])
        let error = await #expect(throws: CalDAVError.self) {
            try await client(transport).update(
                "BEGIN:VCALENDAR", at: DAVHref(path: "/a/1.ics"), in: URL(string: "https://dav.example.com/a/")!,
                ifMatch: "\"1\"")
        }
        #expect(error?.code == code)
        #expect(error?.status == status)
        #expect(error.map { !$0.description.contains("pw") } == true)
    }

    /// A success of another kind than 207 says what was wanted: "answered REPORT with HTTP 200"
    /// read as if all was well.
    @Test func aSuccessOtherThanMultiStatusSaysWhatWasWanted() async {
        let transport = ScriptedTransport([{ _ in DAVResponse(status: 200, body: Data("<html>hello</html>".utf8)) }])
        let error = await #expect(throws: CalDAVError.self) {
            try await client(transport).syncCollection(URL(string: "https://dav.example.com/a/")!, token: "t")
        }
        #expect(error?.code == .unexpectedStatus)
        #expect(error?.message == "The server answered REPORT with HTTP 200 where WebDAV answers 207, so its answer cannot be read.")
    }

    @Test(arguments: [403, 409])
    func invalidSyncTokenIsRecognizedOnEitherStatus(status: Int) async {
        let transport = ScriptedTransport([
            { _ in
                DAVResponse(status: status, body: Data(#"<error xmlns="DAV:"><valid-sync-token/></error>"#.utf8))
            }
        ])
        let error = await #expect(throws: CalDAVError.self) {
            try await client(transport).syncCollection(URL(string: "https://dav.example.com/a/")!, token: "t")
        }
        #expect(error?.code == .invalidSyncToken)
    }

    /// A PUT answered without an entity tag is read back for one; the tag is the write's only if
    /// the object read back is what was sent. Another client's write in between had its tag
    /// recorded for ours, which hid that write from every later sync.
    @Test(arguments: [true, false])
    func aTagReadBackAfterAPutIsOursOnlyIfTheObjectIs(isUnchanged: Bool) async throws {
        let sent = "BEGIN:VCALENDAR\r\nSUMMARY:Mine\r\nEND:VCALENDAR\r\n"
        let readBack = isUnchanged ? sent : sent.replacingOccurrences(of: "Mine", with: "Theirs")
        let transport = ScriptedTransport([
            { _ in DAVResponse(status: 201) },
            { _ in DAVResponse(status: 200, headers: [("ETag", "\"7\"")], body: Data(readBack.utf8)) },
        ])
        let etag = try await client(transport).create(sent, at: DAVHref(path: "/a/1.ics"), in: URL(string: "https://dav.example.com/a/")!)
        #expect(transport.sent.map(\.method) == ["PUT", "GET"])
        #expect(etag == (isUnchanged ? "\"7\"" : nil))
    }

    /// A line folded inside a UTF-8 sequence is unfolded before it is decoded: "é" came back as
    /// "��" (and went to the server so at the next write). Valid text is kept as it came.
    @Test func aFoldInsideAUTF8SequenceIsMended() throws {
        let broken = Data("BEGIN:VTODO\r\nSUMMARY:Caf".utf8) + Data([0xC3, 0x0D, 0x0A, 0x20, 0xA9]) + Data("\r\nEND:VTODO\r\n".utf8)
        #expect(CalDAVClient.text(of: broken) == "BEGIN:VTODO\r\nSUMMARY:Café\r\nEND:VTODO\r\n")
        let folded = "BEGIN:VTODO\r\nSUMMARY:Caf\r\n é\r\nEND:VTODO\r\n"
        #expect(CalDAVClient.text(of: Data(folded.utf8)) == folded)
        let calendar = try ICalendar(parsing: CalDAVClient.text(of: broken))
        #expect(calendar.serialized().contains("SUMMARY:Café"))
    }

    /// Only a 404 or a 410 makes an href missing (its task is then deleted here). One that the
    /// multiget answer leaves out, or answers with another status, gets a GET of its own: it counted
    /// as missing, so a server's hiccup deleted the task here while it stayed on the server.
    @Test(arguments: ["", #"<d:response><d:href>/a/2.ics</d:href><d:status>HTTP/1.1 500 Internal Server Error</d:status></d:response>"#])
    func onlyA404MakesAnObjectMissing(secondAnswer: String) async throws {
        let found = #"<d:response><d:href>/a/1.ics</d:href><d:propstat><d:prop><d:getetag>"1"</d:getetag><c:calendar-data xmlns:c="urn:ietf:params:xml:ns:caldav">BEGIN:VCALENDAR</c:calendar-data></d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>"#
        let gone = #"<d:response><d:href>/a/3.ics</d:href><d:status>HTTP/1.1 404 Not Found</d:status></d:response><d:response><d:href>/a/4.ics</d:href><d:status>HTTP/1.1 410 Gone</d:status></d:response>"#
        let hrefs = ["/a/1.ics", "/a/3.ics", "/a/4.ics"].map { DAVHref(path: $0) }
        let collection = URL(string: "https://dav.example.com/a/")!
        let fetched = try await client(ScriptedTransport([{ _ in multistatus(found + gone) }])).fetch(hrefs, in: collection)
        #expect(fetched.objects.map(\.href) == [DAVHref(path: "/a/1.ics")])
        #expect(fetched.missing == [DAVHref(path: "/a/3.ics"), DAVHref(path: "/a/4.ics")])

        // The gap's own GET decides: the object, gone, private (neither), or an error that keeps
        // the token.
        let all = hrefs + [DAVHref(path: "/a/2.ics")]
        let answers: [(DAVResponse, [String], CalDAVError.Code?)] = [
            (DAVResponse(status: 200, headers: [("ETag", "\"2\"")], body: Data("BEGIN:VCALENDAR".utf8)), ["/a/1.ics", "/a/2.ics"], nil),
            (DAVResponse(status: 404), ["/a/1.ics"], nil),
            (DAVResponse(status: 403), ["/a/1.ics"], nil),
            (DAVResponse(status: 500), [], .serverError),
        ]
        for (answer, objects, failure) in answers {
            let transport = ScriptedTransport([{ _ in multistatus(found + secondAnswer + gone) }, { _ in answer }])
            do {
                let result = try await client(transport).fetch(all, in: collection)
                #expect(failure == nil && result.objects.map(\.href.path).sorted() == objects)
                #expect(result.missing.contains(DAVHref(path: "/a/2.ics")) == (answer.status == 404))
            } catch {
                #expect(error.code == failure && error.code.isTransient)
            }
            #expect(transport.sent.map(\.method) == ["REPORT", "GET"])
        }
    }

    @Test func truncatedSyncCollectionIsContinued() async throws {
        // RFC 6578 §3.6: a 507 on the collection itself means "ask again with the new token".
        let transport = ScriptedTransport([
            { _ in
                multistatus(
                    #"<d:sync-token>t2</d:sync-token><d:response><d:href>/a/1.ics</d:href><d:propstat><d:prop><d:getetag>"1"</d:getetag></d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response><d:response><d:href>/a/</d:href><d:status>HTTP/1.1 507 Insufficient Storage</d:status></d:response>"#
                )
            },
            { _ in
                multistatus(
                    #"<d:sync-token>t3</d:sync-token><d:response><d:href>/a/1.ics</d:href><d:status>HTTP/1.1 404 Not Found</d:status></d:response><d:response><d:href>/a/2.ics</d:href><d:propstat><d:prop><d:getetag>"2"</d:getetag></d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>"#
                )
            },
        ])
        let report = try await client(transport).syncCollection(URL(string: "https://dav.example.com/a/")!, token: "t1")
        #expect(report.syncToken == "t3")
        #expect(report.changed == [DAVHref(path: "/a/2.ics"): "\"2\""])
        #expect(report.removed == [DAVHref(path: "/a/1.ics")])
        #expect(String(decoding: transport.sent[1].body ?? Data(), as: UTF8.self).contains("<d:sync-token>t2</d:sync-token>"))
    }

    /// `calendar-color` in the forms servers and phones write: a short `#F00` was dropped, and the
    /// list got the default color.
    @Test(arguments: [
        ("#FF9500", "FF9500"), ("#FF9500FF", "FF9500"), ("#f00", "FF0000"), ("#F00A", "FF0000"), ("34c759", "34C759"),
        ("#FF950", nil), ("blue", nil), ("#GG0000", nil), ("", nil),
    ] as [(String, String?)])
    func calendarColors(color: String, hex: String?) {
        #expect(SyncIdentity.colorHex(fromCalendarColor: color) == hex)
    }
}
