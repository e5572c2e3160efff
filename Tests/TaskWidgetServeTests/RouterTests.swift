import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import TaskWidgetConfig
import TaskWidgetCore
import TaskWidgetFormats
import TaskWidgetStore
import Testing

@testable import TaskWidgetServe
@testable import TaskWidgetTestSupport

/// The routes through `app.test(.router)`: no socket, the request goes straight to the responder.
/// The cache holds the store's state at 09:00; the widget next changes at 09:30, when "Pay rent"
/// falls due, so every max-age is the cap of 15 minutes.
@Suite struct RouterTests {
    /// The application over a published state, without the follower.
    func withApp<T: Sendable>(
        token: String? = nil, publishing: Bool = true, _ body: @Sendable (any TestClientProtocol, ServeEnvironment) async throws -> T
    ) async throws -> T {
        let environment = try ServeEnvironment()
        if publishing { try environment.publish() }
        let app = try makeServeApplication(
            environment.dependencies(token: token), listen: ListenAddress(host: "127.0.0.1", port: 0), logger: quietLogger)
        return try await app.test(.router) { client in try await body(client, environment) }
    }

    @Test func thePageShowsTheStatusLineAndTheNextChangesAndFollowsEvents() async throws {
        try await withApp { client, environment in
            let state = try environment.state()
            let line = try ServeEnvironment.renderers()[.text]!.line(for: state.barEntry, timeZone: ServeEnvironment.zone, now: nil)
            try await client.execute(uri: "/", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "text/html; charset=utf-8")
                let html = String(buffer: response.body)
                #expect(html.contains("<p id=\"status\">\(DashboardPage.escape(line))</p>"))
                #expect(html.contains("<tr><th>09:30</th><td>"), "the next change: Pay rent falls due")
                #expect(html.contains("var stream = \"events\"") && html.contains("new EventSource(stream)"))
                #expect(html.contains("<noscript><meta http-equiv=\"refresh\" content=\"900\"></noscript>"))
            }
        }
    }

    @Test func anImageHasAStrongETagAndAMaxAgeToItsNextChange() async throws {
        try await withApp { client, environment in
            let first = try await client.execute(uri: "/widget/medium.png", method: .get)
            #expect(first.status == .ok)
            #expect(first.headers[.contentType] == "image/png")
            #expect(first.headers[.contentLength] == String(first.body.readableBytes))
            let state = try environment.state()
            // "Pay rent" at 09:30 changes it, but the timeline is read again first, at 09:15.
            let seconds = (state.imageValidUntil.millisecondsSince1970 - ServeEnvironment.now.millisecondsSince1970) / 1000
            #expect(state.upcomingChanges.first?.date == Fixed.instant("2026-11-23T09:30:00+01:00") && seconds == 900)
            #expect(first.headers[.cacheControl] == "max-age=900")
            let eTag = try #require(first.headers[.eTag])
            #expect(eTag == ContentHash(of: first.body).entityTag)
            #expect(!eTag.hasPrefix("W/"))

            let again = try await client.execute(uri: "/widget/medium.png", method: .get, headers: [.ifNoneMatch: eTag])
            #expect(again.status == .notModified)
            #expect(again.body.readableBytes == 0)
            #expect(again.headers[.eTag] == eTag)
            #expect(again.headers[.cacheControl] == "max-age=900")
            #expect(again.headers[.contentLength] == nil)

            let stale = try await client.execute(uri: "/widget/medium.png", method: .get, headers: [.ifNoneMatch: "\"0\""])
            #expect(stale.status == .ok && stale.body == first.body)
        }
    }

    @Test func headHasTheHeadersOfGetAndNoBody() async throws {
        try await withApp { client, _ in
            let get = try await client.execute(uri: "/widget/800x480.bmp", method: .get)
            let head = try await client.execute(uri: "/widget/800x480.bmp", method: .head)
            #expect(head.status == .ok)
            #expect(head.body.readableBytes == 0)
            #expect(head.headers[.contentLength] == "48062")
            #expect(get.body.readableBytes == 48_062)
            #expect(head.headers[.contentType] == "image/bmp")
            #expect(head.headers[.eTag] == get.headers[.eTag])
            for path in ["/", "/status", "/timeline.json", "/healthz", "/events"] {
                let response = try await client.execute(uri: path, method: .head)
                #expect(response.status == .ok, "HEAD \(path)")
                #expect(response.body.readableBytes == 0, "HEAD \(path)")
            }
        }
    }

    /// The JSON line carries the entry's times, so it keeps only until the next entry (09:15 at
    /// 09:07); the others until what they show changes (09:30, capped at 15 minutes). It said 900.
    @Test func theJSONLineKeepsUntilTheNextEntry() async throws {
        let environment = try ServeEnvironment(now: Fixed.instant("2026-11-23T09:07:00+01:00"))
        try environment.publish()
        let app = try makeServeApplication(environment.dependencies(), listen: ListenAddress(host: "127.0.0.1", port: 0), logger: quietLogger)
        try await app.test(.router) { client in
            let json = try await client.execute(uri: "/status?format=json", method: .get)
            let waybar = try await client.execute(uri: "/status?format=waybar", method: .get)
            #expect(json.headers[.cacheControl] == "max-age=480")
            #expect(waybar.headers[.cacheControl] == "max-age=900")
            // The format in any case (it was a 400, helper-174).
            let upper = try await client.execute(uri: "/status?format=WAYBAR", method: .get)
            #expect(upper.status == .ok && String(buffer: upper.body) == String(buffer: waybar.body))
        }
    }

    /// A timeline read at 09:00 is read again at 09:15 (its reloadAfter), which may change what
    /// the lines and images show (a view's `due_within` moves with the clock): at 09:07 they keep
    /// until then, 480 s, not until "Pay rent" falls due at 09:30 (helper-131: a task that came
    /// within a view's horizon was missed by caches, Kindles and TRMNLs for minutes).
    @Test func answersKeepNoLongerThanTheTimelineIsReadAgain() async throws {
        let environment = try ServeEnvironment(now: Fixed.instant("2026-11-23T09:07:00+01:00"))
        let timeline = try environment.state(at: ServeEnvironment.now).timeline
        #expect(timeline.generatedAt == ServeEnvironment.now && timeline.reloadAfter == Fixed.instant("2026-11-23T09:15:00+01:00"))
        try await Self.expectMaxAge(480, of: timeline, in: environment)
    }

    /// Publishes `timeline` as the follower would at the environment's clock, and expects every
    /// kind of answer (a JSON line, another line, an image) to keep `seconds`.
    static func expectMaxAge(_ seconds: Int, of timeline: Timeline, in environment: ServeEnvironment) async throws {
        environment.cache.publish(DashboardState(timeline: timeline, entry: try #require(timeline.entry(at: environment.now))), failure: nil)
        let app = try makeServeApplication(environment.dependencies(), listen: ListenAddress(host: "127.0.0.1", port: 0), logger: quietLogger)
        try await app.test(.router) { client in
            for uri in ["/status?format=json", "/status?format=waybar", "/widget/medium.png"] {
                let response = try await client.execute(uri: uri, method: .get)
                #expect(response.headers[.cacheControl] == "max-age=\(seconds)", "\(uri)")
            }
        }
    }

    /// A timeline read at 09:07 with 100 tasks falling due one second apart keeps 96 of them as
    /// entries: at 09:08:36, the last one kept, every line keeps only until the first one left out
    /// (09:08:37), when the follower reads the store again. They said 384 s, to the quarter hour,
    /// while four more tasks fell overdue (helper-132).
    @Test func linesPastTheCapOnCrossingsKeepOnlyUntilTheFirstOneLeftOut() async throws {
        let environment = try ServeEnvironment(now: Fixed.instant("2026-11-23T09:08:36+01:00"))
        let read = Fixed.instant("2026-11-23T09:07:00+01:00")
        for second in 1...100 {
            _ = try environment.store.store.addTask(NewTask(title: "Task \(second)", dueDate: read.adding(seconds: Int64(second))), now: read)
        }
        let timeline = try TL.timeline(
            for: TimelineRequest(now: read, calendar: LocalCalendar(timeZone: ServeEnvironment.zone), family: .large),
            from: environment.store.reopen(mode: .readOnly))
        #expect(timeline.truncated)
        try await Self.expectMaxAge(1, of: timeline, in: environment)
    }

    /// Every format of `/status` is the line `status --format` prints for the same entry;
    /// `/timeline.json` is `timeline --format json` (8 tasks per entry, not the large widget's 12).
    @Test func statusLinesAndTheTimelineAreWhatTheCommandsPrint() async throws {
        try await withApp { client, environment in
            let state = try environment.state()
            let renderers = try ServeEnvironment.renderers()
            for format in StatusFormat.allCases {
                let line = try renderers[format]!.line(for: state.barEntry, timeZone: ServeEnvironment.zone, now: nil)
                let response = try await client.execute(uri: "/status?format=\(format.rawValue)", method: .get)
                #expect(String(buffer: response.body) == line + "\n", "\(format)")
                #expect(response.headers[.eTag] != nil)
                #expect(response.headers[.cacheControl] == "max-age=900")
            }
            #expect(String(buffer: try await client.execute(uri: "/status", method: .get).body).contains("overdue"))
            let request = TL.request(now: ServeEnvironment.now, zone: ServeEnvironment.zone)
            let expected = TimelineJSON.document(try TL.timeline(for: request, from: environment.store.reopen(mode: .readOnly)))
            try await client.execute(uri: "/timeline.json", method: .get) { response in
                #expect(response.headers[.contentType] == "application/json")
                #expect(String(buffer: response.body) == expected)
            }
            try await client.execute(uri: "/healthz", method: .get) { response in
                #expect(String(buffer: response.body) == "ok\n")
                #expect(response.headers[.cacheControl] == "no-store")
            }
        }
    }

    /// Every route answers its methods, and another method gets 405 with `Allow` and one line of
    /// JSON (the router's own answer is 404); an unknown path stays 404 whatever the method.
    @Test func aKnownPathAskedWithAnotherMethodIs405WithAllow() async throws {
        let environment = try ServeEnvironment()
        let routes = buildServeRouter(environment.dependencies(token: nil)).routes
        // Every path of the router, with what a client may ask of it (HEAD where GET is).
        let allow = Dictionary(grouping: routes, by: { "\($0.path)" }).mapValues { routes in
            let methods = Set(routes.map(\.method.rawValue))
            return (methods.contains("GET") ? methods.union(["HEAD"]) : methods).sorted().joined(separator: ", ")
        }
        #expect(allow.count == 9, "\(allow)")
        #expect(allow["/status"] == "GET, HEAD" && allow["/events"] == "GET, HEAD" && allow["/api/log"] == "POST")
        try await withApp { client, _ in
            for (path, allowed) in allow {
                let concrete = path.replacingOccurrences(of: "{name}", with: "medium.png")
                let other: HTTPRequest.Method = allowed.contains("GET") ? .post : .get
                try await client.execute(uri: concrete, method: other) { response in
                    #expect(response.status == .methodNotAllowed, "\(path)")
                    #expect(response.headers[.allow] == allowed, "\(path)")
                    #expect(String(buffer: response.body) == "{\"error\":\"method not allowed: use \(allowed)\"}\n")
                }
            }
            try await client.execute(uri: "/nope", method: .post) { response in
                #expect(response.status == .notFound)
            }
        }
    }

    /// The access log names the route a 405 was asked of, as it does for every answer of a route
    /// (it said `route=NotFound` for them).
    @Test func theAccessLogNamesTheRouteOfA405() async throws {
        let environment = try ServeEnvironment()
        try environment.publish()
        let log = LogRecorder()
        var logger = log.logger
        logger.logLevel = .debug
        let app = try makeServeApplication(
            environment.dependencies(token: nil), listen: ListenAddress(host: "127.0.0.1", port: 0), logger: logger)
        try await app.test(.router) { client in
            for (path, method) in [("/widget/medium.png", HTTPRequest.Method.post), ("/api/log", .get), ("/nope", .post), ("/status", .get)] {
                _ = try await client.execute(uri: path, method: method)
            }
        }
        let requests = log.loggedMetadata.filter { $0["route"] != nil }
        #expect(requests.map { $0["route"] } == ["/widget/{name}", "/api/log", "NotFound", "/status"])
        #expect(requests.map { $0["status"] } == ["405", "405", "404", "200"])
    }

    @Test(arguments: [
        ("/nope", HTTPResponse.Status.notFound, "{\"error\":\"not found\"}\n"),
        ("/widget/medium.gif", .notFound, "{\"error\":\"not found: widgets are /widget/small, medium, large or WIDTHxHEIGHT, with .png or .bmp, e.g. /widget/large.png\"}\n"),
        // The folder of the widgets names them (it said "not found" alone, helper-77).
        ("/widget/", .notFound, "{\"error\":\"not found: widgets are /widget/small, medium, large or WIDTHxHEIGHT, with .png or .bmp, e.g. /widget/large.png\"}\n"),
        ("/widget", .notFound, "{\"error\":\"not found: widgets are /widget/small, medium, large or WIDTHxHEIGHT, with .png or .bmp, e.g. /widget/large.png\"}\n"),
        ("/widget/0x480.png", .badRequest, "{\"error\":\"bad size: expected WIDTHxHEIGHT in points, each side from 64 to 4096\"}\n"),
        ("/widget/100000x100000.png", .badRequest, "{\"error\":\"bad size: expected WIDTHxHEIGHT in points, each side from 64 to 4096\"}\n"),
        ("/widget/800x480x2.png", .notFound, "{\"error\":\"not found: widgets are /widget/small, medium, large or WIDTHxHEIGHT, with .png or .bmp, e.g. /widget/large.png\"}\n"),
        ("/widget/medium.png?depth=3", .badRequest, "{\"error\":\"bad parameter depth: expected 1, 2, 4 or 8\"}\n"),
        ("/widget/medium.png?scale=9", .badRequest, "{\"error\":\"bad parameter scale: expected 1, 2 or 3\"}\n"),
        ("/widget/4000x400.png?scale=2", .badRequest, "{\"error\":\"bad parameter scale: expected a size of at most 4096 pixels a side\"}\n"),
        ("/widget/800x480.bmp?depth=4", .badRequest, "{\"error\":\"bad parameter depth: expected 1 for a BMP\"}\n"),
        ("/widget/medium.png?rotate=45", .badRequest, "{\"error\":\"bad parameter rotate: expected 0, 90, 180 or 270\"}\n"),
        ("/widget/medium.png?them=dark", .badRequest, "{\"error\":\"unknown parameter them: did you mean theme?\"}\n"),
        // Other tools' names passed unread, and the image came unrotated (helper-124).
        ("/widget/medium.png?rotation=90", .badRequest, "{\"error\":\"unknown parameter rotation: did you mean rotate?\"}\n"),
        ("/widget/800x480.png?bpp=1", .badRequest, "{\"error\":\"unknown parameter bpp: did you mean depth?\"}\n"),
        // Parts of the path as parameters passed unread, and the default image came (helper-165).
        ("/widget/large.png?size=800x480", .badRequest, "{\"error\":\"size goes in the path: /widget/800x480.png\"}\n"),
        ("/widget/large.png?Family=small", .badRequest, "{\"error\":\"Family goes in the path: /widget/small.png\"}\n"),
        ("/widget/800x480.png?format=bmp", .badRequest, "{\"error\":\"format goes in the path: /widget/800x480.bmp\"}\n"),
        ("/widget/medium.png?theme=blue", .badRequest, "{\"error\":\"bad parameter theme: expected light, dark or mono\"}\n"),
        ("/status?format=xml", .badRequest, "{\"error\":\"bad parameter format: expected text, json, waybar, i3bar, polybar, tmux\"}\n"),
        ("/status?formt=json", .badRequest, "{\"error\":\"unknown parameter formt: did you mean format?\"}\n"),
        // `/widget` read the last of them and `/status` the first (helper-68).
        ("/status?format=json&format=tmux", .badRequest, "{\"error\":\"parameter format is given more than once: give it once\"}\n"),
        ("/widget/medium.png?theme=dark&scale=2&theme=light", .badRequest,
         "{\"error\":\"parameter theme is given more than once: give it once\"}\n"),
        ("/status?list=Work", .badRequest,
         "{\"error\":\"serve answers as it was started: list is chosen at its start (taskwidget serve --list NAME), not per request\"}\n"),
        ("/widget/medium.png?inbox", .badRequest,
         "{\"error\":\"serve answers as it was started: inbox is chosen at its start (taskwidget serve --inbox), not per request\"}\n"),
        ("/timeline.json?view=work", .badRequest,
         "{\"error\":\"serve answers as it was started: view is chosen at its start (taskwidget serve --view NAME), not per request\"}\n"),
        // The zone and the clock too: `?tz=UTC` was ignored (helper-145).
        ("/timeline.json?tz=UTC", .badRequest,
         "{\"error\":\"serve answers as it was started: tz is chosen at its start (taskwidget serve --tz ZONE), not per request\"}\n"),
        ("/status?now=2020-01-01T00:00:00Z", .badRequest,
         "{\"error\":\"serve answers as it was started: now is chosen at its start (taskwidget serve --now TIME), not per request\"}\n"),
        // Names are percent-decoded as values are: they were taken as unknown names, or let by.
        ("/status?li%73t=Work", .badRequest,
         "{\"error\":\"serve answers as it was started: list is chosen at its start (taskwidget serve --list NAME), not per request\"}\n"),
        ("/widget/medium.png?th%65me=blue", .badRequest, "{\"error\":\"bad parameter theme: expected light, dark or mono\"}\n"),
        ("/status?form%61t=xml", .badRequest, "{\"error\":\"bad parameter format: expected text, json, waybar, i3bar, polybar, tmux\"}\n"),
    ])
    func badPathsAndParametersAreOneLineJSON(path: String, status: HTTPResponse.Status, body: String) async throws {
        try await withApp { client, _ in
            try await client.execute(uri: path, method: .get) { response in
                #expect(response.status == status)
                #expect(response.headers[.contentType] == "application/json; charset=utf-8")
                #expect(String(buffer: response.body) == body)
            }
        }
    }

    @Test func theTokenIsTakenFromAnyOfThreePlaces() async throws {
        try await withApp(token: "server-token") { client, _ in
            let denied = try await client.execute(uri: "/status", method: .get)
            #expect(denied.status == .unauthorized)
            // Each refusal says what to do (all three were "missing or wrong token", helper-112).
            #expect(
                String(buffer: denied.body)
                    == "{\"error\":\"this server needs its token: send Authorization: Bearer TOKEN, or add ?token=TOKEN to the URL (`taskwidget serve token` prints it)\"}\n")
            #expect(denied.headers[.wwwAuthenticate] == "Bearer realm=\"taskwidget\"")
            // A browser's icon, asked for with no token at every view of the page: not found, not
            // a 401 in the log each time (helper-167).
            #expect(try await client.execute(uri: "/favicon.ico", method: .get).status == .notFound)
            let wrong = try await client.execute(uri: "/status?token=server-toke", method: .get)
            #expect(wrong.status == .unauthorized)
            #expect(
                String(buffer: wrong.body)
                    == "{\"error\":\"wrong token: `taskwidget serve token` prints the one this server takes (restart a serve that ran before it was made)\"}\n")
            #expect(wrong.headers[.wwwAuthenticate] == "Bearer realm=\"taskwidget\"")
            // `?TOKEN=` passed as no token, with the advice to add ?token= (helpers 164, 165).
            let misCased = try await client.execute(uri: "/status?Token=server-token", method: .get)
            #expect(misCased.status == .unauthorized)
            #expect(String(buffer: misCased.body) == "{\"error\":\"?Token= is not read: the parameter is ?token=, in lower case\"}\n")
            for misspelt in ["tokn", "access_token"] {
                let answer = try await client.execute(uri: "/status?\(misspelt)=server-token", method: .get)
                #expect(String(buffer: answer.body) == "{\"error\":\"?\(misspelt)= is not read: the parameter is ?token=\"}\n")
            }
            let elsewhere = try await client.execute(uri: "/widget/800x480.png?depth=2&theme=mono", method: .get, headers: [.accessToken: "device-key-123"])
            #expect(elsewhere.status == .unauthorized)
            #expect(String(buffer: elsewhere.body).hasPrefix("{\"error\":\"a TRMNL device's key opens /api/display, /api/log and the image of its image_url"))
            // A device's own route names the device's key, not the server's token (helper-120).
            for key in ["wrong", nil] {
                var headers: HTTPFields = [.deviceID: "AA:BB:CC:DD:EE:FF"]
                if let key { headers[.accessToken] = key }
                let device = try await client.execute(uri: "/api/display", method: .get, headers: headers)
                #expect(device.status == .unauthorized)
                #expect(String(buffer: device.body).hasPrefix("{\"error\":\"the ID header must name a registered device"), "\(String(buffer: device.body))")
            }
            #expect(try await client.execute(uri: "/status", method: .get, headers: [.authorization: "Bearer nope"]).status == .unauthorized)

            #expect(try await client.execute(uri: "/status", method: .get, headers: [.authorization: "Bearer server-token"]).status == .ok)
            // More than one space after the scheme, as RFC 7235 allows: it was a wrong token (helper-164).
            #expect(try await client.execute(uri: "/status", method: .get, headers: [.authorization: "bearer   server-token"]).status == .ok)
            #expect(try await client.execute(uri: "/status?token=server-token", method: .get).status == .ok)
            #expect(try await client.execute(uri: "/status?token=server%2Dtoken", method: .get).status == .ok)
            #expect(try await client.execute(uri: "/status?tok%65n=server-token", method: .get).status == .ok)
            #expect(
                try await client.execute(uri: "/widget/800x480.png?theme=mono&depth=1", method: .get, headers: [.accessToken: "device-key-123"]).status
                    == .ok)
            #expect(try await client.execute(uri: "/healthz", method: .get).status == .ok)
            // An unknown path needs the token too: no probing for routes without it.
            #expect(try await client.execute(uri: "/nope", method: .get).status == .unauthorized)
        }
    }

    /// A device's key opens only what a device asks for: `/api/setup` gives it to whoever sends
    /// the device's MAC address, which anyone on the network sees, so it must not read the
    /// timeline, the status line or the events.
    @Test func aDeviceKeyOpensOnlyTheDeviceRoutes() async throws {
        try await withApp(token: "server-token") { client, _ in
            let key: HTTPFields = [.accessToken: ServeEnvironment.device.apiKey]
            // HEAD for the event stream: an open stream would not end the test.
            for (path, method) in [("/status", HTTPRequest.Method.get), ("/timeline.json", .get), ("/", .get), ("/events", .head)] {
                let status = try await client.execute(uri: path, method: method, headers: key).status
                #expect(status == .unauthorized, "\(path)")
            }
            let inQuery = try await client.execute(uri: "/status?token=\(ServeEnvironment.device.apiKey)", method: .get).status
            #expect(inQuery == .unauthorized)
            let image = try await client.execute(uri: "/widget/800x480.png?theme=mono&depth=1", method: .get, headers: key).status
            #expect(image == .ok)
            // Only its own image: any other size, scale or theme shows more than the device does.
            for other in ["/widget/large.png", "/widget/4096x4096.png", "/widget/800x480.png?theme=mono&depth=1&scale=3", "/widget/800x480.png"] {
                let status = try await client.execute(uri: other, method: .get, headers: key).status
                #expect(status == .unauthorized, "\(other)")
            }
            // The same with the key in the URL, as `image_url` carries it.
            let inURL = "token=\(ServeEnvironment.device.apiKey)"
            #expect(try await client.execute(uri: "/widget/800x480.png?theme=mono&depth=1&\(inURL)", method: .get).status == .ok)
            #expect(try await client.execute(uri: "/widget/800x480.png?\(inURL)&theme=mono&depth=1", method: .get).status == .ok)
            // In any order, and with a cache buster, which changes nothing in the image: only the
            // exact URL was let in (helper-124).
            for same in ["/widget/800x480.png?depth=1&theme=mono&", "/widget/800x480.png?theme=mono&v=2&depth=1&"] {
                #expect(try await client.execute(uri: same + inURL, method: .get).status == .ok, "\(same)")
            }
            for other in ["/widget/800x480.png?theme=mono&depth=1&scale=3&", "/widget/800x480.png?", "/widget/large.png?"] {
                let status = try await client.execute(uri: other + inURL, method: .get).status
                #expect(status == .unauthorized, "\(other)")
            }
            var withID = key
            withID[.deviceID] = ServeEnvironment.device.id
            let display = try await client.execute(uri: "/api/display", method: .get, headers: withID).status
            #expect(display == .ok)
            let log = try await client.execute(uri: "/api/log", method: .post, headers: key, body: ByteBuffer(string: "{}")).status
            #expect(log == .noContent)
            let owner = try await client.execute(uri: "/timeline.json", method: .get, headers: [.authorization: "Bearer server-token"]).status
            #expect(owner == .ok)
        }
    }

    /// Nothing published yet, or the store unreadable: 503 with the reason, and for images an
    /// image that says so (never cached).
    @Test func withoutAStateEveryRouteSays503AndImagesShowWhy() async throws {
        try await withApp(publishing: false) { client, environment in
            environment.cache.publish(nil, failure: TaskWidgetError(.storeMissing, "no store at /x/tasks.sqlite: run `taskwidget add`"))
            let status = try await client.execute(uri: "/status", method: .get)
            #expect(status.status == .serviceUnavailable)
            #expect(String(buffer: status.body) == "{\"error\":\"no store at /x/tasks.sqlite: run `taskwidget add`\"}\n")
            #expect(try await client.execute(uri: "/timeline.json", method: .get).status == .serviceUnavailable)
            let image = try await client.execute(uri: "/widget/small.png", method: .get)
            #expect(image.status == .serviceUnavailable)
            #expect(image.headers[.contentType] == "image/png")
            #expect(image.headers[.cacheControl] == "no-store")
            #expect(image.headers[.eTag] == nil)
            #expect(PNGHeader(image.body)?.width == 170)
            #expect(try await client.execute(uri: "/", method: .get).status == .ok)
            let health = try await client.execute(uri: "/healthz", method: .get)
            #expect(health.status == .serviceUnavailable && health.headers[.contentType] == "application/json; charset=utf-8")
            #expect(String(buffer: health.body) == "{\"error\":\"the tasks cannot be shown (the store, or the list or view serve shows, cannot be read): /status says why\"}\n")

            try environment.publish()
            #expect(try await client.execute(uri: "/healthz", method: .get).status == .ok)
            let back = try await client.execute(uri: "/widget/small.png", method: .get)
            #expect(back.status == .ok)
            #expect(back.body != image.body)
        }
    }

    @Test func listeningBeyondLoopbackNeedsAToken() throws {
        let environment = try ServeEnvironment()
        let refusal = expectError(.invalidInput) {
            try makeServeApplication(environment.dependencies(), listen: ListenAddress(host: "0.0.0.0", port: 0), logger: quietLogger)
        }
        #expect(refusal?.message == "listening on 0.0.0.0 needs a token: make one with `taskwidget serve token`, or listen on 127.0.0.1")
        _ = try makeServeApplication(
            environment.dependencies(token: "t"), listen: ListenAddress(host: "0.0.0.0", port: 0), logger: quietLogger)
    }

    /// A name no address has is said first: it was refused for want of a token, and the name was
    /// said wrong only once a token was made (`.invalid` never resolves, RFC 2606).
    @Test func anUnknownHostNameIsSaidBeforeATokenIsAsked() throws {
        let environment = try ServeEnvironment()
        let refusal = expectError(.invalidInput) {
            try makeServeApplication(
                environment.dependencies(), listen: ListenAddress(host: "no-such-host.invalid", port: 0), logger: quietLogger)
        }
        #expect(refusal?.message == "cannot listen on no-such-host.invalid:0: no address has the name no-such-host.invalid: give an address such as 127.0.0.1 or 0.0.0.0")
    }
}

extension PNGHeader {
    init?(_ buffer: ByteBuffer) {
        self.init(buffer.readableBytesView)
    }
}
