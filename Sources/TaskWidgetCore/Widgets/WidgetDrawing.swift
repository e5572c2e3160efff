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
    /// Renders a whole timeline into `folder`, created if missing (SPEC §7): one image
    /// `entry-EPOCH-HASH.png` per entry whose image differs from the previous entry's (entries
    /// that look the same share a file; HASH is the image's, so that no run writes over an image
    /// the index of another names with other bytes), then `index.json` mapping every entry date
    /// to its file. Each file is written atomically and the index last, so a reader of the index
    /// always finds complete images; the images the earlier run's index named that the new one
    /// does not are then removed, with those of a run killed before its index. A run that fails
    /// removes the images it wrote, and the earlier set stays whole; runs into one folder take
    /// turns (a lock on the folder). An `index.json`
    /// that no render wrote is refused before anything is written. `progress` gets (entries done,
    /// entries) after each entry. Returns how many images were written.
    ///
    /// ```swift
    /// let timeline = TimelineProvider().timeline(for: request, snapshot: try store.timelineSnapshot(for: request))
    /// try drawing.renderTimeline(timeline, into: URL(fileURLWithPath: "output/timeline"))
    /// ```
    @discardableResult
    public func renderTimeline(_ timeline: Timeline, into folder: URL, progress: (Int, Int) -> Void = { _, _ in }) throws -> Int {
        try AtomicFile.makeFolder(folder.path)
        // Two runs at once: the index of one named images the other had written over (helper-157).
        let lock = open(folder.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard lock >= 0 else {
            let code = errno
            let advice =
                switch code {
                case ENOTDIR: "it is a file: give --out-dir a folder"
                case ENOENT: "it is a link to a folder that is not there: make that folder, or give another"
                default: "check its permissions"
                }
            throw TaskWidgetError.system(code, "cannot open the folder \(folder.path)", advice: advice, context: folder.path)
        }
        defer { close(lock) }
        while flock(lock, LOCK_EX) != 0 && errno == EINTR {}
        let earlier = Set(try Self.filesOfEarlierRender(in: folder))
        var made: [String] = []
        var succeeded = false
        defer {
            if !succeeded {
                for file in made where !earlier.contains(file) { unlink(folder.appendingPathComponent(file).path) }
            }
        }
        let zone = timeline.timeZone
        var files: [String] = []
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
            let file = "entry-\(entry.date.secondsSince1970)-\(FNV1a.hex(of: png)).\(spec.format.rawValue)"
            try AtomicFile.write(png, to: folder.appendingPathComponent(file), durability: .atomicOnly)
            made.append(file)
            files.append(file)
            previous = (entry, png, file)
        }
        let index = JSONValue.object([
            ("schema", .string(WidgetImageSpec.renderIndexSchema)),
            ("family", .string(spec.family.rawValue)),
            ("size", .string(spec.size.description)),
            ("scale", .int(Int64(spec.scale))),
            ("theme", .string(spec.theme.rawValue)),
            // How the images are encoded, for a device that takes one kind (helper-157).
            ("format", .string(spec.format.rawValue)),
            ("depth", spec.depth.map { .int(Int64($0)) } ?? .null),
            ("rotate", .int(Int64(spec.rotation))),
            ("timeZone", .string(zone.identifier)),
            // A frame that follows the index: past the last entry, the timeline was cut short (SPEC §5).
            ("truncated", .bool(timeline.truncated)),
            ("entries", .array(zip(timeline.entries, files).map { entry, file in
                .object([
                    ("date", .string(InstantFormat.local(entry.date, in: zone))), ("epoch", .int(entry.date.secondsSince1970)),
                    ("file", .string(file)),
                ])
            })),
        ])
        try AtomicFile.write(Data((index.prettyText + "\n").utf8), to: folder.appendingPathComponent("index.json"), durability: .atomicOnly)
        succeeded = true
        // Only what a render wrote: any `entry-*.png` went, the user's own too (helper-153). Those
        // of a run killed before its index (Ctrl-C, SIGTERM) no index names: their names, which
        // only a render gives, say whose they are (helper-162).
        let named = Set(files)
        let orphans = (try? FileManager.default.contentsOfDirectory(atPath: folder.path))?.filter(Self.isRenderedImageName) ?? []
        for stale in earlier.union(orphans) where !named.contains(stale) {
            try? FileManager.default.removeItem(at: folder.appendingPathComponent(stale))
        }
        return made.count
    }

    /// Whether `name` is one a timeline render gives its images: `entry-EPOCH-HASH.png` (or `.bmp`),
    /// HASH 16 lowercase hexadecimal digits.
    static func isRenderedImageName(_ name: String) -> Bool {
        name.wholeMatch(of: #/entry-[0-9]+-[0-9a-f]{16}\.(png|bmp)/#) != nil
    }

    /// The images the `index.json` of an earlier render in `folder` names (none without one);
    /// an `index.json` that is not a render's is an error, as it would be replaced.
    private static func filesOfEarlierRender(in folder: URL) throws -> [String] {
        let path = folder.appendingPathComponent("index.json").path
        // A link would have the index written where it leads: another folder's (helper-156).
        var link = stat()
        if lstat(path, &link) == 0, link.st_mode & S_IFMT == S_IFLNK {
            throw TaskWidgetError(
                .invalidInput, "\(path) is a link, and the index would be written where it leads: give --out-dir a folder of its own",
                context: "index.json link")
        }
        guard let data = FileManager.default.contents(atPath: path) else { return [] }
        guard let index = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            index["schema"] as? String == WidgetImageSpec.renderIndexSchema
        else {
            throw TaskWidgetError(
                .invalidInput, "\(path) is not an index a render wrote, and would be replaced: give --out-dir an empty folder, or one a render wrote",
                context: "foreign index.json")
        }
        let entries = index["entries"] as? [[String: Any]] ?? []
        // A name only, never a path: the index is a file anyone may have edited.
        return entries.compactMap { $0["file"] as? String }.filter { $0.hasPrefix("entry-") && !$0.contains("/") }
    }
}
