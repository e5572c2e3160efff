import CGio
import Dispatch
public import Logging
import TaskWidgetCore

/// Desktop notifications through the freedesktop Notifications D-Bus API
/// (`org.freedesktop.Notifications` at `/org/freedesktop/Notifications`), spoken with GDBus.
///
/// Everything is asynchronous and runs on the caller's loop: calls are started with
/// `g_dbus_connection_call` and their replies, like the server's signals, are dispatched by the
/// ``GLibEventSource`` that the loop iterates. No method blocks (not even connecting: `g_bus_get`
/// runs in GLib's worker thread) but ``shutdown()``, for at most a second, and nothing runs on a
/// thread of ours other than the loop's (and that second's timer).
///
/// The notifier keeps going without a bus or a server: it reports ``NotifierEvent/serverUnavailable(_:)``
/// once, queues posts (at most ``Options/maxQueued``; the oldest is dropped past it, reported as
/// ``NotifierEvent/postDropped(_:)``), follows `NameOwnerChanged` for
/// `org.freedesktop.Notifications` and delivers the queue when a server appears; what waited
/// longer than ``Options/maxQueuedAge`` is reported dropped instead, for its poster to post again
/// with what is true by then. Without a bus it
/// retries connecting with a growing delay (a GLib timer, so the loop's poll timeout carries it).
///
/// ```swift
/// let glib = GLibEventSource()  // one of the FollowLoop's sources
/// let notifier = DesktopNotifier(glib: glib, logger: logger)
/// let post = notifier.post(DesktopNotification(summary: title, urgency: .critical))
/// // after each wake-up of the loop:
/// for event in notifier.takeEvents() {
///     if case .actionInvoked(let id, "done") = event { markDone(id); notifier.close(id) }
/// }
/// ```
///
/// Privacy: a notification's summary and body go to the server and nowhere else: no log message,
/// event or error names them.
///
/// Threading: not `Sendable`. Use it on the loop's thread only; its C callbacks run inside
/// ``GLibEventSource/dispatch(_:)``, on that same thread (see ``CallbackTarget``).
public final class DesktopNotifier: NotificationPosting {
    /// Tunables; the defaults suit `taskwidget notify`.
    public struct Options: Sendable {
        /// `app_name` of every notification.
        public var appName: String
        /// How long a call may wait for its reply, but `Notify`, which waits as long as the server
        /// lives: a server frozen for a while (SIGSTOP, a busy compositor) shows the notification
        /// when it wakes, and its buttons must then work, which they cannot unless notify knows its
        /// id (helper-73 saw one shown after a 10 s timeout, buttons dead); a server that dies
        /// answers NoReply through the bus. Calls are asynchronous: nothing blocks meanwhile.
        public var callTimeout: Duration
        /// How long the first call to an activatable server may take (the bus starts it).
        public var activationTimeout: Duration
        /// Posts kept while no server runs; the oldest is dropped (``NotifierEvent/postDropped(_:)``) past it.
        public var maxQueued: Int
        /// Delays between attempts to reach a missing bus; the last one repeats.
        public var reconnectDelays: [Duration]
        /// How long a post may wait for a server and still be sent as it was made: one that waited
        /// minutes said a reminder was due when it was overdue (helper-134). Short, since one that
        /// waited longer is only posted again, at once, by its poster.
        public var maxQueuedAge: Duration = .seconds(5)

        public init(
            appName: String = "taskwidget", callTimeout: Duration = .seconds(10), activationTimeout: Duration = .seconds(25),
            maxQueued: Int = 32, reconnectDelays: [Duration] = [.seconds(1), .seconds(5), .seconds(15), .seconds(60)]
        ) {
            self.appName = appName
            self.callTimeout = callTimeout
            self.activationTimeout = activationTimeout
            self.maxQueued = max(1, maxQueued)
            self.reconnectDelays = reconnectDelays.isEmpty ? [.seconds(60)] : reconnectDelays
        }
    }

    /// A call's timeout that GDBus reads as none: ``GLibEventSource/milliseconds(_:)`` clamps it
    /// to `G_MAXINT`.
    static let noTimeout = Duration.seconds(Int64(Int32.max))

    static let serverName = "org.freedesktop.Notifications"
    static let serverPath = "/org/freedesktop/Notifications"
    static let serverInterface = "org.freedesktop.Notifications"
    static let busName = "org.freedesktop.DBus"
    static let busPath = "/org/freedesktop/DBus"

    /// Where the notifier stands; see also the ``NotifierEvent/serverAvailable`` and
    /// ``NotifierEvent/serverUnavailable(_:)`` events.
    public private(set) var state: ServerState = .connecting

    private let glib: GLibEventSource
    private let options: Options
    private let logger: Logger
    /// Handed (retained) to every C callback; its weak reference leads back here.
    private let target: CallbackTarget
    /// Cancels every call in flight on shutdown.
    private let cancellable: UnsafeMutablePointer<GCancellable>

    private var connection: OpaquePointer?
    private var subscriptions: [UInt32] = []
    private var closedHandler: UInt = 0
    private var reconnectTimer: UnsafeMutablePointer<GSource>?
    private var reconnectAttempts = 0
    /// Whether a connection to the bus ever succeeded: a bus that was never there is a wrong
    /// environment, one that went away is an outage.
    public private(set) var hasConnected = false
    /// Bumped when the connection or the server changes: replies to older probes are stale.
    private var epoch: UInt64 = 0
    /// Whether the server interprets markup in bodies (capability `body-markup`).
    private var bodyMarkup = false

    private var queue: [Pending] = []
    /// Posts sent and not answered yet; `withdrawn` ones are closed as soon as they are shown.
    private var inFlight: [PostID: Pending] = [:]
    /// The notifications the server shows for us (others' ids are ignored in signals).
    private var shown: [NotificationID: PostID] = [:]
    private var events: [NotifierEvent] = []
    /// The unavailability reported last (nil while available): each is reported once.
    private var reported: UnavailableReason?
    private var announcedAvailable = false
    private var nextPost: UInt64 = 0
    private var isShutDown = false

    /// A post on its way to the server.
    private struct Pending {
        let post: PostID
        let notification: DesktopNotification
        let replacing: NotificationID?
        /// When it was posted.
        let made = ContinuousClock.now
        var withdrawn = false
        /// Servers that went away while it was being shown (``GLibFailure/meansServerLeftWithoutReplying``).
        var serversLost = 0
    }

    /// How many servers may go away while a post is being shown before it counts as failed: a
    /// server that crashes on a notification, restarted at each post, must not loop for ever.
    static let maxServersLost = 3

    /// Starts connecting (asynchronously); events follow as the loop iterates `glib`.
    public init(glib: GLibEventSource, options: Options = Options(), logger: Logger) {
        self.glib = glib
        self.options = options
        self.logger = logger
        target = CallbackTarget()
        cancellable = g_cancellable_new()
        target.notifier = self
        connect()
    }

    deinit {
        shutdown()
        g_object_unref(cancellable)
    }

    // MARK: - API

    /// Shows `notification` (replacing the server's `replacing` notification, if given), now if a
    /// server runs, else when one appears. ``NotifierEvent/shown(_:_:)`` gives its id.
    @discardableResult
    public func post(_ notification: DesktopNotification, replacing: NotificationID? = nil) -> PostID {
        nextPost += 1
        let pending = Pending(post: PostID(nextPost), notification: notification, replacing: replacing)
        guard !isShutDown else {
            events.append(.postFailed(pending.post, reason: "the notifier is shut down"))
            return pending.post
        }
        if state == .running {
            send(pending)
        } else {
            enqueue(pending)
            if state == .activatable { probeServer() }
        }
        return pending.post
    }

    /// Closes a notification (`CloseNotification`); ``NotifierEvent/closed(_:_:)`` follows.
    /// Ids belong to the running server: without one there is nothing to close, and the call never
    /// starts a server (no auto-start) just to close something it cannot know.
    public func close(_ id: NotificationID) {
        guard !isShutDown, state == .running else { return }
        call(
            Self.serverName, Self.serverPath, Self.serverInterface, "CloseNotification",
            parameters: g_variant_new_tuple([g_variant_new_uint32(id.rawValue)], 1), replyType: "()",
            timeout: options.callTimeout, flags: G_DBUS_CALL_FLAGS_NO_AUTO_START, kind: .close)
    }

    /// Takes back a post: dropped while queued, closed once shown.
    public func withdraw(_ post: PostID) {
        if let index = queue.firstIndex(where: { $0.post == post }) {
            queue.remove(at: index)
        } else if inFlight[post] != nil {
            inFlight[post]?.withdrawn = true
        } else if let id = shown.first(where: { $0.value == post })?.key {
            close(id)
        }
    }

    /// The events since the last call, oldest first. Call it after each loop iteration.
    public func takeEvents() -> [NotifierEvent] {
        defer { events.removeAll() }
        return events
    }

    /// Closes the notifications it shows, cancels everything in flight, forgets the queue and lets
    /// go of the bus. Called by deinit; call it earlier to stop before the notifier goes away.
    /// Later posts fail at once.
    public func shutdown() {
        guard !isShutDown else { return }
        // The buttons of its notifications would reach no one once it is gone (the server sends
        // their actions to this connection): close them, written out before the connection goes.
        // The server keeps them in its history.
        if let connection, !shown.isEmpty {
            for id in shown.keys { close(id) }
            Self.flush(connection, within: .seconds(1))
        }
        isShutDown = true
        g_cancellable_cancel(cancellable)
        cancelReconnect()
        dropConnection()
        queue.removeAll()
        // Let GLib run the cancelled calls' callbacks and the subscriptions' destroy notifies now,
        // so that their context objects are freed even if the loop stops here.
        glib.drainPending()
    }

    /// Writes out what was sent on `connection`, waiting at most `limit`: a bus that stalls must
    /// not hold up the exit (the closes are then lost, as they would be without the wait).
    private static func flush(_ connection: OpaquePointer, within limit: DispatchTimeInterval) {
        let deadline = SharedCancellable()
        DispatchQueue.global().asyncAfter(deadline: .now() + limit) { deadline.cancel() }
        g_dbus_connection_flush_sync(connection, deadline.pointer, nil)
    }

    /// The connection's unique bus name, such as `:1.4` (logged, so that a test can address it).
    var uniqueName: String? {
        connection.flatMap { g_dbus_connection_get_unique_name($0) }.map { String(cString: $0) }
    }

    // MARK: - Connection

    private func connect() {
        state = .connecting
        glib.withThreadDefault {
            let context = CallContext.retained(target, .connect)
            // The session bus: DBUS_SESSION_BUS_ADDRESS, else $XDG_RUNTIME_DIR/bus (tests give
            // notify a private bus through the variable).
            g_bus_get(
                G_BUS_TYPE_SESSION, cancellable,
                { _, result, userData in CallContext.finish(userData) { notifier, _ in notifier.connected(result: result) } },
                context)
        }
    }

    private func connected(result: OpaquePointer?) {
        var error: UnsafeMutablePointer<GError>?
        let newConnection = g_bus_get_finish(result, &error)
        guard let newConnection else {
            let failure = GLibFailure(taking: error)
            if failure.isCancelled || isShutDown { return }
            state = .noSessionBus
            report(.noSessionBus(failure.message))
            // A bus never reached ends notify (it runs outside a desktop session): nothing to wait for.
            if hasConnected { scheduleReconnect() }
            return
        }
        guard !isShutDown else {
            g_object_unref(UnsafeMutableRawPointer(newConnection))
            return
        }
        // The session bus connection is a process-wide singleton whose default is to raise SIGTERM
        // when the bus goes away: a long-running process reconnects instead.
        g_dbus_connection_set_exit_on_close(newConnection, 0)
        connection = newConnection
        hasConnected = true
        epoch += 1
        reconnectAttempts = 0
        watchClosed(newConnection)
        if g_dbus_connection_is_closed(newConnection) != 0 {
            connectionClosed()
            return
        }
        subscribe(newConnection)
        logger.debug("connected to the bus; looking for a notification server", metadata: ["name": "\(uniqueName ?? "?")"])
        // Subscribed first, then asked: an owner change after the answer still arrives as a signal.
        call(
            Self.busName, Self.busPath, Self.busName, "GetNameOwner",
            parameters: g_variant_new_tuple([Variant.string(Self.serverName)], 1), replyType: "(s)",
            timeout: options.callTimeout, kind: .nameOwner(epoch))
    }

    /// Follows the connection's `closed` GObject signal, which GDBus emits in the context that was
    /// thread-default when the connection was created: ours, since `connect()` pushed it.
    private func watchClosed(_ connection: OpaquePointer) {
        let handler: @convention(c) (OpaquePointer?, gboolean, UnsafeMutablePointer<GError>?, gpointer?) -> Void = {
            _, _, _, userData in
            CallbackTarget.notifier(from: userData)?.connectionClosed()
        }
        closedHandler = g_signal_connect_data(
            cgio_object(connection), "closed", unsafeBitCast(handler, to: GCallback.self),
            CallbackTarget.retainedPointer(target), { userData, _ in CallbackTarget.release(userData) }, GConnectFlags(0))
    }

    /// Subscribes (in our context) to the name's owner changes and to the server's two signals.
    private func subscribe(_ connection: OpaquePointer) {
        glib.withThreadDefault {
            subscriptions.append(
                g_dbus_connection_signal_subscribe(
                    connection, Self.busName, Self.busName, "NameOwnerChanged", Self.busPath, Self.serverName,
                    G_DBUS_SIGNAL_FLAGS_NONE,
                    { _, _, _, _, signal, parameters, userData in
                        CallbackTarget.notifier(from: userData)?.received(signal: signal, parameters: parameters)
                    },
                    CallbackTarget.retainedPointer(target), { CallbackTarget.release($0) }))
            // With a well-known sender name, GDBus (2.74.6-2+deb12u1 and later; GLib 2.80.1) only
            // delivers signals from the name's current owner: others cannot fake ActionInvoked.
            subscriptions.append(
                g_dbus_connection_signal_subscribe(
                    connection, Self.serverName, Self.serverInterface, nil, Self.serverPath, nil,
                    G_DBUS_SIGNAL_FLAGS_NONE,
                    { _, _, _, _, signal, parameters, userData in
                        CallbackTarget.notifier(from: userData)?.received(signal: signal, parameters: parameters)
                    },
                    CallbackTarget.retainedPointer(target), { CallbackTarget.release($0) }))
        }
    }

    private func connectionClosed() {
        guard connection != nil, !isShutDown else { return }
        logger.debug("the bus connection closed")
        dropConnection()
        forgetServer()
        state = .noSessionBus
        report(.busClosed)
        scheduleReconnect()
    }

    /// Unsubscribes and lets go of the connection. Calls in flight fail with `G_IO_ERROR_CLOSED`
    /// or `G_IO_ERROR_CANCELLED` and are handled as such.
    private func dropConnection() {
        guard let connection else { return }
        for subscription in subscriptions { g_dbus_connection_signal_unsubscribe(connection, subscription) }
        subscriptions.removeAll()
        if closedHandler != 0 { g_signal_handler_disconnect(cgio_object(connection), closedHandler) }
        closedHandler = 0
        g_object_unref(UnsafeMutableRawPointer(connection))
        self.connection = nil
        epoch += 1
    }

    private func scheduleReconnect() {
        guard reconnectTimer == nil, !isShutDown else { return }
        let delay = options.reconnectDelays[min(reconnectAttempts, options.reconnectDelays.count - 1)]
        reconnectAttempts += 1
        let milliseconds = UInt32(clamping: GLibEventSource.milliseconds(delay))
        logger.debug("reconnecting to the bus in \(delay)")
        let source = g_timeout_source_new(milliseconds)!
        g_source_set_callback(
            source,
            { userData in
                CallbackTarget.notifier(from: userData)?.reconnectTimerFired()
                return 0  // G_SOURCE_REMOVE
            },
            CallbackTarget.retainedPointer(target), { CallbackTarget.release($0) })
        g_source_attach(source, glib.context)
        reconnectTimer = source
    }

    private func reconnectTimerFired() {
        cancelReconnect()
        if connection == nil, !isShutDown { connect() }
    }

    private func cancelReconnect() {
        guard let reconnectTimer else { return }
        g_source_destroy(reconnectTimer)
        g_source_unref(reconnectTimer)
        self.reconnectTimer = nil
    }

    // MARK: - The server's presence

    private func received(signal: UnsafePointer<gchar>?, parameters: OpaquePointer?) {
        guard let signal, !isShutDown else { return }
        switch String(cString: signal) {
        case "NameOwnerChanged" where Variant.value(parameters, hasType: "(sss)"):
            guard Variant.string(in: parameters, at: 0) == Self.serverName else { return }
            let newOwner = Variant.string(in: parameters, at: 2)
            if newOwner.isEmpty {
                logger.debug("the notification server left the bus")
                serverLeft()
            } else {
                logger.debug("a notification server appeared on the bus")
                serverAppeared()
            }
        case "ActionInvoked" where Variant.value(parameters, hasType: "(us)"):
            let id = NotificationID(rawValue: Variant.uint32(in: parameters, at: 0))
            guard shown[id] != nil else { return }
            events.append(.actionInvoked(id, actionKey: Variant.string(in: parameters, at: 1)))
        case "NotificationClosed" where Variant.value(parameters, hasType: "(uu)"):
            let id = NotificationID(rawValue: Variant.uint32(in: parameters, at: 0))
            guard shown.removeValue(forKey: id) != nil else { return }
            events.append(.closed(id, CloseReason(rawValue: Variant.uint32(in: parameters, at: 1))))
        default:
            break  // ActivationToken, or a signal of an unexpected type.
        }
    }

    private func nameOwnerAnswered(_ reply: Result<OpaquePointer?, GLibFailure>, epoch replyEpoch: UInt64) {
        guard replyEpoch == epoch else { return }
        switch reply {
        case .success: serverAppeared()
        case .failure(let failure) where failure.remoteName == "org.freedesktop.DBus.Error.NameHasNoOwner": serverLeft()
        case .failure(let failure):
            logger.warning("cannot ask the bus for the notification server: \(failure)")
            serverLeft()
        }
    }

    /// A server owns the name (new, or a replacement): ask it what it supports, then deliver.
    private func serverAppeared() {
        forgetServer()
        probeServer()
    }

    /// No server owns the name: one the bus can start will do; else wait for NameOwnerChanged.
    private func serverLeft() {
        forgetServer()
        state = .connecting
        call(
            Self.busName, Self.busPath, Self.busName, "ListActivatableNames", parameters: nil, replyType: "(as)",
            timeout: options.callTimeout, kind: .activatable(epoch))
    }

    private func activatableAnswered(_ reply: Result<OpaquePointer?, GLibFailure>, epoch replyEpoch: UInt64) {
        guard replyEpoch == epoch else { return }
        if case .success(let names) = reply, Variant.strings(in: names, at: 0).contains(Self.serverName) {
            logger.debug("no notification server runs, but the bus can start one")
            state = .activatable
            if !queue.isEmpty { probeServer() }
        } else {
            state = .noServer
            report(.noServer)
        }
    }

    /// The ids of the previous server mean nothing to the next one.
    private func forgetServer() {
        epoch += 1
        shown.removeAll()
    }

    /// `GetCapabilities`: tells whether bodies are markup, and starts an activatable server.
    private func probeServer() {
        state = .probing
        call(
            Self.serverName, Self.serverPath, Self.serverInterface, "GetCapabilities", parameters: nil, replyType: "(as)",
            timeout: options.activationTimeout, kind: .capabilities(epoch))
    }

    private func capabilitiesAnswered(_ reply: Result<OpaquePointer?, GLibFailure>, epoch replyEpoch: UInt64) {
        guard replyEpoch == epoch else { return }
        switch reply {
        case .success(let capabilities):
            bodyMarkup = Variant.strings(in: capabilities, at: 0).contains("body-markup")
        case .failure(let failure) where failure.meansServerGone:
            logger.debug("the notification server could not be reached or started: \(failure)")
            state = .noServer
            report(.noServer)
            return
        case .failure(let failure):
            logger.debug("GetCapabilities failed (\(failure)); assuming plain-text bodies")
            bodyMarkup = false
        }
        state = .running
        if reported != nil || !announcedAvailable {
            logger.info("a notification server is available")
        }
        reported = nil
        announcedAvailable = true
        // Reported before the server is, so that its poster, told of both, posts them again.
        let now = ContinuousClock.now
        for stale in queue where now - stale.made > options.maxQueuedAge { events.append(.postDropped(stale.post)) }
        queue.removeAll { now - $0.made > options.maxQueuedAge }
        events.append(.serverAvailable)
        while state == .running, !queue.isEmpty { send(queue.removeFirst()) }
    }

    /// Reports an unavailability once: not again until the server has been available in between.
    private func report(_ reason: UnavailableReason) {
        if let reported, reported.isSameCondition(as: reason) { return }
        reported = reason
        switch reason {
        case .noServer:
            logger.warning("no notification server on the session bus: notifications wait until one starts")
        case .noSessionBus(let message) where hasConnected:
            logger.warning("no session bus (\(message)): notifications wait until one can be reached")
        case .noSessionBus:
            break  // A bus never reached is the caller's to report: notify stops.
        case .busClosed:
            logger.warning("the session bus went away: notifications wait until it is back")
        }
        events.append(.serverUnavailable(reason))
    }

    // MARK: - Posts

    private func enqueue(_ pending: Pending) {
        if queue.count >= options.maxQueued {
            let dropped = queue.removeFirst()
            logger.debug("too many notifications waiting for a server: dropping the oldest")
            events.append(.postDropped(dropped.post))
        }
        queue.append(pending)
    }

    private func send(_ pending: Pending) {
        inFlight[pending.post] = pending
        let parameters = Self.notifyParameters(
            appName: options.appName, notification: pending.notification, replacing: pending.replacing,
            escapeBody: bodyMarkup)
        call(
            Self.serverName, Self.serverPath, Self.serverInterface, "Notify", parameters: parameters, replyType: "(u)",
            timeout: Self.noTimeout, kind: .notify(pending.post))
    }

    private func notifyAnswered(_ reply: Result<OpaquePointer?, GLibFailure>, post: PostID) {
        guard let pending = inFlight.removeValue(forKey: post) else { return }
        switch reply {
        case .success(let value):
            let id = NotificationID(rawValue: Variant.uint32(in: value, at: 0))
            if id.rawValue == 0 {
                // The specification has no id 0; dunst answers it for a notification it skips.
                events.append(.postFailed(post, reason: "the server did not show it (id 0)"))
            } else if pending.withdrawn {
                close(id)
            } else {
                shown[id] = post
                events.append(.shown(post, id))
            }
        case .failure(let failure) where failure.isCancelled:
            break
        case .failure(let failure)
        where failure.meansServerGone
            || (failure.meansServerLeftWithoutReplying && pending.serversLost + 1 < Self.maxServersLost):
            // Not shown: it waits for the next server (NameOwnerChanged or reconnection).
            var pending = pending
            if failure.meansServerLeftWithoutReplying { pending.serversLost += 1 }
            if !pending.withdrawn { queue.insert(pending, at: 0) }
            if state == .running, connection != nil { serverLeft() }
        case .failure(let failure):
            // Its poster says it, with what it does next: a warning here too made two (helper-134).
            logger.debug("a notification could not be shown: \(failure)")
            events.append(.postFailed(post, reason: failure.description))
        }
    }

    /// `Notify`'s parameters, `(susssasa{sv}i)`, as a floating GVariant (the call consumes it).
    /// The body is escaped for servers that read it as markup; the summary is plain text.
    static func notifyParameters(
        appName: String, notification: DesktopNotification, replacing: NotificationID?, escapeBody: Bool
    ) -> OpaquePointer? {
        let hints: [OpaquePointer?] = [
            g_variant_new_dict_entry(
                Variant.string("urgency"), g_variant_new_variant(g_variant_new_byte(notification.urgency.rawValue))),
            g_variant_new_dict_entry(Variant.string("category"), g_variant_new_variant(Variant.string(notification.category))),
        ]
        let hintsDictionary = Variant.withType("{sv}") { type in
            hints.withUnsafeBufferPointer { g_variant_new_array(type, $0.baseAddress, gsize($0.count)) }
        }
        let children: [OpaquePointer?] = [
            Variant.string(appName),
            g_variant_new_uint32(replacing?.rawValue ?? 0),
            Variant.string(""),  // app_icon
            Variant.string(notification.summary),
            Variant.string(escapeBody ? notification.body.markupEscaped(quotes: false) : notification.body),
            Variant.stringArray(notification.actions.flatMap { [$0.key, $0.label] }),
            hintsDictionary,
            g_variant_new_int32(notification.expireTimeout),
        ]
        return children.withUnsafeBufferPointer { g_variant_new_tuple($0.baseAddress, gsize($0.count)) }
    }

    // MARK: - Calls and their callbacks

    /// Starts an asynchronous method call whose reply is dispatched by our context.
    private func call(
        _ destination: String, _ path: String, _ interface: String, _ method: String, parameters: OpaquePointer?,
        replyType: String, timeout: Duration, flags: GDBusCallFlags = G_DBUS_CALL_FLAGS_NONE, kind: CallContext.Kind
    ) {
        guard let connection else {
            // Floating parameters would leak: sink and drop them.
            if let parameters { g_variant_unref(g_variant_ref_sink(parameters)) }
            return
        }
        glib.withThreadDefault {
            Variant.withType(replyType) { type in
                g_dbus_connection_call(
                    connection, destination, path, interface, method, parameters, type, flags,
                    GLibEventSource.milliseconds(timeout), cancellable,
                    { source, result, userData in
                        CallContext.finish(userData) { notifier, kind in
                            notifier.callFinished(connection: OpaquePointer(source), result: result, kind: kind)
                        }
                    },
                    CallContext.retained(target, kind))
            }
        }
    }

    private func callFinished(connection source: OpaquePointer?, result: OpaquePointer?, kind: CallContext.Kind) {
        var error: UnsafeMutablePointer<GError>?
        let value = g_dbus_connection_call_finish(source, result, &error)
        defer { if let value { g_variant_unref(value) } }
        let reply: Result<OpaquePointer?, GLibFailure> = value != nil ? .success(value) : .failure(GLibFailure(taking: error))
        if isShutDown { return }
        switch kind {
        case .connect: break
        case .nameOwner(let epoch): nameOwnerAnswered(reply, epoch: epoch)
        case .activatable(let epoch): activatableAnswered(reply, epoch: epoch)
        case .capabilities(let epoch): capabilitiesAnswered(reply, epoch: epoch)
        case .notify(let post): notifyAnswered(reply, post: post)
        case .close:
            if case .failure(let failure) = reply, !failure.isCancelled {
                logger.debug("CloseNotification failed: \(failure)")
            }
        }
    }
}

/// Confined to the loop's thread (see the type's documentation): never `Sendable`.
@available(*, unavailable)
extension DesktopNotifier: Sendable {}

// MARK: - From C callbacks back to Swift

/// How GLib's C callbacks find their way back to a ``DesktopNotifier``.
///
/// C callbacks are `@convention(c)` closures: they capture nothing, and get a `gpointer user_data`
/// instead. That pointer is an `Unmanaged` reference to a `CallbackTarget`, retained for GLib and
/// released by the destroy notify GLib calls when it drops the callback (signal subscriptions,
/// the `closed` handler, timers). The target holds the notifier *weakly*, so a callback that runs
/// after the notifier is gone (a cancelled call finishing) finds nil and does nothing; no
/// `user_data` ever points at freed memory.
///
/// Concurrency: GLib calls these callbacks only from `g_main_context_dispatch` on our private
/// context, which runs inside ``GLibEventSource/dispatch(_:)`` on the loop's thread, the thread
/// that also makes every other call on the (non-`Sendable`) notifier. GDBus's own I/O thread never
/// calls them: it queues the message on the context and wakes its eventfd. So the notifier's
/// state needs no lock, and events reach Swift as plain values appended to an array.
final class CallbackTarget {
    weak var notifier: DesktopNotifier?

    static func retainedPointer(_ target: CallbackTarget) -> gpointer {
        Unmanaged.passRetained(target).toOpaque()
    }

    static func release(_ userData: gpointer?) {
        guard let userData else { return }
        Unmanaged<CallbackTarget>.fromOpaque(userData).release()
    }

    /// The notifier behind a `user_data` that holds a retained target (not consumed).
    static func notifier(from userData: gpointer?) -> DesktopNotifier? {
        guard let userData else { return nil }
        return Unmanaged<CallbackTarget>.fromOpaque(userData).takeUnretainedValue().notifier
    }
}

/// The `user_data` of one asynchronous call: GIO calls a `GAsyncReadyCallback` exactly once
/// (also when cancelled), so the context is passed retained and taken back (released) there.
final class CallContext {
    enum Kind {
        case connect
        case nameOwner(UInt64)
        case activatable(UInt64)
        case capabilities(UInt64)
        case notify(PostID)
        case close
    }

    let target: CallbackTarget
    let kind: Kind

    private init(target: CallbackTarget, kind: Kind) {
        self.target = target
        self.kind = kind
    }

    static func retained(_ target: CallbackTarget, _ kind: Kind) -> gpointer {
        Unmanaged.passRetained(CallContext(target: target, kind: kind)).toOpaque()
    }

    /// Releases the context and runs `body` if the notifier still exists.
    static func finish(_ userData: gpointer?, _ body: (DesktopNotifier, Kind) -> Void) {
        guard let userData else { return }
        let context = Unmanaged<CallContext>.fromOpaque(userData).takeRetainedValue()
        guard let notifier = context.target.notifier else { return }
        body(notifier, context.kind)
    }
}

/// A GCancellable that another thread may cancel (GLib makes cancelling thread-safe).
private final class SharedCancellable: @unchecked Sendable {
    let pointer = g_cancellable_new()

    func cancel() { g_cancellable_cancel(pointer) }

    deinit { g_object_unref(pointer) }
}
