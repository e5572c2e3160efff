import Foundation
import Testing

@testable import TaskWidgetTestSupport

/// A store reached through a symbolic link (dotfiles kept in a synced folder, say) is the file it
/// points to, for readers and writers; only a link that points nowhere is refused.
@Suite struct SymlinkedStoreTests {
    @Test func aStoreBehindASymbolicLinkIsReadAndWritten() throws {
        let sandbox = try Sandbox()
        try sandbox.succeed(["add", "Pay rent", "--due", "2026-11-22T18:00:00+01:00"])
        let link = sandbox.folder.appendingPathComponent("link.sqlite").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: sandbox.storePath)
        try sandbox.succeed(["add", "Call Bob", "--store", link])
        let status = try sandbox.succeed(["status", "--format", "text", "--store", link])
        #expect(status.contains("Pay rent"))
        let titles = try sandbox.succeed(["ls", "--format", "json"])
        #expect(titles.contains("Pay rent") && titles.contains("Call Bob"), "\(titles)")
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: link)) == sandbox.storePath, "the link stays a link")
    }
}
