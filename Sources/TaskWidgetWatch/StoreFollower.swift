import Foundation
import Glibc
public import Logging
public import TaskWidgetCore
public import TaskWidgetStore

/// Follows the store file read-only, for the timelines of watch and serve: reopens it when the file is replaced (renamed over), deleted
/// and created again, and tells a write by another process from file events that changed nothing
/// by comparing `PRAGMA data_version`.
public struct StoreFollower: FollowedSource {
    public let location: StoreLocation
    public let calendar: LocalCalendar
    public let scope: TaskScope
    /// The widget of `--render-dir`, if any. Bars show 8 tasks; only the large widget needs more.
    public let family: WidgetFamily?
    private let logger: Logger
    private var store: TaskStore?
    private var identity: FileIdentity?
    private var dataVersion: Int?

    public init(location: StoreLocation, calendar: LocalCalendar, scope: TaskScope, family: WidgetFamily? = nil, logger: Logger) {
        self.location = location
        self.calendar = calendar
        self.scope = scope
        self.family = family
        self.logger = logger
    }

    public mutating func check() -> StoreCheck {
        let current = FileIdentity(path: location.path)
        do {
            if let store, current != nil, current == identity {
                let version = try store.dataVersion()
                guard version != dataVersion else { return .unchanged }
                dataVersion = version
                logger.debug("store changed", metadata: ["data_version": "\(version)"])
                return .changed
            }
            store = nil
            let opened = try TaskStore.open(at: location, mode: .readOnly, logger: logger)
            (store, identity, dataVersion) = (opened, current, try opened.dataVersion())
            return .changed
        } catch {
            (store, identity, dataVersion) = (nil, nil, nil)
            return .failed(error as? TaskWidgetError ?? TaskWidgetError(.ioFailure, "cannot read the store \(location.path)"))
        }
    }

    public func read(at now: Instant) throws -> Timeline {
        guard let store else {
            throw TaskWidgetError(.storeMissing, "the store \(location.path) is not open", context: location.path)
        }
        let request = TimelineRequest(now: now, calendar: calendar, scope: scope, family: family == .large ? .large : nil)
        return TimelineProvider().timeline(for: request, snapshot: try store.timelineSnapshot(for: request))
    }

    /// A timeline is read again past its reload date, and after the clock went back before it began.
    public func isStale(_ timeline: Timeline, at now: Instant) -> Bool {
        now >= timeline.reloadAfter || now < timeline.generatedAt
    }
}

/// Which file a path names: another file renamed over it, or the file deleted and created again,
/// has another identity.
struct FileIdentity: Equatable {
    var device: UInt64
    var inode: UInt64

    /// `nil` when nothing is at `path`.
    init?(path: String) {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        device = UInt64(status.st_dev)
        inode = UInt64(status.st_ino)
    }
}
