public import Foundation
public import TaskWidgetKit
public import TaskWidgetRender

/// `watch --render-dir`: keeps one PNG widget file current, rewriting it (atomically) only when its
/// bytes change, so a dashboard that watches the file's mtime reloads only for a real change.
public struct WidgetFileOutput: EntryOutput {
    public let renderer: WidgetRenderer
    public let file: URL
    private var lastBytes: Data?
    private var lastEntry: TimelineEntry?

    /// `file`'s folder must exist. An identical file left by an earlier run is not rewritten.
    public init(renderer: WidgetRenderer, file: URL) {
        self.renderer = renderer
        self.file = file
        lastBytes = try? Data(contentsOf: file)
    }

    /// The file name for a renderer in a render folder: `medium.png`, or `800x480.png` for a canvas.
    public static func fileName(for renderer: WidgetRenderer) -> String {
        renderer.isDashboard ? "\(renderer.size).png" : "\(renderer.family.rawValue).png"
    }

    public mutating func show(_ entry: TimelineEntry, timeZone: TimeZone) throws {
        if let lastEntry, WidgetRenderer.drawsTheSame(entry, as: lastEntry) { return }
        let bytes = try renderer.png(for: entry, timeZone: timeZone)
        if bytes != lastBytes {
            try AtomicFile.write(bytes, to: file)
            lastBytes = bytes
        }
        lastEntry = entry
    }
}
