import Foundation
import Testing
@testable import TaskWidgetCore
@testable import TaskWidgetTestSupport

@Suite struct AtomicFileTests {
    let folder: TemporaryFolder
    init() throws { folder = try TemporaryFolder() }

    @Test func replacesTheWholeFileAndLeavesNoTemporaryFile() throws {
        let target = URL(fileURLWithPath: folder.path("widget.png"))
        try AtomicFile.write(Data(repeating: 1, count: 100_000), to: target)
        try AtomicFile.write(Data([2, 3]), to: target)
        #expect(try Data(contentsOf: target) == Data([2, 3]))
        #expect(try folder.entries() == ["widget.png"])
    }

    @Test func aFailedWriteKeepsTheOldFileAndLeavesNoTemporaryFile() throws {
        let target = URL(fileURLWithPath: folder.path("widget.png"))
        try AtomicFile.write(Data([7]), to: target)
        // A non-empty folder at the target makes the final rename fail after the bytes were written.
        try FileManager.default.createDirectory(atPath: folder.path("sub/inner"), withIntermediateDirectories: true)
        #expect(throws: TaskWidgetError.self) { try AtomicFile.write(Data([9]), to: URL(fileURLWithPath: folder.path("sub"))) }
        #expect(throws: TaskWidgetError.self) { try AtomicFile.write(Data([9]), to: URL(fileURLWithPath: folder.path("missing/widget.png"))) }
        #expect(try Data(contentsOf: target) == Data([7]))
        #expect(try folder.entries() == ["sub", "widget.png"])
    }
}
