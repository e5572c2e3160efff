public import Foundation
public import Logging
import TaskWidgetCore

/// The CalDAV operations of `taskwidget sync`: discovery, listing, incremental sync and
/// conditional writes of calendar objects, whose iCalendar text stays opaque here.
///
/// A client is a cheap value for one account; the ``DAVTransport`` under it is shared.
///
/// ```swift
/// try await HTTPClientTransport.withTransport { transport in
///     let client = CalDAVClient(
///         accountURL: URL(string: "https://dav.example.com/")!,
///         credentials: CalDAVCredentials(username: "alice", password: secret), transport: transport)
///     let home = try await client.discover()
///     for list in home.taskCollections {
///         let changes = try await client.pullChanges(in: list.url, since: savedState[list.url])
///         // apply changes.changed / changes.removed locally, then save changes.state
///     }
/// }
/// ```
///
/// Errors are always ``CalDAVError``; a `412 Precondition Failed` on a write is
/// ``CalDAVError/Code/preconditionFailed``: re-read, merge and retry.
public struct CalDAVClient: Sendable {
    /// Limits of the protocol logic (the transport has the network's).
    public struct Configuration: Sendable {
        /// Redirects followed for one request before giving up.
        public var maximumRedirects = 5
        /// Hrefs per `calendar-multiget` REPORT.
        public var multigetBatchSize = 100
        /// Rounds of a sync-collection that the server truncates (507 on the collection).
        public var maximumSyncRounds = 50

        public init() {}
    }

    /// The URL the user configured: its origin always receives the credentials.
    public let accountURL: URL
    private let credentials: CalDAVCredentials?
    private let transport: any DAVTransport
    private let configuration: Configuration
    private let logger: Logger

    public init(
        accountURL: URL, credentials: CalDAVCredentials?, transport: any DAVTransport,
        configuration: Configuration = Configuration(), logger: Logger = Logger(label: "taskwidget.sync")
    ) {
        self.accountURL = accountURL
        self.credentials = credentials
        self.transport = transport
        self.configuration = configuration
        self.logger = logger
    }

    // MARK: - Discovery (RFC 6764 §6, RFC 4791 §6.2.1, RFC 5397)

    /// Finds the calendar home and its calendars from ``accountURL``, which may be the server's
    /// root, `/.well-known/caldav` (redirects are followed), a principal or a calendar home.
    ///
    /// Costs three requests on a server root (principal, home set, listing), two from a principal.
    public func discover() async throws(CalDAVError) -> CalendarHome {
        try Self.validate(accountURL)
        var starts = [accountURL]
        if accountURL.path.isEmpty || accountURL.path == "/" {
            starts.append(URL(string: "/.well-known/caldav", relativeTo: accountURL)!.absoluteURL)
        }
        var lastError: CalDAVError?
        for start in starts {
            do throws(CalDAVError) {
                switch try await findHome(from: start) {
                case .home(let principal, let home):
                    return CalendarHome(principal: principal, url: home, collections: try await listCollections(in: home))
                case .calendar(let principal, let calendar):
                    return CalendarHome(principal: principal, url: calendar, collections: [try await collection(at: calendar)], isOneCalendar: true)
                case nil:
                    break
                }
            } catch where [.notFound, .notSupported, .forbidden, .unexpectedStatus].contains(error.code) {
                // Try the next way in (a root that refuses PROPFIND, say); report the first failure.
                lastError = lastError ?? error
            }
        }
        // "…: the server does not allow this (403 Forbidden)", not "… (The server … (403 Forbidden).)".
        throw lastError.map {
            CalDAVError(
                .notCalDAV, "No CalDAV calendar home was found at \(CalDAVError.redact(accountURL)): \($0.message.asClause)", url: accountURL,
                status: $0.status, cause: $0)
        }
            ?? CalDAVError(.notCalDAV, "No CalDAV calendar home was found at \(CalDAVError.redact(accountURL)).", url: accountURL)
    }

    /// Where discovery leads: a calendar home, or one calendar (the URL names a calendar).
    private enum Found {
        case home(principal: URL?, URL)
        case calendar(principal: URL?, URL)
    }

    /// Principal and calendar home reachable from `start`, the calendar `start` is, or `nil`
    /// when it names none of them.
    private func findHome(from start: URL) async throws(CalDAVError) -> Found? {
        let (first, firstURL) = try await propfind(start, depth: "0", DAVRequestBody.principalProperties)
        guard let response = first.responses.first else { return nil }
        let principal = response.property(DAVNamespace.dav, "current-user-principal")
            .flatMap { Self.hrefURL(in: $0, relativeTo: firstURL) }
        if response.property(DAVNamespace.dav, "resourcetype")?.child(DAVNamespace.caldav, "calendar") != nil {
            return .calendar(principal: principal, firstURL)
        }
        if let home = response.property(DAVNamespace.caldav, "calendar-home-set")
            .flatMap({ Self.hrefURL(in: $0, relativeTo: firstURL) })
        {
            let isPrincipal = response.property(DAVNamespace.dav, "resourcetype")?.child(DAVNamespace.dav, "principal") != nil
            return .home(principal: principal ?? (isPrincipal ? firstURL : nil), home)
        }
        guard let principal, principal.absoluteString != firstURL.absoluteString else { return nil }
        let (second, secondURL) = try await propfind(principal, depth: "0", ["c:calendar-home-set"])
        guard
            let home = second.responses.first?.property(DAVNamespace.caldav, "calendar-home-set")
                .flatMap({ Self.hrefURL(in: $0, relativeTo: secondURL) })
        else { return nil }
        return .home(principal: principal, home)
    }

    /// Every calendar collection in a calendar home (`PROPFIND Depth: 1`), with name, color,
    /// component set, ctag and sync-token.
    public func listCollections(in home: URL, includingCtag: Bool = true) async throws(CalDAVError) -> [CalendarCollection] {
        let (status, homeURL) = try await propfind(home, depth: "1", DAVRequestBody.collectionProperties(includingCtag: includingCtag))
        let homeHref = DAVHref(serverHref: homeURL.absoluteString, relativeTo: homeURL)?.asCollection
        var collections: [CalendarCollection] = []
        for response in status.responses {
            guard let raw = response.hrefs.first, let href = DAVHref(serverHref: raw, relativeTo: homeURL)?.asCollection, href != homeHref,
                response.status != 404
            else { continue }
            // Every resource has a resource type (RFC 4918 §15.9). Without one readable, a
            // calendar cannot be told from a file: read as "no calendar", every collection synced
            // before looked deleted on the server, and its tasks were deleted here (a proxy's 500
            // propstats: helper-107).
            guard let type = response.property(DAVNamespace.dav, "resourcetype") else {
                throw CalDAVError(
                    .malformedResponse, "The server's listing of the calendar home does not say what one of its members is (its resource type is missing or failed).",
                    method: "PROPFIND", url: homeURL)
            }
            if type.child(DAVNamespace.caldav, "calendar") != nil { collections.append(Self.collection(at: href.url(on: homeURL), from: response)) }
        }
        return collections
    }

    /// One collection's properties (`PROPFIND Depth: 0`), e.g. after making it.
    public func collection(at url: URL) async throws(CalDAVError) -> CalendarCollection {
        let (status, finalURL) = try await propfind(url, depth: "0", DAVRequestBody.collectionProperties(includingCtag: true))
        guard let response = status.responses.first else {
            throw CalDAVError(.malformedResponse, "The server's answer named no collection.", method: "PROPFIND", url: url)
        }
        return Self.collection(at: finalURL, from: response)
    }

    private static func collection(at url: URL, from response: Multistatus.Response) -> CalendarCollection {
        CalendarCollection(
            url: url,
            displayName: response.property(DAVNamespace.dav, "displayname")?.trimmedText,
            color: response.property(DAVNamespace.appleICal, "calendar-color")?.trimmedText,
            order: response.property(DAVNamespace.appleICal, "calendar-order")?.trimmedText.flatMap { Int($0) },
            listCreated: response.property(DAVNamespace.taskwidget, "list-created")?.trimmedText,
            supportedComponents: response.property(DAVNamespace.caldav, "supported-calendar-component-set")
                .map { $0.children(DAVNamespace.caldav, "comp").compactMap { $0.attributes["name"]?.uppercased() } },
            ctag: response.property(DAVNamespace.calendarServer, "getctag")?.trimmedText,
            syncToken: response.property(DAVNamespace.dav, "sync-token")?.trimmedText)
    }

    // MARK: - Collections

    /// Makes a task list (`MKCALENDAR`, RFC 4791 §5.3.1) at `url` (ending with `/`, inside the
    /// calendar home) that holds only VTODOs, and returns it as the server describes it.
    ///
    /// Throws ``CalDAVError/Code/conflict`` when something exists there already, and
    /// ``CalDAVError/Code/notSupported`` or ``CalDAVError/Code/forbidden`` when the server does
    /// not let this user make calendars.
    public func makeCalendar(
        at url: URL, displayName: String, color: String? = nil, order: Int? = nil, listCreated: String? = nil
    ) async throws(CalDAVError) -> CalendarCollection {
        let body = DAVRequestBody.makeCalendar(displayName: displayName, color: color, order: order, listCreated: listCreated)
        let (response, finalURL) = try await exchange("MKCALENDAR", url, headers: [Self.xmlContentType], body: body)
        try check(response, "MKCALENDAR", finalURL, accepting: [201])
        return try await collection(at: finalURL)
    }

    /// The collection's `CS:getctag` and `DAV:sync-token` (`PROPFIND Depth: 0`, one request).
    public func collectionTags(of collection: URL) async throws(CalDAVError) -> (ctag: String?, syncToken: String?) {
        let (status, _) = try await propfind(collection, depth: "0", ["cs:getctag", "d:sync-token"])
        let response = status.responses.first
        return (
            response?.property(DAVNamespace.calendarServer, "getctag")?.trimmedText,
            response?.property(DAVNamespace.dav, "sync-token")?.trimmedText
        )
    }

    // MARK: - Listing

    /// Every VTODO of a collection with its text and entity tag (`REPORT calendar-query`, one
    /// request). Objects without a VTODO (events in a mixed calendar) are not listed.
    public func listTasks(in collection: URL) async throws(CalDAVError) -> [CalendarObject] {
        let (response, finalURL) = try await exchange(
            "REPORT", collection, depth: "1", headers: [Self.xmlContentType], body: DAVRequestBody.calendarQueryTasks)
        try check(response, "REPORT", finalURL, accepting: [207])
        switch multistatusResult(response, "REPORT", finalURL) {
        case .success(let status):
            let found = try objects(in: status, relativeTo: finalURL)
            // A member named without its data (its propstat failed) is read on its own: left out,
            // its task looked deleted on the server, and was deleted here (helper-107).
            let collectionHref = DAVHref(serverHref: finalURL.absoluteString, relativeTo: finalURL)?.asCollection
            let unread = found.unread.filter { $0.asCollection != collectionHref }
            guard !unread.isEmpty else { return found.objects }
            return try await found.objects + fetch(unread, in: collection).objects.filter { $0.data.contains("BEGIN:VTODO") }
        case .failure(let error) where error.code == .malformedResponse:
            // libxml2 refuses a text node over 10 MB (XML_MAX_TEXT_LENGTH, and FoundationXML
            // cannot ask for XML_PARSE_HUGE): list the entity tags, then fetch the objects, each
            // too large one with a GET of its own. A server that is broken fails here again.
            logger.notice("the listing was not readable XML; fetching the objects one by one")
            let listing = try await listEntityTags(in: collection)
            return try await fetch(listing.etags.keys.sorted(), in: collection).objects.filter { $0.data.contains("BEGIN:VTODO") }
        case .failure(let error):
            throw error
        }
    }

    /// The entity tag of every object in a collection (`PROPFIND Depth: 1`, one request), and
    /// the collection's own ctag and sync-token from the same answer.
    public func listEntityTags(in collection: URL) async throws(CalDAVError)
        -> (etags: [DAVHref: String], ctag: String?, syncToken: String?)
    {
        let (status, finalURL) = try await propfind(
            collection, depth: "1", ["d:getetag", "d:resourcetype", "cs:getctag", "d:sync-token"])
        let collectionHref = DAVHref(serverHref: finalURL.absoluteString, relativeTo: finalURL)?.asCollection
        var etags: [DAVHref: String] = [:]
        var ctag: String?
        var token: String?
        for response in status.responses {
            guard let raw = response.hrefs.first, let href = DAVHref(serverHref: raw, relativeTo: finalURL) else { continue }
            if href.asCollection == collectionHref {
                ctag = response.property(DAVNamespace.calendarServer, "getctag")?.trimmedText
                token = response.property(DAVNamespace.dav, "sync-token")?.trimmedText
            } else if response.property(DAVNamespace.dav, "resourcetype")?.child(DAVNamespace.dav, "collection") == nil,
                response.status != 404
            {
                // Every calendar object has an entity tag (RFC 4791 §5.3.4): one left out would
                // look deleted on the server, and its task would be deleted here (helper-107).
                guard let etag = response.property(DAVNamespace.dav, "getetag")?.trimmedText.flatMap(EntityTag.normalize) else {
                    throw CalDAVError(
                        .malformedResponse, "The server's listing of a calendar gave no entity tag for one of its objects.", method: "PROPFIND",
                        url: finalURL)
                }
                etags[href] = etag
            }
        }
        return (etags, ctag, token)
    }

    /// The objects at `hrefs` with text and entity tag (`REPORT calendar-multiget`, one request per
    /// ``Configuration/multigetBatchSize`` hrefs); `missing` lists those the server answered 404 or
    /// 410 for. An href the answer leaves out, or answers with another status, gets a `GET` of its
    /// own: taken as missing, its task would be deleted here while it stays on the server.
    public func fetch(_ hrefs: [DAVHref], in collection: URL) async throws(CalDAVError)
        -> (objects: [CalendarObject], missing: [DAVHref])
    {
        var objects: [CalendarObject] = []
        var missing: [DAVHref] = []
        /// A `GET` for each of `hrefs`: an object, missing (404, 410), or private (403: neither read
        /// nor gone).
        func getEach(_ hrefs: [DAVHref]) async throws(CalDAVError) {
            for href in hrefs {
                switch await objectResult(at: href, in: collection) {
                case .success(let object): objects.append(object)
                case .failure(let error) where error.code == .notFound: missing.append(href)
                case .failure(let error) where error.code == .forbidden: continue
                case .failure(let error): throw error
                }
            }
        }
        var start = 0
        while start < hrefs.count {
            let batch = Array(hrefs[start..<min(start + max(1, configuration.multigetBatchSize), hrefs.count)])
            start += batch.count
            let (response, finalURL) = try await exchange(
                "REPORT", collection, depth: "1", headers: [Self.xmlContentType],
                body: DAVRequestBody.calendarMultiget(batch))
            try check(response, "REPORT", finalURL, accepting: [207])
            switch multistatusResult(response, "REPORT", finalURL) {
            case .success(let status):
                let found = try self.objects(in: status, relativeTo: finalURL)
                objects += found.objects
                let fetched = Set(found.objects.map(\.href))
                let notFound = Set(found.notFound)
                missing += batch.filter { !fetched.contains($0) && notFound.contains($0) }
                try await getEach(batch.filter { !fetched.contains($0) && !notFound.contains($0) })
            case .failure(let error) where error.code == .malformedResponse:
                // An object too large for the XML parser (see listTasks): GET each of the batch.
                try await getEach(batch)
            case .failure(let error):
                throw error
            }
        }
        return (objects, missing)
    }

    /// ``multistatus(_:_:_:)`` as a value, to switch over its failure.
    private func multistatusResult(_ response: DAVResponse, _ method: String, _ url: URL) -> Result<Multistatus, CalDAVError> {
        do {
            return .success(try multistatus(response, method, url))
        } catch {
            return .failure(error)
        }
    }

    /// ``object(at:in:)`` as a value, to switch over its failure.
    private func objectResult(at href: DAVHref, in collection: URL) async -> Result<CalendarObject, CalDAVError> {
        do {
            return .success(try await object(at: href, in: collection))
        } catch {
            return .failure(error)
        }
    }

    /// ``fetch(_:in:)`` without a request when there is nothing to fetch.
    private func fetchIfAny(_ hrefs: [DAVHref], in collection: URL) async throws(CalDAVError)
        -> (objects: [CalendarObject], missing: [DAVHref])
    {
        if hrefs.isEmpty { return ([], []) }
        return try await fetch(hrefs, in: collection)
    }

    /// Objects with calendar data in a multistatus, the hrefs answered 404 or 410, and the others
    /// named without calendar data (the collection itself, a member whose propstat failed).
    private func objects(in status: Multistatus, relativeTo base: URL) throws(CalDAVError)
        -> (objects: [CalendarObject], notFound: [DAVHref], unread: [DAVHref])
    {
        var objects: [CalendarObject] = []
        var notFound: [DAVHref] = []
        var unread: [DAVHref] = []
        for response in status.responses {
            for raw in response.hrefs {
                guard let href = DAVHref(serverHref: raw, relativeTo: base) else { continue }
                if let data = response.property(DAVNamespace.caldav, "calendar-data")?.text {
                    let etag = response.property(DAVNamespace.dav, "getetag")?.trimmedText.flatMap(EntityTag.normalize)
                    objects.append(CalendarObject(href: href, etag: etag, data: data))
                } else if response.status == 404 || response.status == 410 {
                    notFound.append(href)
                } else {
                    unread.append(href)
                }
            }
        }
        return (objects, notFound, unread)
    }

    // MARK: - Incremental sync (RFC 6578)

    /// The raw answer of a sync-collection REPORT, all rounds together.
    public struct SyncCollectionReport: Sendable {
        /// The token to send next time.
        public var syncToken: String
        /// Members added or changed since the token, with their entity tag when the server gave it.
        public var changed: [DAVHref: String?]
        /// Members removed since the token.
        public var removed: [DAVHref]
    }

    /// `REPORT sync-collection` (RFC 6578): what changed since `token` (`nil`: every member).
    ///
    /// Throws ``CalDAVError/Code/invalidSyncToken`` when the server no longer knows the token
    /// (403 or 409 with `DAV:valid-sync-token`), and ``CalDAVError/Code/notSupported`` when it does
    /// not implement the report here.
    public func syncCollection(_ collection: URL, token: String?) async throws(CalDAVError) -> SyncCollectionReport {
        var token = token
        var changed: [DAVHref: String?] = [:]
        var removed: Set<DAVHref> = []
        for _ in 0..<max(1, configuration.maximumSyncRounds) {
            let (response, finalURL) = try await exchange(
                "REPORT", collection, depth: "0", headers: [Self.xmlContentType],
                body: DAVRequestBody.syncCollection(token: token))
            try check(response, "REPORT", finalURL, accepting: [207])
            let status = try multistatus(response, "REPORT", finalURL)
            guard let newToken = status.syncToken else {
                throw CalDAVError(
                    .malformedResponse, "The server's sync-collection answer had no sync-token.", method: "REPORT",
                    url: finalURL, status: response.status)
            }
            let collectionHref = DAVHref(serverHref: finalURL.absoluteString, relativeTo: finalURL)?.asCollection
            var truncated = false
            for entry in status.responses {
                guard let raw = entry.hrefs.first, let href = DAVHref(serverHref: raw, relativeTo: finalURL) else { continue }
                if href.asCollection == collectionHref {
                    // RFC 6578 §3.6: 507 on the collection itself means "more to come".
                    truncated = truncated || entry.status == 507
                } else if entry.status == 404 {
                    removed.insert(href)
                    changed[href] = nil
                } else if !entry.propstats.isEmpty || entry.status.map({ (200..<300).contains($0) }) == true {
                    changed[href] = .some(
                        entry.property(DAVNamespace.dav, "getetag")?.trimmedText.flatMap(EntityTag.normalize))
                    removed.remove(href)
                }
            }
            token = newToken
            if !truncated {
                return SyncCollectionReport(syncToken: newToken, changed: changed, removed: removed.sorted())
            }
        }
        throw CalDAVError(
            .unexpectedStatus, "The server kept truncating its sync-collection answer.", method: "REPORT", url: collection)
    }

    /// What changed in a collection since `state` (`nil` or empty: the first sync), by the
    /// cheapest way the server offers:
    ///
    /// 1. with a sync-token: `REPORT sync-collection`, then `calendar-multiget` for the members
    ///    whose entity tag is new to us. Nothing changed = one request.
    /// 2. token no longer valid (`DAV:valid-sync-token`), or the first sync: a full listing,
    ///    `PROPFIND Depth: 0` for the new token and ctag *before* `REPORT calendar-query`
    ///    (so that a change during the listing is seen again next time, never lost).
    /// 3. a server without sync-collection: `PROPFIND Depth: 0` of `CS:getctag` (unchanged = one
    ///    request), else `PROPFIND Depth: 1` of the entity tags compared with `state.etags`, then
    ///    `calendar-multiget` for the new and changed ones.
    ///
    /// `removed` is only ever computed against `state.etags`: a full listing reports as removed the
    /// known hrefs it no longer finds.
    public func pullChanges(in collection: URL, since state: CollectionSyncState?) async throws(CalDAVError)
        -> CollectionChanges
    {
        let known = state ?? CollectionSyncState()
        if let token = known.syncToken {
            do throws(CalDAVError) {
                return try await incrementalSync(collection, token: token, known: known)
            } catch where error.code == .invalidSyncToken {
                logger.notice(
                    "sync-token no longer valid; listing the collection fully",
                    metadata: ["collection": "\(CalDAVError.redact(collection))"])
                return try await fullListing(collection, known: known)
            } catch where error.code == .notSupported {
                logger.notice(
                    "sync-collection not supported; comparing ctag and entity tags",
                    metadata: ["collection": "\(CalDAVError.redact(collection))"])
                return try await compareTags(collection, known: known, checkCtag: false)
            }
        }
        if known.ctag != nil || !known.etags.isEmpty {
            return try await compareTags(collection, known: known, checkCtag: known.ctag != nil)
        }
        return try await fullListing(collection, known: known)
    }

    private func incrementalSync(_ collection: URL, token: String, known: CollectionSyncState) async throws(CalDAVError)
        -> CollectionChanges
    {
        let report = try await syncCollection(collection, token: token)
        var state = known
        state.syncToken = report.syncToken
        state.ctag = nil
        // Skip what we already have: objects whose etag is known (the engine records its own writes).
        let toFetch = report.changed.filter { href, etag in etag == nil || known.etags[href] != etag }.keys.sorted()
        let fetched = try await fetchIfAny(toFetch, in: collection)
        var removed = report.removed
        removed += fetched.missing  // deleted between the report and the multiget
        for href in removed { state.etags[href] = nil }
        for object in fetched.objects { state.etags[object.href] = object.etag }
        return CollectionChanges(changed: fetched.objects, removed: removed, state: state, method: .syncCollection)
    }

    private func fullListing(_ collection: URL, known: CollectionSyncState) async throws(CalDAVError)
        -> CollectionChanges
    {
        let tags = try await collectionTags(of: collection)
        let objects = try await listTasks(in: collection)
        let listed = Set(objects.map(\.href))
        var state = CollectionSyncState(syncToken: tags.syncToken, ctag: tags.ctag)
        for object in objects { state.etags[object.href] = object.etag }
        return CollectionChanges(
            changed: objects.filter { $0.etag == nil || known.etags[$0.href] != $0.etag },
            removed: known.etags.keys.filter { !listed.contains($0) }.sorted(),
            state: state, method: .fullListing)
    }

    private func compareTags(_ collection: URL, known: CollectionSyncState, checkCtag: Bool) async throws(CalDAVError)
        -> CollectionChanges
    {
        if checkCtag, let knownCtag = known.ctag {
            let tags = try await collectionTags(of: collection)
            if tags.ctag == knownCtag {
                return CollectionChanges(changed: [], removed: [], state: known, method: .ctagUnchanged)
            }
        }
        let listing = try await listEntityTags(in: collection)
        let toFetch = listing.etags.filter { known.etags[$0.key] != $0.value }.keys.sorted()
        let fetched = try await fetchIfAny(toFetch, in: collection)
        var state = CollectionSyncState(syncToken: listing.syncToken, ctag: listing.ctag, etags: listing.etags)
        for object in fetched.objects { state.etags[object.href] = object.etag }
        for href in fetched.missing { state.etags[href] = nil }
        let removed = known.etags.keys.filter { listing.etags[$0] == nil }.sorted() + fetched.missing
        return CollectionChanges(changed: fetched.objects, removed: removed, state: state, method: .etagComparison)
    }

    // MARK: - Objects

    /// The href under which a new task with this UID is created in `collection`: the UID itself
    /// when it is a safe file name, else a cleaned name with a hash of the UID. The name is
    /// deterministic, so that a sync interrupted after its PUT meets its own object (412 on
    /// `If-None-Match: *`) instead of making a duplicate.
    public static func objectHref(forUID uid: String, in collection: URL) -> DAVHref {
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.@+")
        var name = String(uid.prefix(120).map { allowed.contains($0) ? $0 : "_" })
        if name != uid || name.isEmpty || name.hasPrefix(".") {
            name = "\(name.prefix(60))-\(String(FNV1a.value(of: uid.utf8), radix: 16))"
        }
        let base = DAVHref(serverHref: collection.absoluteString, relativeTo: collection)?.asCollection ?? DAVHref(path: "/")
        return DAVHref(path: base.path + name + ".ics")
    }

    /// `GET` of one object: its exact text and entity tag.
    public func object(at href: DAVHref, in collection: URL) async throws(CalDAVError) -> CalendarObject {
        let (response, finalURL) = try await exchange("GET", href.url(on: collection), headers: [("Accept", "text/calendar")])
        try check(response, "GET", finalURL, accepting: [200])
        return CalendarObject(href: href, etag: response.header("ETag").flatMap(EntityTag.normalize), data: Self.text(of: response.body))
    }

    /// The text of an iCalendar body. A client that folded a line inside a UTF-8 sequence (RFC 5545
    /// §3.1 allows it, and asks readers to mend it) sent bytes that are not UTF-8 until unfolded:
    /// they are unfolded first, since decoded as they are, "é" came back as "��" at the next write.
    static func text(of body: Data) -> String {
        if let text = String(validating: body, as: UTF8.self) { return text }
        var unfolded = [UInt8]()
        unfolded.reserveCapacity(body.count)
        var index = body.startIndex
        while index < body.endIndex {
            let byte = body[index]
            // CRLF or LF, then a space or a tab: a fold.
            let next = index + 1 < body.endIndex ? body[index + 1] : nil
            let lineEnd = byte == 0x0D && next == 0x0A ? 2 : byte == 0x0A ? 1 : 0
            if lineEnd > 0, index + lineEnd < body.endIndex, [0x20, 0x09].contains(body[index + lineEnd]) {
                index += lineEnd + 1
                continue
            }
            unfolded.append(byte)
            index += 1
        }
        return String(decoding: unfolded, as: UTF8.self)
    }

    /// Creates an object that must not exist yet (`PUT` with `If-None-Match: *`) and returns its
    /// new entity tag, fetched with a GET when the server's answer has none (RFC 4791 §5.3.4 lets
    /// a server that rewrote the data leave it out); `nil` when the object read back is not what
    /// was sent.
    ///
    /// Throws ``CalDAVError/Code/preconditionFailed`` when something is already there.
    public func create(_ data: String, at href: DAVHref, in collection: URL) async throws(CalDAVError) -> String? {
        try await put(data, at: href, in: collection, condition: ("If-None-Match", "*"))
    }

    /// Replaces an object only if it is still at `etag` (`PUT` with `If-Match`), and returns
    /// its new entity tag as ``create(_:at:in:)`` does.
    ///
    /// Throws ``CalDAVError/Code/preconditionFailed`` when it changed or was deleted meanwhile.
    public func update(_ data: String, at href: DAVHref, in collection: URL, ifMatch etag: String) async throws(CalDAVError)
        -> String?
    {
        try await put(data, at: href, in: collection, condition: ("If-Match", EntityTag.normalize(etag) ?? etag))
    }

    private func put(_ data: String, at href: DAVHref, in collection: URL, condition: (String, String)) async throws(CalDAVError)
        -> String?
    {
        let (response, finalURL) = try await exchange(
            "PUT", href.url(on: collection), headers: [("Content-Type", "text/calendar; charset=utf-8"), condition],
            body: Data(data.utf8))
        try check(response, "PUT", finalURL, accepting: [200, 201, 204])
        if let etag = response.header("ETag").flatMap(EntityTag.normalize), !etag.hasPrefix("W/") {
            return etag
        }
        // The object read back holds what was sent only if no other client wrote it since: its
        // tag, taken for ours, would hide that write for good. Otherwise (or when the server
        // rewrote the data) no tag: the next sync reads the object.
        let stored = try await object(at: href, in: collection)
        return stored.data == data ? stored.etag : nil
    }

    /// Deletes an object, only if it is still at `etag` when one is given (`DELETE` with
    /// `If-Match`). An object that is already gone counts as deleted.
    ///
    /// Throws ``CalDAVError/Code/preconditionFailed`` when it changed meanwhile.
    public func delete(at href: DAVHref, in collection: URL, ifMatch etag: String?) async throws(CalDAVError) {
        var headers: [(name: String, value: String)] = []
        if let etag { headers.append(("If-Match", EntityTag.normalize(etag) ?? etag)) }
        let (response, finalURL) = try await exchange("DELETE", href.url(on: collection), headers: headers)
        if response.status == 404 || response.status == 410 { return }
        try check(response, "DELETE", finalURL, accepting: [200, 202, 204])
    }

    /// Everything in a collection (`PROPFIND Depth: 1`): every member's href, objects and
    /// collections alike, and the collection's own entity tag when the server gives one.
    public func collectionContents(at collection: URL) async throws(CalDAVError) -> (members: [DAVHref], etag: String?) {
        let (status, finalURL) = try await propfind(collection, depth: "1", ["d:getetag", "d:resourcetype"])
        let collectionHref = DAVHref(serverHref: finalURL.absoluteString, relativeTo: finalURL)?.asCollection
        var members: [DAVHref] = []
        var etag: String?
        for response in status.responses {
            guard let raw = response.hrefs.first, let href = DAVHref(serverHref: raw, relativeTo: finalURL) else { continue }
            if href.asCollection == collectionHref {
                // (a weak tag never matches an If-Match, RFC 9110 §13.1.1: none is sent then)
                etag = response.property(DAVNamespace.dav, "getetag")?.trimmedText.flatMap(EntityTag.normalize).flatMap { $0.hasPrefix("W/") ? nil : $0 }
            } else {
                members.append(href)
            }
        }
        return (members, etag)
    }

    /// Deletes a whole collection (`DELETE` on its URL, RFC 4918 §9.6.1), with everything in it;
    /// with `If-Match` when `etag` is given. One that is gone already counts as deleted.
    ///
    /// Throws ``CalDAVError/Code/preconditionFailed`` when it changed meanwhile.
    public func deleteCollection(at collection: URL, ifMatch etag: String?) async throws(CalDAVError) {
        let (response, finalURL) = try await exchange("DELETE", collection, headers: etag.map { [("If-Match", $0)] } ?? [])
        if response.status == 404 || response.status == 410 { return }
        try check(response, "DELETE", finalURL, accepting: [200, 202, 204])
    }

    // MARK: - HTTP

    private static let xmlContentType = (name: "Content-Type", value: "application/xml; charset=utf-8")

    private func propfind(_ url: URL, depth: String, _ properties: [String]) async throws(CalDAVError)
        -> (Multistatus, URL)
    {
        let (response, finalURL) = try await exchange(
            "PROPFIND", url, depth: depth, headers: [Self.xmlContentType], body: DAVRequestBody.propfind(properties))
        try check(response, "PROPFIND", finalURL, accepting: [207])
        return (try multistatus(response, "PROPFIND", finalURL), finalURL)
    }

    /// Sends a request, following redirects (method and body kept, as WebDAV clients do), and
    /// returns the final response with the URL that gave it.
    ///
    /// Credentials go to the account's origin, and to other origins only over HTTPS from an HTTPS
    /// account (iCloud's principal lives on another host); a redirect from HTTPS to HTTP is refused.
    private func exchange(
        _ method: String, _ url: URL, depth: String? = nil, headers: [(name: String, value: String)] = [],
        body: Data? = nil
    ) async throws(CalDAVError) -> (DAVResponse, URL) {
        try Self.validate(url)
        var current = url
        var visited: Set<String> = [url.absoluteString]
        for _ in 0...configuration.maximumRedirects {
            var request = DAVRequest(method: method, url: current, headers: headers, body: body)
            if let depth { request.headers.append(("Depth", depth)) }
            if let credentials, mayReceiveCredentials(current) {
                request.headers.append(("Authorization", credentials.basicAuthorization))
            }
            let response = try await transport.send(request)
            guard [301, 302, 303, 307, 308].contains(response.status) else { return (response, current) }
            guard let location = response.header("Location"),
                let next = URL(string: location, relativeTo: current)?.absoluteURL,
                next.scheme == "https" || next.scheme == "http", next.host != nil
            else {
                throw CalDAVError(
                    .badRedirect, "The server redirected to an unusable address.", method: method, url: current,
                    status: response.status)
            }
            if current.scheme == "https" && next.scheme == "http" {
                throw CalDAVError(
                    .badRedirect, "The server redirected from HTTPS to plain HTTP; refusing to follow.", method: method,
                    url: current, status: response.status)
            }
            guard visited.insert(next.absoluteString).inserted else {
                throw CalDAVError(.badRedirect, "The server's redirects form a loop.", method: method, url: current)
            }
            logger.debug(
                "following redirect",
                metadata: ["from": "\(CalDAVError.redactForLog(current))", "to": "\(CalDAVError.redactForLog(next))"])
            current = next
        }
        throw CalDAVError(
            .badRedirect, "The server redirected more than \(configuration.maximumRedirects) times.", method: method,
            url: url)
    }

    private func mayReceiveCredentials(_ url: URL) -> Bool {
        if Self.origin(url) == Self.origin(accountURL) { return true }
        return url.scheme == "https" && accountURL.scheme == "https"
    }

    private static func origin(_ url: URL) -> String {
        let scheme = url.scheme?.lowercased() ?? ""
        let port = url.port ?? (scheme == "https" ? 443 : 80)
        return "\(scheme)://\(url.host?.lowercased() ?? ""):\(port)"
    }

    private static func validate(_ url: URL) throws(CalDAVError) {
        guard url.scheme == "https" || url.scheme == "http", let host = url.host, !host.isEmpty else {
            throw CalDAVError(.invalidURL, "The address \(CalDAVError.redact(url)) is not an http or https URL.", url: url)
        }
    }

    /// The error for a 401 at `url`: a wrong user name or password, unless the account has none
    /// to send, or a redirect led to an origin that the password is not sent to.
    private func unauthorized(at url: URL, _ fail: (CalDAVError.Code, String) -> CalDAVError) -> CalDAVError {
        guard let credentials else {
            return fail(.authenticationFailed, "The server asks for a user name and password, and the account has no user.")
        }
        guard mayReceiveCredentials(url) else {
            let origin = Self.origin(url)
            return fail(.badRedirect, "The server redirected to \(origin) over plain HTTP, where the password is not sent.")
        }
        guard !credentials.password.isEmpty else {
            return fail(.authenticationFailed, "The server asks for a password, and the account has none (no password_file or password_command).")
        }
        return fail(.authenticationFailed, "The server rejected the user name or password.")
    }

    /// Throws the typed error for any status not in `accepting`.
    private func check(_ response: DAVResponse, _ method: String, _ url: URL, accepting: Set<Int>) throws(CalDAVError) {
        guard !accepting.contains(response.status) else { return }
        let status = response.status
        func fail(_ code: CalDAVError.Code, _ message: String) -> CalDAVError {
            CalDAVError(code, message, method: method, url: url, status: status)
        }
        let conditions = davErrorConditions(in: response.body)
        if conditions.contains(where: { $0.namespace == DAVNamespace.dav && $0.name == "valid-sync-token" }) {
            throw fail(.invalidSyncToken, "The server no longer accepts the stored sync-token.")
        }
        if conditions.contains(where: { $0.namespace == DAVNamespace.dav && $0.name == "supported-report" }) {
            throw fail(.notSupported, "The server does not support this REPORT here.")
        }
        switch status {
        case 401: throw unauthorized(at: url, fail)
        case 403: throw fail(.forbidden, "The server does not allow this (403 Forbidden).")
        case 404, 410: throw fail(.notFound, "The server has nothing at this address.")
        case 405, 501: throw fail(.notSupported, "The server does not support \(method) here.")
        case 409: throw fail(.conflict, "The server refused \(method) as conflicting with the current state.")
        case 412: throw fail(.preconditionFailed, "The object changed on the server meanwhile.")
        case 429:
            // Rate limiting is no failure ("the server failed", helper-107); the wait it asks for is said.
            let wait = response.header("Retry-After").flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }.map { " and to wait \($0) s" } ?? ""
            throw fail(.serverError, "The server asks for fewer requests (HTTP 429)\(wait); try again later.")
        case 408, 423, 425, 500...599: throw fail(.serverError, "The server failed (HTTP \(status)); try again later.")
        case 200...299 where accepting == [207]:
            // A success without the Multi-Status that a PROPFIND or a REPORT answers with:
            // "answered with HTTP 200" read as if all was well.
            throw fail(.unexpectedStatus, "The server answered \(method) with HTTP \(status) where WebDAV answers 207, so its answer cannot be read.")
        default: throw fail(.unexpectedStatus, "The server answered \(method) with HTTP \(status).")
        }
    }

    private func multistatus(_ response: DAVResponse, _ method: String, _ url: URL) throws(CalDAVError) -> Multistatus {
        do throws(XMLParseFailure) {
            return try Multistatus(parsing: response.body)
        } catch {
            throw CalDAVError(
                .malformedResponse, "The server's \(method) answer was not valid WebDAV XML (\(error.description)).",
                method: method, url: url, status: response.status, cause: error)
        }
    }

    /// The URL in a property's `DAV:href` child, resolved against the URL that answered.
    private static func hrefURL(in property: XMLNode, relativeTo base: URL) -> URL? {
        guard let raw = property.child(DAVNamespace.dav, "href")?.trimmedText else { return nil }
        return URL(string: raw, relativeTo: base)?.absoluteURL
    }
}
