import Foundation
import Testing

@testable import TaskWidgetTestSupport

/// A store and a home folder whose config.toml has one account on a test Radicale (or on a
/// fault proxy in front of it), for `taskwidget sync` run as a user would run it: through the
/// built `taskwidget`, which hands `sync` to `taskwidget-sync` beside it.
struct SyncSandbox: ~Copyable {
    var sandbox: Sandbox
    let server: RadicaleServer
    /// The account's name in the configuration.
    let account = "rad"

    /// A new store and home with the account `rad` at `url` (default: the server), user alice,
    /// password in a 0600 file, Inbox in the collection "Tasks".
    init(server: RadicaleServer, url: URL? = nil) throws {
        let sandbox = try Sandbox()
        let passwordFile = sandbox.folder.appendingPathComponent("dav.password").path
        try Data("\(server.password)\n".utf8).write(to: URL(fileURLWithPath: passwordFile))
        chmod(passwordFile, 0o600)
        try Self.addAccount(account, to: sandbox, url: url ?? server.baseURL, inbox: "Tasks", server: server)
        self.sandbox = sandbox
        self.server = server
    }

    /// `sync account add NAME --url URL` (default name: rad), user alice, password in the
    /// sandbox's 0600 file (every test server has that user and password), Inbox in `inbox` (none
    /// when `nil`).
    func addAccount(url: URL, named name: String? = nil, inbox: String? = "Tasks") throws {
        try Self.addAccount(name ?? account, to: sandbox, url: url, inbox: inbox, server: server)
    }

    private static func addAccount(_ name: String, to sandbox: borrowing Sandbox, url: URL, inbox: String?, server: RadicaleServer) throws {
        try sandbox.succeed(
            [
                "sync", "account", "add", name, "--url", url.absoluteString, "--user", server.username,
                "--password-file", sandbox.folder.appendingPathComponent("dav.password").path,
            ] + (inbox.map { ["--inbox", $0] } ?? []))
    }

    var configPath: String { sandbox.folder.appendingPathComponent(".config/taskwidget/config.toml").path }

    /// Puts `line` in place of the configuration's line that starts with `prefix`.
    func setConfigLine(_ line: String, replacing prefix: String) throws {
        let text = try String(contentsOfFile: configPath, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.hasPrefix(prefix) ? line : String($0) }.joined(separator: "\n")
        try Data(text.utf8).write(to: URL(fileURLWithPath: configPath))
    }

    /// `taskwidget sync`, which must be refused for bad usage (exit 64); returns its message.
    func syncRefused(sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        let result = try sync()
        #expect(result.status == 64, "\(result.stdout)\(result.stderr)", sourceLocation: sourceLocation)
        return result.stderr
    }

    /// `taskwidget sync ARGUMENTS` at `now` (default: the sandbox's clock).
    func sync(_ arguments: [String] = [], now: String? = nil) throws -> RunResult {
        try sandbox.run(["sync"] + arguments + (now.map { ["--now", $0] } ?? []))
    }

    /// `taskwidget sync ARGUMENTS` on a terminal, as a user runs it: util-linux's `script` gives
    /// it one, and `stdout` holds all it wrote there (errors too), with the terminal's `\r\n`.
    func syncOnTerminal(_ arguments: [String] = []) throws -> RunResult {
        try ProcessRunner.run(
            "/usr/bin/script", ["-q", "-e", "-c", sandbox.shellCommand(["sync"] + arguments), "/dev/null"], environment: sandbox.environment)
    }

    /// `taskwidget sync` that must succeed; returns its summary line.
    @discardableResult
    func syncSucceeds(_ arguments: [String] = [], now: String? = nil, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        let result = try sync(arguments, now: now)
        #expect(result.status == 0, "sync failed: \(result.stderr)", sourceLocation: sourceLocation)
        return result.stdout.trimmingCharacters(in: .newlines)
    }

    /// How many HTTP requests the last `--verbose` sync made (its `requests=N` log line).
    static func requestCount(_ result: RunResult) -> Int? {
        guard let range = result.stderr.range(of: "requests=") else { return nil }
        return Int(result.stderr[range.upperBound...].prefix { $0.isNumber })
    }

    /// The store's export, the way a user compares two machines.
    func export() throws -> String {
        try sandbox.succeed(["export"])
    }

    /// The tasks as `ls --all --format json` shows them.
    func tasks() throws -> [[String: Any]] {
        let output = try sandbox.succeed(["ls", "--all", "--format", "json"])
        return try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [[String: Any]] ?? []
    }

    /// The task whose title is `title`.
    func task(titled title: String) throws -> [String: Any]? {
        try tasks().first { $0["title"] as? String == title }
    }

    /// The text of every calendar object the sandbox's Radicale stores, by file name.
    func serverObjects() throws -> [String: String] {
        try server.storedObjects()
    }

    /// The server object whose text contains `text`.
    func serverObject(containing text: String) throws -> String? {
        try serverObjects().values.first { $0.contains(text) }
    }
}

extension RadicaleServer {
    /// The text of every calendar object this Radicale stores for its user, by file name
    /// (`COLLECTION/NAME.ics`).
    func storedObjects() throws -> [String: String] {
        var objects: [String: String] = [:]
        let root = storageRoot.appendingPathComponent(username)
        for collection in (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? [] where !collection.hasPrefix(".") {
            let folder = root.appendingPathComponent(collection)
            for name in (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [] where name.hasSuffix(".ics") {
                objects["\(collection)/\(name)"] = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
            }
        }
        return objects
    }

    /// The titles (SUMMARY) of the tasks this Radicale stores for its user, sorted.
    func storedTitles() throws -> [String] {
        try storedObjects().values.compactMap { text in
            text.split(separator: "\r\n").first { $0.hasPrefix("SUMMARY:") }.map { String($0.dropFirst("SUMMARY:".count)) }
        }.sorted()
    }
}

/// Python's caldav library (Debian's python3-caldav) as another client of the same server.
enum PythonCalDAV {
    /// Saves `ical` into the collection named `displayName` (made if missing) and prints its URL.
    static func saveTodo(_ ical: String, in displayName: String, server: RadicaleServer) async throws -> String {
        // Through a file: a 10 MB object is longer than a command line may be.
        let file = server.directory.appendingPathComponent("todo-\(UUID().uuidString).ics")
        try Data(ical.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        return try await RadicaleServer.runPython(
            """
            import sys, caldav
            url, user, password, name, path = sys.argv[1:6]
            ical = open(path, encoding="utf-8", newline="").read()
            principal = caldav.DAVClient(url=url, username=user, password=password).principal()
            calendars = [c for c in principal.calendars() if c.name == name]
            calendar = calendars[0] if calendars else principal.make_calendar(name=name, supported_calendar_component_set=["VTODO"])
            print(calendar.save_todo(ical).url)
            """,
            arguments: [server.baseURL.absoluteString, server.username, server.password, displayName, file.path]
        ).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Renames the collection named `displayName` to `newName` and gives it `color` (PROPPATCH), as
    /// a phone does.
    static func renameCalendar(named displayName: String, to newName: String, color: String, server: RadicaleServer) async throws {
        _ = try await RadicaleServer.runPython(
            """
            import sys, caldav
            from caldav.elements import dav, ical
            url, user, password, name, new, color = sys.argv[1:7]
            principal = caldav.DAVClient(url=url, username=user, password=password).principal()
            calendar = [c for c in principal.calendars() if c.name == name][0]
            calendar.set_properties([dav.DisplayName(new), ical.CalendarColor(color)])
            """, arguments: [server.baseURL.absoluteString, server.username, server.password, displayName, newName, color])
    }

    /// The text of the VTODO with `uid`, as the library reads it back from the server.
    static func todoData(uid: String, server: RadicaleServer) async throws -> String {
        try await RadicaleServer.runPython(
            """
            import sys, caldav
            url, user, password, uid = sys.argv[1:5]
            principal = caldav.DAVClient(url=url, username=user, password=password).principal()
            for calendar in principal.calendars():
                try:
                    print(calendar.todo_by_uid(uid).data)
                    break
                except caldav.error.NotFoundError:
                    pass
            """, arguments: [server.baseURL.absoluteString, server.username, server.password, uid])
    }

    /// Replaces `old` by `new` in the text of the VTODO with `uid`, and saves it.
    static func editTodo(uid: String, replacing old: String, with new: String, server: RadicaleServer) async throws {
        _ = try await RadicaleServer.runPython(
            """
            import sys, caldav
            url, user, password, uid, old, new = sys.argv[1:7]
            principal = caldav.DAVClient(url=url, username=user, password=password).principal()
            for calendar in principal.calendars():
                try:
                    todo = calendar.todo_by_uid(uid)
                except caldav.error.NotFoundError:
                    continue
                assert old in todo.data, "not in the task: " + old
                todo.data = todo.data.replace(old, new)
                todo.save()
                break
            """, arguments: [server.baseURL.absoluteString, server.username, server.password, uid, old, new])
    }

    /// Deletes the VTODO with `uid`.
    static func deleteTodo(uid: String, server: RadicaleServer) async throws {
        _ = try await RadicaleServer.runPython(
            """
            import sys, caldav
            url, user, password, uid = sys.argv[1:5]
            principal = caldav.DAVClient(url=url, username=user, password=password).principal()
            for calendar in principal.calendars():
                try:
                    calendar.todo_by_uid(uid).delete()
                    break
                except caldav.error.NotFoundError:
                    pass
            """, arguments: [server.baseURL.absoluteString, server.username, server.password, uid])
    }
}

/// A VTODO as another client writes it: CRLF lines, the given properties inside.
func foreignTodo(_ properties: [String], extraComponents: [String] = []) -> String {
    (["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//other client//EN"] + extraComponents + ["BEGIN:VTODO"] + properties
        + ["END:VTODO", "END:VCALENDAR", ""]).joined(separator: "\r\n")
}
