import ArgumentParser
import Foundation
import Logging
import TaskWidgetCLI
import TaskWidgetConfig
import TaskWidgetCore
import TaskWidgetRender
import TaskWidgetServe
import TaskWidgetStore
import TaskWidgetWatch

/// `taskwidget serve [--listen HOST:PORT] [scope | --view NAME]`: widgets, status lines and the
/// timeline over HTTP, kept current as the store and the clock move (SPEC §11); `serve device` and
/// `serve token` manage who may ask.
@main
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "taskwidget serve",
        abstract: "Serve widgets, status lines and the timeline over HTTP, for browsers, e-ink devices and Home Assistant.",
        // Without a subcommand it serves: argument-parser's own line ends in a required <subcommand>.
        usage: """
            taskwidget serve [--listen <host:port>] [--view <name>] [<options>]
              taskwidget serve device <subcommand>
              taskwidget serve token [<options>]
            """,
        discussion: """
            Serves a dashboard page at / that updates itself, widget images at \
            /widget/{small|medium|large|WxH}.{png|bmp}?scale=&theme=&depth=&rotate=, status lines at \
            /status?format=, the timeline at /timeline.json, /healthz, and TRMNL's BYOS API for the \
            devices of `serve device add`. Every image, status line and timeline carries an ETag and a \
            max-age that ends when it next changes. The server follows the store as watch does (no \
            polling) and never writes to it; SIGUSR1 makes it open the store again.

            Listening beyond this machine needs a token, which clients send as \
            `Authorization: Bearer TOKEN` or `?token=TOKEN`: `serve token` makes one (a loopback \
            server then asks for it too). serve exits 0 on SIGTERM, SIGINT or SIGHUP once open requests are answered; \
            64 for a mistake in its options or in the config.toml tables it reads ([serve], views), \
            69 when it cannot listen (the port taken, an address not this machine's).

            Examples:
              taskwidget serve                          # http://127.0.0.1:8787/
              taskwidget serve --list Work --listen 127.0.0.1:9000
              taskwidget serve --view work              # [views.work] of config.toml
              taskwidget serve token && taskwidget serve --listen 0.0.0.0:8787
              curl -o eink.png 'localhost:8787/widget/800x480.png?theme=mono&depth=1'
            """,
        subcommands: [DeviceCommand.self, TokenCommand.self])

    static func main() async { await CommandRunner.main(Self.self) }

    @OptionGroup var options: GlobalOptions
    @OptionGroup var scope: ScopeOptions
    @Option(help: ArgumentHelp(
        "The address and port to listen on, HOST:PORT, or HOST for port \(ListenAddress.defaultPort) (default: [serve] listen in config.toml, else 127.0.0.1:\(ListenAddress.defaultPort)).",
        valueName: "host:port"))
    var listen: String?
    @Option(help: ArgumentHelp(
        "The file holding the token clients must send (default: [serve] token_file, else serve.token in the config folder if it exists).",
        valueName: "file"), completion: .file())
    var tokenFile: String?
    /// For tests and previews: with --now, time runs this many times faster than real time; at 0
    /// it stands still.
    @Option(help: .hidden) var clockSpeed: Int?

    /// `[serve] listen` that is no address.
    static func badListen(in configuration: Configuration) -> TaskWidgetError {
        TaskWidgetError(.badConfig, "[serve] listen in \(configuration.path ?? "config.toml") takes HOST:PORT, e.g. 127.0.0.1:8787")
    }

    /// Refuses serve's own options given with one of its subcommands (`serve token --token-file x`):
    /// ArgumentParser takes them, and the subcommand, which does not use them, went on without a
    /// word. `--verbose` changes nothing there and is let be.
    func refuseOwnOptions(for subcommand: String, instead: [String: String] = [:]) throws {
        let given: [(String, Bool)] = [
            ("--listen", listen != nil), ("--token-file", tokenFile != nil), ("--list", scope.list != nil), ("--inbox", scope.inbox),
            ("--view", scope.view != nil), ("--store", options.store != nil), ("--tz", options.tz != nil), ("--now", options.now != nil),
            ("--clock-speed", clockSpeed != nil),
        ]
        guard let option = given.first(where: \.1)?.0 else { return }
        throw ValidationError(
            "\(option) is an option of `taskwidget serve`, not of `taskwidget serve \(subcommand)`" + (instead[option].map { ": use \($0)" } ?? ""))
    }

    func validate() throws {
        if let clockSpeed, !(0...WatchClock.maxSpeed).contains(clockSpeed) {
            throw ValidationError("--clock-speed must be from 0 to \(WatchClock.maxSpeed)")
        }
        if tokenFile?.isEmpty == true { throw ValidationError("--token-file needs the path of a file") }
        if let listen, ListenAddress(listen) == nil {
            // A port out of range is said as such: it got the general form only (helper-112).
            if let port = listen.split(separator: ":").last.flatMap({ Int($0) }), port > 65_535 {
                throw ValidationError("--listen has the port \(port), which no server can listen on: give a port from 1 to 65535")
            }
            throw ValidationError("--listen takes HOST:PORT, or HOST for port \(ListenAddress.defaultPort), e.g. 127.0.0.1:8787 or [::1]:8787")
        }
    }

    func run() async throws {
        let fileLimit = try OpenFileLimit.ensure(atLeast: 64, for: "serve")
        // SIGUSR1 opens the store again (``DashboardFollowing``): until that is set up, it is
        // ignored rather than fatal.
        signal(SIGUSR1, SIG_IGN)
        // It draws all day: keep the memory of one image for the next.
        WidgetRenderer.keepMemoryBetweenImages()
        let (context, settings) = try options.serviceContext(using: [.views, .serve], command: "serve")
        let environment = context.environment
        guard let address = ListenAddress(listen ?? settings.serve.listen ?? "127.0.0.1") else { throw Self.badListen(in: settings) }
        var view = try scope.selectedView(configuration: settings)
        if scope.isEmpty, let name = settings.serve.view { view = try settings.view(named: name) }
        // A list the store does not have is a typo: refused at start, as `ls --list` refuses it,
        // rather than a server whose every route says 503 (a list deleted later still does). A
        // store that cannot be read now is left to the server, which answers 503 until it can.
        if case .list(let name) = view.scope, FileManager.default.fileExists(atPath: context.location.path),
            let lists = try? TaskStore.open(at: context.location, mode: .readOnly, logger: context.logger).listSummaries().map(\.list)
        {
            _ = try TaskList.named(name, in: lists, creation: view.missingListAdvice)
        }
        view = view.followed(by: "serve")
        let token = try ServeToken.read(explicitPath: tokenFile ?? settings.serve.tokenFile, environment: environment)
        let clock = try WatchClock.forRun(now: context.now, virtual: options.now != nil, speed: clockSpeed)
        var server = DashboardServer(
            listen: address, token: token,
            following: .init(location: context.location, calendar: context.calendar, view: view, clock: clock),
            devicesPath: DeviceFile.path(environment: environment), environment: environment)
        // A file each, with room for the store, the loop and the fonts: past the file limit, the
        // server spun a core on connections it could not accept (helper-90).
        let connections = fileLimit - 40
        if connections < server.limits.maximumConnections {
            server.limits.fit(toConnections: connections)
            context.logger.info(
                "\(fileLimit) files may be open (ulimit -n): serving at most \(connections) connections at once, \(server.limits.maximumEventStreams) of them event streams")
        }
        let storePath = context.location.path
        // What it serves, where it is not every task: it said nothing of `--view` (helper-164).
        // A list's own name is the user's: the line may reach a journal.
        let served =
            switch (view.name, view.scope) {
            case (let name?, _): " (the view \(name.removingControlCharacters))"
            case (nil, .list): " (one list's tasks)"
            case (nil, .inbox): " (the Inbox's tasks)"
            case (nil, .all): view.isFiltered ? " (a view's tasks)" : ""
            }
        do {
            try await server.run(logger: context.logger) { bound in
                // One line, flushed at once: scripts and tests read the port from it.
                let auth = token == nil ? "" : "; clients send the token"
                // 0.0.0.0 is no address a client can open: name the ones they can.
                let everywhere = Self.isWildcard(bound.host) ? Self.reachableLine(port: bound.port) : ""
                try? FileHandle.standardOutput.write(contentsOf: Data("serving http://\(bound)/\(everywhere) from \(storePath)\(served)\(auth)\n".utf8))
            }
        } catch let error as TaskWidgetError where listen == nil && settings.serve.listen != nil && error.context == "\(address)" {
            // The address came from config.toml: say where to change it.
            throw TaskWidgetError(
                error.code, "\(error.message) ([serve] listen in \(settings.path ?? "config.toml"))", context: error.context, cause: error.cause)
        }
    }

    /// Whether `host` is the address of every address (0.0.0.0, ::, however written).
    private static func isWildcard(_ host: String) -> Bool {
        var bytes = [UInt8](repeating: 0xFF, count: 16)
        let family = host.contains(":") ? AF_INET6 : AF_INET
        return inet_pton(family, host, &bytes) == 1 && bytes.prefix(family == AF_INET6 ? 16 : 4).allSatisfy { $0 == 0 }
    }

    /// ` (every address: http://192.168.1.10:8787/ from other machines)`: the IPv4 addresses of
    /// this machine's interfaces that are up and not loopback, which a device on the network opens.
    private static func reachableLine(port: Int) -> String {
        var interfaces: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&interfaces) == 0, let first = interfaces else { return " (every address of this machine)" }
        defer { freeifaddrs(interfaces) }
        var addresses: [String] = []
        for interface in sequence(first: first, next: { $0.pointee.ifa_next }) {
            let flags = Int32(bitPattern: interface.pointee.ifa_flags)
            guard let address = interface.pointee.ifa_addr, address.pointee.sa_family == sa_family_t(AF_INET),
                flags & Int32(IFF_UP) != 0, flags & Int32(IFF_LOOPBACK) == 0
            else { continue }
            var text = [CChar](repeating: 0, count: Int(INET_ADDRSTRLEN))
            var ipv4 = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_addr }
            guard inet_ntop(AF_INET, &ipv4, &text, socklen_t(text.count)) != nil else { continue }
            addresses.append("http://\(String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)):\(port)/")
        }
        guard !addresses.isEmpty else { return " (every address of this machine)" }
        return " (every address: \(addresses.prefix(3).joined(separator: " or ")) from other machines)"
    }
}
