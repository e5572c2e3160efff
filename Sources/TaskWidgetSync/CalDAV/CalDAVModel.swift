public import Foundation

/// The path of a resource on the CalDAV server: the key under which sync remembers an object.
///
/// Servers write hrefs as absolute paths (`/alice/tasks/1.ics`), sometimes as full URLs, and
/// percent-encode them more or less eagerly; a `DAVHref` keeps the percent-decoded absolute path,
/// so that two spellings of one resource compare equal. The host is not part of it: every object
/// of a collection lives on the collection's origin.
///
/// ```swift
/// let href = DAVHref(path: "/alice/tasks/a b.ics")
/// href.url(on: URL(string: "https://dav.example.com/")!)  // https://dav.example.com/alice/tasks/a%20b.ics
/// ```
public struct DAVHref: Hashable, Comparable, Sendable, Codable, CodingKeyRepresentable, CustomStringConvertible {
    /// The percent-decoded absolute path, always starting with `/`.
    public let path: String

    /// Creates an href from a decoded absolute path (a missing leading `/` is added).
    public init(path: String) {
        self.path = path.hasPrefix("/") ? path : "/" + path
    }

    /// Parses an href as a server wrote it in a multistatus (a path or a full URL, relative ones
    /// resolved against `base`), or returns `nil` when it is not a usable URL reference.
    public init?(serverHref: String, relativeTo base: URL) {
        let trimmed = serverHref.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty, let url = URL(string: trimmed, relativeTo: base)?.absoluteURL,
            let components = URLComponents(url: url, resolvingAgainstBaseURL: true)
        else { return nil }
        let encoded = components.percentEncodedPath
        self.init(path: encoded.removingPercentEncoding ?? encoded)
    }

    /// The same path encoded for a request line or a `DAV:href` element.
    public var percentEncodedPath: String {
        path.split(separator: "/", omittingEmptySubsequences: false)
            .map { $0.addingPercentEncoding(withAllowedCharacters: Self.segmentCharacters) ?? String($0) }
            .joined(separator: "/")
    }

    /// The resource's URL on the origin (scheme, host, port) of `base`.
    public func url(on base: URL) -> URL {
        var components = URLComponents()
        components.scheme = base.scheme
        components.host = base.host
        components.port = base.port
        components.percentEncodedPath = percentEncodedPath
        // A percent-encoded path of ours always makes a valid URL with the base's valid origin.
        return components.url ?? base
    }

    /// The last path segment, e.g. `1.ics`.
    public var lastComponent: String {
        path.split(separator: "/").last.map(String.init) ?? ""
    }

    /// Whether this href names a collection (ends with `/`).
    public var isCollection: Bool { path.hasSuffix("/") }

    /// An href with a trailing `/`, as collection hrefs are compared.
    public var asCollection: DAVHref { isCollection ? self : DAVHref(path: path + "/") }

    public static func < (lhs: DAVHref, rhs: DAVHref) -> Bool { lhs.path < rhs.path }
    public var description: String { path }

    public init(from decoder: any Decoder) throws {
        self.init(path: try decoder.singleValueContainer().decode(String.self))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(path)
    }

    public var codingKey: any CodingKey { PathKey(stringValue: path) }

    public init?<T: CodingKey>(codingKey: T) { self.init(path: codingKey.stringValue) }

    private struct PathKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// RFC 3986 `pchar` less `%`: unreserved, sub-delims, `:` and `@`.
    private static let segmentCharacters = CharacterSet(
        charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~!$&'()*+,;=:@")
}

/// An entity tag as sent in `ETag`, `DAV:getetag`, `If-Match`: quotes included (`"abc"`), weak
/// ones with their `W/` prefix. Values that a lax server sends unquoted are quoted, so that the
/// tag of a PUT response and of a later PROPFIND compare equal.
public enum EntityTag {
    /// The normalized form of a tag, or `nil` for an empty one.
    public static func normalize(_ raw: String) -> String? {
        let tag = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        if tag.isEmpty { return nil }
        if tag.hasPrefix("\"") || tag.hasPrefix("W/\"") { return tag }
        return "\"\(tag)\""
    }
}

/// A calendar collection (RFC 4791 §4.2) as discovery lists it.
public struct CalendarCollection: Hashable, Sendable, Codable {
    /// The collection's URL, ending with `/`.
    public var url: URL
    /// `DAV:displayname`, the list's name; `nil` when the server has none.
    public var displayName: String?
    /// `ICAL:calendar-color` as the server stores it (`#RRGGBB` or `#RRGGBBAA`).
    public var color: String?
    /// `ICAL:calendar-order`, the list's place among the others (Apple's clients write it).
    public var order: Int?
    /// taskwidget's `list-created` dead property (ISO 8601): when the list was made, on the
    /// store that made the collection.
    public var listCreated: String?
    /// The component names of `CALDAV:supported-calendar-component-set` (`VEVENT`, `VTODO`, …),
    /// or `nil` when the server does not say, which RFC 4791 §5.2.3 reads as "any".
    public var supportedComponents: [String]?
    /// `CS:getctag`: changes whenever anything in the collection changes (not in any RFC).
    public var ctag: String?
    /// `DAV:sync-token` (RFC 6578); `nil` when the server does not support sync-collection here.
    public var syncToken: String?

    /// Whether tasks (`VTODO`) may be stored here.
    public var allowsTasks: Bool { supportedComponents?.contains("VTODO") ?? true }

    /// Whether nothing but tasks may be stored here: a task list, not a calendar that may also hold
    /// events.
    public var holdsOnlyTasks: Bool { supportedComponents == ["VTODO"] }

    /// The collection's href (path on the server).
    public var href: DAVHref { (DAVHref(serverHref: url.absoluteString, relativeTo: url) ?? DAVHref(path: "/")).asCollection }

    public init(
        url: URL, displayName: String? = nil, color: String? = nil, order: Int? = nil, listCreated: String? = nil,
        supportedComponents: [String]? = nil, ctag: String? = nil, syncToken: String? = nil
    ) {
        self.url = url
        self.displayName = displayName
        self.color = color
        self.order = order
        self.listCreated = listCreated
        self.supportedComponents = supportedComponents
        self.ctag = ctag
        self.syncToken = syncToken
    }
}

/// What discovery found for an account: its principal, its calendar home and the calendars in it.
public struct CalendarHome: Hashable, Sendable {
    /// The principal (`DAV:current-user-principal`), when the server names one.
    public var principal: URL?
    /// The calendar home (`CALDAV:calendar-home-set`), where new collections are made; or the
    /// one calendar the account's URL names (``isOneCalendar``).
    public var url: URL
    /// Every calendar collection in the home, tasks or not, in the server's order.
    public var collections: [CalendarCollection]
    /// Whether the account's URL names one calendar, as a calendar's own link does: then it is
    /// the only collection synced, and none is made.
    public var isOneCalendar: Bool

    /// The collections that may hold tasks: each is one list of taskwidget.
    public var taskCollections: [CalendarCollection] { collections.filter(\.allowsTasks) }

    public init(principal: URL?, url: URL, collections: [CalendarCollection], isOneCalendar: Bool = false) {
        self.principal = principal
        self.url = url
        self.collections = collections
        self.isOneCalendar = isOneCalendar
    }
}

/// A calendar object resource: one `.ics` file on the server, whose text is opaque here.
public struct CalendarObject: Hashable, Sendable {
    /// Where it lives.
    public var href: DAVHref
    /// Its entity tag (normalized, quotes included), for `If-Match` on the next write.
    public var etag: String?
    /// The iCalendar text. From a REPORT it has gone through an XML parser, which turns CRLF line
    /// ends into LF (XML 1.0 §2.11); from a GET it is byte for byte what the server sent.
    public var data: String

    public init(href: DAVHref, etag: String?, data: String) {
        self.href = href
        self.etag = etag
        self.data = data
    }
}

/// What sync remembers about one collection between runs: persist it after the changes of a
/// ``CollectionChanges`` have been applied locally, never before, so that an interrupted sync
/// fetches the same changes again instead of losing them.
public struct CollectionSyncState: Hashable, Sendable, Codable {
    /// The last `DAV:sync-token`; `nil` before the first sync or when the server has none.
    public var syncToken: String?
    /// The last `CS:getctag`.
    public var ctag: String?
    /// The entity tag of every object known on the server, by href.
    public var etags: [DAVHref: String]

    public init(syncToken: String? = nil, ctag: String? = nil, etags: [DAVHref: String] = [:]) {
        self.syncToken = syncToken
        self.ctag = ctag
        self.etags = etags
    }
}

/// The result of ``CalDAVClient/pullChanges(in:since:)``: what changed on the server.
public struct CollectionChanges: Sendable {
    /// How the changes were found.
    public enum Method: String, Sendable, Hashable {
        /// `REPORT sync-collection` with the stored token (RFC 6578).
        case syncCollection
        /// A full listing (`REPORT calendar-query` for VTODO): the first sync, or the stored
        /// sync-token was no longer valid.
        case fullListing
        /// `CS:getctag` was unchanged: nothing to do (server without sync-collection).
        case ctagUnchanged
        /// `PROPFIND Depth: 1` of every `DAV:getetag`, compared with the known ones.
        case etagComparison
    }

    /// New or modified objects, with their text and entity tag.
    public var changed: [CalendarObject]
    /// Objects that no longer exist on the server (their local tasks get tombstones).
    public var removed: [DAVHref]
    /// The state to persist once `changed` and `removed` are applied locally.
    public var state: CollectionSyncState
    /// How the changes were found.
    public var method: Method

    /// Whether nothing changed.
    public var isEmpty: Bool { changed.isEmpty && removed.isEmpty }

    public init(changed: [CalendarObject], removed: [DAVHref], state: CollectionSyncState, method: Method) {
        self.changed = changed
        self.removed = removed
        self.state = state
        self.method = method
    }
}

/// A user name and password for HTTP Basic authentication.
///
/// Its `description` never shows the password, so it can be interpolated into logs safely.
public struct CalDAVCredentials: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable
{
    public var username: String
    public var password: String

    public init(username: String, password: String) {
        self.username = username
        self.password = password
    }

    /// The value of the `Authorization` header.
    var basicAuthorization: String {
        "Basic " + Data("\(username):\(password)".utf8).base64EncodedString()
    }

    public var description: String { "\(username):<redacted>" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: ["username": username, "password": "<redacted>"]) }
}
