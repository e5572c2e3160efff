public import Foundation
import Synchronization

/// A fault-injecting proxy in front of a ``RadicaleServer`` (`scripts/faultproxy.py`): each new
/// connection is passed through, answered 500/503, cut mid-body, garbled, stalled, trickled or
/// reset, as the current ``Mode`` says.
///
/// ```swift
/// let proxy = try await FaultProxy.start(upstream: server)
/// proxy.mode = .truncate
/// // a client pointed at proxy.baseURL now sees responses end mid-body
/// await proxy.stop()
/// ```
public final class FaultProxy: Sendable {
    /// What the proxy does to the next connections.
    public enum Mode: String, Sendable, CaseIterable {
        case pass, status500, status503, truncate, garble, stall, trickle, reset
    }

    /// `http://127.0.0.1:PORT/`, the proxy's address (paths as on the upstream server).
    public let baseURL: URL
    private let controlFile: URL
    private let process: Mutex<ChildProcess?>

    private init(baseURL: URL, controlFile: URL, process: ChildProcess) {
        self.baseURL = baseURL
        self.controlFile = controlFile
        self.process = Mutex(process)
    }

    /// The script, found from this source file: `scripts/sync/faultproxy.py` of the package.
    public static let script = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("scripts/sync/faultproxy.py")

    /// Starts a proxy to `upstream` in mode ``Mode/pass``; returns once it listens.
    public static func start(upstream: RadicaleServer) async throws -> FaultProxy {
        let controlFile = upstream.directory.appendingPathComponent("faultproxy.mode")
        try Mode.pass.rawValue.write(to: controlFile, atomically: true, encoding: .utf8)
        let portFile = controlFile.appendingPathExtension("port")
        try? FileManager.default.removeItem(at: portFile)
        let process = try ChildProcess.spawn(
            RadicaleServer.python, [script.path, String(upstream.port), controlFile.path],
            outputFile: upstream.directory.appendingPathComponent("faultproxy.log").path)
        // The proxy writes its port to a file once it listens: poll for it, with a deadline.
        let deadline = ContinuousClock.now + .seconds(20)
        var port: Int?
        while port == nil && ContinuousClock.now < deadline && process.termination() == nil {
            port = (try? String(contentsOf: portFile, encoding: .utf8))
                .flatMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
            if port == nil { try await Task.sleep(for: .milliseconds(10)) }
        }
        guard let port else {
            await process.stop()
            throw RadicaleServer.HarnessError(description: "the fault proxy did not start (\(script.path))")
        }
        return FaultProxy(
            baseURL: URL(string: "http://127.0.0.1:\(port)/")!, controlFile: controlFile, process: process)
    }

    /// The mode for the connections accepted from now on.
    public var mode: Mode {
        get {
            (try? String(contentsOf: controlFile, encoding: .utf8))
                .flatMap { Mode(rawValue: $0.trimmingCharacters(in: .whitespacesAndNewlines)) } ?? .pass
        }
        set { try? newValue.rawValue.write(to: controlFile, atomically: true, encoding: .utf8) }
    }

    /// Sets the control word as it is, e.g. `after:2:reset` or `only:PUT:status500`
    /// (see `scripts/sync/faultproxy.py`).
    public func setRule(_ word: String) {
        try? word.write(to: controlFile, atomically: true, encoding: .utf8)
    }

    /// The requests seen so far, one `MODE METHOD PATH` line each.
    public var requestLog: [String] {
        ((try? String(contentsOf: controlFile.appendingPathExtension("log"), encoding: .utf8)) ?? "")
            .split(separator: "\n").map(String.init)
    }

    /// Stops the proxy.
    public func stop() async {
        let process = self.process.withLock { current -> ChildProcess? in
            defer { current = nil }
            return current
        }
        await process?.stop()
    }
}
