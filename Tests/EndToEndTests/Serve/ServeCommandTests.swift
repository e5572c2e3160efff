import Foundation
import Glibc
import Testing

@testable import TaskWidgetTestSupport

/// `taskwidget serve` run as a user runs it, asked by the clients it is for: pollers (Kindle, Home
/// Assistant), raw sockets that misbehave, and a server's own signals.
@Suite(.serialized, .runsPrograms(onThreadNamed: "serve end-to-end"), .timeLimit(.minutes(5))) struct ServeCommandTests {
    /// What the server answers is what the commands print for the same moment: every status
    /// format, the timeline, and the widget images (byte for byte).
    @Test func theServerAnswersWhatTheCommandsPrint() throws {
        let sandbox = try Sandbox.demo()
        let server = try ServeProcess(sandbox)
        for format in ["text", "json", "waybar", "i3bar", "polybar", "tmux"] {
            let response = try server.request("/status?format=\(format)")
            #expect(response.status == 200)
            #expect(response.text == (try sandbox.succeed(["status", "--format", format])), "\(format)")
        }
        #expect(try server.request("/timeline.json").text == (try sandbox.succeed(["timeline", "--format", "json"])))
        for (path, arguments) in [
            ("/widget/medium.png?scale=2", ["--family", "medium", "--scale", "2"]),
            ("/widget/800x480.png?theme=mono&depth=1", ["--size", "800x480", "--theme", "mono", "--depth", "1"]),
            ("/widget/small.png?theme=dark&rotate=90", ["--family", "small", "--theme", "dark", "--rotate", "90"]),
        ] {
            let file = sandbox.folder.appendingPathComponent("widget.png")
            try sandbox.succeed(["render"] + arguments + ["-o", file.path])
            let response = try server.request(path)
            #expect(response.status == 200 && response.headers["content-type"] == "image/png")
            #expect(Data(response.body) == (try Data(contentsOf: file)), "\(path)")
        }
        #expect(server.terminate() == 0)
    }

    /// An image not drawn yet reuses the memory of the last one (serve keeps it from the kernel):
    /// no page faults to speak of, where without the setting each took 47 to 187.
    @Test func anUncachedImageReusesTheLastOnesMemory() throws {
        let sandbox = try Sandbox.demo()
        let server = try ServeProcess(sandbox)
        func minorFaults() throws -> Int {
            let stat = try String(contentsOfFile: "/proc/\(server.process.pid)/stat", encoding: .utf8)
            return Int(stat[stat.index(after: stat.lastIndex(of: ")")!)...].split(separator: " ")[7])!
        }
        #expect(try server.request("/widget/medium.png?scale=2&theme=dark").status == 200)  // the first after start
        for variant in ["theme=mono", "depth=8", "theme=dark&rotate=180"] {
            let before = try minorFaults()
            #expect(try server.request("/widget/medium.png?scale=2&\(variant)").status == 200)
            let faults = try minorFaults() - before
            #expect(faults < 30, "\(variant): \(faults) page faults")
        }
        #expect(server.terminate() == 0)
    }

    /// A poller's view: ETag and 304, HEAD without a body, and a max-age that ends when the image
    /// next changes ("Stand-up" falls due at 16:40, 13 minutes after the sandbox's 16:27).
    @Test func aPollerGetsValidatorsAndTheTimeToTheNextChange() throws {
        let sandbox = try Sandbox()
        try sandbox.succeed(["add", "Stand-up", "--due", "2026-11-22T16:40:00+01:00"])
        try sandbox.succeed(["add", "Read", "--due", "2026-11-24T09:00:00+01:00"])
        let server = try ServeProcess(sandbox)
        let image = try server.request("/widget/800x480.png?theme=mono&depth=1")
        #expect(image.status == 200)
        #expect(image.headers["cache-control"] == "max-age=780")
        #expect(image.headers["content-length"] == String(image.body.count))
        let eTag = try #require(image.headers["etag"])
        #expect(eTag.hasPrefix("\"") && !eTag.hasPrefix("W/"))

        let head = try server.request("/widget/800x480.png?theme=mono&depth=1", method: "HEAD")
        #expect(head.status == 200 && head.body.isEmpty)
        #expect(head.headers["etag"] == eTag && head.headers["content-length"] == String(image.body.count))
        let notModified = try server.request("/widget/800x480.png?theme=mono&depth=1", headers: ["If-None-Match": eTag])
        #expect(notModified.status == 304 && notModified.body.isEmpty)
        #expect(notModified.headers["cache-control"] == "max-age=780" && notModified.headers["etag"] == eTag)
        // Another image is another representation.
        #expect(try server.request("/widget/800x480.png?theme=mono&depth=2", headers: ["If-None-Match": eTag]).status == 200)
        // The status line's next change is the same moment; the JSON line, which carries the
        // entry's own times, changes with the next entry (16:30).
        #expect(try server.request("/status?format=waybar").headers["cache-control"] == "max-age=780")
        #expect(try server.request("/status?format=json").headers["cache-control"] == "max-age=180")
        #expect(server.terminate() == 0)
    }

    /// Bad paths and parameters get a 4xx and one line of JSON; the server keeps serving.
    @Test func badRequestsGetOneLineJSONErrors() throws {
        let sandbox = try Sandbox.demo()
        let server = try ServeProcess(sandbox)
        for (path, status) in [
            ("/widget/medium.png?depth=3", 400), ("/widget/medium.png?scale=9", 400), ("/widget/0x480.png", 400),
            ("/widget/100000x100000.png", 400), ("/widget/800x480.bmp?depth=2", 400), ("/etc/passwd", 404),
            ("/widget/medium.png/../../x", 404), ("/status?format=html", 400),
        ] {
            let response = try server.request(path)
            #expect(response.status == status, "\(path)")
            #expect(response.headers["content-type"] == "application/json; charset=utf-8", "\(path)")
            #expect(response.text.hasPrefix("{\"error\":\"") && response.text.hasSuffix("\"}\n"), "\(path): \(response.text)")
            #expect(response.text.filter { $0 == "\n" }.count == 1, "\(path)")
        }
        // A 1 MB header: refused by the HTTP decoder (431 and one line of JSON, connection closed).
        let huge = try RawConnection(port: server.port)
        huge.send("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: \(String(repeating: "a", count: 1_000_000))\r\n\r\n")
        let answer = huge.receive(timeout: 10)
        #expect(answer.text.hasPrefix("HTTP/1.1 431 Request Header Fields Too Large\r\n"))
        #expect(answer.text.hasSuffix("\r\n\r\n{\"error\":\"request head too large\"}\n"))
        #expect(answer.closed)
        #expect(try server.request("/healthz").status == 200)
        #expect(server.terminate() == 0)
    }

    /// The store deleted: 503 for everything that needs it (an image of the failure for images),
    /// while the server keeps running; the store made again: the server answers as before.
    @Test func aDeletedStoreGives503UntilItIsMadeAgain() throws {
        let sandbox = try Sandbox.demo()
        let server = try ServeProcess(sandbox)
        let events = try server.events()
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: sandbox.storePath + suffix) }
        let failure = try #require(events.next(), "an event says the store is gone")
        #expect(failure.contains("\"error\":\"the store \(sandbox.storePath) is gone: restore it"))
        let image = try server.request("/widget/medium.png")
        #expect(image.status == 503)
        #expect(image.headers["content-type"] == "image/png" && image.headers["cache-control"] == "no-store")
        #expect(PNGHeader(image.body)?.width == 364, "an image that says why")
        let status = try server.request("/status")
        #expect(status.status == 503 && status.text.hasPrefix("{\"error\":\"the store "))
        #expect(try server.request("/healthz").status == 503)

        try sandbox.succeed(["add", "Start again"])
        // `add` links the new store into place whole, then writes its task: the server may
        // publish the empty store in between ("No open tasks"), and then the task.
        var back = try #require(events.next(), "an event says the store is back")
        if back.contains("No open tasks") { back = try #require(events.next(), "an event shows the task") }
        #expect(back.contains("\"status\":\"next: Start again"))
        #expect(try server.request("/widget/medium.png").status == 200)
        #expect(try server.request("/status").text == (try sandbox.succeed(["status"])))
        #expect(try server.request("/healthz").status == 200)
        #expect(server.terminate() == 0)
        // Without --verbose, the journal says the failure ended as well as that it began (helper-131).
        let log = server.process.stderrText
        let failed = try #require(log.range(of: "error"), "\(log)")
        let recovered = try #require(log.range(of: "the store can be read again"), "\(log)")
        #expect(recovered.lowerBound > failed.lowerBound, "\(log)")
    }

    /// A client that trickles its request a byte at a time does not keep others waiting.
    @Test func aSlowlorisClientDoesNotBlockOthers() throws {
        let sandbox = try Sandbox.demo()
        let server = try ServeProcess(sandbox)
        let slow = try RawConnection(port: server.port)
        let request = Array("GET /status HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: \(String(repeating: "z", count: 40))\r\n".utf8)
        // Each byte waits for another client's answer: were that client kept waiting behind the
        // unfinished request, its request would time out.
        for byte in request {
            slow.send([byte])
            #expect(try server.request("/healthz").status == 200)
        }
        #expect(server.terminate() == 0)
    }

    /// One host that opens more connections than the server takes (300 against 256), each with
    /// half a request, does not keep another host waiting: past its 128 the server closes its new
    /// ones at once. (Before, the other host's request waited in the backlog for the idle timeout.)
    @Test(.timeLimit(.minutes(1))) func aHostHoldingEveryConnectionItCanDoesNotBlockOthers() throws {
        let sandbox = try Sandbox.demo()
        let server = try ServeProcess(sandbox)
        let held = try (0..<300).map { _ in try RawConnection(port: server.port) }
        for connection in held { connection.send("GET /status HTTP/1.1\r\nHost: 127.0.0.1\r\n") }
        let started = ContinuousClock.now
        let answer = try rawGET(port: server.port, "/healthz", timeout: 20, from: "127.0.0.2")
        #expect(answer.hasPrefix("HTTP/1.1 200 OK"), "\(answer)")
        #expect(ContinuousClock.now - started < .seconds(10))
        var open = held
        #expect(waitUntil(within: .seconds(20), every: .milliseconds(50)) {
            open = open.filter { !$0.receive(timeout: 0.01).closed }
            return open.count == 128
        }, "\(open.count) of the 300 stay open")
        #expect(server.terminate() == 0)
    }

    /// SIGTERM, SIGINT and SIGHUP (a closed terminal) drain: an open event stream ends, the
    /// process exits 0, as watch and notify do (SIGHUP killed it, 129, helper-77).
    @Test(arguments: [SIGTERM, SIGINT, SIGHUP])
    func aSignalDrainsOpenStreamsAndExitsZero(signal: Int32) throws {
        let sandbox = try Sandbox.demo()
        let server = try ServeProcess(sandbox)
        let events = try server.events()
        #expect(server.terminate(signal) == 0)
        #expect(events.connection.receive(timeout: 10).closed)
        #expect(server.process.stderrText.isEmpty, "\(server.process.stderrText)")
    }

    /// An event stream asked for with a body is refused before it takes a slot: the connection
    /// closed for its body (dribbled past the body timeout, chunked past the size limit) ended
    /// under an open stream, whose slot stayed taken for good, and SIGTERM then waited for it
    /// for ever (helper-145). A body sent whole, or half and left, is refused the same way.
    @Test(.timeLimit(.minutes(1))) func anEventStreamWithABodyIsRefusedAndLeavesNothingBehind() throws {
        let sandbox = try Sandbox.demo()
        let server = try ServeProcess(sandbox)
        let requests = [
            "Content-Length: 5\r\n\r\nhello", "Transfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n",
            "Content-Length: 60000\r\n\r\na",
        ]
        var connections: [RawConnection] = []
        for request in requests {
            let connection = try RawConnection(port: server.port)
            connection.send("GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\n" + request)
            let answer = connection.receive(timeout: 10) { $0.contains("\r\n\r\n") && $0.contains("}\n") }.text
            #expect(answer.hasPrefix("HTTP/1.1 400 Bad Request\r\n") && answer.hasSuffix(#"{"error":"an event stream request has no body"}"# + "\n"), "\(answer)")
            // The connection ends with the answer: kept, it held one of the server's connections.
            #expect(connection.receive(timeout: 10).closed, "\(request)")
            connections.append(connection)
        }
        let events = try server.events()
        #expect(server.terminate() == 0)
        #expect(events.connection.receive(timeout: 10).closed)
        #expect(connections.count == requests.count)
    }

    /// A client that closes its side of the connection after its request (a half-close, as
    /// `nc -N` does) and then reads gets its image: it got 499 for any image not drawn yet, when
    /// such clients were taken for gone (helper-167). Their images are drawn after the others.
    @Test(.timeLimit(.minutes(1))) func aClientThatHalfClosesGetsItsImage() throws {
        let sandbox = try Sandbox.demo()
        let server = try ServeProcess(sandbox)
        let halfClose = """
            import socket, sys
            s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
            s.sendall(b"GET /widget/1235x567.png HTTP/1.1\\r\\nHost: 127.0.0.1\\r\\nConnection: close\\r\\n\\r\\n")
            s.shutdown(socket.SHUT_WR)
            print(s.makefile("rb").read().split(b"\\r\\n")[0].decode())
            """
        let result = try ProcessRunner.run("/usr/bin/python3", ["-c", halfClose, String(server.port)])
        #expect(result.stdout == "HTTP/1.1 200 OK\n", "\(result.stdout) \(result.stderr)")
        #expect(server.terminate() == 0)
    }

    /// SIGUSR1 opens the store again, as in watch: it killed serve, without a word (helper-76).
    @Test(.timeLimit(.minutes(1))) func sigusr1OpensTheStoreAgain() throws {
        let sandbox = try Sandbox.demo()
        let server = try ServeProcess(sandbox, ["--verbose"])
        #expect(server.process.waitForStderr(containing: "watching "), "\(server.process.stderrText)")
        #expect(server.process.occurrences(of: "opened store") == 1, "\(server.process.stderrText)")
        server.process.send(SIGUSR1)
        #expect(server.process.waitForStderr(containing: "opened store", count: 2), "\(server.process.stderrText)")
        #expect(try server.request("/status").status == 200)
        #expect(server.terminate() == 0)
    }

    /// A list the store does not have is refused at start with a suggestion, as `ls --list` is:
    /// serve started, and every route answered 503.
    @Test(.timeLimit(.minutes(1))) func aListTheStoreDoesNotHaveIsRefusedAtStart() throws {
        let sandbox = try Sandbox.demo()
        let refused = try sandbox.run(["serve", "--list", "Wrok", "--listen", "127.0.0.1:0"])
        #expect(refused.status == 64)
        #expect(refused.stderr == "taskwidget: no list is named “Wrok”: did you mean “Work”? (create one with `taskwidget list add NAME`)\n")
        #expect(refused.stdout.isEmpty)
    }

    /// The list serve was started with, renamed later: the 503 says to restart serve with the new
    /// name; it said to create a list, which would show an empty one (helper-77). So does a view's
    /// list, whose view serve read from config.toml at its start: it said "fix the view", and the
    /// fix went unseen (helper-112). The answer names none of the store's other lists: a
    /// dashboard limited to one list named them all (helper-153).
    @Test(.timeLimit(.minutes(1)), arguments: [
        (["--list", "Work"], "(serve was started with --list Work: if the list was renamed, restart serve with its new name)"),
        (
            ["--view", "work"],
            "(the view “work” in config.toml names it: fix the view and restart serve, or create the list with `taskwidget list add Work`)"
        ),
    ])
    func aListRenamedWhileServedSaysToRestartServe(arguments: [String], advice: String) throws {
        let sandbox = try Sandbox.demo()
        try sandbox.writeConfig("[views.work]\nlist = \"Work\"\n")
        let server = try ServeProcess(sandbox, arguments)
        let events = try server.events()
        try sandbox.succeed(["list", "rename", "Work", "Office"])
        #expect(events.next() != nil)
        let status = try server.request("/status")
        #expect(status.status == 503)
        #expect(String(decoding: status.body, as: UTF8.self) == "{\"error\":\"no list is named “Work”: this store has none of that name \(advice)\"}\n")
        #expect(server.terminate() == 0)
    }

    /// A mistake in a table serve does not read is a warning, and it serves: it exited 64, which
    /// its unit does not restart on (as notify, helper-151). One in its view still stops it.
    @Test(.timeLimit(.minutes(1)))
    func aMistakeInATableServeDoesNotReadIsLoggedAndItServes() throws {
        let sandbox = try Sandbox.demo()
        try sandbox.writeConfig("[views.work]\nlist = \"Work\"\n\n[notify]\nmised_within = \"2h\"\n")
        let server = try ServeProcess(sandbox, ["--view", "work"])
        #expect(server.banner.hasSuffix(" (the view work)"), "\(server.banner)")
        #expect(try server.request("/status").status == 200)
        #expect(
            server.process.waitForStderr(containing: "config.toml:5: notify.mised_within: unknown key: did you mean “missed_within”?", within: .seconds(10)),
            "\(server.process.stderrText)")
        #expect(server.process.stderrText.contains("serve goes on, as it does not use that setting"), "\(server.process.stderrText)")
        #expect(server.terminate() == 0)

        try sandbox.writeConfig("[views.work]\nlsit = \"Work\"\n")
        let refused = try sandbox.run(["serve", "--view", "work", "--listen", "127.0.0.1:0"])
        #expect(refused.status == 64 && refused.stderr.contains("views.work.lsit: unknown key"), "\(refused.stderr)")
    }

    /// An address that is none says the form; a port past 65535 says so (it got the form only,
    /// helper-112). Both are usage errors, before anything starts.
    @Test(arguments: [
        ("127.0.0.1:99999", "taskwidget: --listen has the port 99999, which no server can listen on: give a port from 1 to 65535 (see `taskwidget serve --help`)\n"),
        ("[::1]:70000", "taskwidget: --listen has the port 70000, which no server can listen on: give a port from 1 to 65535 (see `taskwidget serve --help`)\n"),
        ("127.0.0.1:http", "taskwidget: --listen takes HOST:PORT, or HOST for port 8787, e.g. 127.0.0.1:8787 or [::1]:8787 (see `taskwidget serve --help`)\n"),
    ])
    func aListenAddressThatIsNoneSaysWhy(listen: String, message: String) throws {
        let sandbox = try Sandbox.demo()
        let refused = try sandbox.run(["serve", "--listen", listen])
        #expect(refused.status == 64 && refused.stdout.isEmpty)
        #expect(refused.stderr == message, "\(refused.stderr)")
    }

    /// Beyond loopback without a token, serve does not start; a token file others may read is
    /// refused too. Each is one line and exit status 64.
    @Test func listeningBeyondLoopbackNeedsAToken() throws {
        let sandbox = try Sandbox.demo()
        let open = try sandbox.run(["serve", "--listen", "0.0.0.0:0"])
        #expect(open.status == 64)
        #expect(open.stderr == "taskwidget: listening on 0.0.0.0 needs a token: make one with `taskwidget serve token`, or listen on 127.0.0.1\n")
        let file = sandbox.folder.appendingPathComponent("token").path
        try "secret\n".write(toFile: file, atomically: true, encoding: .utf8)
        chmod(file, 0o644)
        let readable = try sandbox.run(["serve", "--listen", "0.0.0.0:0", "--token-file", file])
        #expect(readable.status == 64)
        #expect(readable.stderr == "taskwidget: the token file \(file) can be read by others: run `chmod 600 \(file)`\n")
        // A link to such a file: `chmod 600 LINK` would change what it leads to, such as
        // /etc/passwd for root (helper-153).
        let link = sandbox.folder.appendingPathComponent("link.token").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: file)
        let linked = try sandbox.run(["serve", "--listen", "0.0.0.0:0", "--token-file", link])
        #expect(linked.status == 64)
        #expect(
            linked.stderr == "taskwidget: the token file \(link) is a link to \(file), which can be read by others: give the path of a file "
                + "that only you can read\n")
        #expect(open.stdout.isEmpty && readable.stdout.isEmpty)

        // A folder is not a token file (its mode must not lead to advice to chmod it), and a
        // blank or short token keeps nobody out.
        let folder = sandbox.folder.path
        let notAFile = try sandbox.run(["serve", "--listen", "0.0.0.0:0", "--token-file", folder])
        #expect(notAFile.status == 64)
        #expect(notAFile.stderr == "taskwidget: the token file \(folder) is not a file: give the path of the file\n")
        // One not made yet says what makes it (it said "check that it exists": helper-86).
        let missing = sandbox.folder.appendingPathComponent("serve.token").path
        let notMade = try sandbox.run(["serve", "--listen", "0.0.0.0:0", "--token-file", missing])
        #expect(notMade.status == 64)
        #expect(notMade.stderr == "taskwidget: the token file \(missing) does not exist: make it with `taskwidget serve token --file \(missing)`\n")
        // An empty path is no file (its advice was `mkdir -p ''`: helper-91).
        let empty = try sandbox.run(["serve", "--listen", "0.0.0.0:0", "--token-file", ""])
        #expect(empty.status == 64 && empty.stderr == "taskwidget: --token-file needs the path of a file (see `taskwidget serve --help`)\n")
        let nowhere = sandbox.folder.appendingPathComponent("no/folder/serve.token").path
        let noFolder = try sandbox.run(["serve", "--listen", "0.0.0.0:0", "--token-file", nowhere])
        #expect(
            noFolder.stderr == "taskwidget: the token file \(nowhere) does not exist: make it with `mkdir -p \(sandbox.folder.path)/no/folder`, then `taskwidget serve token --file \(nowhere)`\n")
        // A bare name is in the current folder, which needs no `mkdir -p ''` (helper-94); a path
        // ending in `/` names a folder: `serve token` replaced the file of that name with a token.
        let inFolder = { (arguments: [String]) in
            try ProcessRunner.run(
                "/bin/sh", ["-c", "cd \"$1\" && shift && exec \"$@\"", "sh", sandbox.folder.path, Sandbox.binary.path] + arguments,
                environment: sandbox.environment)
        }
        let bare = try inFolder(["serve", "--store", sandbox.storePath, "--listen", "0.0.0.0:0", "--token-file", "serve.token"])
        #expect(bare.stderr == "taskwidget: the token file serve.token does not exist: make it with `taskwidget serve token --file serve.token`\n")
        try "my notes\n".write(toFile: sandbox.folder.appendingPathComponent("notes").path, atomically: false, encoding: .utf8)
        let slashed = try inFolder(["serve", "token", "--file", "notes/"])
        #expect(slashed.status == 74 && slashed.stderr.hasSuffix("give the path of a file, not of a folder\n"), "\(slashed.stderr)")
        #expect(try String(contentsOfFile: sandbox.folder.appendingPathComponent("notes").path, encoding: .utf8) == "my notes\n")
        chmod(file, 0o600)
        try "  \n".write(toFile: file, atomically: false, encoding: .utf8)
        #expect(try sandbox.run(["serve", "--listen", "0.0.0.0:0", "--token-file", file]).stderr.hasSuffix("is empty: put the secret on its first line\n"))
        try "a\n".write(toFile: file, atomically: false, encoding: .utf8)
        let short = try sandbox.run(["serve", "--listen", "0.0.0.0:0", "--token-file", file])
        #expect(short.status == 64)
        #expect(short.stderr == "taskwidget: the token in \(file) is too short to keep anyone out (1 of at least 16 characters): delete the file and make one with `taskwidget serve token --file \(file)`\n")

        // An address this machine does not have (TEST-NET-1, RFC 5737) says what to give.
        try "0123456789abcdef0123\n".write(toFile: file, atomically: false, encoding: .utf8)
        let foreign = try sandbox.run(["serve", "--listen", "192.0.2.1:0", "--token-file", file])
        #expect(foreign.status == 69 && foreign.stdout.isEmpty)
        #expect(foreign.stderr.hasPrefix("taskwidget: cannot listen on 192.0.2.1:0: this machine has no such address: give one of its own"), "\(foreign.stderr)")
    }

    /// An address from config.toml that serve cannot listen on: the error says where it came
    /// from, as the config's other errors do. From `--listen`, it needs no such word.
    @Test func anAddressFromTheConfigThatCannotBeUsedNamesTheConfig() throws {
        let sandbox = try Sandbox.demo()
        let config = sandbox.folder.appendingPathComponent(".config/taskwidget/config.toml")
        try FileManager.default.createDirectory(at: config.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("[serve]\nlisten = \"no-such-host.invalid:0\"\n".utf8).write(to: config)
        let error = "taskwidget: cannot listen on no-such-host.invalid:0: no address has the name no-such-host.invalid: give an address such as 127.0.0.1 or 0.0.0.0"
        let fromConfig = try sandbox.run(["serve"])
        #expect(fromConfig.status == 64 && fromConfig.stdout.isEmpty)
        #expect(fromConfig.stderr == "\(error) ([serve] listen in \(config.path))\n")
        let fromCommandLine = try sandbox.run(["serve", "--listen", "no-such-host.invalid:0"])
        #expect(fromCommandLine.status == 64 && fromCommandLine.stderr == "\(error)\n")
    }

    /// A devices.toml that does not parse stops serve at start, naming its line: it started and
    /// refused every TRMNL device without a word.
    @Test func aDevicesFileThatDoesNotParseIsRefusedAtStart() throws {
        let sandbox = try Sandbox.demo()
        let devices = sandbox.folder.appendingPathComponent(".config/taskwidget/devices.toml")
        try FileManager.default.createDirectory(at: devices.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("[[devices]]\napi_key = \"k\"\nfriendly_id = \"F\"\ngarbage [[[\n".utf8).write(to: devices)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: devices.path)
        let result = try sandbox.run(["serve", "--listen", "127.0.0.1:0"])
        #expect(result.status == 64 && result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("taskwidget: \(devices.path):4: "), "\(result.stderr)")
    }

    /// A new device is told the port of config.toml's `[serve] listen` (it was always 8787: helper-86).
    @Test func aNewDeviceIsToldTheConfiguredPort() throws {
        let sandbox = try Sandbox()
        let first = try sandbox.succeed(["serve", "device", "add", "AA:BB:CC:DD:EE:FF"], global: false)
        #expect(first.contains("custom server, http://HOST:8787)"), "\(first)")
        try sandbox.writeConfig("[serve]\nlisten = \"127.0.0.1:31907\"\n")
        let second = try sandbox.succeed(["serve", "device", "add", "11:22:33:44:55:66"], global: false)
        #expect(second.contains("custom server, http://HOST:31907)"), "\(second)")
        // A config serve refuses is refused, and no device is added (it said 8787: helper-89).
        for config in ["[serve]\nlisten = \"127.0.0.1:1\"\nbogus = 1\n", "[serve]\nlisten = \"127.0.0.1:99999\"\n"] {
            try sandbox.writeConfig(config)
            let refused = try sandbox.run(["serve", "device", "add", "22:33:44:55:66:77"], global: false)
            #expect(refused.status == 64 && refused.stdout.isEmpty, "\(refused.stderr)")
        }
        #expect(!(try sandbox.succeed(["serve", "device", "ls"], global: false)).contains("22:33:44:55:66:77"))
    }

    /// A token written by hand with spaces around it is taken without them, by serve and by
    /// `serve token`: no header carries them, so only `?token=%20…` opened (helper-83).
    @Test func spacesAroundATokenAreNotPartOfIt() throws {
        let sandbox = try Sandbox.demo()
        let file = sandbox.folder.appendingPathComponent("spaced.token").path
        try Data("  abcdefghijklmnopqrstuvwxyz012345 \t\n".utf8).write(to: URL(fileURLWithPath: file))
        chmod(file, 0o600)
        #expect(try sandbox.run(["serve", "token", "--file", file], global: false).stdout == "abcdefghijklmnopqrstuvwxyz012345\n")
        let server = try ServeProcess(sandbox, ["--token-file", file])
        #expect(try server.request("/status", headers: ["Authorization": "Bearer abcdefghijklmnopqrstuvwxyz012345"]).status == 200)
    }

    /// `serve token --file` in a folder others may change is refused, and leaves nothing there:
    /// it printed a token that serve then refused (helper-153).
    @Test func aTokenIsNotMadeInAFolderOthersMayChange() throws {
        let sandbox = try Sandbox()
        let open = sandbox.folder.appendingPathComponent("open")
        try FileManager.default.createDirectory(at: open, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o777])
        let file = open.appendingPathComponent("serve.token").path
        let refused = try sandbox.run(["serve", "token", "--file", file], global: false)
        #expect(refused.status == 64 && refused.stdout.isEmpty, "\(refused.stderr)")
        #expect(
            refused.stderr == "taskwidget: the folder \(open.path) of \(file) can be changed by others, who could put another file in its "
                + "place: run `chmod go-w \(open.path)`\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: open.path).isEmpty)
    }

    /// `serve token --file` fills an empty private file (`: > file; chmod 600 file`), which it
    /// refused as empty; one others may read is still refused, and serve refuses an empty one.
    @Test func theTokenCommandFillsAnEmptyFile() throws {
        let sandbox = try Sandbox()
        let file = sandbox.folder.appendingPathComponent("empty.token").path
        FileManager.default.createFile(atPath: file, contents: Data(" \n".utf8), attributes: [.posixPermissions: 0o644])
        let open = try sandbox.run(["serve", "token", "--file", file], global: false)
        #expect(open.status == 64 && open.stderr == "taskwidget: the token file \(file) can be read by others: run `chmod 600 \(file)`\n")
        chmod(file, 0o600)
        let served = try sandbox.run(["serve", "--token-file", file, "--listen", "127.0.0.1:0"], global: false)
        #expect(served.status == 64 && served.stderr == "taskwidget: the token file \(file) is empty: put the secret on its first line\n")
        let made = try sandbox.run(["serve", "token", "--file", file], global: false)
        #expect(made.status == 0 && made.stdout.count == 44, "\(made.stderr)")
        #expect(made.stderr == "taskwidget: made a new token in \(file); serve uses it when started with --token-file \(file)\n")
        #expect(try String(contentsOfFile: file, encoding: .utf8) == made.stdout)
        #expect(try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int == 0o600)
    }

    /// A low soft limit of open files (`ulimit -S -n 16`, a unit's LimitNOFILE) is raised to the
    /// hard one: serve refused to start at 16, and spun a core on connections it could not accept
    /// at 32 (helper-90). With the hard limit that low too, it says so.
    @Test func aLowOpenFileLimitIsRaisedOrSaid() throws {
        let sandbox = try Sandbox.demo()
        let command = sandbox.shellCommand(["serve", "--listen", "127.0.0.1:0", "--clock-speed", "0"])
        let server = try StreamingProcess(["-c", "ulimit -S -n 16; exec " + command], environment: sandbox.environment, executable: "/bin/sh")
        #expect(server.nextLine(within: .seconds(30))?.hasPrefix("serving http://127.0.0.1:") == true, "\(server.stderrText)")
        server.send(SIGTERM)
        #expect(server.waitForExit() == 0)
        let refused = try sandbox.run(["serve", "--listen", "127.0.0.1:0", "--clock-speed", "0"], openFileLimit: 16)
        #expect(refused.status == 74 && refused.stderr == "taskwidget: only 16 files may be open (ulimit -n), and serve needs 64: raise the limit\n")
    }

    /// With files for 24 connections only (`ulimit -n 64`), event streams keep to half of them:
    /// the 64 streams took every connection, and the next clients waited unanswered (helper-145).
    @Test(.timeLimit(.minutes(1))) func eventStreamsLeaveRoomForRequestsUnderALowFileLimit() throws {
        let sandbox = try Sandbox.demo()
        let command = sandbox.shellCommand(["serve", "--listen", "127.0.0.1:0", "--clock-speed", "0", "--verbose"])
        let server = try StreamingProcess(["-c", "ulimit -n 64; exec " + command], environment: sandbox.environment, executable: "/bin/sh")
        let banner = try #require(server.nextLine(within: .seconds(30)), "\(server.stderrText)")
        let port = try #require(banner.firstMatch(of: #/^serving http://127\.0\.0\.1:(\d+)/ /#).flatMap { Int($0.output.1) }, "\(banner)")
        #expect(server.stderrText.contains("serving at most 24 connections at once, 12 of them event streams"), "\(server.stderrText)")
        let streams = try (0..<12).map { _ in
            let stream = EventStream(connection: try RawConnection(port: port))
            stream.connection.send("GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            #expect(stream.next() != nil, "the opening state")
            return stream
        }
        let refused = try httpRequest(port: port, "/events")
        #expect(refused.status == 503 && refused.text == #"{"error":"too many event streams"}"# + "\n", "\(refused)")
        #expect(refused.headers["retry-after"] == "30", "\(refused.headers)")
        // Refused clients that keep their side open do not hold the other 12 connections: the
        // server ends each refused one (helper-149).
        let turnedAway = try (0..<12).map { _ in
            let connection = try RawConnection(port: port)
            connection.send("GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            let answer = connection.receive(timeout: 10) { $0.contains("too many event streams") }
            #expect(answer.text.hasPrefix("HTTP/1.1 503"), "\(answer.text)")
            return connection
        }
        #expect(turnedAway.allSatisfy { $0.receive(timeout: 10).closed })
        #expect(try httpRequest(port: port, "/status").status == 200)
        server.send(SIGTERM)
        #expect(server.waitForExit() == 0)
        #expect(streams.allSatisfy { $0.connection.receive(timeout: 10).closed })
    }

    /// `serve token` gives the token of the file serve reads: with `[serve] token_file` set, it
    /// made and printed one in the default file, which serve then refused (helper-83).
    @Test func theTokenCommandReadsTheFileServeUses() throws {
        let sandbox = try Sandbox()
        let file = sandbox.folder.appendingPathComponent("other.token").path
        let made = try sandbox.run(["serve", "token", "--file", file], global: false)
        #expect(made.status == 0 && made.stdout.count > 16, "\(made.stderr)")
        // Not the file a serve reads unless it is told (it said any serve would: helper-89).
        #expect(made.stderr == "taskwidget: made a new token in \(file); serve uses it when started with --token-file \(file)\n")
        try sandbox.writeConfig("[serve]\ntoken_file = \"\(file)\"\n")
        let printed = try sandbox.run(["serve", "token"], global: false)
        #expect(printed.status == 0 && printed.stdout == made.stdout && printed.stderr.isEmpty, "\(printed.stderr)")
        #expect(!FileManager.default.fileExists(atPath: sandbox.folder.appendingPathComponent(".config/taskwidget/serve.token").path))
    }

    /// The devices' keys open their images, as the token does: a devices.toml others may read is
    /// refused as a token file is, by serve and by `serve device`; it was used as it was.
    @Test func aDevicesFileOthersMayReadIsRefused() throws {
        let sandbox = try Sandbox.demo()
        try sandbox.succeed(["serve", "device", "add", "AA:BB:CC:DD:EE:FF"], global: false)
        let devices = sandbox.folder.appendingPathComponent(".config/taskwidget/devices.toml").path
        let error = "taskwidget: the devices file \(devices) can be read by others: run `chmod 600 \(devices)`\n"
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: devices)
        for arguments in [["serve", "--listen", "127.0.0.1:0"], ["serve", "device", "ls"], ["serve", "device", "add", "11:22:33:44:55:66"]] {
            let refused = try sandbox.run(arguments, global: false)
            #expect(refused.status == 64 && refused.stdout.isEmpty, "\(arguments)")
            #expect(refused.stderr == error, "\(arguments)")
        }
        try FileManager.default.setAttributes([.posixPermissions: 0o620], ofItemAtPath: devices)
        #expect(try sandbox.run(["serve", "device", "ls"], global: false).stderr.hasSuffix(" can be changed by others: run `chmod 600 \(devices)`\n"))
    }

    /// `serve token --file` makes the file in a folder that exists, and refuses one that does not
    /// (it made every missing folder of the path, a typo's too).
    @Test func aTokenFileGoesIntoAFolderThatExists() throws {
        let sandbox = try Sandbox()
        let missing = sandbox.folder.appendingPathComponent("no/such/folder/token").path
        let refused = try sandbox.run(["serve", "token", "--file", missing], global: false)
        #expect(refused.status == 64)
        #expect(refused.stderr.hasPrefix("taskwidget: the folder \(sandbox.folder.path)/no/such/folder for the token file does not exist"))
        #expect(!FileManager.default.fileExists(atPath: sandbox.folder.appendingPathComponent("no").path))
        let file = sandbox.folder.appendingPathComponent("token").path
        let made = try sandbox.run(["serve", "token", "--file", file], global: false)
        #expect(made.status == 0 && made.stdout.count == 44)
        // A token too short for serve is not printed for clients either (it printed `abc`).
        try Data("abc\n".utf8).write(to: URL(fileURLWithPath: file))
        let short = try sandbox.run(["serve", "token", "--file", file], global: false)
        #expect(short.status == 64 && short.stdout.isEmpty, "\(short.stdout)")
        #expect(short.stderr.hasPrefix("taskwidget: the token in \(file) is too short to keep anyone out (3 of at least 16 characters)"), "\(short.stderr)")
    }

    /// With a token, only requests that carry it are answered, in any of its three places; a
    /// wrong token takes as long to refuse whether it is wrong at its first or its last character,
    /// over 1 000 tries of each (a Mann–Whitney test over the timings, taken in random order).
    @Test func aWrongTokenGets401InTheSameTime() throws {
        let sandbox = try Sandbox.demo()
        let made = try sandbox.run(["serve", "token"], global: false)
        let token = made.stdout.trimmingCharacters(in: .newlines)
        #expect(made.stderr.hasPrefix("taskwidget: made a new token in "))
        #expect(token.count == 43)
        let server = try ServeProcess(sandbox)
        #expect(server.banner.hasSuffix("; clients send the token"))
        #expect(try server.request("/status").status == 401)
        #expect(try server.request("/status", headers: ["Authorization": "Bearer \(token)"]).status == 200)
        #expect(try server.request("/status?token=\(token)").status == 200)
        #expect(try server.request("/healthz").status == 200)

        let last = token.last == "A" ? "B" : "A"
        let first = token.first == "A" ? "B" : "A"
        let wrongAtEnd = "GET /status HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(token.dropLast())\(last)\r\n\r\n"
        let wrongAtStart = "GET /status HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(first)\(token.dropFirst())\r\n\r\n"
        let connection = try RawConnection(port: server.port)
        // 100 rounds warm up the connection and the server; then 1 000 of each kind in an order
        // drawn at random (seeded), so that the machine's load, however it varies, falls on both
        // alike and the test's false alarms stay at the rate its threshold gives.
        var random = SplitMix64(seed: 0x7045_4E)
        let order = (0..<100).map { $0 % 2 } + ([Int](repeating: 0, count: 1_000) + [Int](repeating: 1, count: 1_000)).shuffled(using: &random)
        var timings: [[Double]] = [[], []]
        for (round, which) in order.enumerated() {
            let start = DispatchTime.now().uptimeNanoseconds
            connection.send(which == 0 ? wrongAtEnd : wrongAtStart)
            let answer = connection.receive(timeout: 10) { $0.hasSuffix("\"}\n") }
            let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start)
            try #require(answer.text.hasPrefix("HTTP/1.1 401 "), "\(answer.text)")
            if round >= 100 { timings[which].append(elapsed) }
        }
        let z = Statistics.mannWhitneyZ(timings[0], timings[1])
        let medians = timings.map { Int(Statistics.median($0) / 1000) }
        #expect(abs(z) < 4, "wrong at the end: median \(medians[0]) µs, at the start: \(medians[1]) µs, z = \(z)")
        #expect(server.terminate() == 0)
    }
}

/// The two statistics the timing test needs.
enum Statistics {
    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted[sorted.count / 2]
    }

    /// The Mann–Whitney U statistic of `a` against `b` as a z-score (normal approximation, ties
    /// given their average rank): near 0 when neither tends to be larger.
    static func mannWhitneyZ(_ a: [Double], _ b: [Double]) -> Double {
        let all = (a.map { ($0, 0) } + b.map { ($0, 1) }).sorted { $0.0 < $1.0 }
        var ranks = [Double](repeating: 0, count: all.count)
        var index = 0
        while index < all.count {
            var end = index
            while end + 1 < all.count && all[end + 1].0 == all[index].0 { end += 1 }
            for tied in index...end { ranks[tied] = Double(index + end) / 2 + 1 }
            index = end + 1
        }
        let rankSumA = zip(all, ranks).filter { $0.0.1 == 0 }.reduce(0) { $0 + $1.1 }
        let (n1, n2) = (Double(a.count), Double(b.count))
        let u = rankSumA - n1 * (n1 + 1) / 2
        return (u - n1 * n2 / 2) / (n1 * n2 * (n1 + n2 + 1) / 12).squareRoot()
    }
}
