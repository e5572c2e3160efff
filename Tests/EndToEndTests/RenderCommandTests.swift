import Foundation
import TaskWidgetCore
import Testing

@testable import TaskWidgetTestSupport

/// `taskwidget render` run as a user runs it: PNGs of the right pixel size, errors with their exit
/// statuses, a timeline folder with its index, and never a half-written file.
@Suite struct RenderCommandTests {
    /// The drawing helper beside the binary.
    static let helper = "taskwidget-render"

    /// Width and height from a PNG's IHDR, checking that the file is complete (ends with IEND).
    static func pixelSize(of url: URL, sourceLocation: SourceLocation = #_sourceLocation) throws -> (Int, Int) {
        let header = try #require(PNGHeader(try Data(contentsOf: url)), "\(url.lastPathComponent) is no whole PNG", sourceLocation: sourceLocation)
        return (header.width, header.height)
    }

    /// The built taskwidget in `folder` (made), without the helpers beside it.
    static func binaryAlone(in folder: URL) throws -> URL {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let binary = folder.appendingPathComponent("taskwidget")
        // A hard link is a binary of its own folder too (/proc/self/exe names the link), without
        // copying 25 MB; a copy where the build is on another file system.
        do {
            try FileManager.default.linkItem(at: Sandbox.binary, to: binary)
        } catch {
            try ProcessRunner.writeProgram(Data(contentsOf: Sandbox.binary), to: binary.path)
        }
        return binary
    }

    @Test func familiesAndScalesGiveExactPixelSizes() throws {
        let sandbox = try Sandbox.demo()
        let cases: [([String], (Int, Int))] = [
            (["--family", "medium", "--scale", "2"], (728, 340)),
            (["--family", "small", "--scale", "3"], (510, 510)),
            (["--family", "large"], (364, 382)),
            ([], (364, 170)),
            (["--size", "800x480", "--theme", "mono"], (800, 480)),
            (["--size", "296x128", "--scale", "2", "--list", "Work"], (592, 256)),
        ]
        for (arguments, size) in cases {
            let url = sandbox.folder.appendingPathComponent("widget.png")
            try sandbox.succeed(["render"] + arguments + ["-o", url.path])
            #expect(try Self.pixelSize(of: url) == size, "\(arguments)")
        }
    }

    /// An empty `XDG_DATA_HOME` is no folder (the XDG spec): fontconfig took it for the current
    /// one, and from a deleted folder printed three "out of memory" errors (helper-104).
    @Test func anEmptyXDGDataHomeFromADeletedFolderDrawsWithoutErrors() throws {
        let sandbox = try Sandbox.demo()
        let gone = sandbox.folder.appendingPathComponent("gone").path
        let output = sandbox.folder.appendingPathComponent("w.png")
        var environment = sandbox.environment
        environment["XDG_DATA_HOME"] = ""
        let script = "mkdir \"$1\" && cd \"$1\" && rmdir \"$1\" && shift && exec \"$@\""
        let result = try ProcessRunner.run(
            "/bin/sh", ["-c", script, "sh", gone, Sandbox.binary.path] + sandbox.arguments(["render", "-o", output.path]), environment: environment)
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty, "\(result.stderr)")
        #expect(try Self.pixelSize(of: output) == (364, 170))
    }

    @Test func theSameInputsGiveTheSameBytes() throws {
        let sandbox = try Sandbox.demo()
        let first = sandbox.folder.appendingPathComponent("a.png")
        let second = sandbox.folder.appendingPathComponent("b.png")
        try sandbox.succeed(["render", "--theme", "dark", "-o", first.path])
        try sandbox.succeed(["render", "--theme", "dark", "-o", second.path])
        #expect(try Data(contentsOf: first) == Data(contentsOf: second))
    }

    /// The widgets' own font set (SPEC §9): made in the cache folder by the first render, and
    /// drawing what the system's fonts draw, byte for byte: CJK, Arabic and Latin titles from it,
    /// and the large widget's emoji habit icons with the system's fonts, which it falls back to.
    @Test func theWidgetsOwnFontsDrawWhatTheSystemsFontsDraw() throws {
        let sandbox = try Sandbox.demo()
        try sandbox.succeed(["add", "買い物リスト · دفع الإيجار · Ünïcödé", "--due", "today"])
        // XDG_CACHE_HOME on a file: no font set can be made there, and the system's fonts draw.
        let blocked = sandbox.folder.appendingPathComponent("not-a-folder")
        #expect(FileManager.default.createFile(atPath: blocked.path, contents: Data()))
        let fontSets = sandbox.folder.appendingPathComponent(".cache/taskwidget/fonts")
        for family in ["medium", "large"] {
            let image = { (name: String) in sandbox.folder.appendingPathComponent("\(name)-\(family).png") }
            let (system, first, second) = (image("system"), image("first"), image("second"))
            let render = ["render", "--family", family, "--scale", "2", "-o"]
            let result = try sandbox.run(render + [system.path], environment: ["XDG_CACHE_HOME": blocked.path])
            #expect(result.status == 0, "\(result.stderr)")
            try sandbox.succeed(render + [first.path])
            try sandbox.succeed(render + [second.path])
            let made = try FileManager.default.contentsOfDirectory(atPath: fontSets.path)
            #expect(made.count == 1 && FileManager.default.fileExists(atPath: fontSets.appendingPathComponent(made[0] + "/fonts.conf").path))
            #expect(try Data(contentsOf: first) == Data(contentsOf: system), "\(family): the own font set drew otherwise")
            #expect(try Data(contentsOf: second) == Data(contentsOf: system), "\(family): the cached font set drew otherwise")
        }
    }

    /// Under `umask 000` nothing render makes can be changed by others: the font set's folders
    /// were 0777, and whoever wrote a fonts.conf into one chose the fonts and files read.
    @Test func underUmaskZeroNothingMadeIsWritableByOthers() throws {
        let sandbox = try Sandbox.demo()
        let image = sandbox.folder.appendingPathComponent("widget.png").path
        let command = "umask 000 && exec " + sandbox.shellCommand(["render", "-o", image])
        let result = try ProcessRunner.run("/bin/sh", ["-c", command], environment: sandbox.environment)
        #expect(result.status == 0, "\(result.stderr)")
        let made = try #require(FileManager.default.enumerator(atPath: sandbox.folder.appendingPathComponent(".cache").path)).allObjects
        #expect(made.count > 3, "\(made)")
        func expectNothingWritableByOthers(sourceLocation: SourceLocation = #_sourceLocation) throws {
            for path in [".cache"] + made.compactMap({ $0 as? String }).map({ ".cache/" + $0 }) + ["widget.png"] {
                let attributes = try FileManager.default.attributesOfItem(atPath: sandbox.folder.appendingPathComponent(path).path)
                guard attributes[.type] as? FileAttributeType != .typeSymbolicLink else { continue }
                let mode = try #require(attributes[.posixPermissions] as? Int)
                #expect(mode & 0o022 == 0, "\(path): \(String(mode, radix: 8))", sourceLocation: sourceLocation)
            }
        }
        try expectNothingWritableByOthers()

        // A cache an older version made so, and another user's fonts.conf in it (their fonts drew
        // the widget): the folders are made private again, and the set is made again.
        let first = try Data(contentsOf: URL(fileURLWithPath: image))
        let folders = made.compactMap { $0 as? String }.filter { !$0.contains("/fonts/") && !$0.contains("/cache/") && !$0.hasSuffix(".conf") }
        for folder in [".cache"] + folders.map({ ".cache/" + $0 }) {
            try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: sandbox.folder.appendingPathComponent(folder).path)
        }
        let conf = try #require(made.compactMap { $0 as? String }.first { $0.hasSuffix("/fonts.conf") })
        let planted = "<fontconfig><dir>/usr/share/fonts/truetype/dejavu</dir><alias><family>sans-serif</family><prefer><family>DejaVu Serif</family></prefer></alias></fontconfig>"
        try Data(planted.utf8).write(to: sandbox.folder.appendingPathComponent(".cache/" + conf))
        try FileManager.default.setAttributes([.posixPermissions: 0o666], ofItemAtPath: sandbox.folder.appendingPathComponent(".cache/" + conf).path)
        try sandbox.succeed(["render", "-o", image])
        #expect(try Data(contentsOf: URL(fileURLWithPath: image)) == first, "the planted fonts.conf drew the widget")
        try expectNothingWritableByOthers()
    }

    /// E-ink tools choose by the name: a `.bmp` file is a BMP unless `--image-format` says
    /// otherwise, and then the two must agree.
    @Test func aFileNamedBMPIsWrittenAsABMP() throws {
        let sandbox = try Sandbox.demo()
        let url = sandbox.folder.appendingPathComponent("widget.BMP")
        try sandbox.succeed(["render", "--size", "800x480", "-o", url.path])
        let image = try Data(contentsOf: url)
        #expect(image.prefix(2) == Data("BM".utf8))
        #expect(image.count == 48_062)
        let disagreeing = try sandbox.run(["render", "--image-format", "png", "-o", url.path])
        #expect(disagreeing.status == 64)
        #expect(disagreeing.stderr.hasPrefix("taskwidget: \(url.path) names a BMP file, but --image-format is png: make them agree"))
        #expect(try Data(contentsOf: url) == image)
    }

    /// A file named as another image format would hold a PNG under a false name: it was written.
    @Test(arguments: ["widget.jpg", "widget.JPEG", "widget.webp"])
    func aFileNamedAsAnotherImageFormatIsRefused(name: String) throws {
        let sandbox = try Sandbox.demo()
        let url = sandbox.folder.appendingPathComponent(name)
        let result = try sandbox.run(["render", "-o", url.path])
        let format = String(name.split(separator: ".").last!).uppercased()
        #expect(result.status == 64 && result.stderr.hasPrefix("taskwidget: \(url.path) names a \(format) file, which taskwidget does not write: name it .png or .bmp"))
        #expect(!FileManager.default.fileExists(atPath: url.path))
    }

    @Test func badInputIsAUsageErrorAndWritesNothing() throws {
        let sandbox = try Sandbox.demo()
        let url = sandbox.folder.appendingPathComponent("widget.png")
        for arguments in [
            ["--size", "800", "-o", url.path], ["--size", "0x480", "-o", url.path], ["--scale", "4", "-o", url.path],
            ["--theme", "neon", "-o", url.path], [], ["--timeline"], ["--timeline", "--out-dir", sandbox.folder.path, "-o", url.path],
            ["--list", "Nope", "-o", url.path], ["--image-format", "bmp", "-o", url.path],
        ] {
            let result = try sandbox.run(["render"] + arguments)
            #expect(result.status == 64, "\(arguments): \(result.stderr)")
            #expect(result.stderrLines.count == 1 && result.stderr.hasPrefix("taskwidget: "), "\(arguments): \(result.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: url.path))
        // `render > widget.png` is a natural first try: the refusal says how to get standard output.
        let unsaid = try sandbox.run(["render"])
        #expect(unsaid.stderr.contains("-o - for standard output"), "\(unsaid.stderr)")
    }

    @Test func anUnwritableFolderIsAnIOErrorAndKeepsTheOldFile() throws {
        let sandbox = try Sandbox.demo()
        let missing = sandbox.folder.appendingPathComponent("no/such/folder/widget.png").path
        let result = try sandbox.run(["render", "-o", missing])
        #expect(result.status == 74, "\(result.stderr)")
        #expect(result.stderr.contains("check that the folder exists"), "\(result.stderr)")
    }

    @Test func aMissingStoreIsTheStoresOwnErrorAndKeepsTheOldFile() throws {
        let sandbox = try Sandbox()
        let url = sandbox.folder.appendingPathComponent("widget.png")
        try Data("old".utf8).write(to: url)
        let result = try sandbox.run(["render", "-o", url.path])
        #expect(result.status == 74, "\(result.stderr)")
        #expect(result.stderr.contains("there is no store"), "\(result.stderr)")
        #expect(try Data(contentsOf: url) == Data("old".utf8))
        #expect(!FileManager.default.fileExists(atPath: sandbox.storePath), "render never creates the store")
    }

    /// Cairo and Pango live in the drawing helper: `taskwidget` itself doesn't link them (SPEC §9),
    /// and a binary copied without its helper still shows the status but says why it cannot draw.
    @Test func onlyTheHelperLinksCairoAndABinaryWithoutItStillShowsTheStatus() throws {
        let sandbox = try Sandbox.demo()
        let plugin = Sandbox.binary.deletingLastPathComponent().appendingPathComponent(Self.helper)
        let libraries = { (file: URL) in try ProcessRunner.run("/usr/bin/ldd", [file.path], environment: [:]).stdout }
        #expect(try !libraries(Sandbox.binary).contains("libcairo"))
        #expect(try !libraries(Sandbox.binary).contains("libpango"))
        #expect(try libraries(plugin).contains("libpangocairo"))

        let binary = try Self.binaryAlone(in: sandbox.folder.appendingPathComponent("bin")).path
        let status = try ProcessRunner.run(binary, sandbox.arguments(["status", "--format", "waybar"]), environment: sandbox.environment)
        #expect(status.status == 0, "\(status.stderr)")
        let url = sandbox.folder.appendingPathComponent("widget.png")
        let render = try ProcessRunner.run(binary, sandbox.arguments(["render", "-o", url.path]), environment: sandbox.environment)
        #expect(render.status == 74)
        #expect(render.stderrLines.count == 1 && render.stderr.contains("install \(Self.helper)"), "\(render.stderr)")
        #expect(!FileManager.default.fileExists(atPath: url.path))
    }

    /// `render` starts its drawing helper before it reads its arguments and tells it the widget on
    /// the helper's first line (`DrawingProtocol`). A stand-in helper records that line and hands
    /// over to the real one: a render gives it the spec and draws; after a usage error or `--help`
    /// it was started all the same, sees only the end of its input, and ends with the command.
    @Test func theHelperStartsFirstAndReadsItsWidgetFromItsInput() throws {
        let sandbox = try Sandbox.demo()
        let folder = sandbox.folder.appendingPathComponent("bin")
        let binary = try Self.binaryAlone(in: folder).path
        let log = sandbox.folder.appendingPathComponent("helper.log")
        let real = Sandbox.binary.deletingLastPathComponent().appendingPathComponent(Self.helper).path
        let standIn = folder.appendingPathComponent(Self.helper)
        try ProcessRunner.writeProgram(
            Data(
                """
                #!/bin/sh
                if IFS= read -r spec; then printf '%s\\n' "$spec" >> \(log.path.shellQuoted); else echo '(end of input)' >> \(log.path.shellQuoted); exit 0; fi
                { printf '%s\\n' "$spec"; cat; } | exec \(real.shellQuoted)

                """.utf8), to: standIn.path)
        let url = sandbox.folder.appendingPathComponent("small.png")
        let runs: [(arguments: [String], status: Int32, line: String)] = [
            (["render", "--family", "small", "--scale", "2", "--theme", "dark", "-o", url.path], 0, "--family small --scale 2 --theme dark"),
            (["render", "--scale", "9", "-o", url.path], 64, "(end of input)"),
            (["render", "--help"], 0, "(end of input)"),
        ]
        for run in runs {
            try? FileManager.default.removeItem(at: log)
            // The helper shares the command's standard error, so this returns once it has ended too.
            let result = try ProcessRunner.run(binary, sandbox.arguments(run.arguments), environment: sandbox.environment)
            #expect(result.status == run.status, "\(run.arguments): \(result.stderr)")
            #expect(try String(contentsOf: log, encoding: .utf8) == run.line + "\n", "\(run.arguments)")
        }
        #expect(try Self.pixelSize(of: url) == (340, 340))
    }

    /// Started through a symbolic link in another folder (say ~/bin), taskwidget still finds its
    /// helper beside the real file.
    @Test func throughASymbolicLinkTheHelperIsFoundBesideTheRealFile() throws {
        let sandbox = try Sandbox.demo()
        let link = sandbox.folder.appendingPathComponent("bin/taskwidget")
        try FileManager.default.createDirectory(at: link.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: Sandbox.binary)
        let url = sandbox.folder.appendingPathComponent("linked.png")
        let result = try ProcessRunner.run(
            link.path, sandbox.arguments(["render", "--family", "small", "-o", url.path]), environment: sandbox.environment)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try Self.pixelSize(of: url) == (170, 170))
    }

    /// The helper is not a command of its own: it refuses arguments, ends quietly when its input
    /// ends before a widget, and refuses a first line that is not one.
    @Test func theHelperTakesNoArgumentsAndChecksItsFirstLine() throws {
        let helper = Sandbox.binary.deletingLastPathComponent().appendingPathComponent(Self.helper).path
        let withArguments = try ProcessRunner.run(helper, ["--family", "small"], input: Data())
        #expect(withArguments.status == 64 && withArguments.stderr.contains("takes no arguments"), "\(withArguments.stderr)")
        let empty = try ProcessRunner.run(helper, [], input: Data())
        #expect(empty.status == 0 && empty.stdout.isEmpty && empty.stderr.isEmpty, "\(empty.stderr)")
        let bogus = try ProcessRunner.run(helper, [], input: Data("--family huge\n".utf8))
        #expect(bogus.status == 64 && bogus.stderrLines == ["taskwidget-render: --family huge is not valid"], "\(bogus.stderr)")
        #expect(bogus.stdout.isEmpty)
    }

    /// The images of an earlier render that the new index does not name are removed, and nothing
    /// else: any `entry-*.png` went, and an `index.json` of the user's was replaced (helper-153).
    @Test func theTimelineIsRenderedWithAnIndex() throws {
        let sandbox = try Sandbox.demo()
        let folder = sandbox.folder.appendingPathComponent("timeline")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data("mine".utf8).write(to: folder.appendingPathComponent("entry-1.png"))
        try sandbox.succeed(["render", "--timeline", "--out-dir", folder.path, "--family", "small", "--now", "2026-11-20T10:00:00+01:00"])
        // An image of a run killed before its index, which no index names (helper-162).
        try Data("killed".utf8).write(to: folder.appendingPathComponent("entry-1795361220-0123456789abcdef.png"))
        try sandbox.succeed(["render", "--timeline", "--out-dir", folder.path, "--family", "small"])
        let index = try #require(
            JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent("index.json"))) as? [String: Any])
        #expect(index["schema"] as? String == "taskwidget.render-index/1")
        #expect(index["truncated"] as? Bool == false)
        #expect(index["format"] as? String == "png" && index["depth"] is NSNull && index["rotate"] as? Int == 0, "\(index)")
        let entries = try #require(index["entries"] as? [[String: Any]])
        let timeline = try #require(
            JSONSerialization.jsonObject(with: Data(try sandbox.succeed(["timeline"]).utf8)) as? [String: Any])
        let dates = (timeline["entries"] as? [[String: Any]] ?? []).compactMap { $0["date"] as? String }
        #expect(entries.compactMap { $0["date"] as? String } == dates, "one index entry per timeline entry")
        let files = Set(entries.compactMap { $0["file"] as? String })
        #expect(files.allSatisfy { $0.wholeMatch(of: #/entry-\d+-[0-9a-f]{16}\.png/#) != nil }, "\(files)")
        #expect(files.count > 1 && files.count < entries.count, "entries that look the same share a file")
        let onDisk = Set(try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".png") })
        #expect(onDisk == files.union(["entry-1.png"]), "every file the index names, the user's own, and no stale or orphaned one")
        for file in files {
            #expect(try Self.pixelSize(of: folder.appendingPathComponent(file)) == (170, 170))
        }

        let another = sandbox.folder.appendingPathComponent("site")
        try FileManager.default.createDirectory(at: another, withIntermediateDirectories: true)
        try Data("{}\n".utf8).write(to: another.appendingPathComponent("index.json"))
        try sandbox.expectRefused(
            ["render", "--timeline", "--out-dir", another.path], status: 64,
            message: "\(another.path)/index.json is not an index a render wrote, and would be replaced: give --out-dir an empty folder, or one a render wrote")
        #expect(try FileManager.default.contentsOfDirectory(atPath: another.path) == ["index.json"])
        // A link to another render's index: it was written there (helper-156).
        let linked = sandbox.folder.appendingPathComponent("linked")
        try FileManager.default.createDirectory(at: linked, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: linked.appendingPathComponent("index.json").path, withDestinationPath: folder.appendingPathComponent("index.json").path)
        let before = try Data(contentsOf: folder.appendingPathComponent("index.json"))
        try sandbox.expectRefused(
            ["render", "--timeline", "--out-dir", linked.path], status: 64,
            message: "\(linked.path)/index.json is a link, and the index would be written where it leads: give --out-dir a folder of its own")
        #expect(try Data(contentsOf: folder.appendingPathComponent("index.json")) == before)
    }

    /// A timeline render that fails part-way keeps the earlier set whole, and leaves no image of
    /// its own: the index named images the failed run had written over with other bytes, and a
    /// failed first run's images stayed with no index (helper-157). The run fails at its second
    /// image, whose name a folder takes.
    @Test func aTimelineRenderThatFailsPartWayKeepsTheEarlierSetWhole() throws {
        let sandbox = try Sandbox.demo()
        let folder = sandbox.folder.appendingPathComponent("timeline")
        func files(_ folder: URL) throws -> [String: Data] {
            var files: [String: Data] = [:]
            for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
                var isFolder: ObjCBool = false
                if FileManager.default.fileExists(atPath: folder.appendingPathComponent(name).path, isDirectory: &isFolder), !isFolder.boolValue {
                    files[name] = try Data(contentsOf: folder.appendingPathComponent(name))
                }
            }
            return files
        }
        try sandbox.succeed(["render", "--timeline", "--out-dir", folder.path, "--family", "small", "--theme", "mono"])
        let before = try files(folder)
        // The dark run's images, in the order it writes them (their names are their bytes').
        let dark = ["render", "--timeline", "--family", "small", "--theme", "dark"]
        let scratch = sandbox.folder.appendingPathComponent("scratch")
        try sandbox.succeed(dark + ["--out-dir", scratch.path])
        let index = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: scratch.appendingPathComponent("index.json"))) as? [String: Any])
        var order: [String] = []
        for case let file? in (index["entries"] as? [[String: Any]] ?? []).map({ $0["file"] as? String }) where !order.contains(file) { order.append(file) }
        try #require(order.count >= 2, "\(order)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent(order[1]), withIntermediateDirectories: false)

        let failed = try sandbox.run(dark + ["--out-dir", folder.path])
        #expect(failed.status == 74 && failed.stderr.contains(order[1]), "\(failed.stderr)")
        #expect(try files(folder) == before)
        try FileManager.default.removeItem(at: folder.appendingPathComponent(order[1]))
        #expect(try sandbox.run(dark + ["--out-dir", folder.path]).status == 0)
        #expect(try files(folder) == files(scratch))
    }

    /// index.json says how its images are encoded, for a device that takes one kind (helper-157).
    @Test func theTimelineIndexNamesTheImagesEncoding() throws {
        let sandbox = try Sandbox.demo()
        let folder = sandbox.folder.appendingPathComponent("eink")
        try sandbox.succeed([
            "render", "--timeline", "--out-dir", folder.path, "--family", "small", "--theme", "mono", "--depth", "2", "--rotate", "90",
        ])
        let index = try #require(
            JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent("index.json"))) as? [String: Any])
        #expect(index["format"] as? String == "png" && index["depth"] as? Int == 2 && index["rotate"] as? Int == 90, "\(index)")
        #expect(index["family"] as? String == "small" && index["theme"] as? String == "mono", "\(index)")
    }

    /// Kills `render` at many moments while it rewrites the same file: the target is always either
    /// the previous complete PNG or a new complete one, never a part.
    @Test func killingRenderNeverLeavesAPartialFile() throws {
        let sandbox = try Sandbox.demo()
        let url = sandbox.folder.appendingPathComponent("widget.png")
        // How long a render lasts here, to spread the kills over the whole of one: measured once,
        // then shortened when a render ends before its kill and lengthened when the kill lands (the
        // rest of the suite changes the machine's load), as the store's kill test does.
        let started = ContinuousClock.now
        try sandbox.succeed(["render", "--size", "1600x1200", "--scale", "2", "-o", url.path])
        let measured = ContinuousClock.now - started
        var span = Double(measured.components.seconds) * 1e6 + Double(measured.components.attoseconds) / 1e12
        let complete = try Data(contentsOf: url)
        let seed = SplitMix64.seed(default: 7)
        var random = SplitMix64(seed: seed)
        let attempts = 30
        var killedRunning = 0
        for attempt in 0..<attempts {
            let process = try StreamingProcess(
                sandbox.arguments([
                    "render", "--size", "1600x1200", "--scale", "2", "--theme", attempt % 2 == 0 ? "dark" : "light", "-o", url.path,
                ]), environment: sandbox.environment)
            usleep(UInt32(Double.random(in: span * 0.2..<span * 1.2, using: &random)))
            process.send(SIGKILL)
            let status = process.waitForExit()
            #expect(status != nil)
            if status == 128 + SIGKILL {
                killedRunning += 1
                span *= 1.15
            } else {
                span *= 0.7
            }
            let isOld = try Data(contentsOf: url) == complete
            let isComplete = try isOld || Self.pixelSize(of: url) == (3200, 2400)
            #expect(isComplete, "seed \(seed), attempt \(attempt): a partial PNG")
        }
        // Kills that all came after the render would test nothing.
        #expect(killedRunning >= attempts / 4, "seed \(seed): only \(killedRunning) of \(attempts) kills came while render ran")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: sandbox.folder.path).filter { $0.hasSuffix(".tmp") }
        // A killed writer cannot remove its temporary file; it never has the target's name.
        #expect(leftovers.allSatisfy { $0.hasPrefix(".widget.png.") })
    }
}
