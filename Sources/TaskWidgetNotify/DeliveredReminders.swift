public import Foundation
public import TaskWidgetCore

/// The reminders already shown, by task id and date, so that a restart never shows one again.
/// Kept in `$XDG_STATE_HOME/taskwidget/delivered-reminders.json` (``DeliveredRemindersFile``): ids
/// and instants only, never a title.
///
/// ```json
/// {"schema":"taskwidget.delivered-reminders/1","delivered":[{"date":"2026-11-22T15:27:02Z","task":"3f2a…"}]}
/// ```
public struct DeliveredReminders: Sendable, Equatable {
    public static let schema = "taskwidget.delivered-reminders/1"

    public private(set) var keys: Set<ReminderKey> = []
    /// The date before which ``forget(before:)`` last forgot reminders: a file merged in keeps
    /// none older.
    public private(set) var forgottenBefore: Instant?
    /// The reminders ``remove(_:)`` took out: a file merged in does not bring them back.
    public private(set) var removed: Set<ReminderKey> = []

    public init(_ keys: Set<ReminderKey> = []) {
        self.keys = keys
    }

    public func contains(_ key: ReminderKey) -> Bool {
        keys.contains(key)
    }

    /// Records `key`; false when it was recorded already.
    @discardableResult
    public mutating func insert(_ key: ReminderKey) -> Bool {
        keys.insert(key).inserted
    }

    /// Takes `key` out, as not shown: the next start shows it again.
    public mutating func remove(_ key: ReminderKey) {
        keys.remove(key)
        removed.insert(key)
    }

    /// Forgets the reminders dated before `instant`: too old to be shown again anyway, so the
    /// file stays small.
    public mutating func forget(before instant: Instant) {
        keys = keys.filter { $0.date >= instant }
        forgottenBefore = instant
    }

    /// Adds what `other` (another process's record) holds, but what this one forgot or removed.
    public mutating func merge(_ other: DeliveredReminders) {
        keys.formUnion(other.keys.filter { key in !removed.contains(key) && forgottenBefore.map { key.date >= $0 } ?? true })
    }

    private struct Document: Codable {
        var schema: String
        var delivered: [ReminderKey]
    }

    /// The file's bytes: the same reminders always give the same bytes.
    public func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return try encoder.encode(Document(schema: Self.schema, delivered: keys.sorted())) + Data("\n".utf8)
    }

    /// Reads the file's bytes; anything else than ``encoded()`` wrote is a
    /// ``TaskWidgetError/Code/invalidInput`` error.
    public init(decoding data: Data) throws {
        guard let document = try? JSONDecoder().decode(Document.self, from: data), document.schema == Self.schema else {
            throw TaskWidgetError(.invalidInput, "the file of delivered reminders is damaged", context: "not \(Self.schema)")
        }
        keys = Set(document.delivered)
    }
}

/// Where the delivered reminders are kept between runs: ``DeliveredRemindersFile``, or memory in tests.
public protocol DeliveredReminderStorage: AnyObject {
    func load() throws -> DeliveredReminders
    func save(_ delivered: DeliveredReminders) throws
}

/// `delivered-reminders.json` in taskwidget's state folder, written whole or not at all
/// (``AtomicFile``), its folder created on the first write.
public final class DeliveredRemindersFile: DeliveredReminderStorage {
    public let path: String

    public init(path: String) {
        self.path = path
    }

    /// `$XDG_STATE_HOME/taskwidget/delivered-reminders.json`; `nil` without a home. A run at
    /// another time (`--now`, a preview) keeps its own, `delivered-reminders-preview.json`: what
    /// it showed of a future reminder must not keep the real run from showing it.
    public static func defaultPath(_ paths: XDGPaths, isPreview: Bool = false) -> String? {
        paths.stateHome.map { XDGPaths.taskwidgetFolder(in: $0) + (isPreview ? "/delivered-reminders-preview.json" : "/delivered-reminders.json") }
    }

    /// What the file holds; nothing when there is no file yet.
    public func load() throws -> DeliveredReminders {
        guard let data = try InputFile.readIfPresent(path, named: path) else { return DeliveredReminders() }
        do {
            return try DeliveredReminders(decoding: data)
        } catch var error as TaskWidgetError {
            error.context = path
            throw error
        }
    }

    /// Writes `delivered` with what the file holds now added: notify on another session bus
    /// (another login, `dbus-run-session`) records in the same file, and each write put back its
    /// own copy, so that the other's reminders were shown again at its restart (helper-134). The
    /// state folder is locked (`flock`) while the file is read and replaced.
    public func save(_ delivered: DeliveredReminders) throws {
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent().path
        try AtomicFile.makeFolder(folder, permissions: 0o700)
        let lock = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        defer { if lock >= 0 { close(lock) } }
        if lock >= 0 { flock(lock, LOCK_EX) }
        var merged = delivered
        if let onDisk = try? load() { merged.merge(onDisk) }
        try AtomicFile.write(merged.encoded(), to: url)
    }
}

/// Delivered reminders kept in memory only: when there is no state folder (no HOME), and in tests.
public final class DeliveredRemindersInMemory: DeliveredReminderStorage {
    public private(set) var saved: DeliveredReminders
    /// How many times ``save(_:)`` was called.
    public private(set) var saves = 0

    public init(_ delivered: DeliveredReminders = DeliveredReminders()) {
        saved = delivered
    }

    public func load() throws -> DeliveredReminders { saved }

    public func save(_ delivered: DeliveredReminders) throws {
        saved = delivered
        saves += 1
    }
}
