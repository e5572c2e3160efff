public import Foundation
public import Logging
public import TaskWidgetCore
public import TaskWidgetStore

/// What a reminder's buttons do to the store: ``StoreReminderActions``, or a fake in tests.
public protocol ReminderActions {
    /// Completes the task (Done), as `taskwidget done ID` does; `false` when it was left open
    /// because it repeats on a sync server.
    func complete(_ taskID: UUID, at now: Instant) throws -> Bool
    /// Sets the task's reminder to `date` (Snooze), as `taskwidget edit ID --remind WHEN` does;
    /// `false` when it was left as it was because it repeats on a sync server.
    func remind(_ taskID: UUID, at date: Instant, now: Instant) throws -> Bool
}

/// Writes the store exactly as the user's own `done` and `edit --remind` would, opening it
/// read-write for that one write only: notify otherwise only reads it.
public struct StoreReminderActions: ReminderActions {
    public let location: StoreLocation
    private let logger: Logger

    public init(location: StoreLocation, logger: Logger) {
        self.location = location
        self.logger = logger
    }

    /// Leaves open a task that repeats on a sync server: its notification, shown before a sync
    /// made it repeat, still has Done, and completing it would complete the whole series there.
    public func complete(_ taskID: UUID, at now: Instant) throws -> Bool {
        let store = try storeForWriting()
        guard try store.tasksRepeatingOnServer([taskID]).isEmpty else { return false }
        _ = try store.completeTasks([taskID.uuidString], now: now)
        return true
    }

    /// Leaves as it is a task that repeats on a sync server, for the same reason: the next sync
    /// would move the whole series there.
    public func remind(_ taskID: UUID, at date: Instant, now: Instant) throws -> Bool {
        let store = try storeForWriting()
        guard try store.tasksRepeatingOnServer([taskID]).isEmpty else { return false }
        _ = try store.editTask(taskID.uuidString, TaskChanges(reminderDate: .set(date)), now: now)
        return true
    }

    /// The store, opened read-write for one write and closed when it is let go. A button of a
    /// notification shown before the store was deleted must not create an empty store. It waits
    /// for another writer for 2 s, not the 15 s of a command: notify's loop waits meanwhile (a
    /// stop too), and a button that fails shows its reminder again, saying so.
    private func storeForWriting() throws -> TaskStore {
        guard FileManager.default.fileExists(atPath: location.path) else {
            throw TaskWidgetError(.storeMissing, "there is no store at \(location.path) any more", context: location.path)
        }
        return try TaskStore.open(at: location, mode: .readWrite, writerTimeout: 2, logger: logger)
    }
}
