import ArgumentParser
import Foundation
import Glibc
import Logging
import TaskWidgetCLI
import TaskWidgetConfig
import TaskWidgetCore
import TaskWidgetStore
import TaskWidgetSync

/// `taskwidget sync`: taskwidget hands its command line to this program (installed beside it), so
/// that the HTTP stack never loads in the commands a status bar runs.
@main
struct SyncCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "taskwidget sync",
        abstract: "Sync tasks with CalDAV servers (Nextcloud, Radicale, Fastmail, iCloud, SOGo).",
        // Without a subcommand it syncs: argument-parser's own line ends in a required <subcommand>.
        usage: """
            taskwidget sync [--account <name>] [--dry-run] [<options>]
              taskwidget sync account <subcommand>
            """,
        discussion: """
            Each collection of tasks on the server is a list here; the account's `inbox` \
            collection holds the Inbox. Changes go both ways: each field keeps the later edit, a \
            completed task stays completed (only a user reopens it: `taskwidget undo`, or unticking \
            it on the phone), and a deletion reaches the other side unless the task was edited \
            there since the last sync.

            Examples:
              taskwidget sync account add home --url https://dav.example.com/ \\
                  --user alice --password-command "pass show dav/alice" --inbox Tasks
              taskwidget sync --dry-run
              taskwidget sync
              taskwidget sync --account home

            Prints one line per account: pulled, pushed, conflicts merged, deleted; and a line \
            for each calendar of a list deleted here that stays on the server, and why. On a \
            terminal, the push counts its requests meanwhile (one per changed task).

            A sync that would delete here more than half of the tasks synced with an account \
            (and more than 5: the server may have been restored from an old copy) stops before \
            it writes anything; --force-delete lets it.

            Exit status: 0 ok, 64 bad usage or configuration (or --force-delete needed), 65 damaged store, 69 the server \
            cannot be used (address, password, refused), 74 I/O, 75 try again later (server down, \
            timed out, 5xx); the store is then as it was, or fully merged, never half.
            """,
        subcommands: [AccountCommand.self]
    )

    @OptionGroup var options: SyncGlobalOptions

    @Option(name: .long, help: ArgumentHelp("Sync only this account (default: every account).", valueName: "name"))
    var account: String?

    @Flag(name: .long, help: "Print what would change, per collection, and change nothing anywhere.")
    var dryRun = false

    @Flag(
        name: .long,
        help: "Let the sync delete here more than half of the tasks synced with an account (the server no longer has them); refused without it.")
    var forceDelete = false

    static func main() async { await CommandRunner.main(Self.self) }

    func run() async throws {
        let context = try options.context()
        let configuration = try context.configuration(using: .sync)
        var accounts = configuration.syncAccounts
        guard !accounts.isEmpty else {
            // Without a home, the accounts' file is nowhere: adding one fails the same way (helper-90).
            guard try options.configPath() != nil else {
                throw TaskWidgetError(.badConfig, "there is no home folder for config.toml, which holds the sync accounts: set HOME or XDG_CONFIG_HOME, or pass --config")
            }
            // An account removed from config.toml is still in the store: said, as when others are
            // configured (it was not, helper-115).
            for unconfigured in (try? UnconfiguredAccountState.find(in: context, configured: [])) ?? [] {
                writeToStandardError("taskwidget: \(unconfigured.note.removingControlCharacters)\n")
            }
            throw TaskWidgetError(
                .badConfig, "there is no sync account yet: add one with `taskwidget sync account add NAME --url URL --user USER --password-command CMD`")
        }
        if let account {
            accounts = [
                try NameLookup.find(
                    account, in: accounts, named: \.name, kind: "sync account",
                    creation: "add one with `taskwidget sync account add NAME --url URL --user USER --password-command CMD`")
            ]
        }
        // A dry run changes nothing anywhere: it reads a store that is there as the display
        // commands do, so it works on one the user may not write (it was refused, helper-108), and
        // takes no lock. One not made yet reads as empty, as for a first sync.
        let readsOnly = dryRun && access(context.location.path, F_OK) == 0
        let store = try readsOnly ? context.storeForReading() : context.storeForWriting()
        let lock = dryRun ? nil : try SyncLock(store: context.location)
        defer { lock?.release() }
        for unconfigured in try UnconfiguredAccountState.find(in: store, configured: configuration.syncAccounts) {
            writeToStandardError("taskwidget: \(unconfigured.note.removingControlCharacters)\n")
        }
        // The exit status of the first failure that "try again later" would not mend, else of the
        // first: a timer that retries on 75 must not hide a wrong password behind a server down.
        var firstFailure: TaskWidgetError?
        func keep(_ failure: TaskWidgetError) {
            if firstFailure == nil || (firstFailure?.code == .temporaryFailure && failure.code != .temporaryFailure) { firstFailure = failure }
        }
        try await HTTPClientTransport.withTransport(logger: context.logger) { transport in
            let counting = CountingTransport(transport)
            for account in accounts {
                counting.reset()
                if let note = account.clearTextPasswordNote { writeToStandardError("taskwidget: \(note.removingControlCharacters)\n") }
                do {
                    let report = try await sync(
                        account, isFirst: account.name == configuration.syncAccounts.first?.name,
                        isFirstWithInbox: account.name == configuration.syncAccounts.first { $0.inbox != nil }?.name, store: store,
                        transport: counting, context: context)
                    // Names on a terminal only: under a timer, stdout goes to the journal.
                    print(dryRun ? report.planText : report.summary(namingCollections: isatty(STDOUT_FILENO) == 1))
                    context.logger.debug("sync done", metadata: ["account": "\(account.name)", "requests": "\(counting.requestCount)"])
                    if let refusal = report.refusalError {
                        CommandRunner.report(refusal)
                        keep(refusal)
                    }
                } catch let error as CalDAVError {
                    let failure = Self.userError(error, account: account.name)
                    context.logger.debug("sync failed", metadata: ["account": "\(account.name)", "error": "\(error.detailedDescription)"])
                    if accounts.count == 1 { throw failure }
                    CommandRunner.report(failure)
                    keep(failure)
                } catch let error as TaskWidgetError {
                    if accounts.count == 1 { throw error }
                    CommandRunner.report(error)
                    keep(error)
                }
            }
        }
        if let firstFailure {
            lock?.release()  // exit runs no defer
            Foundation.exit(firstFailure.code.exitStatus)
        }
    }

    private func sync(
        _ account: SyncAccount, isFirst: Bool, isFirstWithInbox: Bool, store: TaskStore, transport: any DAVTransport, context: CommandContext
    ) async throws -> SyncReport {
        // The scheme in lower case: `HTTP://` is the same address (it was refused, helper-120).
        let url = URLComponents(string: account.url).flatMap { components -> URL? in
            var components = components
            components.scheme = components.scheme?.lowercased()
            return components.url
        }
        guard let url, url.scheme == "https" || url.scheme == "http", url.host != nil else {
            throw TaskWidgetError(
                .badConfig, "the url of the account “\(account.name)” is not an http or https address: fix it in the configuration")
        }
        // A port past 65535 trapped in the HTTP client (exit 132, helper-109); 0 said "try again later".
        if let port = url.port, !(1...65535).contains(port) {
            throw TaskWidgetError(
                .badConfig, "the url of the account “\(account.name)” has the port \(port), which no server can listen on: fix it in the configuration")
        }
        // Never sent (the client sends the account's user and password): said, not ignored.
        guard url.password == nil else {
            throw TaskWidgetError(
                .badConfig, "the url of the account “\(account.name)” holds a password: move it into a password_file or password_command, and the user name into user")
        }
        let client = CalDAVClient(
            accountURL: url, credentials: try account.credentials(), transport: transport, logger: context.logger)
        // On a terminal, one line says what the sync does: which server it waits for (a silent
        // one took 30 s with nothing on the screen: helper-130), then the push counts its changes
        // (a first sync sends one request per task); cleared at the end. Not among log lines,
        // nor into a pipe or a file.
        let showsProgress = isatty(STDERR_FILENO) == 1 && context.logger.logLevel >= .warning
        let name = account.name
        if showsProgress { writeToStandardError("\(name): syncing with \(url.host ?? "the server")…") }
        let progress: @Sendable (Int, Int) -> Void = { done, total in writeToStandardError("\r\u{1B}[K\(name): pushing \(done) of \(total)…") }
        let engine = SyncEngine(
            store: store, account: account, client: client, timeZone: context.timeZone, now: context.now,
            receivesNewLists: isFirst, receivesNewInboxTasks: isFirstWithInbox, progress: showsProgress ? progress : nil,
            namesCollections: isatty(STDERR_FILENO) == 1, allowsMassDeletion: forceDelete, commandOptions: try options.repeated(in: context),
            logger: context.logger)
        if showsProgress { Self.clearProgressLineOnInterrupt() }
        defer {
            if showsProgress {
                for number in Self.endingSignals { signal(number, SIG_DFL) }
                writeToStandardError("\r\u{1B}[K")
            }
        }
        return try await engine.run(dryRun: dryRun)
    }

    /// Ctrl-C (or SIGTERM, SIGHUP) during the push clears the progress line before the process
    /// ends as the signal ends it (the shell's prompt then starts on a clean line, and the exit
    /// status still says "interrupted"). What the push wrote is on the server and its record in
    /// the store is at most a batch behind, which the next sync reads back without duplicates.
    private static func clearProgressLineOnInterrupt() {
        for number in endingSignals {
            signal(number) { number in
                // Only async-signal-safe calls here: write(2), signal(2), raise(3).
                let clear: StaticString = "\r\u{1B}[K"
                _ = write(STDERR_FILENO, clear.utf8Start, clear.utf8CodeUnitCount)
                signal(number, SIG_DFL)
                raise(number)
            }
        }
    }

    /// The signals that end a sync whose progress line is on the terminal.
    private static let endingSignals = [SIGINT, SIGTERM, SIGHUP]

    /// The one line for a failed exchange: what went wrong, and what to do.
    static func userError(_ error: CalDAVError, account: String) -> TaskWidgetError {
        // The client's sentences end in a period and may carry their own advice after a `;`.
        let message = String(error.message.split(separator: ";", maxSplits: 1).first ?? "").asClause
        let advice =
            switch error.code {
            case .authenticationFailed: "check the account's user and password"
            case .tlsFailed: "check the server's certificate (it must be trusted by the system's CA store)"
            case .notTLS: "check the account's url: http:// for a server without TLS, or the port of its https"
            case .unknownHost, .notCalDAV, .invalidURL, .notFound, .badRedirect: "check the account's url"
            default: error.code.isTransient ? "try again later (the next sync goes on from where this one stopped)" : "check the server and the account"
            }
        return TaskWidgetError(
            error.code.isTransient ? .temporaryFailure : .unavailable, "sync of “\(account)”: \(message): \(advice)",
            context: "\(error.code.rawValue)\(error.status.map { " HTTP \($0)" } ?? "")", cause: error)
    }
}

extension SyncReport {
    /// `--dry-run`'s output: the summary, then per collection what would change, by short id.
    var planText: String {
        var lines = ["\(summary.replacingOccurrences(of: "\(account): ", with: "\(account) (dry run, nothing changed): "))"]
        for collection in collections {
            var parts: [String] = []
            func add(_ label: String, _ ids: [String]) {
                guard !ids.isEmpty else { return }
                let shown = ids.prefix(10).joined(separator: " ") + (ids.count > 10 ? " …" : "")
                parts.append("\(label) \(ids.count): \(shown)")
            }
            add("pull", collection.pulled)
            add("push", collection.pushed)
            add("delete here", collection.deletedLocally)
            add("delete there", collection.deletedRemotely)
            add("move to another list", collection.movedAway)
            if collection.isListDeletedHere {
                parts.append(collection.holdsOnlyTasks ? "delete the collection once empty (its list was deleted here)" : "keep the collection (it may hold events)")
            }
            // A new list's collection is made even with no task in it: "no change" it said (helper-120).
            if collection.isNew && parts.isEmpty { parts.append("make the collection") }
            let header = "  \(collection.name) \(collection.isNew ? "(new collection)" : collection.href)\(collection.isMadeAgain ? " (deleted on the server; made again)" : collection.isDeletedThere ? " (deleted on the server)" : "")"
            lines.append(parts.isEmpty ? "\(header): no change" : "\(header): \(parts.joined(separator: "; "))")
        }
        return lines.joined(separator: "\n")
    }
}
