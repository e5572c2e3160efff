import Synchronization

/// Fans one stream of dashboard changes out to every `/events` subscriber.
///
/// Each subscriber gets its own `AsyncStream`. Its buffer keeps the newest few items only, so a
/// stalled client costs a bounded amount of memory and, when it catches up, still ends with the
/// latest state (each event carries the whole state, so dropping an older one loses nothing a
/// viewer needs). `publish` may be called from any thread: a continuation is `Sendable`.
public final class EventBroadcaster: Sendable {
    /// What a subscriber receives.
    public enum Item: Sendable, Equatable {
        case change(DashboardEvent)
        /// A comment line that keeps proxies and NATs from closing an idle stream.
        case heartbeat
    }

    /// Thrown by ``subscribe()`` when ``maximumSubscribers`` are connected.
    public struct TooManySubscribers: Error {}

    private struct State {
        var subscribers: [UInt64: AsyncStream<Item>.Continuation] = [:]
        var nextID: UInt64 = 0
        var isFinished = false
        /// Who waits for a number of subscribers (tests), and for which.
        var waiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []

        /// Takes out the waiters whose count is reached.
        mutating func reachedWaiters() -> [CheckedContinuation<Void, Never>] {
            let count = subscribers.count
            let reached = waiters.filter { $0.count == count }.map(\.continuation)
            waiters.removeAll { $0.count == count }
            return reached
        }
    }

    private let state = Mutex(State())
    /// The most concurrent `/events` streams (each also holds a connection).
    public let maximumSubscribers: Int

    public init(maximumSubscribers: Int = 64) {
        self.maximumSubscribers = maximumSubscribers
    }

    /// A new subscription. Its stream ends when the broadcaster finishes, when its consumer stops
    /// iterating, or when the subscription is released (a response that was never written must
    /// not leave a subscriber behind).
    public func subscribe() throws(TooManySubscribers) -> Subscription {
        let (stream, continuation) = AsyncStream.makeStream(of: Item.self, bufferingPolicy: .bufferingNewest(8))
        let (id, reached): (UInt64?, [CheckedContinuation<Void, Never>]) = state.withLock { state in
            guard !state.isFinished, state.subscribers.count < maximumSubscribers else { return (nil, []) }
            state.nextID += 1
            state.subscribers[state.nextID] = continuation
            return (state.nextID, state.reachedWaiters())
        }
        for waiter in reached { waiter.resume() }
        guard let id else {
            continuation.finish()
            throw TooManySubscribers()
        }
        continuation.onTermination = { [weak self] _ in self?.remove(id) }
        return Subscription(stream: stream, continuation: continuation)
    }

    private func remove(_ id: UInt64) {
        let reached = state.withLock { state in
            state.subscribers.removeValue(forKey: id)
            return state.reachedWaiters()
        }
        for waiter in reached { waiter.resume() }
    }

    /// Returns once exactly `count` streams are open (for tests: a stream's end is noticed on the
    /// server's side a moment after the client closes).
    func waitForSubscribers(count: Int) async {
        await withCheckedContinuation { continuation in
            let reached = state.withLock { state in
                guard state.subscribers.count != count else { return true }
                state.waiters.append((count, continuation))
                return false
            }
            if reached { continuation.resume() }
        }
    }

    /// Sends `event` to every subscriber.
    public func publish(_ event: DashboardEvent) {
        // Yield outside the lock: yield may run onTermination, which takes the lock.
        let continuations = state.withLock { Array($0.subscribers.values) }
        for continuation in continuations { continuation.yield(.change(event)) }
    }

    /// Ends every stream, now and for later subscribers (graceful shutdown).
    public func finish() {
        let continuations = state.withLock { state in
            state.isFinished = true
            return Array(state.subscribers.values)
        }
        for continuation in continuations { continuation.finish() }
    }
}

/// One `/events` client's stream of items; finishing or releasing it unsubscribes.
public final class Subscription: Sendable {
    /// The items, newest kept when the consumer falls behind. At most one heartbeat waits in it at
    /// a time, so heartbeats never push a change out: only newer changes do.
    public let stream: AsyncStream<EventBroadcaster.Item>
    private let continuation: AsyncStream<EventBroadcaster.Item>.Continuation
    /// A heartbeat is in the stream and not yet taken by ``heartbeatTaken()``.
    private let heartbeatWaiting = Atomic<Bool>(false)

    init(stream: AsyncStream<EventBroadcaster.Item>, continuation: AsyncStream<EventBroadcaster.Item>.Continuation) {
        self.stream = stream
        self.continuation = continuation
    }

    /// Ends the stream: the consumer's loop finishes after the items already buffered.
    public func finish() { continuation.finish() }

    /// Adds a heartbeat to the stream every `interval`, until the stream ends or the task is
    /// cancelled. Run it as a child task of the stream's consumer, so that it shares its executor
    /// and ends with it.
    public func sendHeartbeats(every interval: Duration) async {
        while !Task.isCancelled {
            try? await Task.sleep(for: interval)
            if Task.isCancelled || !addHeartbeat() { return }
        }
    }

    /// Adds a heartbeat unless one is still waiting in the stream; false when the stream has ended.
    func addHeartbeat() -> Bool {
        guard !heartbeatWaiting.exchange(true, ordering: .acquiringAndReleasing) else { return true }
        if case .terminated = continuation.yield(.heartbeat) { return false }
        return true
    }

    /// The consumer took a heartbeat from the stream: the next one may be added.
    public func heartbeatTaken() {
        heartbeatWaiting.store(false, ordering: .releasing)
    }

    deinit { continuation.finish() }
}

/// The `text/event-stream` wire format (WHATWG HTML §9.2).
public enum ServerSentEvents {
    /// Sent first: how long the browser waits before reconnecting, in milliseconds.
    public static func retry(milliseconds: Int) -> String { "retry: \(milliseconds)\n\n" }

    /// One event: `id:`, `event:`, one `data:` line per line of `data`, and the blank line.
    public static func event(id: UInt64, name: String, data: String) -> String {
        var text = "id: \(id)\nevent: \(name)\n"
        for line in data.split(separator: "\n", omittingEmptySubsequences: false) {
            text += "data: \(line)\n"
        }
        return text + "\n"
    }

    /// A comment line: ignored by `EventSource`, but it crosses every proxy.
    public static let heartbeat = ": keep-alive\n\n"
}
