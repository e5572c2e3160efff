public import Foundation
import Glibc

/// The Cairo + Pango renderer, loaded when a command first draws (`render`, `watch --render-dir`)
/// from `libTaskWidgetRenderPlugin.so` beside the executable. Linking Cairo, Pango and their 36
/// libraries would cost every command about 5 ms at start (SPEC §9: a status line within 10 ms);
/// loading them only to draw costs only the commands that draw.
///
/// The plugin's one C entry point takes the entry as JSON and gives back the PNG, so no Swift value
/// crosses between the two images. Both sides of that contract are here: ``png(for:timeZone:)``
/// calls it, ``serve(_:_:_:_:draw:)`` implements it.
///
/// ```swift
/// let drawing = try RenderPlugin(spec: WidgetImageSpec(family: .medium, scale: 2))
/// try AtomicFile.write(drawing.png(for: entry, timeZone: zone), to: url)
/// ```
public struct RenderPlugin: WidgetDrawing {
    /// The plugin's file name, in the executable's folder.
    public static let fileName = "libTaskWidgetRenderPlugin.so"
    /// The entry point's name; a new version of the contract gets a new name.
    static let entryPointName = "taskwidget_render_png_v1"

    /// `(request, its length, &output, &its length) -> status`. The request is a ``Request`` as JSON.
    /// Status 0: the output is the PNG. Otherwise it is an exit status (``TaskWidgetError/Kind``) and
    /// the output is the error's message in UTF-8. The output is `malloc`ed; the caller frees it.
    public typealias EntryPoint = @convention(c) (
        UnsafePointer<UInt8>, Int, UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>, UnsafeMutablePointer<Int>
    ) -> Int32

    /// What the entry point draws.
    struct Request: Codable {
        var spec: WidgetImageSpec
        var timeZone: TimeZone
        var entry: TimelineEntry
    }

    public let spec: WidgetImageSpec
    private let entryPoint: EntryPoint

    /// Loads the plugin from the running executable's folder. Loading it again is cheap: the system
    /// keeps one copy per process. Its functions are bound when first called (the plugin comes from
    /// the same build), not all of them at load.
    public init(spec: WidgetImageSpec) throws {
        self.spec = spec
        let path = Self.executableFolder.appendingPathComponent(Self.fileName).path
        guard let handle = dlopen(path, RTLD_LAZY | RTLD_LOCAL) else {
            let reason = dlerror().map { String(cString: $0) } ?? path
            throw TaskWidgetError(
                .io, "cannot load the PNG renderer: \(reason): keep \(Self.fileName), built with taskwidget, in the binary's folder")
        }
        guard let symbol = dlsym(handle, Self.entryPointName) else {
            throw TaskWidgetError(.io, "\(path) is not this version's PNG renderer: install the one built with this taskwidget")
        }
        entryPoint = unsafeBitCast(symbol, to: EntryPoint.self)
    }

    public func png(for entry: TimelineEntry, timeZone: TimeZone) throws -> Data {
        let request = try JSONEncoder().encode(Request(spec: spec, timeZone: timeZone, entry: entry))
        var output: UnsafeMutablePointer<UInt8>?
        var length = 0
        let status = request.withUnsafeBytes { bytes in
            entryPoint(bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), bytes.count, &output, &length)
        }
        defer { free(output) }
        let bytes = output.map { Data(bytes: $0, count: length) } ?? Data()
        guard status == 0 else {
            throw TaskWidgetError(TaskWidgetError.Kind(exitStatus: status) ?? .io, String(decoding: bytes, as: UTF8.self))
        }
        return bytes
    }

    /// The plugin's side of the entry point: reads the request, draws it with `draw` and hands back
    /// the PNG, or the error's exit status and message.
    public static func serve(
        _ request: UnsafePointer<UInt8>, _ requestLength: Int,
        _ output: UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>, _ outputLength: UnsafeMutablePointer<Int>,
        draw: (WidgetImageSpec, TimelineEntry, TimeZone) throws -> Data
    ) -> Int32 {
        let status: Int32
        let bytes: Data
        do {
            let decoded: Request
            do {
                decoded = try JSONDecoder().decode(Request.self, from: Data(bytes: request, count: requestLength))
            } catch {
                throw TaskWidgetError(.io, "the PNG renderer beside taskwidget is from another version: install the one built with it")
            }
            bytes = try draw(decoded.spec, decoded.entry, decoded.timeZone)
            status = 0
        } catch let error as TaskWidgetError {
            bytes = Data(error.message.utf8)
            status = error.kind.exitStatus
        } catch {
            bytes = Data("cannot draw the widget: \(error)".utf8)
            status = TaskWidgetError.Kind.io.exitStatus
        }
        let copy = malloc(max(bytes.count, 1))!.assumingMemoryBound(to: UInt8.self)
        bytes.copyBytes(to: copy, count: bytes.count)
        output.pointee = copy
        outputLength.pointee = bytes.count
        return status
    }

    /// The folder of the running executable, symbolic links resolved.
    private static var executableFolder: URL {
        let path = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: path).deletingLastPathComponent()
    }
}
