import Foundation
import Testing

/// Golden files compared byte for byte, re-recorded with `TASKWIDGET_RECORD_GOLDENS=1 swift test`
/// (then review `git diff`). A mismatch names the first differing line.
enum GoldenFile {
    static var isRecording: Bool { ProcessInfo.processInfo.environment["TASKWIDGET_RECORD_GOLDENS"] == "1" }

    /// Compares `actual` with the file at `url`, or writes it there when recording. `suite` names the
    /// test suite to re-run in the message.
    static func compare(_ actual: String, to url: URL, suite: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        if isRecording {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(actual.utf8).write(to: url, options: .atomic)
            return
        }
        guard let data = FileManager.default.contents(atPath: url.path) else {
            Issue.record(
                "missing golden \(url.path): run TASKWIDGET_RECORD_GOLDENS=1 swift test --filter \(suite), then review it",
                sourceLocation: sourceLocation)
            return
        }
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
