public import HTTPTypes
public import Hummingbird

/// One cached response body with everything HTTP caching needs: its media type, length and strong
/// ETag. Made once per change and then answered many times, so its headers are computed once too.
public struct Representation: Sendable {
    /// The bytes, shared (a `ByteBuffer` is copy-on-write: answering does not copy them).
    public let body: ByteBuffer
    /// The content hash; `hash.entityTag` is the ETag.
    public let hash: ContentHash
    /// `Content-Type`, `Content-Length` and `ETag`, ready to send.
    public let headers: HTTPFields

    /// Wraps `body` of media type `contentType`.
    public init(body: ByteBuffer, contentType: String) {
        self.body = body
        hash = ContentHash(of: body)
        var headers = HTTPFields()
        headers.reserveCapacity(6)
        headers[.contentType] = contentType
        headers[.contentLength] = String(body.readableBytes)
        headers[.eTag] = hash.entityTag
        self.headers = headers
    }

    /// Wraps UTF-8 `text` of media type `contentType`.
    public init(text: String, contentType: String) {
        self.init(body: ByteBuffer(string: text), contentType: contentType)
    }

    /// The answer to a GET (or HEAD, which Hummingbird derives from it by dropping the body):
    /// 200 with the bytes, or 304 with no body when `If-None-Match` names our ETag.
    ///
    /// - Parameter maxAge: seconds a client may reuse the bytes without asking again.
    public func response(to request: Request, maxAge: Int) -> Response {
        let cacheControl = "max-age=\(max(0, maxAge))"
        if Self.ifNoneMatch(request.headers[values: .ifNoneMatch], matches: hash.entityTag) {
            // RFC 9110 §15.4.5: a 304 carries the validators and Cache-Control a 200 would have.
            // Hummingbird's `Request.ifNoneMatch` helper adds `Content-Length: 0`, which §8.6
            // forbids on a 304 (it must equal the 200's length or be absent): build it ourselves.
            var response = Response(status: .notModified, headers: [.eTag: hash.entityTag, .cacheControl: cacheControl])
            response.headers[.contentLength] = nil
            return response
        }
        var headers = headers
        headers[.cacheControl] = cacheControl
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: body))
    }

    /// An answer with `status` (503, or 200 for a client that shows nothing else) that carries
    /// these bytes (an image of the failure, for a dashboard that shows whatever it gets): never
    /// cached, and asked again in a few seconds.
    public func unavailableResponse(status: HTTPResponse.Status) -> Response {
        var headers = headers
        headers[.eTag] = nil
        headers[.cacheControl] = "no-store"
        headers[.retryAfter] = "5"
        return Response(status: status, headers: headers, body: .init(byteBuffer: body))
    }

    /// RFC 9110 §13.1.2: `*`, or a list of entity tags compared weakly (`W/"x"` matches `"x"`).
    static func ifNoneMatch(_ fieldValues: [String], matches entityTag: String) -> Bool {
        for fieldValue in fieldValues {
            for member in fieldValue.split(separator: ",") {
                var tag = member.drop(while: { $0 == " " || $0 == "\t" })
                while let last = tag.last, last == " " || last == "\t" { tag = tag.dropLast() }
                if tag == "*" { return true }
                if tag.hasPrefix("W/") { tag = tag.dropFirst(2) }
                if tag == entityTag[...] { return true }
            }
        }
        return false
    }
}
