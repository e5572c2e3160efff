public import Foundation
public import TaskWidgetKit
public import TaskWidgetRender

/// `watch --render-dir`: keeps one PNG widget file current, rewriting it (atomically) only when its
/// bytes change, so a dashboard that watches the file's mtime reloads only for a real change.
public struct WidgetFileOutput: EntryOutput {
    public let renderer: WidgetRenderer
    public let file: URL
    private var lastBytes: Data?

    /// `file`'s folder must exist. An identical file left by an earlier run is not rewritten.
    public init(renderer: WidgetRenderer, file: URL) {
        self.renderer = renderer
        self.file = file
        lastBytes = try? Data(contentsOf: file)
    }

    /// The file name for a renderer in a render folder: `medium.png`, or `800x480.png` for a canvas.
    public static func fileName(for renderer: WidgetRenderer) -> String {
        renderer.size == WidgetSize(renderer.family) ? "\(renderer.family.rawValue).png" : "\(renderer.size).png"
    }

    public mutating func show(_ entry: TimelineEntry, timeZone: TimeZone) throws {
        let bytes = try renderer.png(for: entry, timeZone: timeZone)
        guard bytes != lastBytes else { return }
        try AtomicFile.write(bytes, to: file)
        lastBytes = bytes
    }
}
