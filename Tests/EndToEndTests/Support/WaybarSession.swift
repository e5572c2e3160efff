import Foundation
import Glibc

@testable import TaskWidgetTestSupport

/// A private, throwaway Wayland desktop for one waybar test: Debian's sway on wlroots' headless
/// backend (one 1280 × 720 output drawn by pixman: no GPU, no screen, no input device), and
/// waybar on it with the test's module. Everything lives in a temporary folder, the session's
/// `XDG_RUNTIME_DIR` (mode 0700), and stops with the session: no test touches a desktop of the
/// machine's.
///
/// sway refuses to run as root (it must be able to drop privileges for good), so when the tests
/// run as root it runs as `nobody`, and the folder is nobody's; the test's programs (waybar,
/// swaymsg, wayvnc) stay root, which may use nobody's sockets.
///
/// Clicks are a user's clicks: sway's own IPC moves its cursor onto the bar and presses a button
/// (`swaymsg seat seat0 cursor set X Y`, `cursor press button1`), and sway hands them to the
/// surface under the cursor as it does a mouse's. It only does so for a seat that has a pointer,
/// and the headless backend has no input device (with none, sway's cursor moves but no client
/// gets a click): wayvnc, started without any VNC client, gives the seat a pointer of its own (a
/// virtual pointer, as remote desktops have).
///
/// waybar runs one module, `custom/tasks`, alone at the left of a 30 px bar at the top and 400 px
/// wide, so that ``moduleCenter`` is on it. Its right button belongs to the session: it touches a
/// file, and ``waitUntilTheBarTakesClicks()`` right-clicks until that file appears, so that a test
/// knows the bar is on screen and takes clicks before it makes the click that counts.
///
/// Needs Debian's `sway` (with swaymsg), `waybar` and `wayvnc`: scripts/lib/dependencies.sh
/// installs them.
final class WaybarSession {
    static let programs = ["/usr/bin/sway", "/usr/bin/swaymsg", "/usr/bin/waybar", "/usr/bin/wayvnc"]
    static let barHeight = 30
    static let moduleWidth = 400
    /// Where a click lands on the module: the middle of it.
    static let moduleCenter = (x: moduleWidth / 2, y: barHeight / 2)

    /// Why a session cannot start here (a program missing), as a message for the test; nil when
    /// everything is installed.
    static var missingPrograms: String? {
        let missing = programs.filter { !FileManager.default.isExecutableFile(atPath: $0) }
        guard !missing.isEmpty else { return nil }
        return "\(missing.joined(separator: ", ")) not installed: run scripts/test.sh, which installs the Debian packages sway, waybar and wayvnc"
    }

    let folder: URL
    /// The compositor's socket, relative to the folder (`wayland-1`), as sway tells its children.
    private(set) var waylandDisplay = ""
    /// sway's IPC socket, for swaymsg.
    private(set) var swaySocket = ""
    private var sway: StreamingProcess?
    /// wayvnc: the seat's pointer.
    private var pointer: StreamingProcess?
    private var waybar: StreamingProcess?
    private var probe: URL { folder.appendingPathComponent("right-click") }

    /// Starts sway and gives its seat a pointer; returns once both are up.
    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("taskwidget-wayland-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
        chmod(folder.path, 0o700)
        // From here on a failure ends in deinit, which stops what started.
        try startSway()
        try startPointer()
    }

    deinit {
        stopWaybar()
        for process in [pointer, sway].compactMap({ $0 }) {
            process.send(SIGTERM)
            _ = process.waitForExit(within: .seconds(10))
        }
        try? FileManager.default.removeItem(at: folder)
    }

    /// What a client of this desktop sees: its runtime folder, display and sway socket, and the
    /// system's programs only.
    var environment: [String: String] {
        [
            "PATH": "/usr/bin:/bin", "HOME": folder.path, "XDG_RUNTIME_DIR": folder.path, "WAYLAND_DISPLAY": waylandDisplay,
            "SWAYSOCK": swaySocket, "LC_ALL": "C.UTF-8",
        ]
    }

    /// sway's config: one headless output of a known size, no bar, no Xwayland; once it runs, a
    /// child it starts prints what sway tells its children: the display and the IPC socket.
    static let swayConfig = """
        xwayland disable
        output HEADLESS-1 resolution 1280x720 position 0 0
        exec printf '%s %s\\n' "$WAYLAND_DISPLAY" "$SWAYSOCK"

        """

    private func startSway() throws {
        let config = folder.appendingPathComponent("sway.conf")
        try Self.swayConfig.write(to: config, atomically: true, encoding: .utf8)
        var command = ["/usr/bin/sway", "-c", config.path]
        if getuid() == 0 {
            // setpriv execs sway: the process started is sway itself.
            guard let nobody = getpwnam("nobody") else { throw DesktopError("no user nobody to run sway as") }
            chown(folder.path, nobody.pointee.pw_uid, nobody.pointee.pw_gid)
            command = ["/usr/bin/setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups"] + command
        }
        let environment = [
            "PATH": "/usr/bin:/bin", "HOME": folder.path, "XDG_RUNTIME_DIR": folder.path, "LC_ALL": "C.UTF-8",
            "WLR_BACKENDS": "headless", "WLR_HEADLESS_OUTPUTS": "1", "WLR_LIBINPUT_NO_DEVICES": "1", "WLR_RENDERER": "pixman",
        ]
        let sway = try StreamingProcess(
            Array(command.dropFirst()), environment: environment, executable: command[0], errorLog: folder.appendingPathComponent("sway.log").path)
        self.sway = sway
        let announced = sway.nextLine(within: .seconds(30))?.split(separator: " ").map(String.init) ?? []
        guard announced.count == 2 else { throw DesktopError("sway did not start: \(log("sway.log"))") }
        (waylandDisplay, swaySocket) = (announced[0], announced[1])
        let outputs = try JSONSerialization.jsonObject(with: Data(try swaymsg(["-t", "get_outputs", "-r"]).utf8)) as? [[String: Any]]
        let rect = outputs?.first { $0["name"] as? String == "HEADLESS-1" }?["rect"] as? [String: Any]
        guard rect?["width"] as? Int == 1280, rect?["height"] as? Int == 720 else {
            throw DesktopError("sway's output is not HEADLESS-1 at 1280x720: \(outputs ?? [])")
        }
    }

    /// Starts wayvnc on a Unix socket no client connects to: its virtual pointer joins seat0.
    private func startPointer() throws {
        pointer = try StreamingProcess(
            ["--config=/dev/null", "--unix-socket", "--output=HEADLESS-1", folder.appendingPathComponent("vnc.sock").path],
            environment: environment, executable: "/usr/bin/wayvnc", errorLog: folder.appendingPathComponent("wayvnc.log").path)
        let hasPointer = waitUntil(within: .seconds(30)) {
            let seats = (try? swaymsg(["-t", "get_seats", "-r"])).flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) } as? [[String: Any]]
            // wl_seat's capability bit 1 is the pointer.
            return ((seats?.first { $0["name"] as? String == "seat0" }?["capabilities"] as? Int) ?? 0) & 1 != 0
        }
        guard hasPointer else { throw DesktopError("seat0 got no pointer from wayvnc: \(log("wayvnc.log"))") }
    }

    /// Starts waybar with `module` as `custom/tasks` (the session adds its right button), in
    /// `environment` plus the session's own for what it does not name (display, sockets, PATH).
    func startWaybar(module: [String: Any], environment: [String: String]) throws {
        var module = module
        module["on-click-right"] = "touch " + probe.path.shellQuoted
        let config: [String: Any] = [
            "layer": "top", "position": "top", "height": Self.barHeight, "modules-left": ["custom/tasks"], "custom/tasks": module,
        ]
        let configFile = folder.appendingPathComponent("waybar.json")
        try JSONSerialization.data(withJSONObject: config, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]).write(to: configFile)
        let style = folder.appendingPathComponent("waybar.css")
        try "* { font-family: Inter; font-size: 14px; }\n#custom-tasks { min-width: \(Self.moduleWidth)px; margin: 0; padding: 0; }\n"
            .write(to: style, atomically: true, encoding: .utf8)
        waybar = try StreamingProcess(
            ["--config", configFile.path, "--style", style.path], environment: self.environment.merging(environment) { _, given in given },
            executable: "/usr/bin/waybar", errorLog: folder.appendingPathComponent("waybar.log").path)
    }

    /// Stops waybar and what it started: the shell of `exec` ends with waybar, but not the
    /// pipeline it runs (a `watch … | tee` waits to write before it sees that waybar is gone).
    func stopWaybar() {
        guard let waybar else { return }
        let started = Self.descendants(of: waybar.pid)
        waybar.send(SIGTERM)
        _ = waybar.waitForExit(within: .seconds(10))
        self.waybar = nil
        Self.terminate(started)
    }

    /// The next line waybar printed that contains `text` (its log, and what its click commands
    /// print), or nil if none does within `timeout`.
    func waybarOutput(containing text: String, within timeout: Duration = .seconds(30)) -> String? {
        let deadline = ContinuousClock.now + timeout
        while let line = waybar?.nextLine(within: deadline - ContinuousClock.now) {
            if line.contains(text) { return line }
        }
        return nil
    }

    /// Right-clicks the module until its right button's command ran (the bar is on screen and
    /// takes clicks); false if it does not within `timeout`.
    func waitUntilTheBarTakesClicks(within timeout: Duration = .seconds(30)) throws -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            try click(at: Self.moduleCenter, button: "button3")
            if waitUntil(within: .seconds(1), { FileManager.default.fileExists(atPath: probe.path) }) { return true }
        }
        return false
    }

    /// Moves sway's cursor to `point` (layout coordinates) and presses and releases `button`.
    func click(at point: (x: Int, y: Int), button: String = "button1") throws {
        try swaymsg(["seat", "seat0", "cursor", "set", "\(point.x)", "\(point.y)"])
        try swaymsg(["seat", "seat0", "cursor", "press", button])
        try swaymsg(["seat", "seat0", "cursor", "release", button])
    }

    /// Moves sway's cursor to `point` and turns the wheel one step down (`button5`) or up
    /// (`button4`). sway scrolls on a press of those buttons and again on their release, so the
    /// step is a press alone.
    func scroll(at point: (x: Int, y: Int), down: Bool = true) throws {
        try swaymsg(["seat", "seat0", "cursor", "set", "\(point.x)", "\(point.y)"])
        try swaymsg(["seat", "seat0", "cursor", "press", down ? "button5" : "button4"])
    }

    /// Runs `swaymsg ARGUMENTS` on this session's sway; its output.
    @discardableResult
    func swaymsg(_ arguments: [String]) throws -> String {
        let result = try ProcessRunner.run("/usr/bin/swaymsg", ["--socket", swaySocket] + arguments, environment: environment)
        guard result.status == 0 else { throw DesktopError("swaymsg \(arguments.joined(separator: " ")) failed: \(result.stdout)\(result.stderr)") }
        return result.stdout
    }

    /// The last lines of a log of the session's folder, for failure messages.
    func log(_ name: String) -> String {
        let text = (try? String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)) ?? "(no \(name))"
        return text.split(separator: "\n").suffix(15).joined(separator: "\n")
    }

    /// The complete lines of `file` once it has at least `count`, or what it has after `timeout`
    /// (a file another process appends to, read every 20 ms).
    static func lines(of file: URL, atLeast count: Int, within timeout: Duration = .seconds(30)) -> [String] {
        var lines: [String] = []
        _ = waitUntil(within: timeout) {
            let text = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
            lines = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
            return lines.count >= count
        }
        return lines
    }

    // MARK: - Processes under waybar

    /// A process as /proc shows it: its id with its start time, so that an id the system gave
    /// again to another process is never signalled.
    struct ProcessID: Equatable {
        var pid: pid_t
        var start: String
    }

    /// The processes started under `root` that run now: its children, theirs, and so on.
    static func descendants(of root: pid_t) -> [ProcessID] {
        var children: [pid_t: [ProcessID]] = [:]
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
            guard let pid = pid_t(entry), let stat = ProcStat(pid: pid) else { continue }
            children[stat.parent, default: []].append(ProcessID(pid: pid, start: stat.start))
        }
        var found: [ProcessID] = []
        var parents = [root]
        while let parent = parents.popLast() {
            for child in children[parent] ?? [] {
                found.append(child)
                parents.append(child.pid)
            }
        }
        return found
    }

    /// Whether the process still runs: the same one (same start time), not ended.
    static func isRunning(_ process: ProcessID) -> Bool {
        guard let stat = ProcStat(pid: process.pid), stat.start == process.start else { return false }
        return stat.isAlive
    }

    /// SIGTERM to those of `processes` that still run; SIGKILL to any still running 10 s later.
    static func terminate(_ processes: [ProcessID]) {
        for process in processes where isRunning(process) { kill(process.pid, SIGTERM) }
        guard !waitUntil(within: .seconds(10), { !processes.contains(where: isRunning) }) else { return }
        for process in processes where isRunning(process) { kill(process.pid, SIGKILL) }
    }
}
