import HTTPTypes
public import Logging
public import NIOCore
import NIOHTTP1
public import NIOHTTPTypes
import NIOHTTPTypesHTTP1

/// Per-connection limits that Hummingbird 2.28.1 does not offer, as a NIO handler placed with
/// `HTTP1Channel.Configuration(additionalChannelHandlers:)`, i.e. after the HTTP/1 decoder (it sees
/// `HTTPRequestPart`s) and before Hummingbird's connection-state handler and request loop.
///
/// - **Body size.** A declared `Content-Length` over the limit gets 413 at once, before the handler
///   sees the request; a chunked body that grows past it closes the connection. (Hummingbird's
///   `maxUploadSize` only limits what a handler chooses to collect, and after a response Hummingbird
///   *drains* any unread body, however large.)
/// - **Body time.** From head to end of body at most `bodyTimeout`, however steadily it trickles.
/// - **Malformed requests.** A head over the size limits, an unknown method, a request NIO cannot
///   parse, an HTTP/1.1 one without `Host` or any with two (``HostRequirementHandler``) gets a
///   one-line JSON error (431, 501 or 400) and the connection is closed. (Hummingbird answers
///   these with an empty 400.)
/// - **Write stall.** A socket that stays unwritable (the client reads nothing) for
///   `writeStallTimeout` is closed; otherwise a response or an `/events` stream would hold its
///   connection, and a connection slot, forever.
///
/// Slow *heads* are left to Hummingbird's `idleTimeout` (see ``ServeLimits/idleTimeout``).
public final class RequestGuardHandler: ChannelDuplexHandler, RemovableChannelHandler {
    public typealias InboundIn = HTTPRequestPart
    public typealias InboundOut = HTTPRequestPart
    public typealias OutboundIn = HTTPResponsePart
    public typealias OutboundOut = HTTPResponsePart

    private let maximumBodySize: Int
    private let bodyTimeout: TimeAmount
    private let writeStallTimeout: TimeAmount
    private let logger: Logger

    /// Requests whose head went up the pipeline and whose response has not ended.
    private var responsesPending = 0
    /// Whether a request's head went up and its end has not come yet.
    private var isInsideRequest = false
    private var bodyBytes = 0
    private var isRejecting = false
    /// A refusal to answer once the responses before it have ended.
    private var deferredRejection: ServeHTTPError?
    /// The answer being written says `Connection: close`: the connection ends after it.
    private var closesAfterAnswer = false
    private var bodyDeadline: Scheduled<Void>?
    private var stallDeadline: Scheduled<Void>?

    /// - Parameter logger: told (at `info`) of each connection cut for a limit.
    public init(limits: ServeLimits, logger: Logger) {
        maximumBodySize = limits.maximumBodySize
        bodyTimeout = TimeAmount(limits.bodyTimeout)
        writeStallTimeout = TimeAmount(limits.writeStallTimeout)
        self.logger = logger
    }

    public func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !isRejecting else { return }  // swallow the rest of a rejected connection
        switch unwrapInboundIn(data) {
        case .head(let head):
            bodyBytes = 0
            if let declared = head.headerFields[.contentLength].flatMap(Int.init), declared > maximumBodySize {
                // Logged as the other refusals are (it left no line: helper-83).
                logger.info("refused a request whose body is too large", metadata: ["status": "413"])
                reject(context: context, with: ServeHTTPError(.contentTooLarge, "request body too large"))
                return
            }
            // A coding other than chunked: the decoder read the request as one without a body, it
            // was answered, and then a second, empty 400 came (helper-136). RFC 9112 §6.1: 501.
            if let codings = head.headerFields[.transferEncoding], codings.lowercased() != "chunked" {
                logger.info("refused a request in a transfer coding it does not know", metadata: ["status": "501"])
                reject(context: context, with: ServeHTTPError(.notImplemented, "transfer coding not implemented: send a body as chunked or with Content-Length"))
                return
            }
            if head.headerFields.declaresBody {
                bodyDeadline = context.eventLoop.assumeIsolated().scheduleTask(in: bodyTimeout) { [context, logger] in
                    logger.info("closed a connection: its request body took longer than the body timeout")
                    context.close(promise: nil)
                }
            }
            responsesPending += 1
            isInsideRequest = true
        case .body(let buffer):
            bodyBytes += buffer.readableBytes
            if bodyBytes > maximumBodySize {
                // The handler already has this request: no clean answer is possible any more.
                logger.info("closed a connection: its request body grew past the limit")
                isRejecting = true
                context.close(promise: nil)
                return
            }
        case .end:
            isInsideRequest = false
            bodyDeadline?.cancel()
            bodyDeadline = nil
        }
        context.fireChannelRead(data)
    }

    /// A request that cannot be parsed, answered here when it is a new one. Inside a request whose
    /// answer is being made, Hummingbird ends the connection itself; inside one already answered
    /// (a 401 before its body came), the connection is closed: a second answer would confuse the
    /// client.
    public func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard !isRejecting else { return }  // what the decoder says of the bytes after its error
        guard responsesPending == 0, let answer = Self.answer(to: error) else {
            context.fireErrorCaught(error)
            return
        }
        guard !isInsideRequest else {
            isRejecting = true
            context.close(promise: nil)
            return
        }
        logger.info("refused a request it could not parse", metadata: ["status": "\(answer.status.code)"])
        reject(context: context, with: answer)
    }

    /// The answer to a request the HTTP/1 decoder or the conversion to HTTP types refused.
    static func answer(to error: any Error) -> ServeHTTPError? {
        switch error {
        case HTTPParserError.headerOverflow:
            ServeHTTPError(.requestHeaderFieldsTooLarge, "request head too large")
        case HTTPParserError.invalidMethod:
            ServeHTTPError(.notImplemented, "unknown method")
        case let conversion as HTTP1TypeConversionError where conversion == .invalidMethod:
            ServeHTTPError(.notImplemented, "unknown method")
        case let host as HostRequirementHandler.BadHost:
            ServeHTTPError(.badRequest, host.problem)
        case is HTTPParserError, is HTTP1TypeConversionError:
            ServeHTTPError(.badRequest, "malformed request")
        default:
            nil
        }
    }

    /// An answer that says `Connection: close` (a refused event stream) ends its connection:
    /// Hummingbird keeps one open unless the request said so, and refused stream clients held
    /// every connection of a server with few for 30 s (helper-149).
    public func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(let head):
            if head.headerFields[.connection]?.lowercased() == "close" { closesAfterAnswer = true }
            return context.write(data, promise: promise)
        case .body:
            return context.write(data, promise: promise)
        case .end:
            break
        }
        responsesPending -= 1
        guard !closesAfterAnswer else {
            isRejecting = true
            let written = context.eventLoop.makePromise(of: Void.self)
            written.futureResult.cascade(to: promise)
            context.writeAndFlush(data, promise: written)
            written.futureResult.assumeIsolated().whenComplete { _ in Self.closeLingering(context) }
            return
        }
        context.write(data, promise: promise)
        if responsesPending == 0, let error = deferredRejection {
            deferredRejection = nil
            writeRejection(context: context, error)
        }
    }

    public func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable {
            stallDeadline?.cancel()
            stallDeadline = nil
        } else if stallDeadline == nil {
            stallDeadline = context.eventLoop.assumeIsolated().scheduleTask(in: writeStallTimeout) { [context, logger] in
                logger.info("closed a connection: its client read nothing for the write-stall timeout")
                context.close(promise: nil)
            }
        }
        context.fireChannelWritabilityChanged()
    }

    public func handlerRemoved(context: ChannelHandlerContext) {
        bodyDeadline?.cancel()
        stallDeadline?.cancel()
    }

    public func channelInactive(context: ChannelHandlerContext) {
        bodyDeadline?.cancel()
        stallDeadline?.cancel()
        context.fireChannelInactive()
    }

    /// `error` and close. The response is written here, below Hummingbird, once no earlier
    /// (pipelined) response is still being written: the two would interleave, and closing at once
    /// lost the earlier answers (helper-137).
    private func reject(context: ChannelHandlerContext, with error: ServeHTTPError) {
        isRejecting = true
        guard responsesPending == 0 else {
            deferredRejection = error
            return
        }
        writeRejection(context: context, error)
    }

    private func writeRejection(context: ChannelHandlerContext, _ error: ServeHTTPError) {
        let body = ByteBuffer(string: error.jsonLine)
        let head = HTTPResponse(
            status: error.status,
            headerFields: [
                .contentType: "application/json; charset=utf-8",
                .contentLength: String(body.readableBytes),
                .connection: "close",
            ])
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.write(wrapOutboundOut(.body(body)), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil))).assumeIsolated().whenComplete { _ in Self.closeLingering(context) }
    }

    /// Closes our side only, and keeps reading (and dropping) for a moment: closing at once with
    /// the client's body still unread makes the kernel send RST, which can destroy the answer
    /// before the client reads it ("lingering close", RFC 9112 §9.6).
    private static func closeLingering(_ context: ChannelHandlerContext) {
        context.close(mode: .output, promise: nil)
        context.eventLoop.assumeIsolated().scheduleTask(in: .seconds(2)) {
            context.close(promise: nil)
        }
    }
}

@available(*, unavailable)
extension RequestGuardHandler: Sendable {}

extension HTTPFields {
    /// Whether a request with these fields has a body: chunked, or a Content-Length above 0.
    var declaresBody: Bool {
        self[.transferEncoding] != nil || (self[.contentLength].flatMap(Int.init) ?? 0) > 0
    }
}
