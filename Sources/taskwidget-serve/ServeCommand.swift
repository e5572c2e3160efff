import ArgumentParser
import Foundation
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
            devices of `serve device add`. Every answer carries an ETag and a max-age that ends when \
            it next changes. The server follows the store as watch does (no polling) and never writes to it.

            Listening beyond this machine needs a token, which clients send as \
            `Authorization: Bearer TOKEN` or `?token=TOKEN`: `serve token` makes one (a loopback \
            server then asks for it too). serve exits 0 on SIGTERM or SIGINT once open requests are answered.

            Examples:
              taskwidget serve                          # http://127.0.0.1:8787/
              taskwidget serve --list Work --listen 127.0.0.1:9000
              taskwidget serve --view work              # [views.work] of config.toml
              taskwidget serve token && taskwidget serve --listen 0.0.0.0:8787
              curl -o kindle.png 'localhost:8787/widget/800x480.png?theme=mono&depth=1'
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

    func validate() throws {
        if let clockSpeed, clockSpeed < 0 { throw ValidationError("--clock-speed must be 0 or more") }
        if let listen, ListenAddress(listen) == nil {
            throw ValidationError("--listen takes HOST:PORT, or HOST for port \(ListenAddress.defaultPort), e.g. 127.0.0.1:8787 or [::1]:8787")
        }
    }

    func run() async throws {
        // It draws all day: keep the memory of one image for the next.
        WidgetRenderer.keepMemoryBetweenImages()
        let environment = ProcessInfo.processInfo.environment
        let context = try options.context()
        let settings = try context.configuration()
        guard let address = ListenAddress(listen ?? settings.serve.listen ?? "127.0.0.1") else {
            throw TaskWidgetError(.badConfig, "[serve] listen in \(settings.path ?? "config.toml") takes HOST:PORT, e.g. 127.0.0.1:8787")
        }
        var view = try scope.selectedView(configuration: settings)
        if scope.isEmpty, let name = settings.serve.view { view = try settings.view(named: name) }
        // A list the store does not have is a typo: refused at start, as `ls --list` refuses it,
        // rather than a server whose every route says 503 (a list deleted later still does). A
        // store that cannot be read now is left to the server, which answers 503 until it can.
        if case .list(let name) = view.scope, FileManager.default.fileExists(atPath: context.location.path),
            let lists = try? TaskStore.open(at: context.location, mode: .readOnly, logger: context.logger).listSummaries().map(\.list)
        {
            _ = try TaskList.named(name, in: lists)
        }
        let token = try ServeToken.read(explicitPath: tokenFile ?? settings.serve.tokenFile, environment: environment)
        let clock = WatchClock.forRun(now: context.now, virtual: options.now != nil, speed: clockSpeed)
        let server = DashboardServer(
            listen: address, token: token,
            following: .init(location: context.location, calendar: context.calendar, view: view, clock: clock),
            devicesPath: DeviceFile.path(environment: environment), environment: environment)
        let storePath = context.location.path
        try await server.run(logger: context.logger) { bound in
            // One line, flushed at once: scripts and tests read the port from it.
            let auth = token == nil ? "" : "; clients send the token"
            // 0.0.0.0 is no address a client can open: name the one they can.
            let everywhere = ["0.0.0.0", "::"].contains(bound.host) ? " (every address: http://\(Self.hostName()):\(bound.port)/ from other machines)" : ""
            try? FileHandle.standardOutput.write(contentsOf: Data("serving http://\(bound)/\(everywhere) from \(storePath)\(auth)\n".utf8))
        }
    }

    /// This machine's name, as other machines on a home network usually reach it.
    private static func hostName() -> String {
        var name = [CChar](repeating: 0, count: 256)
        guard gethostname(&name, name.count) == 0 else { return "THIS-MACHINE" }
        return String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
