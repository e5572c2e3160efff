import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import TaskWidgetConfig
import TaskWidgetCore
import TaskWidgetStore
import Testing

@testable import TaskWidgetServe
@testable import TaskWidgetTestSupport

/// TRMNL's BYOS API as a device uses it: setup, display, the image, the log.
@Suite struct TRMNLTests {
    static let original = ServeEnvironment.device
    static let grayscale = DeviceRecord(id: "11:22:33:44:55:66", apiKey: "gray-key", friendlyID: "TW2ABC", depth: 2)
    static let bitmap = DeviceRecord(id: "22:33:44:55:66:77", apiKey: "bmp-key", friendlyID: "TW3ABC", format: .bmp)

    func withApp<T: Sendable>(
        now: Instant = ServeEnvironment.now, _ body: @Sendable (any TestClientProtocol, ServeEnvironment) async throws -> T
    ) async throws -> T {
        let environment = try ServeEnvironment(devices: [Self.original, Self.grayscale, Self.bitmap], now: now)
        try environment.publish()
        let app = try makeServeApplication(
            environment.dependencies(token: "server-token"), listen: ListenAddress(host: "127.0.0.1", port: 0), logger: quietLogger)
        return try await app.test(.router) { client in try await body(client, environment) }
    }

    static func json(_ buffer: ByteBuffer) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(String(buffer: buffer).utf8)) as? [String: Any])
    }

    @Test func anUnknownDeviceIsNotSetUp() async throws {
        try await withApp { client, _ in
            let unknown = try await client.execute(uri: "/api/setup", method: .get, headers: [.deviceID: "00:00:00:00:00:00"])
            #expect(unknown.status == .notFound)
            #expect(String(buffer: unknown.body).hasPrefix("{\"status\":404,\"api_key\":null"))
        }
    }

    /// Nobody on the network finds a registered device's MAC address, and with it its key, by
    /// trying them all: 20 000 a second were answered (helper-136). After 10 unregistered ones in a
    /// minute, every setup from that address waits, a registered device's too.
    @Test func setupsOfUnregisteredDevicesAreLimitedPerAddress() async throws {
        try await withApp { client, _ in
            for index in 0..<DeviceRegistry.unknownSetupsPerMinute {
                let guess = try await client.execute(uri: "/api/setup", method: .get, headers: [.deviceID: String(format: "00:00:00:00:00:%02X", index)])
                #expect(guess.status == .notFound)
            }
            let found = try await client.execute(uri: "/api/setup", method: .get, headers: [.deviceID: Self.original.id])
            #expect(found.status == .tooManyRequests)
            #expect(found.headers[.retryAfter].flatMap(Int.init).map { (1...60).contains($0) } == true)
            #expect(String(buffer: found.body) == "{\"error\":\"too many setups of devices that are not registered: wait a minute\"}\n")
            // The device's own requests are not setups.
            let display = try await client.execute(
                uri: "/api/display", method: .get, headers: [.deviceID: Self.original.id, HTTPField.Name("Access-Token")!: Self.original.apiKey])
            #expect(display.status == .ok)
        }
    }

    /// The count is per address and per minute, and bounded in the addresses it keeps.
    @Test func theSetupCountStartsAgainEachMinute() {
        let devices = DeviceRegistry([Self.original])
        let start = ContinuousClock.now
        for _ in 0..<DeviceRegistry.unknownSetupsPerMinute {
            #expect(devices.setupWait(for: "10.0.0.9", at: start) == nil)
            devices.countUnknownSetup(from: "10.0.0.9", at: start)
        }
        #expect(devices.setupWait(for: "10.0.0.9", at: start + .seconds(20)) == 40)
        #expect(devices.setupWait(for: "10.0.0.8", at: start + .seconds(20)) == nil)
        #expect(devices.setupWait(for: "10.0.0.9", at: start + .seconds(60)) == nil)
        for index in 0..<DeviceRegistry.unknownSetupAddresses { devices.countUnknownSetup(from: "address \(index)", at: start + .seconds(61)) }
        #expect(devices.setupWait(for: "one more", at: start + .seconds(62)) == 60)
        #expect(devices.setupWait(for: "one more", at: start + .seconds(122)) == nil)
        // An IPv6 host picks its addresses in its /64.
        #expect(DeviceRegistry.client(at: "2001:db8:1:2::5") == DeviceRegistry.client(at: "2001:db8:1:2:abcd::9"))
        #expect(DeviceRegistry.client(at: "2001:db8:1:2::5") != DeviceRegistry.client(at: "2001:db8:1:3::5"))
        #expect(DeviceRegistry.client(at: "::ffff:192.0.2.1") != DeviceRegistry.client(at: "::ffff:192.0.2.2"))
        #expect(DeviceRegistry.client(at: "192.0.2.1") == "192.0.2.1")
    }

    @Test(arguments: [
        (original, "png", 1, "800x480.png?theme=mono&depth=1"),
        (grayscale, "png", 2, "800x480.png?theme=mono&depth=2"),
        (bitmap, "bmp", 1, "800x480.bmp?theme=mono&depth=1"),
    ])
    func aDeviceIsSetUpAndGetsItsImage(device: DeviceRecord, format: String, depth: Int, path: String) async throws {
        try await withApp { client, _ in
            // The firmware sends its MAC in upper or lower case.
            let setup = try await client.execute(
                uri: "/api/setup", method: .get, headers: [.deviceID: device.id.lowercased(), HTTPField.Name("Host")!: "dash.local:8787"])
            #expect(setup.status == .ok)
            let setupJSON = try Self.json(setup.body)
            #expect(setupJSON["status"] as? Int == 200)
            #expect(setupJSON["api_key"] as? String == device.apiKey)
            #expect(setupJSON["friendly_id"] as? String == device.friendlyID)
            // The setup image of an 800 × 480 device is the 1-bit BMP of exactly 48 062 bytes,
            // whatever it shows later: the original's firmware before 1.8.5 keeps nothing else
            // at setup, and showed "API size error" (helper-131). Its key opens it.
            let setupURL = try #require(setupJSON["image_url"] as? String)
            #expect(setupURL.hasPrefix("http://") && setupURL.hasSuffix("/widget/800x480.bmp?theme=mono&depth=1&token=\(device.apiKey)"))
            let setupImage = try await client.execute(uri: "/widget/800x480.bmp?theme=mono&depth=1&token=\(device.apiKey)", method: .get)
            #expect(setupImage.status == .ok && setupImage.body.readableBytes == 48_062)
            #expect("\"\(setupJSON["filename"] as? String ?? "")\"" == setupImage.headers[.eTag])

            let headers: HTTPFields = [.deviceID: device.id, .accessToken: device.apiKey]
            let display = try await client.execute(uri: "/api/display", method: .get, headers: headers)
            #expect(display.status == .ok)
            let json = try Self.json(display.body)
            #expect(json["status"] as? Int == 0)
            #expect(json["update_firmware"] as? Bool == false)
            // 09:00, and the image next changes at 09:15 at the earliest: between a minute and 15.
            let refreshRate = try #require(json["refresh_rate"] as? Int)
            #expect((60...900).contains(refreshRate))
            let url = try #require(json["image_url"] as? String)
            #expect(url.hasSuffix("/widget/\(path)&token=\(device.apiKey)"))
            #expect(url.hasPrefix("http://"))

            // The firmware fetches the image with a plain GET: the key in the URL opens it.
            let parts = try #require(URLComponents(string: url))
            let image = try await client.execute(uri: parts.percentEncodedPath + "?" + (parts.percentEncodedQuery ?? ""), method: .get)
            #expect(image.status == .ok)
            let withHeaders = try await client.execute(uri: "/widget/\(path)", method: .get, headers: headers)
            #expect(withHeaders.status == .ok && withHeaders.body == image.body)
            #expect(try await client.execute(uri: "/widget/\(path)", method: .get).status == .unauthorized)
            #expect("\"\(json["filename"] as? String ?? "")\"" == image.headers[.eTag])
            #expect(image.body.readableBytes <= 90_000)
            if format == "png" {
                let header = try #require(PNGHeader(image.body))
                #expect(header == PNGHeader(width: 800, height: 480, bitDepth: depth, colorType: 0))
            } else {
                #expect(image.body.readableBytes == 48_062)
                #expect(image.body.getString(at: 0, length: 2) == "BM")
                #expect(image.body.getInteger(at: 46, endianness: .little, as: UInt32.self) == 2, "the palette count")
            }
        }
    }

    /// A request without `Host` (HTTP/1.0) gets the address and port that it reached: the URL
    /// was `http://localhost/…`, without the port.
    @Test func withoutAHostTheImageURLNamesTheAddressReached() async throws {
        let environment = try ServeEnvironment()
        try await withLiveServer(environment) { port in
            try await onThread {
                let connection = try RawConnection(port: port)
                connection.send("GET /api/setup HTTP/1.0\r\nID: \(ServeEnvironment.device.id)\r\n\r\n")
                let answer = connection.receive(timeout: 20)
                #expect(answer.text.contains("\"image_url\":\"http://127.0.0.1:\(port)/widget/800x480.bmp?"), "\(answer.text)")
            }
        }
    }

    /// `filename` is the same while nothing changes and changes with the image.
    @Test func theFilenameFollowsTheImage() async throws {
        try await withApp { client, environment in
            let headers: HTTPFields = [.deviceID: Self.original.id, .accessToken: Self.original.apiKey]
            let first = try Self.json(try await client.execute(uri: "/api/display", method: .get, headers: headers).body)
            let again = try Self.json(try await client.execute(uri: "/api/display", method: .get, headers: headers).body)
            #expect(first["filename"] as? String == again["filename"] as? String)

            _ = try environment.store.store.addTask(NewTask(title: "Buy milk"), now: ServeEnvironment.now)
            #expect(try environment.publish() != nil)
            let changed = try Self.json(try await client.execute(uri: "/api/display", method: .get, headers: headers).body)
            #expect(changed["filename"] as? String != first["filename"] as? String)
        }
    }

    /// `refresh_rate` is the seconds until the image next changes ("Pay rent" falls due at 09:30),
    /// at least a minute and at most 15.
    @Test(arguments: [("09:00:00", 900), ("09:25:00", 300), ("09:29:30", 60), ("09:29:59", 60)])
    func theRefreshRateIsTheTimeToTheNextChange(time: String, seconds: Int) async throws {
        try await withApp(now: Fixed.instant("2026-11-23T\(time)+01:00")) { client, _ in
            let headers: HTTPFields = [.deviceID: Self.original.id, .accessToken: Self.original.apiKey]
            let display = try Self.json(try await client.execute(uri: "/api/display", method: .get, headers: headers).body)
            #expect(display["refresh_rate"] as? Int == seconds)
        }
    }

    /// While the store cannot be read, a device gets the image of the failure with 200: its
    /// firmware shows an image sent with any other status as its own "API error" screen. Other
    /// clients get it with 503.
    @Test func aDeviceGetsTheImageOfAFailureWith200() async throws {
        try await withApp { client, environment in
            environment.cache.publish(nil, failure: TaskWidgetError(.storeMissing, "there is no store at /x/tasks.sqlite yet"))
            let headers: HTTPFields = [.deviceID: Self.original.id, .accessToken: Self.original.apiKey]
            let display = try Self.json(try await client.execute(uri: "/api/display", method: .get, headers: headers).body)
            #expect(display["refresh_rate"] as? Int == 60)
            let url = try #require(display["image_url"] as? String)
            let parts = try #require(URLComponents(string: url))
            let uri = parts.percentEncodedPath + "?" + (parts.percentEncodedQuery ?? "")
            let image = try await client.execute(uri: uri, method: .get)
            #expect(image.status == .ok)
            #expect(try await client.execute(uri: uri, method: .get, headers: headers).body == image.body)
            #expect(image.headers[.cacheControl] == "no-store")
            #expect(image.headers[.eTag] == nil)
            #expect(PNGHeader(image.body) == PNGHeader(width: 800, height: 480, bitDepth: 1, colorType: 0))
            #expect(ContentHash(of: image.body).description == display["filename"] as? String)

            // Another device's key does not open this device's image at all, in a header or in the URL.
            let otherKey: HTTPFields = [.deviceID: Self.original.id, .accessToken: Self.grayscale.apiKey]
            let bare = "/widget/800x480.png?theme=mono&depth=1"
            #expect(try await client.execute(uri: bare, method: .get, headers: otherKey).status == .unauthorized)
            #expect(try await client.execute(uri: bare + "&token=\(Self.grayscale.apiKey)", method: .get).status == .unauthorized)
            let browser = try await client.execute(uri: bare, method: .get, headers: [.authorization: "Bearer server-token"])
            #expect(browser.status == .serviceUnavailable)
            #expect(browser.body == image.body)
        }
    }

    @Test func displayWantsTheDevicesOwnKey() async throws {
        try await withApp { client, _ in
            for key in ["server-token", Self.grayscale.apiKey, "", "device-key-12"] {
                let headers: HTTPFields = [.deviceID: Self.original.id, .accessToken: key]
                let response = try await client.execute(uri: "/api/display", method: .get, headers: headers)
                #expect(response.status == .unauthorized, "\(key)")
            }
        }
    }

    @Test func logsAreTakenAndDroppedUpToALimit() async throws {
        try await withApp { client, _ in
            let headers: HTTPFields = [.deviceID: Self.original.id, .accessToken: Self.original.apiKey]
            let log = ByteBuffer(string: "{\"logs\":[{\"message\":\"hello\"}]}")
            #expect(try await client.execute(uri: "/api/log", method: .post, headers: headers, body: log).status == .noContent)
            let big = ByteBuffer(repeating: UInt8(ascii: "x"), count: 100_000)
            let tooBig = try await client.execute(uri: "/api/log", method: .post, headers: headers, body: big)
            #expect(tooBig.status == .contentTooLarge)
            #expect(String(buffer: tooBig.body).hasPrefix("{\"error\":"))
        }
    }
}
