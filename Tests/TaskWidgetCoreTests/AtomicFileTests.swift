import Foundation
import Testing
@testable import TaskWidgetCore
@testable import TaskWidgetTestSupport

@Suite struct AtomicFileTests {
    let folder: TemporaryFolder
    init() throws { folder = try TemporaryFolder() }

    /// Flushed to disk or not, readers see the old bytes or the new ones (the flush only decides
    /// what a power cut keeps).
    @Test(arguments: [AtomicFile.Durability.durable, .atomicOnly])
    func replacesTheWholeFileAndLeavesNoTemporaryFile(durability: AtomicFile.Durability) throws {
        let target = URL(fileURLWithPath: folder.path("widget.png"))
        try AtomicFile.write(Data(repeating: 1, count: 100_000), to: target, durability: durability)
        try AtomicFile.write(Data([2, 3]), to: target, durability: durability)
        #expect(try Data(contentsOf: target) == Data([2, 3]))
        #expect(try folder.entries() == ["widget.png"])
    }

    @Test(arguments: [AtomicFile.Durability.durable, .atomicOnly])
    func aFailedWriteKeepsTheOldFileAndLeavesNoTemporaryFile(durability: AtomicFile.Durability) throws {
        let target = URL(fileURLWithPath: folder.path("widget.png"))
        try AtomicFile.write(Data([7]), to: target, durability: durability)
        // A non-empty folder at the target makes the final rename fail after the bytes were written.
        try FileManager.default.createDirectory(atPath: folder.path("sub/inner"), withIntermediateDirectories: true)
        #expect(throws: TaskWidgetError.self) {
            try AtomicFile.write(Data([9]), to: URL(fileURLWithPath: folder.path("sub")), durability: durability)
        }
        #expect(throws: TaskWidgetError.self) {
            try AtomicFile.write(Data([9]), to: URL(fileURLWithPath: folder.path("missing/widget.png")), durability: durability)
        }
        #expect(try Data(contentsOf: target) == Data([7]))
        #expect(try folder.entries() == ["sub", "widget.png"])
    }
}
