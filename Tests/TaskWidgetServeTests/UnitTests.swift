import Foundation
import HTTPTypes
import NIOCore
import Synchronization
import TaskWidgetConfig
import TaskWidgetCore
import TaskWidgetFormats
import TaskWidgetStore
import TaskWidgetWatch
import Testing

@testable import TaskWidgetServe
@testable import TaskWidgetTestSupport

@Suite struct ConstantTimeTests {
    @Test(arguments: [
        ("s3cret", "s3cret", true), ("s3cret", "s3creT", false), ("s3cret", "s3cre", false),
        ("s3cret", "s3cret!", false), ("s3cret", "", false), ("", "", true),
    ])
    func equals(secret: String, candidate: String, expected: Bool) {
        #expect(ConstantTime.equals(Array(secret.utf8), Array(candidate.utf8)) == expected)
    }

    @Test func equalsAnyChecksEverySecret() {
        let secrets = [Array("one".utf8), Array("two".utf8)]
        #expect(ConstantTime.equalsAny(secrets, "two".utf8))
        #expect(!ConstantTime.equalsAny(secrets, "three".utf8))
        #expect(!ConstantTime.equalsAny([], "x".utf8))
    }
}

@Suite struct WidgetRequestTests {
    @Test func familiesCanvasesAndParameters() throws {
        let medium = try WidgetImageSpec(name: "medium.png", query: [])
        #expect(medium == (try WidgetImageSpec(family: .medium)))
        let trmnl = try WidgetImageSpec(name: "800x480.bmp", query: [])
        #expect(trmnl.size == WidgetSize(width: 800, height: 480) && trmnl.family == .large && trmnl.format == .bmp)
        let query: [(key: Substring, value: Substring)] = [("scale", "2"), ("theme", "dark"), ("depth", "2"), ("rotate", "90"), ("v", "123")]
        let full = try WidgetImageSpec(name: "small.png", query: query)
        #expect(full == (try WidgetImageSpec(family: .small, scale: 2, theme: .dark, depth: 2, rotation: 90)))
    }

    /// `/widget/800x480.PNG` was a 404 (helper-165): the name reads in any case.
    @Test func aNameReadsInAnyCase() throws {
        #expect(try WidgetImageSpec(name: "800X480.PNG", query: []) == WidgetImageSpec(name: "800x480.png", query: []))
        #expect(try WidgetImageSpec(name: "Medium.Bmp", query: []) == WidgetImageSpec(name: "medium.bmp", query: []))
        // And the theme's value (helper-174).
        #expect(try WidgetImageSpec(name: "large.png", query: [("theme", "Dark")]) == WidgetImageSpec(family: .large, theme: .dark))
    }

    @Test(arguments: [
        "medium.gif", "huge.png", "800x.png", "x480.png", "800x480x2.png", "+800x480.png", "800x-480.png", "medium", "",
    ])
    func namesThatAreNoWidgetAreNotFound(name: String) {
        #expect(throws: ServeHTTPError.noSuchWidget) { try WidgetImageSpec(name: name[...], query: []) }
    }

    /// `?them=dark` drew the light image without a word; a cache buster (`?v=`, `?t=`) still passes.
    @Test func aMisspeltParameterIsRefusedAndOthersAreIgnored() throws {
        #expect(throws: ServeHTTPError(.badRequest, "unknown parameter them: did you mean theme?")) {
            try WidgetImageSpec(name: "large.png", query: [("them", "dark")])
        }
        #expect(throws: ServeHTTPError(.badRequest, "unknown parameter scal: did you mean scale?")) {
            try WidgetImageSpec(name: "large.png", query: [("scal", "2")])
        }
        for buster: Substring in ["v", "t", "_", "token", "cache"] {
            let query: [(key: Substring, value: Substring)] = [(buster, "1")]
            #expect(try WidgetImageSpec(name: "large.png", query: query) == WidgetImageSpec(family: .large))
        }
    }

    @Test(arguments: ["0x480.png", "800x0.png", "63x480.png", "800x4097.png", "100000x100000.png", "99999999999999999999x480.bmp"])
    func canvasesOutOfRangeAreBadSizes(name: String) {
        #expect(throws: ServeHTTPError.badSize) { try WidgetImageSpec(name: name[...], query: []) }
    }

    @Test func canvasesAtTheLimitsAreServed() throws {
        #expect(try WidgetImageSpec(name: "64x4096.png", query: []).size == WidgetSize(width: 64, height: 4096))
        #expect(try WidgetImageSpec(name: "4096×64.png", query: []).size == WidgetSize(width: 4096, height: 64))
    }

    @Test(arguments: [("scale", "4"), ("theme", "blue"), ("depth", "3"), ("rotate", "45"), ("scale", ""), ("scale", "3")])
    func badParametersAreBadRequests(key: String, value: String) {
        let name = key == "scale" && value == "3" ? "2000x100.png" : "medium.png"
        let error = #expect(throws: ServeHTTPError.self) { try WidgetImageSpec(name: name[...], query: [(key: key[...], value: value[...])]) }
        #expect(error?.status == .badRequest)
        #expect(error?.message.hasPrefix("bad parameter \(key)") == true)
    }

    @Test func aBMPIsOneBitOnly() {
        #expect(throws: ServeHTTPError.self) { try WidgetImageSpec(name: "800x480.bmp", query: [("depth", "4")]) }
        #expect(throws: Never.self) { try WidgetImageSpec(name: "800x480.bmp", query: [("depth", "1")]) }
    }
}

@Suite struct ConditionalRequestTests {
    @Test(arguments: [
        ("\"abc\"", true), ("W/\"abc\"", true), ("\"x\", \"abc\"", true), ("*", true), ("\"abcd\"", false), ("abc", false), ("", false),
    ])
    func ifNoneMatch(header: String, matches: Bool) {
        #expect(Representation.ifNoneMatch([header], matches: "\"abc\"") == matches)
    }

    @Test func aRepresentationCarriesItsLengthAndETag() {
        let representation = Representation(text: "hello", contentType: "text/plain")
        #expect(representation.headers[.contentLength] == "5")
        #expect(representation.headers[.eTag] == ContentHash(of: ByteBuffer(string: "hello")).entityTag)
        #expect(representation.hash.description.count == 16)
    }
}

@Suite struct WireFormatTests {
    @Test func serverSentEvents() {
        #expect(ServerSentEvents.event(id: 7, name: "change", data: "{\"a\":1}") == "id: 7\nevent: change\ndata: {\"a\":1}\n\n")
        #expect(ServerSentEvents.event(id: 1, name: "x", data: "a\nb") == "id: 1\nevent: x\ndata: a\ndata: b\n\n")
    }

    @Test func errorsStayOnOneLine() {
        #expect(ServeHTTPError(.badRequest, "line\nbreak\u{2028}").jsonLine == "{\"error\":\"line\\nbreak\\u2028\"}\n")
    }

    @Test func thePageEscapesWhatItShows() throws {
        let environment = try ServeEnvironment()
        // Overdue before the others: the status line names it.
        let due = Fixed.instant("2026-11-23T07:30:00+01:00")
        _ = try environment.store.store.addTask(NewTask(title: "<b>&'\"</b>", dueDate: due), now: ServeEnvironment.now)
        try environment.publish()
        let page = DashboardPage.html(published: environment.cache.current, refreshSeconds: 60)
        #expect(page.contains("&lt;b&gt;&amp;&#39;&quot;&lt;/b&gt;"))
        #expect(!page.contains("<b>"))
    }

    /// "Next changes" heads the table only when there are some: it stood over an empty table while
    /// the store was gone.
    @Test func thePageHidesAnEmptyTableOfChanges() throws {
        let environment = try ServeEnvironment()
        try environment.publish()
        #expect(!environment.cache.current.upcoming.isEmpty)
        #expect(DashboardPage.html(published: environment.cache.current, refreshSeconds: 60).contains("<h2 id=\"upcoming-heading\">Next changes</h2>"))
        environment.cache.publish(nil, failure: TaskWidgetError(.storeMissing, "the store is gone"))
        #expect(environment.cache.current.upcoming.isEmpty)
        #expect(DashboardPage.html(published: environment.cache.current, refreshSeconds: 60).contains("<h2 id=\"upcoming-heading\" hidden>Next changes</h2>"))
    }

    /// The image of a store that cannot be read names it by its file's name: a device's key opens
    /// it, and it showed the whole path (helper-136).
    @Test func theImageOfAFailureLeavesTheStoresFolderOut() async throws {
        let drawn = Mutex<[String]>([])
        let environment = try ServeEnvironment(draw: { _, picture in
            if case .unavailable(let message) = picture { drawn.withLock { $0.append(message) } }
            return Data()
        })
        let path = "/home/alice/.local/share/taskwidget/tasks.sqlite"
        environment.cache.publish(nil, failure: TaskWidgetError(.storeMissing, "the store \(path) is gone: restore \(path)", context: path))
        _ = try await environment.cache.widget(try WidgetImageSpec(family: .medium, scale: 1))
        #expect(drawn.withLock { $0 } == ["the store tasks.sqlite is gone: restore tasks.sqlite"])
        #expect(environment.cache.current.statusText.contains(path))
    }

    /// A Kindle opens `/?token=…` without JavaScript: the image's URL carries the token itself,
    /// encoded for a query and escaped for the attribute.
    @Test func thePageGivesItsTokenToTheImage() throws {
        let environment = try ServeEnvironment()
        try environment.publish()
        let version = environment.cache.current.version
        let page = DashboardPage.html(published: environment.cache.current, refreshSeconds: 60, token: "a&b\"c<d")
        #expect(page.contains("src=\"widget/large.png?scale=2&amp;v=\(version)&amp;token=a%26b%22c%3Cd\""))
        #expect(page.contains("srcset=\"widget/large.png?scale=2&amp;v=\(version)&amp;token=a%26b%22c%3Cd&amp;theme=dark\""))
        #expect(DashboardPage.html(published: environment.cache.current, refreshSeconds: 60).contains("&amp;v=\(version)\">"))
    }
}

@Suite struct ListenAddressTests {
    @Test(arguments: [
        ("127.0.0.1:8080", "127.0.0.1", 8080, true), (":0", "127.0.0.1", 0, true), ("0.0.0.0:80", "0.0.0.0", 80, false),
        ("[::1]:9000", "::1", 9000, true), ("localhost", "localhost", ListenAddress.defaultPort, true),
        ("::", "::", ListenAddress.defaultPort, false), ("127.1.2.3", "127.1.2.3", ListenAddress.defaultPort, true),
        ("::1", "::1", ListenAddress.defaultPort, true), ("fe80::1", "fe80::1", ListenAddress.defaultPort, false),
        ("[::1:8787]", "::1:8787", ListenAddress.defaultPort, false),
    ])
    func parses(text: String, host: String, port: Int, loopback: Bool) throws {
        let address = try #require(ListenAddress(text))
        #expect(address.host == host && address.port == port && address.isLoopback == loopback)
    }

    @Test(arguments: [
        "host:port", "host:70000", "[::1", "[::1]x", "a:-1", "http://127.0.0.1:8787", "999.1.1.1:8787", "::1:18702", "[x]:80",
        "my_host:80", "1.2.3:80", "",
        // Both an address and ADDRESS:PORT: brackets tell which.
        "::1:8787", "2001:db8::1:80",
    ])
    func rejects(text: String) {
        #expect(ListenAddress(text) == nil)
    }

    /// Only an address on loopback, or `localhost`, may serve without a token: a name that starts
    /// with `127.` may stand for any address.
    @Test func aNameIsNotLoopbackForItsFirstDigits() throws {
        #expect(try #require(ListenAddress("127.example.com:80")).isLoopback == false)
        #expect(try #require(ListenAddress("nas.local:80")).isLoopback == false)
    }
}

/// The cache: one publication per change a viewer sees, representations made once per publication.
@Suite struct DashboardCacheTests {
    @Test func theSameStateAgainIsNoChange() throws {
        let environment = try ServeEnvironment()
        let first = try #require(try environment.publish())
        #expect(try environment.publish() == nil)
        _ = try environment.store.store.addTask(NewTask(title: "New"), now: ServeEnvironment.now)
        let second = try #require(try environment.publish())
        #expect(second.version == first.version + 1)
        #expect(second.json.contains("\"hash\":"))
    }

    @Test func aFailureIsAChangeAndSoIsTheRecovery() throws {
        let environment = try ServeEnvironment()
        try environment.publish()
        let failure = try #require(environment.cache.publish(nil, failure: TaskWidgetError(.storeMissing, "gone")))
        #expect(failure.json.hasSuffix(",\"error\":\"gone\"}"))
        #expect(environment.cache.publish(nil, failure: TaskWidgetError(.storeMissing, "gone")) == nil)
        #expect(try environment.publish() != nil)
    }

    /// A cache with the real drawing that counts its drawings in `drawings`.
    static func countingCache(_ drawings: Counter) throws -> DashboardCache {
        DashboardCache(
            draw: { spec, picture in
                drawings.increment()
                return try DashboardServer.draw(spec, picture)
            }, renderers: try ServeEnvironment.renderers(), now: { ServeEnvironment.now })
    }

    @Test func anImageIsDrawnOncePerPublication() async throws {
        let drawings = Counter()
        let environment = try ServeEnvironment()
        let cache = try Self.countingCache(drawings)
        cache.publish(try environment.state(), failure: nil)
        let spec = try WidgetImageSpec(family: .small)
        let first = try await cache.widget(spec)
        let second = try await cache.widget(spec)
        #expect(drawings.value == 1)
        #expect(first.representation.hash == second.representation.hash && first.isAvailable)
    }

    /// Of the images waiting for their turn, those of clients that still send come first: a
    /// burst of requests whose clients hung up at once was drawn first, and a viewer behind it
    /// waited 12 s (helper-165). A client that only closed its side is still answered, after them.
    @Test func imagesOfClientsThatStillSendAreDrawnFirst() async throws {
        let environment = try ServeEnvironment()
        let drawn = Mutex<[Int]>([])
        let (started, gate) = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
        let cache = DashboardCache(
            draw: { spec, picture in
                if spec.size.width == 100 {
                    started.signal()
                    gate.wait()
                }
                drawn.withLock { $0.append(spec.size.width) }
                return try DashboardServer.draw(spec, picture)
            }, renderers: try ServeEnvironment.renderers(), now: { ServeEnvironment.now })
        cache.publish(try environment.state(), failure: nil)
        let specs = try [100, 200, 300, 400].map { try WidgetImageSpec(family: .large, size: WidgetSize(width: $0, height: 100)) }
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { _ = try await cache.widget(specs[0]) }
            await withCheckedContinuation { continuation in DispatchQueue.global().async { started.wait(); continuation.resume() } }
            // Two whose clients have gone (or only closed their side), then a viewer's.
            for (index, reading) in [(1, false), (2, false), (3, true)] {
                group.addTask { _ = try await cache.widget(specs[index], isSending: { reading }) }
                while cache.waitingImages < index { await Task.yield() }
            }
            gate.signal()
            try await group.waitForAll()
        }
        #expect(drawn.withLock { $0 } == [100, 400, 200, 300])
    }

    /// A later entry that shows the same is no change a viewer sees, but the JSON line (its `date`
    /// and `nextChange`) and the timeline document (its `generatedAt`) carry its dates: they are
    /// made again, and the images are not drawn again.
    @Test func aLaterEntryThatShowsTheSameRenewsTheLinesAndTheTimelineNotTheImages() async throws {
        let drawings = Counter()
        let environment = try ServeEnvironment()
        let cache = try Self.countingCache(drawings)
        cache.publish(try environment.state(), failure: nil)
        let spec = try WidgetImageSpec(family: .small)
        let (image, json, text, document) = (try await cache.widget(spec), try cache.line(.json), try cache.line(.text), try cache.timelineDocument())
        let later = ServeEnvironment.now.adding(seconds: 600)
        #expect(cache.publish(try environment.state(at: later), failure: nil) == nil)
        #expect(try await cache.widget(spec).representation.hash == image.representation.hash)
        #expect(drawings.value == 1)
        #expect(try cache.line(.text).hash == text.hash)
        let laterJSON = String(buffer: try cache.line(.json).body)
        #expect(try cache.line(.json).hash != json.hash && laterJSON.contains("\"date\":\"2026-11-23T09:10:00+01:00\""), "\(laterJSON)")
        #expect(try cache.timelineDocument().hash != document.hash)
    }

    /// A stream whose reader fell behind keeps the newest 8 items: heartbeats must not be what
    /// pushes the last change out (a 0.8 s stall at 100 ms heartbeats did, in a CI run).
    @Test func heartbeatsNeverPushAChangeOutOfAStreamThatFellBehind() async throws {
        let broadcaster = EventBroadcaster()
        let subscription = try broadcaster.subscribe()
        let change = DashboardEvent(version: 2, json: "{}")
        broadcaster.publish(change)
        for _ in 0..<20 { #expect(subscription.addHeartbeat()) }
        subscription.finish()
        var items: [EventBroadcaster.Item] = []
        for await item in subscription.stream { items.append(item) }
        #expect(items == [.change(change), .heartbeat])
    }

    @Test func manyFirstRequestsAtOnceDrawOnce() async throws {
        let drawings = Counter()
        let environment = try ServeEnvironment()
        let cache = try Self.countingCache(drawings)
        cache.publish(try environment.state(), failure: nil)
        let spec = try WidgetImageSpec(family: .medium, scale: 2)
        let hashes = try await withThrowingTaskGroup(of: ContentHash.self) { group in
            for _ in 0..<8 { group.addTask { try await cache.widget(spec).representation.hash } }
            return try await group.reduce(into: Set<ContentHash>()) { $0.insert($1) }
        }
        #expect(drawings.value == 1)
        #expect(hashes.count == 1)
    }

    @Test func theWarmUpDrawsEachFamilyAtOneAndTwoTimesOnce() async throws {
        let drawings = Counter()
        let environment = try ServeEnvironment()
        let cache = try Self.countingCache(drawings)
        await cache.warmUp()
        #expect(drawings.value == 0, "nothing to draw before the store was read")
        cache.publish(try environment.state(), failure: nil)
        await cache.warmUp()
        #expect(drawings.value == 6)
        #expect(try await cache.widget(WidgetImageSpec(family: .medium, scale: 2)).isAvailable)
        #expect(drawings.value == 6, "a warmed image is served from the cache")
    }

    @Test func maxAgeIsTheSecondsToTheChangeAndAtMost15Minutes() throws {
        let environment = try ServeEnvironment()
        let now = ServeEnvironment.now
        #expect(environment.cache.maxAge(until: now.adding(seconds: 61)) == 61)
        #expect(environment.cache.maxAge(until: Instant(millisecondsSince1970: now.millisecondsSince1970 + 1)) == 1)
        #expect(environment.cache.maxAge(until: now.adding(seconds: 3600)) == 900)
        #expect(environment.cache.maxAge(until: now.adding(seconds: -5)) == 0)
        #expect(environment.cache.maxAge(until: nil) == 0)
    }
}

final class Counter: Sendable {
    private let count = Mutex(0)
    func increment() { count.withLock { $0 += 1 } }
    var value: Int { count.withLock { $0 } }
}

/// The follower reads the timeline again at its `reloadAfter`, so that `/timeline.json` is never
/// served past it (an entry's next change can come later: on the 15-minute grid from another start).
@Suite struct DashboardFollowerTests {
    @Test func theTimelineIsReadAgainAtItsReloadTime() throws {
        let environment = try ServeEnvironment()
        let source = StoreFollower(
            location: environment.location, calendar: LocalCalendar(timeZone: ServeEnvironment.zone), view: TaskView(), family: .large,
            logger: quietLogger)
        var follower = DashboardFollower(source: source, cache: environment.cache, broadcaster: environment.broadcaster, logger: quietLogger)
        let at = { (seconds: Int64) in WatchInstant.reading(Double(seconds), after: ServeEnvironment.now.secondsSince1970) }
        try follower.start(at: at(7 * 60))  // 09:07: the timeline must be read again at 09:22
        let reload = ServeEnvironment.now.adding(seconds: 22 * 60)
        #expect(environment.cache.current.state?.timeline.reloadAfter == reload)
        try follower.handle([], at: at(15 * 60))  // the 09:15 entry, whose next change is at 09:30
        #expect(follower.entryDeadline == reload)
        try follower.handle([], at: at(22 * 60))
        #expect(environment.cache.current.state?.timeline.generatedAt == reload)
        #expect(String(buffer: try environment.cache.timelineDocument().body).contains("\"generatedAt\": \"2026-11-23T09:22:00+01:00\""))
    }
}

