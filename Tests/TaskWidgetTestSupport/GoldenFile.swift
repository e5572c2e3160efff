import Foundation
import Testing

/// Golden files beside the tests. `TASKWIDGET_RECORD_GOLDENS=1 swift test --filter SUITE` rewrites
/// them, and that run fails on purpose (as swift-argument-parser's recording does), so that no
/// recording passes for a test run: review `git diff`, then run the tests again.
enum GoldenFile {
    static var isRecording: Bool { ProcessInfo.processInfo.environment["TASKWIDGET_RECORD_GOLDENS"] == "1" }

    /// When recording, writes `data` to `url`, records the failing issue, and returns true; the
    /// caller then compares nothing.
    static func record(_ data: Data, at url: URL, sourceLocation: SourceLocation) throws -> Bool {
        guard isRecording else { return false }
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: url, options: .atomic)
        Issue.record(
            "recorded \(url.lastPathComponent): review it with `git diff`, then run the tests again without TASKWIDGET_RECORD_GOLDENS",
            sourceLocation: sourceLocation)
        return true
    }

    /// The golden at `url`, or nil after recording an issue that says how to make it.
    static func expected(at url: URL, suite: String, sourceLocation: SourceLocation) -> Data? {
        guard let data = FileManager.default.contents(atPath: url.path) else {
            Issue.record(
                "missing golden \(url.path): run TASKWIDGET_RECORD_GOLDENS=1 swift test --filter \(suite), then review it",
                sourceLocation: sourceLocation)
            return nil
        }
        return data
    }

    /// Compares `actual` with the text file at `url` byte for byte (or records it). A mismatch
    /// names the first differing line. `suite` names the test suite to re-run in the message.
    static func compare(_ actual: String, to url: URL, suite: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        if try record(Data(actual.utf8), at: url, sourceLocation: sourceLocation) { return }
        guard let data = expected(at: url, suite: suite, sourceLocation: sourceLocation) else { return }
        let expected = String(decoding: data, as: UTF8.self)
        guard expected != actual else { return }
        let expectedLines = expected.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let actualLines = actual.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let common = min(expectedLines.count, actualLines.count)
        let line = (0..<common).first { expectedLines[$0] != actualLines[$0] } ?? common
        let before = expectedLines[max(0, line - 3)..<line].map { "  " + $0 }
        let message = [
            "\(url.lastPathComponent) differs at line \(line + 1) (\(expectedLines.count) lines expected, \(actualLines.count) actual):",
            before.joined(separator: "\n"),
            "- " + (line < expectedLines.count ? expectedLines[line] : "<end of file>"),
            "+ " + (line < actualLines.count ? actualLines[line] : "<end of output>"),
            "If the change is intended: TASKWIDGET_RECORD_GOLDENS=1 swift test --filter \(suite), then review `git diff`.",
        ].joined(separator: "\n")
        Issue.record("\(message)", sourceLocation: sourceLocation)
    }
}
