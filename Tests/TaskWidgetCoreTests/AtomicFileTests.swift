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
    /// A path that ends in `/` names a folder, and URL's `path` drops the slash: the file of that
    /// name was replaced, and one was made where none was (`render -o notes/`, helper-94).
    @Test func aPathEndingInASlashIsRefusedAndTheFileOfItsNameKept() throws {
        try Data("notes".utf8).write(to: URL(fileURLWithPath: folder.path("notes")))
        for name in ["notes/", "new/"] {
            let error = #expect(throws: TaskWidgetError.self) {
                try AtomicFile.write(Data([1]), to: URL(fileURLWithPath: folder.url.path + "/" + name))
            }
            #expect(error?.message.hasSuffix("give the path of a file, not of a folder") == true, "\(String(describing: error))")
        }
        #expect(try String(contentsOfFile: folder.path("notes"), encoding: .utf8) == "notes")
        #expect(try folder.entries() == ["notes"])
    }

    /// A link to a file stays a link: the file it names gets the bytes. It was replaced by a file.
    @Test func aLinkToAFileStaysAndTheFileItNamesIsReplaced() throws {
        let file = folder.path("real.png")
        try AtomicFile.write(Data([1]), to: URL(fileURLWithPath: file))
        try FileManager.default.createSymbolicLink(atPath: folder.path("link.png"), withDestinationPath: "real.png")
        try AtomicFile.write(Data([2, 3]), to: URL(fileURLWithPath: folder.path("link.png")))
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: folder.path("link.png")) == "real.png")
        #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == Data([2, 3]))
        #expect(try folder.entries() == ["link.png", "real.png"])
    }

    /// A link to a file not there yet makes that file and stays: it was replaced by the file, and
    /// the image never reached the link's target (helper-157). One into a folder not there fails,
    /// and the link stays.
    @Test func aLinkToAFileNotThereYetMakesTheFile() throws {
        try FileManager.default.createDirectory(atPath: folder.path("real"), withIntermediateDirectories: false)
        try FileManager.default.createSymbolicLink(atPath: folder.path("link.png"), withDestinationPath: "real/new.png")
        try AtomicFile.write(Data([2, 3]), to: URL(fileURLWithPath: folder.path("link.png")))
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: folder.path("link.png")) == "real/new.png")
        #expect(try Data(contentsOf: URL(fileURLWithPath: folder.path("real/new.png"))) == Data([2, 3]))

        try FileManager.default.createSymbolicLink(atPath: folder.path("unmounted.png"), withDestinationPath: folder.path("drive/new.png"))
        let error = #expect(throws: TaskWidgetError.self) { try AtomicFile.write(Data([4]), to: URL(fileURLWithPath: folder.path("unmounted.png"))) }
        #expect(error?.message.hasPrefix("cannot write \(folder.path("drive/new.png")): no such file or directory") == true, "\(String(describing: error))")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: folder.path("unmounted.png")) == folder.path("drive/new.png"))
    }

    /// A FIFO (as a device, or `/dev/stdout` on a pipe) cannot be replaced: its reader gets the
    /// bytes. It was replaced by a file, and the reader waited for ever.
    @Test func aFIFOIsWrittenTo() throws {
        let fifo = folder.path("widget.png")
        try #require(mkfifo(fifo, 0o600) == 0)
        // The reading end opened first, without blocking: the write's open then does not wait.
        let reader = open(fifo, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        try #require(reader >= 0)
        defer { close(reader) }
        try AtomicFile.write(Data([4, 5, 6]), to: URL(fileURLWithPath: fifo), durability: .atomicOnly)
        var bytes = [UInt8](repeating: 0, count: 8)
        #expect(read(reader, &bytes, bytes.count) == 3 && Array(bytes.prefix(3)) == [4, 5, 6])
        var status = stat()
        #expect(lstat(fifo, &status) == 0 && status.st_mode & S_IFMT == S_IFIFO, "still a FIFO")
        #expect(try folder.entries() == ["widget.png"])
    }
    /// A file replaced keeps the stricter of its own permissions and the ones asked for: a widget
    /// the user made private (0600) became readable by everyone (0644) at the next write.
    @Test func aReplacedFileKeepsTheStricterPermissions() throws {
        let file = folder.path("private.png")
        try AtomicFile.write(Data([1]), to: URL(fileURLWithPath: file), permissions: 0o644)
        try #require(chmod(file, 0o600) == 0)
        try AtomicFile.write(Data([2]), to: URL(fileURLWithPath: file), permissions: 0o644)
        var status = stat()
        #expect(stat(file, &status) == 0 && status.st_mode & 0o777 == 0o600)
        // A secret written over a file others could read is the secret's 0600.
        try #require(chmod(file, 0o644) == 0)
        try AtomicFile.write(Data([3]), to: URL(fileURLWithPath: file), permissions: 0o600)
        #expect(stat(file, &status) == 0 && status.st_mode & 0o777 == 0o600)
    }

    /// A file others may read that is replaced keeps its group and its mode, whatever the umask:
    /// `render -o` over a widget a web server reads by its group (0640, group www-data) left it
    /// the writer's group, and a 0664 became 0644 (helper-153). (Any group needs root, as CI runs.)
    @Test(.enabled(if: geteuid() == 0)) func aReplacedFileKeepsItsGroupAndMode() throws {
        let file = folder.path("shared.png")
        try AtomicFile.write(Data([1]), to: URL(fileURLWithPath: file), durability: .atomicOnly)
        for (mode, group) in [(0o640 as mode_t, 33 as gid_t), (0o664, 4242)] {
            try #require(chmod(file, mode) == 0 && chown(file, uid_t.max, group) == 0)
            try AtomicFile.write(Data([2]), to: URL(fileURLWithPath: file), durability: .atomicOnly)
            var status = stat()
            #expect(stat(file, &status) == 0 && status.st_mode & 0o777 == mode && status.st_gid == group, "\(String(mode, radix: 8))")
        }
    }

    /// Another user's link or FIFO, planted where the writer writes (a shared folder), is replaced:
    /// followed, it would turn the write onto a file of its owner's choosing, or hand the widget
    /// to its reader. (Making another user's link needs root, as CI runs.)
    @Test(.enabled(if: geteuid() == 0)) func anotherUsersLinkOrFIFOIsReplacedNotFollowed() throws {
        let victim = folder.path("victim")
        try AtomicFile.write(Data([1]), to: URL(fileURLWithPath: victim), permissions: 0o600)
        let link = folder.path("medium.png")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: victim)
        try #require(lchown(link, 65534, 65534) == 0)
        try AtomicFile.write(Data([2]), to: URL(fileURLWithPath: link), durability: .atomicOnly)
        #expect(try Data(contentsOf: URL(fileURLWithPath: victim)) == Data([1]), "the file it named is untouched")
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: link)) == nil, "the link is a file now")
        let fifo = folder.path("small.png")
        try #require(mkfifo(fifo, 0o666) == 0 && chown(fifo, 65534, 65534) == 0)
        // Its reader waits (so that a write into it would not block the test).
        let reader = open(fifo, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        try #require(reader >= 0)
        defer { close(reader) }
        try AtomicFile.write(Data([3]), to: URL(fileURLWithPath: fifo), durability: .atomicOnly)
        #expect(try Data(contentsOf: URL(fileURLWithPath: fifo)) == Data([3]), "a file now, not the FIFO")
    }
}
