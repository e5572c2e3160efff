public import Foundation

/// Draws timeline entries as PNG widgets of one ``WidgetImageSpec``. TaskWidgetRender's
/// `WidgetRenderer` draws with Cairo and Pango in its process; the `taskwidget-render` helper runs
/// it for the commands that draw, so that the others never load Cairo.
public protocol WidgetDrawing {
    var spec: WidgetImageSpec { get }
    /// The image of `entry`, as the spec says: PNG or BMP.
    func image(for entry: TimelineEntry) throws -> Data
    /// The widget's notice that the tasks cannot be shown, saying why (`message`), as serve draws
    /// it while the store cannot be read.
    func unavailableImage(message: String) throws -> Data
}

extension WidgetDrawing {
    /// Renders a whole timeline into `folder`, created if missing (SPEC §7): one image `entry-EPOCH.png` per entry whose
    /// image differs from the previous entry's (entries that look the same share a file), then
    /// `index.json` mapping every entry date to its file. Each file is written atomically and the
    /// index last, so a reader of the index always finds complete images; `entry-*.png` files of
    /// earlier runs that the new index does not name are then removed. `progress` gets (entries
    /// done, entries) after each entry. Returns how many images were written.
    ///
    /// ```swift
    /// let timeline = TimelineProvider().timeline(for: request, snapshot: try store.timelineSnapshot(for: request))
    /// try drawing.renderTimeline(timeline, into: URL(fileURLWithPath: "output/timeline"))
    /// ```
    @discardableResult
    public func renderTimeline(_ timeline: Timeline, into folder: URL, progress: (Int, Int) -> Void = { _, _ in }) throws -> Int {
        try AtomicFile.makeFolder(folder.path)
        let zone = timeline.timeZone
        var files: [String] = []
        var written = 0
        var previous: (entry: TimelineEntry, png: Data, file: String)?
        for (index, entry) in timeline.entries.enumerated() {
            defer { progress(index + 1, timeline.entries.count) }
            if let previous, WidgetImageSpec.drawsTheSame(entry, as: previous.entry) {
                files.append(previous.file)
                continue
            }
            let png = try image(for: entry)
            if let previous, previous.png == png {
                files.append(previous.file)
                continue
            }
            let file = "entry-\(entry.date.secondsSince1970).\(spec.format.rawValue)"
            try AtomicFile.write(png, to: folder.appendingPathComponent(file), durability: .atomicOnly)
            written += 1
            files.append(file)
            previous = (entry, png, file)
        }
        let index = JSONValue.object([
            ("schema", .string(WidgetImageSpec.renderIndexSchema)),
            ("family", .string(spec.family.rawValue)),
            ("size", .string(spec.size.description)),
            ("scale", .int(Int64(spec.scale))),
            ("theme", .string(spec.theme.rawValue)),
            ("timeZone", .string(zone.identifier)),
            ("entries", .array(zip(timeline.entries, files).map { entry, file in
                .object([
                    ("date", .string(InstantFormat.local(entry.date, in: zone))), ("epoch", .int(entry.date.secondsSince1970)),
                    ("file", .string(file)),
                ])
            })),
        ])
        try AtomicFile.write(Data((index.prettyText + "\n").utf8), to: folder.appendingPathComponent("index.json"), durability: .atomicOnly)
        let named = Set(files)
        let existing = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        for stale in existing where stale.hasPrefix("entry-") && stale.hasSuffix("." + spec.format.rawValue) && !named.contains(stale) {
            try? FileManager.default.removeItem(at: folder.appendingPathComponent(stale))
        }
        return written
    }
}
