import Foundation
import Testing

@testable import TaskWidgetTestSupport

/// The recipes of docs/dashboards.md, run as written against a real server (TRMNL's has its own
/// suite, TRMNLDeviceTests).
@Suite(.serialized, .runsPrograms(onThreadNamed: "dashboard recipes"), .timeLimit(.minutes(5))) struct DashboardRecipeTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// dist/kindle/taskwidget-kindle.sh: shows the image once, not again while it is unchanged
    /// (304), and again after a change.
    @Test func theKindlePollerRedrawsOnlyWhenTheImageChanges() throws {
        let sandbox = try Sandbox.demo()
        let token = try sandbox.run(["serve", "token"], global: false).stdout.trimmingCharacters(in: .newlines)
        let server = try ServeProcess(sandbox)
        let events = try server.events(query: "?token=\(token)")
        let shown = sandbox.folder.appendingPathComponent("shown.log").path
        let show = sandbox.folder.appendingPathComponent("show.sh").path
        try ProcessRunner.writeProgram(Data("#!/bin/sh\necho \"$1\" >> '\(shown)'\n".utf8), to: show)
        let url = "http://127.0.0.1:\(server.port)/widget/800x600.png?theme=mono&depth=8&rotate=90&token=\(token)"
        let environment = ["SHOW": show, "FOLDER": sandbox.folder.appendingPathComponent("kindle").path, "PATH": "/usr/bin:/bin"]
        let poll = {
            try ProcessRunner.run("/bin/sh", [Self.repository.appendingPathComponent("dist/kindle/taskwidget-kindle.sh").path, url, "--once"], environment: environment)
        }
        let lines = { ((try? String(contentsOfFile: shown, encoding: .utf8)) ?? "").split(separator: "\n").count }

        #expect(try poll().status == 0)
        #expect(lines() == 1)
        // Its files are the user's alone, in a folder only the user may write: in a shared /tmp,
        // another user's link in it had curl write the image over one of the user's files
        // (helper-153).
        let kept = try FileManager.default.attributesOfItem(atPath: sandbox.folder.appendingPathComponent("kindle/image.png").path)
        #expect((kept[.posixPermissions] as? Int).map { $0 & 0o077 } == 0)
        let shared = sandbox.folder.appendingPathComponent("shared")
        try FileManager.default.createDirectory(at: shared, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o1777])
        var inShared = environment
        inShared["FOLDER"] = shared.path
        let refused = try ProcessRunner.run(
            "/bin/sh", [Self.repository.appendingPathComponent("dist/kindle/taskwidget-kindle.sh").path, url, "--once"], environment: inShared)
        #expect(refused.status == 73)
        #expect(
            refused.stderr == "taskwidget-kindle: \(shared.path) is not a folder of yours that only you may write: set FOLDER to one "
                + "(the images are kept there)\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: shared.path).isEmpty)
        let image = try Data(contentsOf: sandbox.folder.appendingPathComponent("kindle/image.png"))
        #expect(PNGHeader(image) == PNGHeader(width: 600, height: 800, bitDepth: 8, colorType: 0), "portrait, gray")
        #expect(try poll().status == 0)
        #expect(lines() == 1, "unchanged: not drawn again")
        try sandbox.succeed(["add", "Charge the Kindle", "--due", "2026-11-22T15:00:00+01:00"])
        #expect(events.next() != nil)
        let third = try poll()
        #expect(third.status == 0 && third.stderr.isEmpty, "\(third.stderr)")
        #expect(lines() == 2, "changed: drawn again")

        // A show that fails says so, and the next question fetches the image again: the ETag
        // was kept, and the screen stayed on the older image for good (helper-77).
        try sandbox.succeed(["add", "Read on the Kindle", "--due", "2026-11-22T15:30:00+01:00"])
        #expect(events.next() != nil)
        var failing = environment
        failing["SHOW"] = "false"
        let failed = try ProcessRunner.run(
            "/bin/sh", [Self.repository.appendingPathComponent("dist/kindle/taskwidget-kindle.sh").path, url, "--once"], environment: failing)
        #expect(failed.status == 1 && failed.stderr.hasPrefix("taskwidget-kindle: `false "), "\(failed.stderr)")
        #expect(failed.stderr.contains("failed with exit status 1: the image is fetched and shown again at the next question"), "\(failed.stderr)")
        #expect(try poll().status == 0)
        #expect(lines() == 3, "shown at the next question")

        // A wrong token fails the run, so cron says so, without the token in its mail.
        let wrong = try ProcessRunner.run(
            "/bin/sh", [Self.repository.appendingPathComponent("dist/kindle/taskwidget-kindle.sh").path, url + "x", "--once"], environment: environment)
        #expect(wrong.status == 1 && wrong.stderr.contains("answered HTTP 401") && !wrong.stderr.contains(token), "\(wrong.stderr)")
        #expect(lines() == 3, "nothing drawn")
        // A 4xx says serve's reason: it said "answered HTTP 400" alone (helper-68).
        let badDepth = try ProcessRunner.run(
            "/bin/sh", [Self.repository.appendingPathComponent("dist/kindle/taskwidget-kindle.sh").path, url.replacingOccurrences(of: "depth=8", with: "depth=3"), "--once"],
            environment: environment)
        #expect(badDepth.stderr.hasSuffix(#"answered HTTP 400: {"error":"bad parameter depth: expected 1, 2, 4 or 8"}"# + "\n"), "\(badDepth.stderr)")
        #expect(server.terminate() == 0)

        // A server that takes the connection and never answers is given up after TIMEOUT
        // seconds, with a line: the script waited for good, and cron's copies piled up (helper-143).
        let silent = try RefusingPort(silent: true)
        var impatient = environment
        impatient["TIMEOUT"] = "1"
        let hung = try ProcessRunner.run(
            "/bin/sh", [Self.repository.appendingPathComponent("dist/kindle/taskwidget-kindle.sh").path, "http://127.0.0.1:\(silent.port)/widget/800x600.png", "--once"],
            environment: impatient)
        #expect(hung.status == 1 && hung.stderr.hasSuffix("taskwidget-kindle: http://127.0.0.1:\(silent.port)/widget/800x600.png did not answer within 1 s: is the server or the network stuck?\n"), "\(hung.stderr)")

        // An answer whose connection ends before its body is whole says so (curl's 18 was said
        // as a number, helper-149), and the part that came is not shown.
        let cut = try RefusingPort(silent: true)
        let listening = cut.descriptor
        let cutServer = Thread {
            let client = accept(listening, nil, nil)
            guard client >= 0 else { return }
            var request = [UInt8](repeating: 0, count: 4096)
            _ = read(client, &request, request.count)
            let head = "HTTP/1.1 200 OK\r\nContent-Type: image/png\r\nContent-Length: 5000\r\n\r\n" + String(repeating: "x", count: 100)
            _ = head.withCString { write(client, $0, strlen($0)) }
            close(client)
        }
        cutServer.start()
        let broken = try ProcessRunner.run(
            "/bin/sh", [Self.repository.appendingPathComponent("dist/kindle/taskwidget-kindle.sh").path, "http://127.0.0.1:\(cut.port)/widget/800x600.png", "--once"],
            environment: environment)
        #expect(broken.status == 1 && broken.stderr.hasSuffix("did not finish its answer (the connection ended): is the server or the network stuck?\n"), "\(broken.stderr)")
        #expect(lines() == 3, "nothing drawn")

        // 0 would be no limit to curl, and a word an error of curl's that names no TIMEOUT (helper-146).
        for value in ["0", "abc", "-5"] {
            impatient["TIMEOUT"] = value
            let refused = try ProcessRunner.run(
                "/bin/sh", [Self.repository.appendingPathComponent("dist/kindle/taskwidget-kindle.sh").path, "http://127.0.0.1:\(silent.port)/", "--once"],
                environment: impatient)
            #expect(refused.status == 64 && refused.stderr == "taskwidget-kindle: TIMEOUT must be a number of seconds above 0, such as 60 (it is '\(value)')\n", "\(refused.stderr)")
        }

        // Without its URL it says how to run it (it said `1: parameter not set`).
        let bare = try ProcessRunner.run("/bin/sh", [Self.repository.appendingPathComponent("dist/kindle/taskwidget-kindle.sh").path], environment: environment)
        #expect(bare.status == 64 && bare.stderr.hasPrefix("usage: taskwidget-kindle.sh URL [--once]"), "\(bare.stderr)")
    }

    /// Home Assistant: a generic camera reads the image with `?token=`, a REST sensor reads
    /// `/status?format=json` with a bearer token and takes `counts.overdue` from it.
    @Test func homeAssistantsCameraAndRESTSensorGetWhatTheyRead() throws {
        let sandbox = try Sandbox.demo()
        let token = try sandbox.run(["serve", "token"], global: false).stdout.trimmingCharacters(in: .newlines)
        let server = try ServeProcess(sandbox)
        let camera = try server.request("/widget/large.png?scale=2&token=\(token)")
        #expect(camera.status == 200 && PNGHeader(camera.body)?.width == 728)
        let sensor = try server.request("/status?format=json", headers: ["Authorization": "Bearer \(token)"])
        let value = try #require(try JSONSerialization.jsonObject(with: Data(sensor.body)) as? [String: Any])
        let counts = try #require(value["counts"] as? [String: Any])
        let expected = try JSONSerialization.jsonObject(with: Data(try sandbox.succeed(["status", "--format", "json"]).utf8)) as? [String: Any]
        #expect(counts["overdue"] as? Int == (expected?["counts"] as? [String: Any])?["overdue"] as? Int)
        #expect(counts["overdue"] as? Int == 2)
        #expect(server.terminate() == 0)
    }
}
