import CGio
public import CLinuxEvents
public import Glibc
public import TaskWidgetWatch

/// GLib's main loop as one more ``EventSource`` of the ``FollowLoop``: notify sleeps in one `poll`
/// on its signals, timers, the store's inotify descriptor and GDBus's descriptors together.
///
/// GDBus delivers everything (method replies, signals, the connection's `closed` signal, its own
/// timers) by dispatching sources attached to a `GMainContext`. Instead of running a `GMainLoop` on
/// a second thread, this source owns a private context and splits one GLib iteration into the
/// halves around the loop's `poll`, as `g_main_context_iterate` does inside:
///
/// 1. ``prepare()`` acquires the context and runs `g_main_context_prepare` and
///    `g_main_context_query`: GLib's descriptors (always including the context's wake-up eventfd,
///    which GDBus's I/O thread signals when it queues a message for us) and GLib's timeout (-1
///    when no GLib timer is pending, so an idle notify sleeps without one).
/// 2. The loop polls them beside its own.
/// 3. ``dispatch(_:)`` hands back their `revents` and runs `g_main_context_check` and
///    `g_main_context_dispatch` (which call the notifier's C callbacks), then releases the context.
///
/// ```swift
/// let glib = GLibEventSource()
/// let notifier = DesktopNotifier(glib: glib, logger: logger)
/// try FollowLoop.run(&session, clock: clock, storePath: path, options: .init(sources: [glib]), logger: logger)
/// ```
///
/// Threading: not `Sendable`. The context is acquired for one iteration at a time, on the loop's
/// thread, and every GLib call that captures the thread-default context (connections, calls,
/// subscriptions) runs inside ``withThreadDefault(_:)``. GLib keeps threads of its own (GDBus's
/// "gdbus" worker among them); they never run our code, they only queue sources on this context.
public final class GLibEventSource: EventSource {
    /// The private `GMainContext`; owned (one reference) for the life of this object.
    let context: OpaquePointer
    /// GLib's descriptors of the current iteration, in the order ``prepare()`` returned them.
    private var pollDescriptors: [GPollFD] = []
    private var maxPriority: Int32 = 0
    private var iterating = false

    /// Creates a new, private main context (not GLib's global default one).
    public init() {
        context = g_main_context_new()
    }

    deinit {
        endUnfinishedIteration()
        g_main_context_unref(context)
    }

    /// Releases the context of an iteration whose `dispatch` never came (the loop stopped after
    /// its poll failed).
    private func endUnfinishedIteration() {
        guard iterating else { return }
        iterating = false
        g_main_context_release(context)
    }

    /// Runs `body` with this context as the calling thread's thread-default context, which is the
    /// context GIO captures when a connection is created, a call is started or a signal is
    /// subscribed: their callbacks are then dispatched here, and so from the follow loop.
    func withThreadDefault<Result>(_ body: () throws -> Result) rethrows -> Result {
        g_main_context_push_thread_default(context)
        defer { g_main_context_pop_thread_default(context) }
        return try body()
    }

    /// Begins one iteration: GLib's descriptors, and how long GLib may sleep (ms; -1: no limit).
    ///
    /// Every call is followed by ``dispatch(_:)`` before the next one (the loop also dispatches
    /// after an interrupted or failed poll): GLib keeps the iteration's state in the context. A
    /// `prepare` without its `dispatch` (the loop stopped in between) is undone by ``deinit`` or
    /// the next `prepare`.
    public func prepare() -> (descriptors: [pollfd], timeout: Int32) {
        endUnfinishedIteration()
        guard g_main_context_acquire(context) != 0 else {
            preconditionFailure("the GLib context is being iterated on another thread")
        }
        iterating = true
        // When a source is ready already, prepare returns true and query gives a zero timeout.
        _ = g_main_context_prepare(context, &maxPriority)
        var timeout: Int32 = -1
        var count: Int32 = 0
        repeat {
            if pollDescriptors.count < Int(count) {
                pollDescriptors = Array(repeating: GPollFD(), count: Int(count))
            }
            count = pollDescriptors.withUnsafeMutableBufferPointer { buffer in
                g_main_context_query(context, maxPriority, &timeout, buffer.baseAddress, Int32(buffer.count))
            }
        } while Int(count) > pollDescriptors.count
        pollDescriptors.removeSubrange(Int(count)...)
        let descriptors = pollDescriptors.map { pollfd(fd: $0.fd, events: Int16(bitPattern: $0.events), revents: 0) }
        return (descriptors, timeout)
    }

    /// Ends the iteration begun by ``prepare()``: `polled` are the descriptors it returned, in the
    /// same order, with the `revents` that `poll` set. Runs the callbacks of every source that is
    /// ready, then releases the context.
    public func dispatch(_ polled: [pollfd]) {
        guard iterating else { return }
        precondition(polled.count == pollDescriptors.count, "dispatch(_:) needs exactly the descriptors prepare() returned")
        for (index, descriptor) in zip(pollDescriptors.indices, polled) {
            pollDescriptors[index].revents = UInt16(bitPattern: descriptor.revents)
        }
        let ready = pollDescriptors.withUnsafeMutableBufferPointer { buffer in
            g_main_context_check(context, maxPriority, buffer.baseAddress, Int32(buffer.count))
        }
        if ready != 0 { g_main_context_dispatch(context) }
        iterating = false
        g_main_context_release(context)
    }

    /// Dispatches whatever is ready now without sleeping (on shutdown, so that GLib runs the
    /// cancelled calls' callbacks and frees their context objects). At most `limit` iterations.
    func drainPending(limit: Int = 100) {
        endUnfinishedIteration()
        guard g_main_context_acquire(context) != 0 else { return }
        defer { g_main_context_release(context) }
        var remaining = limit
        while remaining > 0, g_main_context_iteration(context, 0) != 0 { remaining -= 1 }
    }

    /// A `Duration` as a GLib or `poll` timeout in milliseconds, rounded up so that a short wait
    /// does not become a busy poll with timeout 0.
    static func milliseconds(_ duration: Duration) -> Int32 {
        if duration <= .zero { return 0 }
        let (seconds, attoseconds) = duration.components
        let milliseconds = seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
        return Int32(clamping: milliseconds)
    }
}

/// Iterated by one thread at a time, and GLib's thread-default stack is per thread: not `Sendable`.
@available(*, unavailable)
extension GLibEventSource: Sendable {}
