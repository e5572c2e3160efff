import Foundation
import TaskWidgetCore
import TaskWidgetNotify
import TaskWidgetWatch

/// The tasks of a store held in memory, and what `check()` reports next.
final class FakeTasks {
    var tasks: [ListedTask] = []
    var nextCheck: StoreCheck = .changed
    var reads = 0
}

/// Reads ``FakeTasks`` as the store would: open tasks reminded or due in the snapshot's window.
struct FakeReminderSource: FollowedSource {
    let store: FakeTasks
    let missedWithin: Int64
    let calendar: LocalCalendar

    mutating func check() -> StoreCheck {
        defer { store.nextCheck = .unchanged }
        return store.nextCheck
    }

    mutating func reopen() {}

    func read(at now: Instant) throws -> ReminderSnapshot {
        store.reads += 1
        let window = ReminderSnapshot.window(at: now, missedWithin: missedWithin)
        let dues = ReminderSnapshot.dueWindow(of: window)
        let tasks = store.tasks.filter { item in
            !item.task.isCompleted && (item.task.reminderDate.map(window.contains) == true || item.task.dueDate.map(dues.contains) == true)
        }
        return ReminderSnapshot(tasks: tasks, readAt: now, window: window, calendar: calendar)
    }

    func isStale(_ snapshot: ReminderSnapshot, at now: Instant) -> Bool {
        snapshot.isStale(at: now)
    }
}

/// A notification server in memory: what was posted, closed and withdrawn; the test decides
/// what the server answers by queueing events.
final class FakeNotifier: NotificationPosting {
    private(set) var posts: [(post: PostID, notification: DesktopNotification)] = []
    private(set) var closed: [NotificationID] = []
    private(set) var withdrawn: [PostID] = []
    var events: [NotifierEvent] = []
    var hasConnected = true
    /// Whether a post is shown at once (its `.shown` event queued), with the next id.
    var showsPosts = true
    private var nextID: UInt32 = 1

    /// The notification each post asked to replace, in the order of ``posts``.
    private(set) var replaced: [NotificationID?] = []

    func post(_ notification: DesktopNotification, replacing: NotificationID?) -> PostID {
        let post = PostID(UInt64(posts.count + 1))
        posts.append((post, notification))
        replaced.append(replacing)
        if showsPosts { show(post, replacing: replacing) }
        return post
    }

    /// Queues the server's answer to `post`: shown under a new id, or under the one it replaces,
    /// as servers do; returns it.
    @discardableResult
    func show(_ post: PostID, replacing: NotificationID? = nil) -> NotificationID {
        let id = replacing ?? NotificationID(rawValue: nextID)
        if replacing == nil { nextID += 1 }
        events.append(.shown(post, id))
        return id
    }

    func close(_ id: NotificationID) { closed.append(id) }
    func withdraw(_ post: PostID) { withdrawn.append(post) }

    func takeEvents() -> [NotifierEvent] {
        defer { events.removeAll() }
        return events
    }

    var summaries: [String] { posts.map(\.notification.summary) }
    var bodies: [String] { posts.map(\.notification.body) }

    /// The id the server gave `post`, from the events it answered with.
    func id(of post: PostID, in answered: [NotifierEvent]) -> NotificationID? {
        answered.lazy.compactMap { if case .shown(post, let id) = $0 { id } else { nil } }.first
    }
}

/// The store writes of the buttons, recorded.
final class FakeActions: ReminderActions {
    var completed: [UUID] = []
    var reminded: [(task: UUID, date: Instant)] = []
    var failure: TaskWidgetError?

    /// Tasks that repeat on a server: Done and Snooze leave them as they are.
    var repeating: Set<UUID> = []

    func complete(_ taskID: UUID, at now: Instant) throws -> Bool {
        if let failure { throw failure }
        guard !repeating.contains(taskID) else { return false }
        completed.append(taskID)
        return true
    }

    func remind(_ taskID: UUID, at date: Instant, now: Instant) throws -> Bool {
        if let failure { throw failure }
        guard !repeating.contains(taskID) else { return false }
        reminded.append((taskID, date))
        return true
    }
}

final class FakeLauncher: CommandLauncher {
    var launched: [String] = []
    var reaps = 0
    /// What the next launches throw, if anything.
    var failure: TaskWidgetError?

    func launch(_ command: String) throws {
        if let failure { throw failure }
        launched.append(command)
    }

    func reapFinished() { reaps += 1 }
}
