import Foundation
import Glibc
import Testing

@testable import TaskWidgetTestSupport

/// A private, throwaway desktop for one `taskwidget notify` test: an X display (Xvfb), a session
/// bus of its own (a dbus-daemon that starts no service unless asked: "no dunst running" means no
/// server) and, when started, a real notification daemon (Debian's dunst) on them. Everything lives in a
/// temporary folder and stops with the session, so no test touches the machine's own bus.
///
/// dunst runs with a test configuration: notifications never expire, closed ones stay in its
/// history (`dunstctl history`), the format names the urgency (dunst 1.9's history has no urgency
/// field), and its context menu ("dmenu") is a script that picks the action named by ``invoke(_:)``:
/// `dunstctl context` then invokes that action as a user's click would.
///
/// Needs Debian's `xvfb`, `dbus-daemon`, `dunst`, `busctl` (systemd, for `dunstctl history`) and
/// `gdbus` (libglib2.0-bin): scripts/lib/dependencies.sh installs them.
final class DesktopSession {
    let folder: URL
    /// `:N`, chosen by Xvfb (`-displayfd`) among the free display numbers.
    let display: String
    let busAddress: String
    private let xvfb: StreamingProcess
    private var bus: StreamingProcess?
    private var dunst: StreamingProcess?
    private var dunstStarts = 0

    /// `activatableDunst`: the bus may start dunst by D-Bus activation (a service file for
    /// `org.freedesktop.Notifications`), as a desktop's session bus usually can.
    init(activatableDunst: Bool = false) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("taskwidget-desktop-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("services"), withIntermediateDirectories: true)
        busAddress = "unix:path=\(folder.path)/bus"
        xvfb = try StreamingProcess(
            ["-displayfd", "1", "-nolisten", "tcp", "-screen", "0", "1024x768x24"], environment: Self.baseEnvironment,
            executable: "/usr/bin/Xvfb", errorLog: folder.appendingPathComponent("xvfb.log").path)
        guard let number = xvfb.nextLine(within: .seconds(20)), !number.isEmpty else {
            throw DesktopError("Xvfb did not start: see \(folder.path)/xvfb.log")
        }
        display = ":" + number
        // dunst runs the script through sh, which only reads it. Executed itself, it failed now and
        // then with ETXTBSY: a process that another test forked while this one wrote the file can
        // hold the file open for writing.
        let pick = folder.appendingPathComponent("pick-action")
        try "cat > '\(folder.path)/menu'; grep -m 1 \",$(cat '\(folder.path)/action')]$\" '\(folder.path)/menu'\n"
            .write(to: pick, atomically: true, encoding: .utf8)
        try Self.dunstConfig.replacingOccurrences(of: "PICK", with: "/bin/sh \(pick.path)")
            .write(to: folder.appendingPathComponent("dunstrc"), atomically: true, encoding: .utf8)
        try Self.busConfig(address: busAddress, services: folder.appendingPathComponent("services").path)
            .write(to: folder.appendingPathComponent("bus.conf"), atomically: true, encoding: .utf8)
        if activatableDunst {
            try "[D-BUS Service]\nName=org.freedesktop.Notifications\nExec=/usr/bin/dunst -config \(folder.path)/dunstrc\n"
                .write(to: folder.appendingPathComponent("services/org.freedesktop.Notifications.service"), atomically: true, encoding: .utf8)
        }
        try startBus()
    }

    deinit {
        stopDunst()
        // A dunst the bus started is the bus's child: it ends with its connection to the bus.
        stopBus()
        xvfb.send(SIGTERM)
        _ = xvfb.waitForExit()
        try? FileManager.default.removeItem(at: folder)
    }

    /// What dunst, dunstctl and notify see: this session's display and bus only.
    var environment: [String: String] {
        var environment = Self.baseEnvironment
        environment["DISPLAY"] = display
        environment["DBUS_SESSION_BUS_ADDRESS"] = busAddress
        return environment
    }

    private static var baseEnvironment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        for name in ["DISPLAY", "WAYLAND_DISPLAY", "DBUS_SESSION_BUS_ADDRESS", "DBUS_STARTER_ADDRESS", "DBUS_STARTER_BUS_TYPE"] {
            environment[name] = nil
        }
        return environment
    }

    /// Starts the private dbus-daemon; returns once it listens (it prints its address then).
    func startBus() throws {
        guard bus == nil else { return }
        let daemon = try StreamingProcess(
            ["--config-file=\(folder.path)/bus.conf", "--nofork", "--print-address=1"], environment: environment,
            executable: "/usr/bin/dbus-daemon", errorLog: folder.appendingPathComponent("dbus.log").path)
        guard daemon.nextLine(within: .seconds(20)) != nil else { throw DesktopError("dbus-daemon did not start") }
        bus = daemon
    }

    /// Stops the private bus: every connection to it closes.
    func stopBus() {
        bus?.send(SIGTERM)
        _ = bus?.waitForExit()
        bus = nil
    }

    /// Starts dunst; it owns the notification name a moment later (notify logs "a notification
    /// server is available" when it sees it).
    func startDunst() throws {
        dunstStarts += 1
        dunst = try StreamingProcess(
            ["-config", "\(folder.path)/dunstrc"], environment: environment, executable: "/usr/bin/dunst",
            errorLog: folder.appendingPathComponent("dunst-\(dunstStarts).log").path)
    }

    /// Stops dunst with `signal`: SIGTERM as a user would, SIGKILL as a crash or an OOM kill would.
    func stopDunst(with signal: Int32 = SIGTERM) {
        dunst?.send(signal)
        _ = dunst?.waitForExit()
        dunst = nil
    }

    /// Freezes dunst (SIGSTOP), as a server that hangs: calls to it wait for their reply.
    func freezeDunst() {
        dunst?.send(SIGSTOP)
    }

    /// Lets a frozen dunst go on (SIGCONT): it answers what waited.
    func thawDunst() {
        dunst?.send(SIGCONT)
    }

    /// Runs `dunstctl ARGUMENTS` on this session's bus; its output.
    @discardableResult
    func dunstctl(_ arguments: String...) throws -> String {
        let result = try ProcessRunner.run("/usr/bin/dunstctl", arguments, environment: environment)
        guard result.status == 0 else { throw DesktopError("dunstctl \(arguments.joined(separator: " ")) failed: \(result.stderr)") }
        return result.stdout
    }

    /// How many notifications dunst shows now.
    func displayedCount() throws -> Int? {
        Int(try dunstctl("count", "displayed").trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// Invokes the action `key` (`done`, `snooze`) of the notification on screen through dunst's
    /// context menu, as a user choosing it would: dunst sends ActionInvoked to its client.
    func invoke(_ key: String) throws {
        try key.write(to: folder.appendingPathComponent("action"), atomically: true, encoding: .utf8)
        try dunstctl("context")
    }

    /// The lines of dunst's context menu at the last ``invoke(_:)``: one per action of each
    /// notification on screen, `#LABEL (SUMMARY) [ID,KEY]`.
    func lastMenu() throws -> [String] {
        try String(contentsOf: folder.appendingPathComponent("menu"), encoding: .utf8).split(separator: "\n").map(String.init)
    }

    /// One notification of `dunstctl history`: the closed ones, newest first.
    struct HistoryEntry: Equatable {
        var id: Int
        var appname: String
        var summary: String
        var body: String
        /// The formatted text: `critical: SUMMARY / BODY` (the test config names the urgency).
        var message: String
    }

    /// Closes every notification on screen (they go to the history) and returns the history.
    func closeAllAndReadHistory() throws -> [HistoryEntry] {
        try dunstctl("close-all")
        let json = try dunstctl("history")
        guard let root = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any],
            let data = root["data"] as? [[[String: Any]]], let entries = data.first
        else { throw DesktopError("unexpected dunstctl history output: \(json)") }
        func field(_ entry: [String: Any], _ name: String) -> Any? { (entry[name] as? [String: Any])?["data"] }
        return entries.map { entry in
            HistoryEntry(
                id: field(entry, "id") as? Int ?? -1, appname: field(entry, "appname") as? String ?? "",
                summary: field(entry, "summary") as? String ?? "", body: field(entry, "body") as? String ?? "",
                message: field(entry, "message") as? String ?? "")
        }
    }

    /// dunst's config for tests: nothing expires (timeouts 0; no idle pause), the history keeps
    /// everything, and the format starts with the urgency.
    static let dunstConfig = """
        [global]
            history_length = 100
            sticky_history = yes
            idle_threshold = 0
            show_age_threshold = -1
            stack_duplicates = false
            notification_limit = 0
            markup = full
            dmenu = PICK

        [urgency_low]
            timeout = 0
            format = "low: %s / %b"

        [urgency_normal]
            timeout = 0
            format = "normal: %s / %b"

        [urgency_critical]
            timeout = 0
            format = "critical: %s / %b"

        """

    /// A session bus of its own: listens in the session's folder, activates only what `services`
    /// holds (nothing), and allows everything.
    static func busConfig(address: String, services: String) -> String {
        """
        <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
        <busconfig>
          <type>session</type>
          <listen>\(address)</listen>
          <auth>EXTERNAL</auth>
          <servicedir>\(services)</servicedir>
          <policy context="default">
            <allow send_destination="*" eavesdrop="true"/>
            <allow eavesdrop="true"/>
            <allow own="*"/>
          </policy>
        </busconfig>

        """
    }
}

struct DesktopError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
