public import Foundation
public import TaskWidgetCore

/// `watch --render-dir`: keeps one PNG widget file current, rewriting it (atomically) only when its
/// bytes change, so a dashboard that watches the file's mtime reloads only for a real change.
public struct WidgetFileOutput: EntryOutput {
    public let drawing: any WidgetDrawing
    public let file: URL
    private var lastBytes: Data?
    private var lastEntry: TimelineEntry?

    /// `file`'s folder must exist. An identical file left by an earlier run is not rewritten.
    public init(drawing: any WidgetDrawing, file: URL) {
        self.drawing = drawing
        self.file = file
        lastBytes = try? Data(contentsOf: file)
    }

    public mutating func show(_ entry: TimelineEntry) throws {
        if let lastEntry, WidgetImageSpec.drawsTheSame(entry, as: lastEntry) { return }
        let bytes = try drawing.image(for: entry)
        if bytes != lastBytes {
            try AtomicFile.write(bytes, to: file, durability: .atomicOnly)
            lastBytes = bytes
        }
        lastEntry = entry
    }
}
