/// The id the notification server gave a notification (`Notify`'s reply); what `CloseNotification`,
/// `replaces_id` and the server's signals name it by. Ids are the server's: a new server (a restart)
/// starts over.
public struct NotificationID: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    public var description: String { "#\(rawValue)" }
}

/// Our own handle on a ``DesktopNotifier/post(_:replacing:)``, given at once, before the server
/// (which may not be running yet) has given the notification an id.
public struct PostID: Hashable, Sendable, CustomStringConvertible {
    let value: UInt64
    public init(_ value: UInt64) { self.value = value }
    public var description: String { "post \(value)" }
}

/// A button of a notification: `key` comes back in ``NotifierEvent/actionInvoked(_:actionKey:)``,
/// `label` is what the user reads. The key `default` is the notification's click.
public struct NotificationAction: Sendable, Equatable {
    public var key: String
    public var label: String
    public init(key: String, label: String) {
        self.key = key
        self.label = label
    }
}

/// The freedesktop urgency levels (the `urgency` hint, a byte).
public enum NotificationUrgency: UInt8, Sendable, Equatable {
    case low = 0
    case normal = 1
    case critical = 2
}

/// What to show. Its summary and body are task titles, private to the user: they are sent to the
/// notification server and nowhere else, and ``description`` leaves them out so that a stray
/// `"\(notification)"` in a log message cannot leak them.
public struct DesktopNotification: Sendable, Equatable, CustomStringConvertible {
    /// The first line (the task's title).
    public var summary: String
    /// More text; may be empty. Escaped when the server interprets markup (`body-markup`).
    public var body: String
    public var urgency: NotificationUrgency
    /// The `category` hint; `x-` categories are vendor-specific.
    public var category: String
    public var actions: [NotificationAction]
    /// `expire_timeout` in milliseconds: -1 lets the server decide, 0 never expires.
    public var expireTimeout: Int32

    public init(
        summary: String, body: String = "", urgency: NotificationUrgency = .normal,
        category: String = "x-taskwidget.reminder", actions: [NotificationAction] = [],
        expireTimeout: Int32 = -1
    ) {
        self.summary = summary
        self.body = body
        self.urgency = urgency
        self.category = category
        self.actions = actions
        self.expireTimeout = expireTimeout
    }

    public var description: String {
        "DesktopNotification(summary: <\(summary.count) characters>, body: <\(body.count) characters>, "
            + "urgency: \(urgency), category: \(category), actions: \(actions.map(\.key)))"
    }
}

/// Why a notification closed (`NotificationClosed`'s reason).
public enum CloseReason: Sendable, Equatable {
    /// 1: it timed out.
    case expired
    /// 2: the user dismissed it.
    case dismissed
    /// 3: `CloseNotification` closed it.
    case closedByCall
    /// 4: the server did not say.
    case undefined
    /// A value the specification does not define.
    case other(UInt32)

    public init(rawValue: UInt32) {
        switch rawValue {
        case 1: self = .expired
        case 2: self = .dismissed
        case 3: self = .closedByCall
        case 4: self = .undefined
        default: self = .other(rawValue)
        }
    }
}

/// Why notifications cannot be shown now; each is reported once when it starts.
public enum UnavailableReason: Sendable, Equatable {
    /// The session bus could not be reached (GLib's message, which names no notification).
    case noSessionBus(String)
    /// The session bus has no `org.freedesktop.Notifications` owner and cannot start one.
    case noServer
    /// The session bus connection closed (the bus went away).
    case busClosed

    /// Whether two reasons are the same condition (messages aside), so that it is reported once.
    func isSameCondition(as other: UnavailableReason) -> Bool {
        switch (self, other) {
        case (.noSessionBus, .noSessionBus), (.noServer, .noServer), (.busClosed, .busClosed): true
        default: false
        }
    }
}

/// What happened, as values; taken with ``DesktopNotifier/takeEvents()`` on the loop's thread.
public enum NotifierEvent: Sendable, Equatable {
    /// A notification server is there (again): posts are being delivered.
    case serverAvailable
    /// Posts wait (in a bounded queue) until a server appears; reported once per outage.
    case serverUnavailable(UnavailableReason)
    /// The server shows the post under this id.
    case shown(PostID, NotificationID)
    /// The server refused the post, or it timed out. The reason is a D-Bus error name or GLib's
    /// message: never the notification's text.
    case postFailed(PostID, reason: String)
    /// The post waited for a server in a full queue and was dropped for a newer one, or waited too
    /// long to be sent as it was made: it never reached a server, and may be posted again once one
    /// is there (``serverAvailable``, which comes after).
    case postDropped(PostID)
    /// The user chose an action (`ActionInvoked`).
    case actionInvoked(NotificationID, actionKey: String)
    /// The notification closed (`NotificationClosed`).
    case closed(NotificationID, CloseReason)
}

/// Where the notifier stands with the session bus and the notification server.
public enum ServerState: Sendable, Equatable {
    /// Connecting to the bus, or asking it who owns `org.freedesktop.Notifications`.
    case connecting
    /// No session bus; reconnecting with a growing delay.
    case noSessionBus
    /// No server and none activatable: waiting for `NameOwnerChanged`.
    case noServer
    /// No server runs, but the bus can start one (D-Bus activation): the first post starts it.
    case activatable
    /// Asking a (new) server for its capabilities; posts wait for the answer.
    case probing
    /// A server runs and posts go straight to it.
    case running
}

/// What a follower needs of a notification server: ``DesktopNotifier`` on D-Bus, or a fake in tests.
/// Everything is asynchronous: results come back as ``NotifierEvent``s.
public protocol NotificationPosting: AnyObject {
    /// Shows `notification` now or when a server appears; ``NotifierEvent/shown(_:_:)`` gives its id.
    func post(_ notification: DesktopNotification, replacing: NotificationID?) -> PostID
    /// Closes a shown notification (`CloseNotification`).
    func close(_ id: NotificationID)
    /// Takes back a post: dropped while it waits, closed once shown.
    func withdraw(_ post: PostID)
    /// The events since the last call, oldest first.
    func takeEvents() -> [NotifierEvent]
    /// Whether a connection to the bus ever succeeded.
    var hasConnected: Bool { get }
}
