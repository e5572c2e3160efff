import ArgumentParser
import Foundation
import TaskWidgetCLI
import TaskWidgetConfig
import TaskWidgetCore

/// Where serve's token lives, and reading it.
enum ServeToken {
    /// `serve.token` in the config folder.
    static func defaultPath(environment: [String: String]) -> String? {
        XDGPaths(environment: environment).configHome.map { XDGPaths.taskwidgetFolder(in: $0) + "/serve.token" }
    }

    /// The fewest characters a token may have: guessing one must take more than a lifetime of
    /// requests (`serve token` makes 43).
    static let minimumLength = 16

    /// The token of the file given, else of the default file if there is one; `nil` for none.
    static func read(explicitPath: String?, environment: [String: String]) throws -> String? {
        let explicitPath = try explicitPath.map { try PathText.expandingHome($0, in: "--token-file", environment: environment) }
        guard let path = explicitPath ?? defaultPath(environment: environment) else { return nil }
        guard FileManager.default.fileExists(atPath: path) else {
            guard explicitPath != nil else { return nil }
            // A file named (--token-file, token_file) that is not made yet: say what makes it.
            // `serve token --file` makes no folder: say so when it is missing too (helper-89).
            let folder = PathText.folder(of: path)
            let makeFolder = folder.isEmpty || FileManager.default.fileExists(atPath: folder) ? "" : "`mkdir -p \(folder.shellQuoted)`, then "
            throw TaskWidgetError(
                .badConfig, "the token file \(path) does not exist: make it with \(makeFolder)`taskwidget serve token --file \(path.shellQuoted)`",
                context: "token file missing")
        }
        return try checked(SecretFile.read(path, what: "the token file"), in: path)
    }

    /// `token`, the one in the file at `path`, without spaces around it (no header can carry
    /// them: helper-83), if it is long enough for serve to take it.
    static func checked(_ token: String, in path: String) throws -> String {
        let token = token.trimmingWhitespace
        guard token.count >= minimumLength else {
            throw TaskWidgetError(
                .badConfig,
                "the token in \(path) is too short to keep anyone out (\(token.count) of at least \(minimumLength) characters): delete the file and make one with `taskwidget serve token --file \(path.shellQuoted)`",
                context: "token too short")
        }
        return token
    }
}

/// `taskwidget serve token`: prints the token, making it first when there is none.
struct TokenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "token",
        abstract: "Print the token clients must send, making one first if there is none.",
        discussion: """
            The token lives in serve.token in the config folder (~/.config/taskwidget), or in the \
            file [serve] token_file of config.toml names, readable by you only; serve uses it from \
            its next start, on loopback too (restart a serve that runs). Delete the file to serve \
            loopback without a token again.

            Examples:
              taskwidget serve token
              TOKEN=$(taskwidget serve token)
              curl -H "Authorization: Bearer $TOKEN" localhost:8787/status
            """)

    @Option(help: ArgumentHelp("Another token file than the one serve uses.", valueName: "file"), completion: .file())
    var file: String?
    @ParentCommand var serve: ServeCommand

    func validate() throws {
        try serve.refuseOwnOptions(for: "token", instead: ["--token-file": "--file"])
    }

    func run() throws {
        let environment = ProcessInfo.processInfo.environment
        // The file serve reads: the token of another one was refused by serve (helper-83).
        let configured = file == nil ? try Configuration.load(environment: environment, using: .serve).serve.tokenFile : nil
        let file = try file.map { try PathText.expandingHome($0, in: "--file", environment: environment) }
        guard let path = file ?? configured ?? ServeToken.defaultPath(environment: environment) else {
            throw TaskWidgetError(.badConfig, "no config folder: set HOME or XDG_CONFIG_HOME, or pass --file")
        }
        let (token, isNew) = try SecretFile.readOrCreate(path, what: "the token file", makesFolder: file == nil && configured == nil)
        if isNew {
            // Another file than serve's is used by a serve given it (it said any running serve: helper-89).
            let user = file == nil ? "a serve that runs uses it once restarted" : "serve uses it when started with --token-file \(path.shellQuoted)"
            writeToStandardError("taskwidget: made a new token in \(path); \(user)\n")
        }
        // A token serve would refuse is no token to give clients.
        print(try ServeToken.checked(token, in: path))
    }
}
