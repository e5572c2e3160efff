import Foundation
import TaskWidgetCore
#if canImport(FoundationXML)
    import FoundationXML
#endif

/// The XML namespaces of WebDAV, CalDAV and their common extensions.
enum DAVNamespace {
    static let dav = "DAV:"
    static let caldav = "urn:ietf:params:xml:ns:caldav"
    /// Apple's CalendarServer extensions: `getctag`.
    static let calendarServer = "http://calendarserver.org/ns/"
    /// Apple's iCal extensions: `calendar-color`, `calendar-order`.
    static let appleICal = "http://apple.com/ns/ical/"

    /// taskwidget's own dead properties on collections it makes: `list-created`, so that another
    /// store syncing the same server gives the list the same creation time.
    static let taskwidget = "urn:taskwidget:caldav"

    /// The prefixes our request bodies declare on their root element.
    static let declarations =
        #"xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav" "#
        + #"xmlns:cs="http://calendarserver.org/ns/" xmlns:ical="http://apple.com/ns/ical/" xmlns:tw="urn:taskwidget:caldav""#
}

/// An element of a parsed XML document, namespaces resolved.
struct XMLNode: Sendable, Hashable {
    var namespace: String
    var name: String
    var attributes: [String: String]
    var children: [XMLNode]
    /// The concatenated character data directly inside this element.
    var text: String

    func `is`(_ namespace: String, _ name: String) -> Bool { self.namespace == namespace && self.name == name }

    /// The first child with that name.
    func child(_ namespace: String, _ name: String) -> XMLNode? { children.first { $0.is(namespace, name) } }

    /// Every child with that name.
    func children(_ namespace: String, _ name: String) -> [XMLNode] { children.filter { $0.is(namespace, name) } }

    /// The text with surrounding white space removed, or `nil` when empty.
    var trimmedText: String? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        return trimmed.isEmpty ? nil : trimmed
    }

    /// Parses a whole document with FoundationXML's `XMLParser` (libxml2's SAX parser) with
    /// namespace processing on and external entities off.
    static func parse(_ data: Data) throws(XMLParseFailure) -> XMLNode {
        let builder = TreeBuilder()
        let parser = XMLParser(data: data)
        parser.shouldProcessNamespaces = true
        parser.shouldReportNamespacePrefixes = false
        parser.shouldResolveExternalEntities = false
        parser.delegate = builder
        let ok = parser.parse()
        if let failure = builder.failure { throw failure }
        guard ok, let root = builder.root else {
            throw XMLParseFailure(
                // Foundation's own text names its error domain ("NSXMLParserErrorDomain error 5").
                description: parser.parserError.map { "not well-formed XML (libxml2 error \(($0 as NSError).code))" }
                    ?? "not a complete XML document",
                line: parser.lineNumber)
        }
        return root
    }
}

/// Why an XML body could not be parsed; carries no document text.
struct XMLParseFailure: Error, Sendable, CustomStringConvertible {
    var description: String
    var line: Int
}

/// Builds an ``XMLNode`` tree from `XMLParser`'s events. Used by one parse on one thread only.
private final class TreeBuilder: NSObject, XMLParserDelegate {
    /// Deeper documents are refused: no DAV response nests this deep, and it bounds the stack.
    static let maximumDepth = 64

    var stack: [XMLNode] = []
    var root: XMLNode?
    var failure: XMLParseFailure?

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName qName: String?,
        attributes attributeDict: [String: String] = [:]
    ) {
        guard stack.count < Self.maximumDepth else {
            failure = XMLParseFailure(description: "XML nested too deeply", line: parser.lineNumber)
            parser.abortParsing()
            return
        }
        stack.append(
            XMLNode(namespace: namespaceURI ?? "", name: elementName, attributes: attributeDict, children: [], text: ""))
    }

    func parser(
        _ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?
    ) {
        guard let node = stack.popLast() else { return }
        if stack.isEmpty {
            root = node
        } else {
            stack[stack.count - 1].children.append(node)
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        guard !stack.isEmpty else { return }
        stack[stack.count - 1].text += string
    }

    func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {
        guard !stack.isEmpty else { return }
        stack[stack.count - 1].text += String(decoding: CDATABlock, as: UTF8.self)
    }
}

// MARK: - Multistatus (RFC 4918 §14.16)

/// A parsed `DAV:multistatus` body.
struct Multistatus: Sendable {
    /// One `DAV:response`.
    struct Response: Sendable {
        /// The `DAV:href`s as the server wrote them (one, except in some PROPFIND answers).
        var hrefs: [String]
        /// The response-level `DAV:status` (sync-collection's 404 for a removed member).
        var status: Int?
        var propstats: [PropStat]

        /// A property from a `200` propstat, or `nil` when absent or not found.
        func property(_ namespace: String, _ name: String) -> XMLNode? {
            for propstat in propstats where (200..<300).contains(propstat.status) {
                if let node = propstat.properties.first(where: { $0.is(namespace, name) }) { return node }
            }
            return nil
        }
    }

    /// One `DAV:propstat`.
    struct PropStat: Sendable {
        var status: Int
        var properties: [XMLNode]
    }

    var responses: [Response]
    /// The top-level `DAV:sync-token` of a sync-collection answer.
    var syncToken: String?

    /// Reads a multistatus document, or says why it is not one.
    init(parsing data: Data) throws(XMLParseFailure) {
        let root = try XMLNode.parse(data)
        guard root.is(DAVNamespace.dav, "multistatus") else {
            throw XMLParseFailure(description: "expected DAV:multistatus, found \(root.name)", line: 1)
        }
        responses = root.children(DAVNamespace.dav, "response").map { response in
            Response(
                hrefs: response.children(DAVNamespace.dav, "href").compactMap(\.trimmedText),
                status: response.child(DAVNamespace.dav, "status").flatMap { Self.statusCode($0.text) },
                propstats: response.children(DAVNamespace.dav, "propstat").map { propstat in
                    PropStat(
                        // A propstat without a readable status is treated as failed, never as 200.
                        status: propstat.child(DAVNamespace.dav, "status").flatMap { Self.statusCode($0.text) } ?? 0,
                        properties: propstat.child(DAVNamespace.dav, "prop")?.children ?? [])
                })
        }
        syncToken = root.child(DAVNamespace.dav, "sync-token")?.trimmedText
    }

    /// The code of a status line such as `HTTP/1.1 404 Not Found`.
    static func statusCode(_ line: String) -> Int? {
        let fields = line.split(separator: " ", omittingEmptySubsequences: true)
        guard fields.count >= 2, fields[0].hasPrefix("HTTP/") else { return nil }
        return Int(fields[1])
    }
}

/// The precondition or postcondition names of a `DAV:error` body (RFC 4918 §16), e.g.
/// `valid-sync-token`; empty when the body is not such a document.
func davErrorConditions(in data: Data) -> [(namespace: String, name: String)] {
    guard !data.isEmpty, let root = try? XMLNode.parse(data), root.is(DAVNamespace.dav, "error") else { return [] }
    return root.children.map { ($0.namespace, $0.name) }
}

// MARK: - Request bodies

/// The XML request bodies of the CalDAV operations. Values are escaped; hrefs percent-encoded.
enum DAVRequestBody {
    /// Escapes text for element content and attribute values.
    static func escape(_ text: String) -> String { text.markupEscaped() }

    private static let header = #"<?xml version="1.0" encoding="utf-8"?>"#

    /// `PROPFIND` for the given properties, e.g. `["d:getetag", "cs:getctag"]` (our prefixes).
    static func propfind(_ properties: [String]) -> Data {
        let props = properties.map { "<\($0)/>" }.joined()
        return Data("\(header)<d:propfind \(DAVNamespace.declarations)><d:prop>\(props)</d:prop></d:propfind>".utf8)
    }

    /// The properties discovery asks a principal or starting URL for.
    static let principalProperties = ["d:current-user-principal", "c:calendar-home-set", "d:resourcetype"]

    /// The properties listed for each collection of a calendar home. The ctag only when asked:
    /// Radicale computes it over every object, as it does the sync-token, so a listing with both
    /// costs twice as much on every sync, and a server with sync-tokens never needs it.
    static func collectionProperties(includingCtag: Bool) -> [String] {
        [
            "d:resourcetype", "d:displayname", "ical:calendar-color", "ical:calendar-order",
            "c:supported-calendar-component-set", "d:sync-token", "tw:list-created",
        ] + (includingCtag ? ["cs:getctag"] : [])
    }

    /// `REPORT calendar-query` for every VTODO, with entity tag and text (RFC 4791 §7.8).
    static let calendarQueryTasks = Data(
        (header + "<c:calendar-query \(DAVNamespace.declarations)>"
            + "<d:prop><d:getetag/><c:calendar-data/></d:prop>"
            + #"<c:filter><c:comp-filter name="VCALENDAR"><c:comp-filter name="VTODO"/></c:comp-filter></c:filter>"#
            + "</c:calendar-query>").utf8)

    /// `REPORT calendar-multiget` for the given hrefs (RFC 4791 §7.9).
    static func calendarMultiget(_ hrefs: [DAVHref]) -> Data {
        let list = hrefs.map { "<d:href>\(escape($0.percentEncodedPath))</d:href>" }.joined()
        return Data(
            (header + "<c:calendar-multiget \(DAVNamespace.declarations)>"
                + "<d:prop><d:getetag/><c:calendar-data/></d:prop>\(list)</c:calendar-multiget>").utf8)
    }

    /// `REPORT sync-collection` (RFC 6578 §3.2); an empty token asks for every member.
    static func syncCollection(token: String?) -> Data {
        let tokenElement = token.map { "<d:sync-token>\(escape($0))</d:sync-token>" } ?? "<d:sync-token/>"
        return Data(
            (header + "<d:sync-collection \(DAVNamespace.declarations)>\(tokenElement)"
                + "<d:sync-level>1</d:sync-level><d:prop><d:getetag/></d:prop></d:sync-collection>").utf8)
    }

    /// `MKCALENDAR` for a task list (RFC 4791 §5.3.1), with name, color and VTODO only.
    static func makeCalendar(displayName: String, color: String?, order: Int?, listCreated: String?) -> Data {
        var props = "<d:displayname>\(escape(displayName))</d:displayname>"
        if let color { props += "<ical:calendar-color>\(escape(color))</ical:calendar-color>" }
        if let order { props += "<ical:calendar-order>\(order)</ical:calendar-order>" }
        if let listCreated { props += "<tw:list-created>\(escape(listCreated))</tw:list-created>" }
        props += #"<c:supported-calendar-component-set><c:comp name="VTODO"/></c:supported-calendar-component-set>"#
        return Data(
            (header + "<c:mkcalendar \(DAVNamespace.declarations)><d:set><d:prop>\(props)</d:prop></d:set></c:mkcalendar>")
                .utf8)
    }
}
