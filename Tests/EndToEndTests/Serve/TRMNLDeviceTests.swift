import Foundation
import Testing

@testable import TaskWidgetTestSupport

/// A TRMNL device as its firmware talks to `taskwidget serve` (BYOS): setup, display, the image,
/// with devices registered by `serve device add`.
@Suite(.serialized, .runsPrograms(onThreadNamed: "TRMNL end-to-end"), .timeLimit(.minutes(5))) struct TRMNLDeviceTests {
    static let devices = [
        (id: "AA:BB:CC:DD:EE:FF", options: [String](), depth: 1, format: "png"),
        (id: "11:22:33:44:55:66", options: ["--depth", "2"], depth: 2, format: "png"),
        (id: "22:33:44:55:66:77", options: ["--image-format", "bmp"], depth: 1, format: "bmp"),
    ]

    /// A busy store: 16 open tasks with long titles in three scripts and emoji, lists, habits, and
    /// "Stand-up" falling due at 16:40.
    static func busyStore() throws -> Sandbox {
        var sandbox = try Sandbox.demo()
        sandbox.now = "2026-11-22T16:35:00+01:00"
        for number in 1...8 {
            try sandbox.succeed([
                "add", "Task \(number): 会議の資料を準備する and review the quarterly numbers 📊 مراجعة", "--new-list", "--list", number % 2 == 0 ? "Work" : "Home",
                "--due", "2026-11-2\(3 + number % 4)T1\(number):15:00+01:00",
            ])
        }
        try sandbox.succeed(["add", "Stand-up", "--due", "2026-11-22T16:40:00+01:00"])
        return sandbox
    }

    @Test func aDeviceIsSetUpGetsItsImageAndRedrawsOnlyOnChange() throws {
        let sandbox = try Self.busyStore()
        for device in Self.devices {
            let added = try sandbox.run(["serve", "device", "add", device.id] + device.options, global: false)
            #expect(added.status == 0 && added.stdout.hasPrefix("Added \(device.id) ("), "\(added.stderr)")
        }
        // With a token, as a server other machines reach has: only a device's key opens its image.
        let token = try sandbox.run(["serve", "token"], global: false).stdout.trimmingCharacters(in: .newlines)
        let server = try ServeProcess(sandbox)
        let events = try server.events(query: "?token=\(token)")
        var filenames: [String: String] = [:]
        for device in Self.devices {
            // Setup: the firmware sends its MAC (and model and panel), and gets its key.
            let setup = try server.request(
                "/api/setup", headers: ["ID": device.id, "Model": "og", "Width": "800", "Height": "480", "FW-Version": "1.6.0"])
            #expect(setup.status == 200)
            let setupJSON = try Self.object(setup)
            #expect(setupJSON["status"] as? Int == 200)
            let key = try #require(setupJSON["api_key"] as? String)
            #expect(setupJSON["friendly_id"] as? String != nil && setupJSON["filename"] as? String != nil)
            // Its first screen: the 48 062-byte BMP every original's firmware takes at setup.
            let setupURL = try #require((setupJSON["image_url"] as? String).flatMap(URLComponents.init(string:)))
            let setupImage = try server.request(setupURL.percentEncodedPath + "?" + (setupURL.percentEncodedQuery ?? ""))
            #expect(setupImage.status == 200 && setupImage.body.count == 48_062 && setupImage.body.prefix(2).elementsEqual("BM".utf8))

            // Display: what to show, named by its content, and when to ask again.
            let headers = ["ID": device.id, "Access-Token": key, "Refresh-Rate": "900", "Battery-Voltage": "4.1", "RSSI": "-60"]
            let display = try Self.object(try server.request("/api/display", headers: headers))
            #expect(display["status"] as? Int == 0 && display["update_firmware"] as? Bool == false)
            #expect(display["refresh_rate"] as? Int == 300, "Stand-up falls due in 5 minutes")
            let url = try #require((display["image_url"] as? String).flatMap(URLComponents.init(string:)))
            #expect(url.host == "127.0.0.1" && url.port == server.port, "\(url)")
            // The firmware fetches `image_url` with a plain GET, without its `Access-Token`.
            let image = try server.request(url.percentEncodedPath + "?" + (url.percentEncodedQuery ?? ""))
            #expect(image.status == 200)
            #expect(try server.request(url.percentEncodedPath).status == 401)
            #expect("\"\(display["filename"] as? String ?? "")\"" == image.headers["etag"])
            #expect(image.body.count <= 90_000, "\(image.body.count) bytes")
            if device.format == "png" {
                #expect(PNGHeader(image.body) == PNGHeader(width: 800, height: 480, bitDepth: device.depth, colorType: 0))
            } else {
                #expect(image.body.count == 48_062)
                #expect(image.body.prefix(2).elementsEqual("BM".utf8) && image.body[46] == 2, "BM, and a palette of two colors")
            }
            let again = try Self.object(try server.request("/api/display", headers: headers))
            #expect(again["filename"] as? String == display["filename"] as? String, "nothing changed")
            filenames[device.id] = display["filename"] as? String
            // A device's own log is taken and dropped.
            let log = "{\"logs\":[{\"message\":\"woke up\"}]}"
            #expect(try server.request("/api/log", method: "POST", headers: headers, body: log).status == 204)
        }

        try sandbox.succeed(["add", "Call the plumber", "--due", "2026-11-22T16:00:00+01:00"])
        #expect(events.next() != nil, "the server saw the change")
        for device in Self.devices {
            let key = try #require(try Self.object(try server.request("/api/setup", headers: ["ID": device.id]))["api_key"] as? String)
            let display = try Self.object(try server.request("/api/display", headers: ["ID": device.id, "Access-Token": key]))
            #expect(display["filename"] as? String != filenames[device.id], "\(device.id) redraws")
        }
        #expect(server.terminate() == 0)
    }

    /// An unregistered device's setup is logged once, with the address it came from; made-up IDs
    /// past the first 64 do not fill the journal: one line says the rest are not named. One address
    /// may ask for 10 in a minute, then waits (429), so that nobody finds a registered device, and
    /// its key, by trying every MAC address (helper-136): here from eight loopback addresses.
    @Test func unregisteredDevicesAreLoggedOnceAndBoundedly() throws {
        let sandbox = try Sandbox.demo()
        try sandbox.succeed(["serve", "device", "add", "AA:BB:CC:DD:EE:FF"], global: false)
        let server = try ServeProcess(sandbox)
        let ids = (0..<80).map { String(format: "02:00:00:00:00:%02X", $0) }
        // `ADDRESS ID` lines in, one status a line out, each request from ADDRESS.
        let script = """
            import http.client, sys
            for line in sys.stdin:
                address, id = line.split()
                connection = http.client.HTTPConnection("127.0.0.1", int(sys.argv[1]), source_address=(address, 0))
                connection.request("GET", "/api/setup", headers={"ID": id})
                print(connection.getresponse().status, flush=True)
                connection.close()
            """
        let requests = ids.enumerated().map { "127.0.0.\($0.offset / 10 + 2) \($0.element)" } + ids.prefix(3).map { "127.0.0.2 \($0)" }
            + ["127.0.0.1 AA:BB:CC:DD:EE:FF"] + ids.prefix(10).map { "127.0.0.1 \($0)" } + ["127.0.0.1 AA:BB:CC:DD:EE:FF"]
        let result = try ProcessRunner.run(
            "/usr/bin/python3", ["-c", script, String(server.port)], input: Data(requests.map { $0 + "\n" }.joined().utf8))
        let statuses = result.stdout.split(separator: "\n")
        #expect(statuses.count == requests.count, "\(result.stderr)")
        // Ten a minute from each address; then even the registered device waits.
        #expect(statuses.prefix(80).allSatisfy { $0 == "404" })
        #expect(statuses[80..<83].allSatisfy { $0 == "429" })
        #expect(statuses[83] == "200")
        #expect(statuses[84..<94].allSatisfy { $0 == "404" })
        #expect(statuses[94] == "429")
        #expect(server.terminate() == 0)
        let lines = server.process.stderrText.split(separator: "\n")
        let named = lines.filter { $0.contains("is not registered asked to be set up, from 127.0.0.") && $0.contains(": if it is yours, register it with") }
        #expect(named.count == 64, "\(lines.count) lines")
        #expect(named.first?.hasSuffix("from 127.0.0.2: if it is yours, register it with `taskwidget serve device add 02:00:00:00:00:00`") == true, "\(named.first ?? "")")
        #expect(lines.filter { $0.contains("the log names no more of them until serve restarts") }.count == 1)
        #expect(lines.count == 65, "\(server.process.stderrText)")
    }

    /// What the log says of a device that does not match its registration (helper-164): an
    /// unregistered TRMNL X's setup names its panel in the command that registers it; a registered
    /// device that says it has another panel, or that sends another key (its key was replaced),
    /// is named once each, with what to do. A device that asks with the wrong key still gets 401.
    @Test func aDeviceThatDoesNotMatchItsRegistrationIsNamedInTheLog() throws {
        let sandbox = try Sandbox.demo()
        try sandbox.succeed(["serve", "device", "add", "AA:BB:CC:DD:EE:FF"], global: false)
        _ = try sandbox.run(["serve", "token"], global: false)
        let server = try ServeProcess(sandbox)
        let unregistered = try server.request("/api/setup", headers: ["ID": "11:22:33:44:55:66", "Model": "x", "Width": "1872", "Height": "1404"])
        #expect(unregistered.status == 404)
        let key = try #require(try Self.object(try server.request("/api/setup", headers: ["ID": "AA:BB:CC:DD:EE:FF"]))["api_key"] as? String)
        for _ in 1...2 {
            let wrongPanel = ["ID": "AA:BB:CC:DD:EE:FF", "Access-Token": key, "Width": "1872", "Height": "1404"]
            #expect(try server.request("/api/display", headers: wrongPanel).status == 200)
            #expect(try server.request("/api/display", headers: ["ID": "AA:BB:CC:DD:EE:FF", "Access-Token": "an-old-key"]).status == 401)
            #expect(try server.request("/api/display", headers: ["ID": "AA:BB:CC:DD:EE:FF"]).status == 401)
        }
        // Its key replaced once more (the key it had is old now): said again (helper-167).
        try sandbox.succeed(["serve", "device", "rm", "AA:BB:CC:DD:EE:FF"], global: false)
        try sandbox.succeed(["serve", "device", "add", "AA:BB:CC:DD:EE:FF"], global: false)
        #expect(try server.request("/api/display", headers: ["ID": "AA:BB:CC:DD:EE:FF", "Access-Token": key]).status == 401)
        #expect(server.terminate() == 0)
        let lines = server.process.stderrText.split(separator: "\n")
        let expected = [
            "register it with `taskwidget serve device add 11:22:33:44:55:66 --size 1872x1404 --depth 4`",
            "the TRMNL device AA:BB:CC:DD:EE:FF says its screen is 1872x1404, and is registered for 800x480: if it is right, run "
                + "`taskwidget serve device add AA:BB:CC:DD:EE:FF --size 1872x1404 --depth 4`",
            "the TRMNL device AA:BB:CC:DD:EE:FF sent a key that is not its own (replaced by `serve device rm` and `add`?): set it up again",
        ]
        for (text, count) in zip(expected, [1, 1, 2]) {
            #expect(lines.filter { $0.contains(text) }.count == count, "\(text) in \(server.process.stderrText)")
        }
    }

    /// `refresh_rate` is the seconds until the image next changes, at least 60 and at most 900.
    @Test(arguments: [("16:20:00", 900), ("16:30:00", 600), ("16:39:00", 60), ("16:39:45", 60)])
    func theRefreshRateIsTheTimeToTheNextChange(time: String, seconds: Int) throws {
        var sandbox = try Sandbox()
        try sandbox.succeed(["add", "Stand-up", "--due", "2026-11-22T16:40:00+01:00"])
        try sandbox.succeed(["serve", "device", "add", "AA:BB:CC:DD:EE:FF"], global: false)
        sandbox.now = "2026-11-22T\(time)+01:00"
        let server = try ServeProcess(sandbox)
        let key = try #require(try Self.object(try server.request("/api/setup", headers: ["ID": "AA:BB:CC:DD:EE:FF"]))["api_key"] as? String)
        let display = try Self.object(try server.request("/api/display", headers: ["ID": "AA:BB:CC:DD:EE:FF", "Access-Token": key]))
        #expect(display["refresh_rate"] as? Int == seconds)
        #expect(server.terminate() == 0)
    }

    /// serve's own options given to its subcommands were taken and ignored: `serve token
    /// --token-file x` printed the default token, exit 0, and made no file x.
    @Test func serveOwnOptionsAreRefusedByItsSubcommands() throws {
        let sandbox = try Sandbox()
        for (arguments, message) in [
            (["serve", "token", "--token-file", "x"], "--token-file is an option of `taskwidget serve`, not of `taskwidget serve token`: use --file"),
            (["serve", "token", "--listen", "1.2.3.4:5"], "--listen is an option of `taskwidget serve`, not of `taskwidget serve token`"),
            (["serve", "device", "ls", "--list", "Work"], "--list is an option of `taskwidget serve`, not of `taskwidget serve device`"),
            (["serve", "device", "add", "AA:BB:CC:DD:EE:FF", "--store", "x.sqlite"], "--store is an option of `taskwidget serve`, not of `taskwidget serve device`"),
        ] {
            let refused = try sandbox.run(arguments, global: false)
            #expect(refused.status == 64 && refused.stdout.isEmpty, "\(arguments)")
            #expect(refused.stderr.hasPrefix("taskwidget: \(message) (see `taskwidget serve "), "\(refused.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: sandbox.folder.appendingPathComponent(".config/taskwidget").path), "no token, no device made")
    }

    @Test func devicesAreManagedFromTheCommandLine() throws {
        let sandbox = try Sandbox()
        let empty = try sandbox.run(["serve", "device", "ls"], global: false)
        #expect(empty.stdout == "No devices: add one with `taskwidget serve device add MAC`\n")
        try sandbox.succeed(["serve", "device", "add", "AA:BB:CC:DD:EE:FF", "--name", "kitchen"], global: false)
        try sandbox.succeed(["serve", "device", "add", "11:22:33:44:55:66", "--size", "1872x1404", "--depth", "4"], global: false)
        let listing = try sandbox.run(["serve", "device", "ls"], global: false).stdout
        #expect(listing.hasPrefix("ID                 FRIENDLY  NAME     SIZE       DEPTH  FORMAT\nAA:BB:CC:DD:EE:FF  "))
        #expect(listing.contains("kitchen  800x480    1-bit  png\n") && listing.contains("1872x1404  4-bit  png\n"))
        let file = sandbox.folder.appendingPathComponent(".config/taskwidget/devices.toml").path
        let mode = try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int
        #expect(mode == 0o600, "the keys are secrets")
        #expect(!listing.contains(try String(contentsOfFile: file, encoding: .utf8).firstMatch(of: /api_key = "([^"]+)"/)!.output.1))

        let bad = try sandbox.run(["serve", "device", "add", "AA:BB:CC:DD:EE:FF", "--depth", "3"], global: false)
        #expect(bad.status == 64 && bad.stderr.hasPrefix("taskwidget: --depth must be 1, 2 or 4"))
        let huge = try sandbox.run(["serve", "device", "add", "AA:BB:CC:DD:EE:FF", "--size", "8000x480"], global: false)
        #expect(huge.status == 64 && huge.stderr.hasPrefix("taskwidget: “8000x480” is not a size: give WIDTHxHEIGHT in pixels, each from 64 to 4096"))
        // A name is one line, as ls shows it (a line break vanished there, helper-96).
        let twoLines = try sandbox.run(["serve", "device", "add", "AA:BB:CC:DD:EE:FF", "--name", "a\nb"], global: false)
        #expect(twoLines.status == 64 && twoLines.stderr == "taskwidget: the device name contains a line break: use plain one-line text\n")
        #expect(try sandbox.run(["serve", "device", "ls"], global: false).stdout.contains("kitchen  800x480"))
        for notAMAC in ["notamac", "AA", "AA:BB:CC:DD:EE", "AA:BB:CC:DD:EE:FG", "AA-BB-CC-DD-EE-FF"] {
            let refused = try sandbox.run(["serve", "device", "add", notAMAC], global: false)
            #expect(refused.status == 64 && refused.stderr.hasPrefix("taskwidget: the device ID is its MAC address"), "\(notAMAC)")
        }
        // The firmware reads BMPs of 800x480 only: a larger one was served and refused by the
        // device without a word (helper-131).
        let large = try sandbox.run(["serve", "device", "add", "11:22:33:44:55:66", "--image-format", "bmp"], global: false)
        #expect(large.status == 64)
        #expect(large.stderr == "taskwidget: a TRMNL device takes BMP images at 800x480 only: give 1872x1404 as --image-format png, or --size 800x480\n")
        // A BMP device keeps 1 bit: a new depth needs PNG, and saying so changes nothing.
        // The 4 bits it had are said to be gone (they went without a word, helper-113).
        let bmp = try sandbox.succeed(["serve", "device", "add", "11:22:33:44:55:66", "--size", "800x480", "--image-format", "bmp"], global: false)
        #expect(
            bmp.hasSuffix(
                ": 800x480 1-bit bmp\nNote: a BMP is 1-bit, so its 4 bits are gone: `--image-format png --depth 4` gives them back\n"),
            "\(bmp)")
        #expect(!(try sandbox.succeed(["serve", "device", "add", "11:22:33:44:55:66", "--image-format", "bmp"], global: false)).contains("Note"))
        let deeper = try sandbox.run(["serve", "device", "add", "11:22:33:44:55:66", "--depth", "2"], global: false)
        #expect(deeper.status == 64)
        #expect(deeper.stderr == "taskwidget: 11:22:33:44:55:66 gets 1-bit BMP images: add --image-format png to give it 2 bits\n")
        #expect(try sandbox.run(["serve", "device", "ls"], global: false).stdout.contains("800x480  1-bit  bmp\n"))
        #expect(try sandbox.run(["serve", "device", "add", "11:22:33:44:55:66", "--depth", "2", "--image-format", "png"], global: false).status == 0)
        let missing = try sandbox.run(["serve", "device", "rm", "00:00"], global: false)
        #expect(missing.status == 64 && missing.stderr == "taskwidget: no device 00:00: see `taskwidget serve device ls`\n")
        #expect(try sandbox.run(["serve", "device", "rm", "aa:bb:cc:dd:ee:ff"], global: false).stdout.hasPrefix("Removed AA:BB:CC:DD:EE:FF"))
        #expect(!(try sandbox.run(["serve", "device", "ls"], global: false).stdout.contains("AA:BB")))
        // The friendly ID that ls shows names a device too, in either case: to rm, and to add,
        // which took MAC addresses only (helper-164).
        let friendly = try #require(try sandbox.run(["serve", "device", "ls"], global: false).stdout.firstMatch(of: /11:22:33:44:55:66  ([A-Z0-9]{6})/)?.output.1)
        #expect(try sandbox.succeed(["serve", "device", "add", String(friendly), "--name", "hall"], global: false).hasPrefix("Changed 11:22:33:44:55:66 (\(friendly), hall): "))
        #expect(try sandbox.run(["serve", "device", "ls"], global: false).stdout.contains("\(friendly)    hall"))
        #expect(try sandbox.run(["serve", "device", "rm", friendly.lowercased()], global: false).stdout == "Removed 11:22:33:44:55:66 (\(friendly))\n")
    }

    static func object(_ response: RawResponse) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any], "\(response.text)")
    }
}
