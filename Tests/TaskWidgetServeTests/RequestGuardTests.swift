import HTTPTypes
import NIOCore
import NIOEmbedded
import NIOHTTPTypes
import Testing

@testable import TaskWidgetServe
@testable import TaskWidgetTestSupport

/// ``RequestGuardHandler``'s limits on a channel whose clock the test moves: when a connection is
/// cut, to the nanosecond, without a real socket or a busy machine's delays (LimitTests attacks the
/// whole server over real sockets).
@Suite struct RequestGuardTests {
    func channel(bodyTimeout: Duration = .seconds(1)) throws -> EmbeddedChannel {
        var limits = ServeLimits()
        limits.bodyTimeout = bodyTimeout
        let channel = EmbeddedChannel()
        try channel.pipeline.syncOperations.addHandler(RequestGuardHandler(limits: limits, logger: quietLogger))
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
        return channel
    }

    func post(contentLength: Int) -> HTTPRequestPart {
        .head(HTTPRequest(method: .post, scheme: nil, authority: "x", path: "/api/log", headerFields: [.contentLength: "\(contentLength)"]))
    }

    @Test func aBodyStillComingAtTheBodyTimeoutIsCutThen() throws {
        let channel = try channel()
        try channel.writeInbound(post(contentLength: 100))
        for _ in 0..<9 {
            channel.embeddedEventLoop.advanceTime(by: .milliseconds(100))
            try channel.writeInbound(HTTPRequestPart.body(ByteBuffer(string: "x")))
        }
        channel.embeddedEventLoop.advanceTime(by: .nanoseconds(99_999_999))
        #expect(channel.isActive, "cut before the body timeout")
        channel.embeddedEventLoop.advanceTime(by: .nanoseconds(1))
        #expect(!channel.isActive, "a steady trickle kept the connection past the body timeout")
    }

    /// A body too large, declared or sent, is logged as the other refusals are (a 413 left no
    /// line: helper-83).
    @Test func aBodyTooLargeIsLogged() throws {
        let log = LogRecorder()
        for declared in [true, false] {
            let channel = EmbeddedChannel()
            try channel.pipeline.syncOperations.addHandler(RequestGuardHandler(limits: ServeLimits(), logger: log.logger))
            try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
            let size = ServeLimits().maximumBodySize + 1
            try channel.writeInbound(post(contentLength: declared ? size : 1))
            if !declared { try channel.writeInbound(HTTPRequestPart.body(ByteBuffer(repeating: 0x78, count: size))) }
        }
        #expect(log.logged == ["refused a request whose body is too large", "closed a connection: its request body grew past the limit"])
    }

    @Test func aBodyThatEndsInTimeIsNotCut() throws {
        let channel = try channel()
        try channel.writeInbound(post(contentLength: 1))
        try channel.writeInbound(HTTPRequestPart.body(ByteBuffer(string: "x")))
        try channel.writeInbound(HTTPRequestPart.end(nil))
        channel.embeddedEventLoop.advanceTime(by: .seconds(5))
        #expect(channel.isActive)
        _ = try channel.finish()
    }
}
