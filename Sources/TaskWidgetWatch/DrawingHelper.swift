public import Foundation
import Glibc
import Synchronization
public import TaskWidgetCore

/// Draws widgets through `taskwidget-render`, the helper installed beside the running executable:
/// taskwidget itself never loads Cairo and Pango, so the commands that draw nothing start without
/// them. The helper is started on the first drawing and kept for the next ones (``DrawingProtocol``
/// has the conversation); it ends when this object goes, or with this process.
///
/// ```swift
/// let drawing = try DrawingHelper(spec: WidgetImageSpec(family: .medium, scale: 2), timeZone: zone)
/// try AtomicFile.write(drawing.image(for: entry), to: url, durability: .atomicOnly)
/// ```
public final class DrawingHelper: WidgetDrawing {
    /// The helper's file name, in the executable's folder.
    public static let fileName = "taskwidget-render"

    public let spec: WidgetImageSpec
    /// The zone the entries' dates are written in.
    private let timeZone: TimeZone
    private let path: String
    private var child: Child?
    /// A helper told to exit by ``finish()``, not reaped yet.
    private var exiting: pid_t?

    /// A helper started by ``startEarly()``, for the first drawing of this process.
    private static let early = Mutex<Child?>(nil)

    /// A running helper: its process and the two ends of the conversation.
    private struct Child {
        var pid: pid_t
        var input: Int32
        var output: Int32
    }

    /// Finds the helper beside the running executable; it starts on the first ``image(for:)``.
    public init(spec: WidgetImageSpec, timeZone: TimeZone) throws {
        self.spec = spec
        self.timeZone = timeZone
        guard let path = InstalledProgram.path(of: Self.fileName) else {
            throw TaskWidgetError(
                .rendererFailed,
                "cannot find the PNG renderer \(InstalledProgram.folder)/\(Self.fileName): install \(Self.fileName), built with taskwidget, beside it",
                context: Self.fileName)
        }
        self.path = path
    }

    deinit {
        stop()
        if let exiting { Self.reap(exiting) }
    }

    /// The process of the running helper (for tests).
    var helperProcess: pid_t? { child?.pid }

    /// Starts the helper now (or takes the one ``startEarly()`` started) and tells it the widget,
    /// instead of at the first ``image(for:)``: it sets up while the caller reads the store.
    public func start() throws {
        if child == nil { child = try spawn() }
    }

    /// Starts a helper before anything is known of the widget, for the first ``DrawingHelper`` of
    /// this process: `taskwidget render` calls it before it reads its arguments, so that the
    /// helper's start (8 ms of loading Cairo, Pango and their 40 libraries) overlaps the parse and
    /// the store read. Does nothing when the helper cannot start: the drawing reports why. A helper
    /// nobody uses ends with this process, at the end of its input.
    public static func startEarly() {
        guard let path = InstalledProgram.path(of: fileName), let child = try? launch(path) else { return }
        early.withLock { $0 = child }
    }

    public func image(for entry: TimelineEntry) throws -> Data {
        try image(for: DrawingProtocol.request(for: entry, in: timeZone))
    }

    public func unavailableImage(message: String) throws -> Data {
        try image(for: DrawingProtocol.unavailableRequest(message: message))
    }

    /// The answer to one request line.
    private func image(for request: Data) throws -> Data {
        do {
            return try answer(to: request, replacingAStoppedHelper: child != nil)
        } catch let refusal as Refusal {
            throw refusal.error
        }
    }

    /// A helper that stops or talks nonsense is replaced at the next drawing; one that refuses an
    /// entry is kept. One that was running since an earlier drawing and stopped since (killed, or
    /// out of memory) is replaced at once: a watch's image stayed old until the next change.
    private func answer(to request: Data, replacingAStoppedHelper: Bool) throws -> Data {
        let child = try self.child ?? spawn()
        self.child = child
        do {
            try Self.write(request, to: child.input)
            let line = try Self.readLine(from: child.output)
            switch DrawingProtocol.header(line) {
            case .image(let count):
                return try Self.read(count, from: child.output)
            case .failure(let code, let message):
                throw Refusal(error: TaskWidgetError(code, message))
            case nil:
                throw failure("answered “\(line.sanitizedForMessage)”")
            }
        } catch let refusal as Refusal {
            throw refusal
        } catch {
            stop()
            if replacingAStoppedHelper { return try answer(to: request, replacingAStoppedHelper: false) }
            throw error
        }
    }

    /// The helper's own error about an entry.
    private struct Refusal: Error {
        var error: TaskWidgetError
    }

    /// The helper, told what to draw: the one ``startEarly()`` started, or a new one.
    private func spawn() throws -> Child {
        let child: Child
        if let early = Self.early.withLock({ $0.take() }) {
            child = early
        } else {
            do {
                child = try Self.launch(path)
            } catch {
                let advice = error.code == EMFILE || error.code == ENFILE ? "raise the open file limit (ulimit -n)" : "reinstall taskwidget"
                throw TaskWidgetError.system(error.code, "cannot start the PNG renderer \(path)", advice: advice, context: path)
            }
        }
        do {
            try Self.write(DrawingProtocol.specLine(for: spec), to: child.input)
        } catch {
            Self.stop(child)
            throw error
        }
        return child
    }

    /// Starts the program at `path` with pipes to its standard input and output.
    private static func launch(_ path: String) throws(SystemError) -> Child {
        var toChild: [Int32] = [-1, -1]
        var fromChild: [Int32] = [-1, -1]
        guard pipe(&toChild) == 0, pipe(&fromChild) == 0 else {
            let code = errno
            for descriptor in toChild + fromChild where descriptor >= 0 { close(descriptor) }
            throw SystemError(code)
        }
        // Only the helper gets these, as its standard input and output.
        for descriptor in toChild + fromChild { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, toChild[0], STDIN_FILENO)
        posix_spawn_file_actions_adddup2(&actions, fromChild[1], STDOUT_FILENO)
        let pid: pid_t
        do {
            pid = try CleanSpawn.spawn(path, [], actions: &actions)
            close(toChild[0])
            close(fromChild[1])
        } catch {
            for descriptor in toChild + fromChild { close(descriptor) }
            throw error
        }
        // A helper that exits must not kill this process with SIGPIPE: the write fails instead.
        signal(SIGPIPE, SIG_IGN)
        return Child(pid: pid, input: toChild[1], output: fromChild[0])
    }

    /// Tells the helper that no drawing follows, so that it exits while this process does its own
    /// last work (writing the file); it is reaped when this object goes. Freeing the helper's memory
    /// takes about 1.5 ms, which then no longer comes after everything else. A drawing after this
    /// starts a new helper.
    public func finish() {
        guard let child else { return }
        self.child = nil
        close(child.input)
        close(child.output)
        if let exiting { Self.reap(exiting) }
        exiting = child.pid
    }

    /// Ends the helper: its input closes, it exits, and it is reaped.
    private func stop() {
        guard let child else { return }
        self.child = nil
        Self.stop(child)
    }

    private static func stop(_ child: Child) {
        close(child.input)
        close(child.output)
        reap(child.pid)
    }

    private static func reap(_ pid: pid_t) {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    }

    private func failure(_ what: String) -> TaskWidgetError {
        TaskWidgetError(
            .rendererFailed, "the PNG renderer \(path) \(what): reinstall it with this taskwidget", context: "the renderer \(what)")
    }

    private static func write(_ data: Data, to descriptor: Int32) throws {
        do {
            try SystemError.writeAll(data, to: descriptor)
        } catch {
            throw TaskWidgetError(.rendererFailed, "the PNG renderer stopped: see its message above", cause: error)
        }
    }

    /// One line, read byte by byte: the header is short, and nothing after it may be consumed.
    private static func readLine(from descriptor: Int32) throws -> String {
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while true {
            let count = Glibc.read(descriptor, &byte, 1)
            if count < 0, errno == EINTR { continue }
            guard count == 1 else {
                throw TaskWidgetError(.rendererFailed, "the PNG renderer stopped: see its message above", context: "the renderer stopped")
            }
            if byte == UInt8(ascii: "\n") { return String(decoding: bytes, as: UTF8.self) }
            bytes.append(byte)
        }
    }

    private static func read(_ count: Int, from descriptor: Int32) throws -> Data {
        var data = Data(count: count)
        var offset = 0
        try data.withUnsafeMutableBytes { buffer in
            while offset < count {
                let got = Glibc.read(descriptor, buffer.baseAddress! + offset, count - offset)
                if got < 0, errno == EINTR { continue }
                guard got > 0 else {
                    throw TaskWidgetError(.rendererFailed, "the PNG renderer stopped mid-image", context: "the renderer stopped")
                }
                offset += got
            }
        }
        return data
    }
}
