import Foundation
import Testing

@testable import TaskWidgetTestSupport

/// `taskwidget timeline` run as a user runs it: JSON that validates against the committed schema,
/// a readable text form, errors as exit 64, the same bytes for the same inputs, and a store that
/// is only ever read.
@Suite struct TimelineCommandTests {
    static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let schemaPath = repositoryRoot.appendingPathComponent("docs/timeline.schema.json").path

    /// The demo store at Sunday 22 November 2026, 16:27 in Berlin, plus a task due at 17:07.
    static func demoSandbox() throws -> Sandbox {
        let sandbox = try Sandbox.demo()
        try sandbox.succeed(["add", "Call back the plumber", "--due", "17:07"])
        return sandbox
    }

    static func parse(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: Data(text.utf8))
        return try #require(object as? [String: Any], sourceLocation: sourceLocation)
    }

    // MARK: JSON

    @Test func jsonOfTheDemoStoreHasTheEntriesWeExpect() throws {
        let sandbox = try Self.demoSandbox()
        let output = try sandbox.succeed(["timeline", "--format", "json"])
        #expect(try sandbox.succeed(["timeline"]) == output, "json is the default format")
        let json = try Self.parse(output)
        #expect(json["schema"] as? String == "taskwidget.timeline/1")
        #expect(json["timeZone"] as? String == "Europe/Berlin")
        #expect(json["generatedAt"] as? String == "2026-11-22T16:27:00+01:00")
        #expect(json["reloadAfter"] as? String == "2026-11-22T16:42:00+01:00")
        #expect(json["validUntil"] as? String == "2026-11-23T16:27:00+01:00")
        #expect(json["truncated"] as? Bool == false)
        let entries = try #require(json["entries"] as? [[String: Any]])
        // 97 + two crossings off the grid: the plumber at 17:07 and the plants at 23:59 (the demo's
        // other due dates in the next 24 h fall on quarter hours).
        #expect(entries.count == 99)
        let crossings = entries.filter { ($0["reasons"] as? [String]) == ["due"] }.compactMap { $0["date"] as? String }
        #expect(crossings == ["2026-11-22T17:07:00+01:00", "2026-11-22T23:59:00+01:00"])
        let midnight = try #require(entries.first { $0["date"] as? String == "2026-11-23T00:00:00+01:00" })
        #expect(midnight["reasons"] as? [String] == ["cadence", "midnight"])
    }

    @Test func jsonValidatesAgainstTheCommittedSchema() throws {
        try #require(FileManager.default.fileExists(atPath: Self.schemaPath), "docs/timeline.schema.json is missing")
        let probe = try? ProcessRunner.run("/usr/bin/python3", ["-c", "import jsonschema"], environment: [:])
        guard probe?.status == 0 else {
            Issue.record("""
                /usr/bin/python3 cannot import jsonschema (\(probe?.stderr.split(separator: "\n").last ?? "no python3")): \
                run scripts/test.sh, which installs python3-jsonschema, or `apt-get install python3-jsonschema`
                """)
            return
        }
        let sandbox = try Self.demoSandbox()
        for arguments in [["timeline"], ["timeline", "--list", "Work"], ["timeline", "--inbox"]] {
            let output = try sandbox.succeed(arguments)
            let result = try Self.validate(output)
            #expect(result.status == 0, "\(arguments.joined(separator: " ")): \(result.stdout)\(result.stderr)")
        }
        // An empty store too (no tasks at all: exactly 97 entries, the schema's minimum).
        let empty = try Sandbox()
        try empty.succeed(["list", "add", "Work"])
        let emptyOutput = try empty.succeed(["timeline"])
        #expect((try Self.parse(emptyOutput)["entries"] as? [Any])?.count == 97)
        #expect(try Self.validate(emptyOutput).status == 0)

        // The validation can fail: a document without `truncated`, or with a bad date, is refused.
        var broken = try Self.parse(try sandbox.succeed(["timeline"]))
        broken["truncated"] = nil
        let withoutTruncated = String(decoding: try JSONSerialization.data(withJSONObject: broken), as: UTF8.self)
        #expect(try Self.validate(withoutTruncated).status != 0)
        let badDate = try sandbox.succeed(["timeline"]).replacingOccurrences(of: "2026-11-22T16:27:00+01:00", with: "2026-11-22 16:27")
        #expect(try Self.validate(badDate).status != 0)
    }

    /// Validates `document` with python3-jsonschema (Draft 2020-12, as the schema declares).
    static func validate(_ document: String) throws -> RunResult {
        let script = """
            import json, sys, jsonschema
            schema = json.load(open(sys.argv[1]))
            jsonschema.Draft202012Validator.check_schema(schema)
            errors = list(jsonschema.Draft202012Validator(schema).iter_errors(json.load(sys.stdin)))
            for error in errors[:5]:
                print("/".join(map(str, error.absolute_path)) + ": " + error.message[:300])
            sys.exit(1 if errors else 0)
            """
        return try ProcessRunner.run("/usr/bin/python3", ["-c", script, schemaPath], input: Data(document.utf8), environment: [:])
    }

    // MARK: Text

    @Test func textHasAHeaderAndOneLinePerEntry() throws {
        let sandbox = try Self.demoSandbox()
        let json = try Self.parse(try sandbox.succeed(["timeline"]))
        let dates = try #require(json["entries"] as? [[String: Any]]).compactMap { $0["date"] as? String }
        let text = try sandbox.succeed(["timeline", "--format", "text"])
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.last == "", "ends with a newline")
        let body = lines.dropLast()
        #expect(body.count == 1 + dates.count)
        #expect(body.first?.hasPrefix("Timeline for Europe/Berlin, 99 entries") == true)
        for (line, date) in zip(body.dropFirst(), dates) {
            #expect(line.hasPrefix(date.replacingOccurrences(of: "T", with: " ") + "  "), "\(line)")
        }
        let crossing = try #require(body.first { $0.hasPrefix("2026-11-22 17:07:00+01:00") })
        #expect(crossing.contains(" due ") && crossing.contains("overdue"))
    }

    /// The header names the list shown, and the columns line up whatever the counts: `2659
    /// overdue` pushed the columns after it on its line only (helper-138).
    @Test func textNamesItsScopeAndItsColumnsLineUp() throws {
        let sandbox = try Sandbox()
        try sandbox.succeed(["list", "add", "Work"])
        let tasks = (0..<999).map { index in
            #"{"id": "\#(UUID().uuidString)", "title": "Old \#(index)", "isCompleted": false, "state": "notStarted", "dueDate": "2026-11-01T10:00:00Z", "#
                + #""createdAt": "2026-10-20T10:00:00Z", "modifiedAt": "2026-10-20T10:00:00Z", "sortOrder": \#(index)}"#
        }
        let file = sandbox.folder.appendingPathComponent("old.json")
        try Data((#"{"schema": "taskwidget.export/1", "lists": [], "habits": [], "tasks": ["# + tasks.joined(separator: ",") + "]}").utf8).write(to: file)
        try sandbox.succeed(["import", file.path])
        // Due in ten minutes: 999 overdue at the start, 1 000 after.
        try sandbox.succeed(["add", "Soon", "--due", "in 10m"])
        let lines = try sandbox.succeed(["timeline", "--format", "text"]).split(separator: "\n").dropFirst()
        let columns = Set(lines.map { $0.range(of: " today")!.lowerBound.utf16Offset(in: $0) })
        #expect(columns.count == 1, "\(lines.prefix(3))")
        #expect(lines.contains { $0.contains(" 999 overdue") } && lines.contains { $0.contains("1000 overdue") })
        let work = try sandbox.succeed(["timeline", "--format", "text", "--list", "Work"])
        #expect(work.hasPrefix("Timeline for Europe/Berlin · Work, 97 entries"), "\(work.prefix(80))")
    }

    // MARK: Same inputs, same bytes

    @Test func sameInputsGiveTheSameBytes() throws {
        let sandbox = try Self.demoSandbox()
        for arguments in [["timeline"], ["timeline", "--format", "text"], ["timeline", "--list", "work"], ["timeline", "--inbox"]] {
            let first = try sandbox.run(arguments)
            let second = try sandbox.run(arguments)
            #expect(first.status == 0 && second.status == 0)
            #expect(first.stdout == second.stdout, "\(arguments.joined(separator: " "))")
            #expect(!first.stdout.isEmpty)
        }
        // Another zone is another input: the same instant, other offsets.
        let tokyo = try sandbox.succeed(["timeline", "--tz", "Asia/Tokyo"])
        #expect(try Self.parse(tokyo)["generatedAt"] as? String == "2026-11-23T00:27:00+09:00")
        #expect(try sandbox.succeed(["timeline"]) != tokyo)
    }

    @Test func scopeIsInEveryEntry() throws {
        let sandbox = try Self.demoSandbox()
        for (arguments, scope) in [(["timeline", "--list", "work"], "Work"), (["timeline", "--inbox"], "Inbox")] {
            let entries = try #require(try Self.parse(try sandbox.succeed(arguments))["entries"] as? [[String: Any]])
            #expect(entries.allSatisfy { $0["scope"] as? String == scope }, "\(arguments)")
        }
        let all = try #require(try Self.parse(try sandbox.succeed(["timeline"]))["entries"] as? [[String: Any]])
        #expect(all.allSatisfy { $0["scope"] is NSNull })
    }

    // MARK: Errors

    @Test func unknownListIsAUsageError() throws {
        let sandbox = try Self.demoSandbox()
        let result = try sandbox.run(["timeline", "--list", "Nope"])
        #expect(result.status == 64)
        #expect(result.stdout.isEmpty)
        #expect(result.stderrLines.count == 1 && result.stderr.hasPrefix("taskwidget: ") && result.stderr.contains("Nope"))
        #expect(try sandbox.run(["timeline", "--list", "Work", "--inbox"]).status == 64)
        #expect(try sandbox.run(["timeline", "--format", "yaml"]).status == 64)
    }

    @Test func unknownZoneIsAUsageErrorNeverUTC() throws {
        let sandbox = try Self.demoSandbox()
        let flag = try sandbox.run(["timeline", "--tz", "Mars/Olympus_Mons"])
        #expect(flag.status == 64)
        #expect(flag.stdout.isEmpty)
        #expect(flag.stderr.hasPrefix("taskwidget: ") && flag.stderr.contains("Mars/Olympus_Mons"))
        let environment = try sandbox.run(["timeline"], environment: ["TZ": "Mars/Olympus_Mons"])
        #expect(environment.status == 64)
        #expect(environment.stdout.isEmpty)
    }

    // MARK: Read-only

    @Test func timelineNeverChangesTheStoreAndWorksOnAReadOnlyFile() throws {
        let sandbox = try Self.demoSandbox()
        let commands = [["timeline"], ["timeline", "--format", "text"], ["timeline", "--list", "Home"]]
        let before = try ReadOnlyStoreTests.fingerprint(sandbox.storePath)
        let files = try FileManager.default.contentsOfDirectory(atPath: sandbox.folder.path).sorted()
        let expected = try commands.map { try sandbox.succeed($0) }
        #expect(try ReadOnlyStoreTests.fingerprint(sandbox.storePath) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: sandbox.folder.path).sorted() == files)

        // 0444 file in a 0555 folder; as root permissions do not bind, so also run as `nobody`.
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: sandbox.storePath)
        try Sandbox.letNobodyReadTheSideFiles(of: sandbox.storePath)
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: sandbox.folder.path)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: sandbox.folder.path) }
        for (command, output) in zip(commands, expected) {
            #expect(try sandbox.succeed(command) == output)
            let unprivileged = try Sandbox.asUnprivilegedUser(
                command + ["--store", sandbox.storePath, "--now", sandbox.now, "--tz", sandbox.timeZone])
            #expect(unprivileged.status == 0, "\(command): \(unprivileged.stderr)")
            #expect(unprivileged.stdout == output)
        }
        #expect(try ReadOnlyStoreTests.fingerprint(sandbox.storePath) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: sandbox.folder.path).sorted() == files)
    }

    @Test func timelineOnAMissingStoreCreatesNothing() throws {
        let sandbox = try Sandbox()
        let result = try sandbox.run(["timeline"])
        #expect(result.status != 0)
        #expect(result.stderr.hasPrefix("taskwidget: "))
        #expect(!FileManager.default.fileExists(atPath: sandbox.storePath))
        #expect(try FileManager.default.contentsOfDirectory(atPath: sandbox.folder.path).isEmpty)
    }
}
