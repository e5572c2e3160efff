import Foundation
public import Logging

/// The log messages of the code under test, kept so that a test can read them or wait for the one
/// that marks an event it cannot see from outside (a server's, a watch's).
public final class LogRecorder: Sendable {
    private let messages = NSCondition()
    nonisolated(unsafe) private var recorded: [String] = []
    nonisolated(unsafe) private var recordedMetadata: [[String: String]] = []

    public init() {}

    /// The messages logged so far, oldest first.
    public var logged: [String] {
        messages.lock()
        defer { messages.unlock() }
        return recorded
    }

    /// The metadata of each message in ``logged``, the logger's own and the message's merged.
    public var loggedMetadata: [[String: String]] {
        messages.lock()
        defer { messages.unlock() }
        return recordedMetadata
    }

    public var logger: Logger {
        var logger = Logger(label: "test") { _ in Handler(recorder: self) }
        logger.logLevel = .info
        return logger
    }

    /// Blocks until a message containing `text` was logged, or `timeout` seconds pass.
    /// - Returns: whether it was logged.
    public func wait(for text: String, timeout: Double) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        messages.lock()
        defer { messages.unlock() }
        while !recorded.contains(where: { $0.contains(text) }) {
            guard messages.wait(until: deadline) else { return false }
        }
        return true
    }

    private func record(_ message: String, metadata: Logger.Metadata) {
        messages.lock()
        recorded.append(message)
        recordedMetadata.append(metadata.mapValues(\.description))
        messages.broadcast()
        messages.unlock()
    }

    private struct Handler: LogHandler {
        let recorder: LogRecorder
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .info

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            recorder.record(event.message.description, metadata: metadata.merging(event.metadata ?? [:]) { $1 })
        }
    }
}
