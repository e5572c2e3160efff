public import Foundation
public import TaskWidgetCore

/// `watch --render-dir`: keeps one PNG widget file current, rewriting it (atomically) only when its
/// bytes change, so a dashboard that watches the file's mtime reloads only for a real change. While
/// the store cannot be read, the file is the widget's notice that says why.
public struct WidgetFileOutput: EntryOutput {
    public let drawing: any WidgetDrawing
    public let file: URL
    private var lastBytes: Data?
    private var lastEntry: TimelineEntry?
    /// The message of the notice shown last, while the store cannot be read.
    private var lastMessage: String?

    /// `file`'s folder must exist. An identical file left by an earlier run is not rewritten.
    public init(drawing: any WidgetDrawing, file: URL) {
        self.drawing = drawing
        self.file = file
        lastBytes = try? Data(contentsOf: file)
    }

    public mutating func show(_ entry: TimelineEntry) throws {
        if let lastEntry, WidgetImageSpec.drawsTheSame(entry, as: lastEntry) { return }
        try write(drawing.image(for: entry))
        lastEntry = entry
    }

    /// The widget's notice instead of the tasks, drawn again only when `message` changes.
    public mutating func showUnavailable(_ message: String) throws {
        guard lastEntry != nil || message != lastMessage else { return }
        try write(drawing.unavailableImage(message: message))
        (lastEntry, lastMessage) = (nil, message)
    }

    private mutating func write(_ bytes: Data) throws {
        guard bytes != lastBytes else { return }
        try AtomicFile.write(bytes, to: file, durability: .atomicOnly)
        lastBytes = bytes
    }
}
