import Foundation
import GRDB
import Logging
import TaskWidgetCore
import Testing

@testable import TaskWidgetStore

/// A fresh folder under the system temporary directory, removed with all it holds on deinit.
final class TemporaryFolder: Sendable {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("taskwidget-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false)
    }

    /// The path of `name` inside the folder (`name` may contain slashes).
    func path(_ name: String) -> String {
        url.appendingPathComponent(name).path
    }

    /// The names of the entries directly inside the folder, sorted.
    func entries() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: url.path).sorted()
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }
}

/// A read-write store on disk (WAL) in its own temporary folder, one per test.
final class TemporaryStore: Sendable {
    static let logger = Logger(label: "test")

    let folder: TemporaryFolder
    let path: String
    let store: TaskStore

    init() throws {
        folder = try TemporaryFolder()
        path = folder.path("tasks.sqlite")
        store = try Self.open(path, mode: .readWrite)
        try store.write { _ in }  // the first write that commits creates the file
    }

    /// Opens the store file at `path` (a location the user named, not the default one).
    static func open(_ path: String, mode: TaskStore.AccessMode, isDefault: Bool = false) throws -> TaskStore {
        try TaskStore.open(at: StoreLocation(path: path, isDefault: isDefault), mode: mode, logger: logger)
    }

    /// Another store on the same file, e.g. a read-only one as the display commands open it.
    func reopen(mode: TaskStore.AccessMode) throws -> TaskStore {
        try Self.open(path, mode: mode)
    }

    /// Closes the fixture's own connections, so that the file is complete without its `-wal`.
    func close() throws {
        try store.database.close()
    }

    /// An integer the SQL query returns, read through a separate GRDB connection.
    func fetchInt(_ sql: String) throws -> Int? {
        var configuration = Configuration()
        configuration.readonly = true
        let queue = try DatabaseQueue(path: path, configuration: configuration)
        defer { try? queue.close() }
        return try queue.read { db in try Int.fetchOne(db, sql: sql) }
    }

    /// Drops what the open-task-count migration made, the `openTaskCount` table and its three
    /// triggers, to make a store of an earlier release (the caller forgets the migration too).
    static func dropOpenTaskCounts(_ db: Database) throws {
        try db.execute(
            sql: """
                DROP TABLE openTaskCount; DROP TRIGGER openTaskCount_insert; DROP TRIGGER openTaskCount_delete;
                DROP TRIGGER openTaskCount_update
                """)
    }

    deinit {
        try? store.database.close()
    }
}

/// Fixed instants and zones, written out so that each test says exactly when it runs.
enum Fixed {
    /// The instant of an RFC 3339 timestamp with an offset (and optional fraction), read by
    /// Foundation's own formatter rather than the code under test.
    static func instant(_ text: String) -> Instant {
        Instant(date(text))
    }

    /// ``instant(_:)`` as a Foundation date, for the tests' own references.
    static func date(_ text: String) -> Date {
        let formatter = ISO8601DateFormatter()
        if text.contains(".") { formatter.formatOptions.insert(.withFractionalSeconds) }
        guard let date = formatter.date(from: text) else { fatalError("bad fixed instant \(text)") }
        return date
    }

    static func zone(_ identifier: String) -> TimeZone {
        guard let zone = TimeZone(identifier: identifier) else { fatalError("unknown zone \(identifier)") }
        return zone
    }

    static func day(_ text: String) -> LocalDay {
        guard let day = LocalDay(text) else { fatalError("bad fixed day \(text)") }
        return day
    }

    static func uuid(_ text: String) -> UUID {
        guard let id = UUID(uuidString: text) else { fatalError("bad fixed id \(text)") }
        return id
    }
}

/// Expects `body` to throw a ``TaskWidgetError`` with `code` and returns it for more checks.
@discardableResult
func expectError<R>(
    _ code: TaskWidgetError.Code, sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> R
) -> TaskWidgetError? {
    let error = #expect(throws: TaskWidgetError.self, sourceLocation: sourceLocation) { _ = try body() }
    if let error {
        #expect(error.code == code, "\(error.code): \(error.message)", sourceLocation: sourceLocation)
    }
    return error
}

extension TL {
    /// The timeline of the store's snapshot, as the commands compute it.
    static func timeline(for request: TimelineRequest, from store: TaskStore) throws -> Timeline {
        provider.timeline(for: request, snapshot: try store.timelineSnapshot(for: request))
    }
}
