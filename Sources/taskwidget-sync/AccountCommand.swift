import ArgumentParser
import Foundation
import TaskWidgetCLI
import TaskWidgetConfig
import TaskWidgetCore
import TaskWidgetFormats
import TaskWidgetStore
import TaskWidgetSync

/// `taskwidget sync account add|ls|rm|forget`: the accounts in config.toml, edited in place, and what the
/// store synced with them.
struct AccountCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "account", abstract: "Add, list, remove and forget CalDAV accounts (in config.toml).",
        subcommands: [Add.self, Ls.self, Rm.self, Forget.self])

    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add", abstract: "Add an account: a [sync.accounts.NAME] table at the end of config.toml.",
            discussion: """
                The password comes from a command's output (a password manager) or from a file \
                that only you can read (chmod 600); it is never written to the configuration. \
                --replace changes an account of that name where it is (a new password command, \
                say): it keeps its place in the order, so the first account still receives new \
                lists and Inbox tasks, and its url, user, password and inbox stay unless given.

                Examples:
                  taskwidget sync account add home \\
                      --url https://cloud.example.com/remote.php/dav --user alice \\
                      --password-command "pass show nextcloud/alice" --inbox Tasks
                  taskwidget sync account add radicale \\
                      --url http://127.0.0.1:5232/ --user alice \\
                      --password-file ~/.config/taskwidget/radicale.password
                """)
        @OptionGroup var options: SyncGlobalOptions
        @Argument(help: "The account's name, e.g. home.") var name: String
        @Option(help: ArgumentHelp("The server, principal or calendar-home URL; a calendar's URL syncs that calendar only (with --replace, left out: the account's stays).", valueName: "url")) var url: String?
        @Option(help: ArgumentHelp("The user name.", valueName: "user")) var user: String?
        @Option(help: ArgumentHelp("A command that prints the password (run with /bin/sh).", valueName: "cmd")) var passwordCommand: String?
        @Option(help: ArgumentHelp("A file holding the password, readable by you only.", valueName: "file"), completion: .file()) var passwordFile: String?
        @Option(help: ArgumentHelp("The collection (its name) that holds the Inbox's tasks.", valueName: "collection")) var inbox: String?
        @Flag(help: "Change the account of that name where it is in config.toml (what is not given stays).") var replace = false

        func validate() throws {
            guard passwordCommand == nil || passwordFile == nil else {
                throw ValidationError("give --password-command or --password-file, not both")
            }
            guard url != nil || replace else {
                throw ValidationError("missing --url <url>: the address of the CalDAV server, e.g. https://dav.example.com/")
            }
            if let url { try Self.validate(url: url) }
            guard !name.isEmpty, !name.unicodeScalars.contains(where: \.isControlOrLineBreak) else {
                throw ValidationError("the account's name must be one line of text")
            }
            if let inbox, inbox.trimmingWhitespace.isEmpty {
                throw ValidationError("--inbox needs the name of the collection that holds the Inbox, or leave it out")
            }
        }

        /// Refuses a URL sync could not use.
        static func validate(url: String) throws {
            guard let parsed = URL(string: url), ["https", "http"].contains(parsed.scheme?.lowercased()), parsed.host != nil else {
                throw ValidationError("--url must be an http or https address, e.g. https://dav.example.com/")
            }
            // No server listens there: every sync said "try again later" (75), which a timer never reports.
            if let port = parsed.port, !(1...65535).contains(port) {
                throw ValidationError("--url has the port \(port), which no server can listen on: give one from 1 to 65535, or none")
            }
            // A task's own address, copied from a client: discovery then found the whole calendar
            // home above it, and synced every calendar there (helper-75).
            guard parsed.pathExtension.lowercased() != "ics" else {
                throw ValidationError(
                    "--url names one calendar object (…/\(parsed.lastPathComponent.sanitizedForMessage)): give its calendar's address, without that last part, or the server's")
            }
            // It would be kept in config.toml, listed by `account ls`, and not sent.
            guard parsed.user == nil, parsed.password == nil else {
                throw ValidationError("--url must not hold a user name or password (…@host): give them with --user and --password-file or --password-command")
            }
        }

        func run() throws {
            let path = try options.existingConfigPath()
            // --replace without --url keeps the account's. Without one of that name there is no url,
            // and add(replacing:) refuses it, naming the accounts there are, before any is written.
            let url = try url ?? options.configuration().syncAccounts.first(where: { $0.name == name })?.url ?? ""
            var file = passwordFile
            if let given = file {
                let given = try PathText.expandingHome(given, in: "--password-file", environment: ProcessInfo.processInfo.environment)
                let absolute = URL(fileURLWithPath: given).standardizedFileURL.path
                _ = try SyncAccount(name: name, url: url, passwordFile: absolute).credentialsCheckingFile()
                file = absolute
            }
            let account = SyncAccount(name: name, url: url, user: user, passwordCommand: passwordCommand, passwordFile: file, inbox: inbox)
            try SyncAccountsFile.add(account, toConfigAt: path, home: ProcessInfo.processInfo.environment["HOME"], replacing: replace)
            // A config file of its own goes with the command (its advice failed without it, helper-99).
            // And a store of its own (helper-173).
            let config = options.config == nil ? "" : " --config \(path.shellQuoted)"
            let store = options.global.store == nil ? "" : options.global.repeatedStore(in: try options.context())
            print("\(replace ? "Changed" : "Added") the account \(name) \(replace ? "in" : "to") \(path). Try: taskwidget sync --account \(name.shellQuoted)\(store)\(config) --dry-run")
            if let note = account.clearTextPasswordNote { writeToStandardError("taskwidget: \(note.removingControlCharacters)\n") }
        }
    }

    struct Ls: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "ls", abstract: "List the accounts (never their passwords).", discussion: "Example: taskwidget sync account ls")
        @OptionGroup var options: SyncGlobalOptions

        /// `url` with a password in it (written into config.toml by hand) shown as `***`.
        static func withoutPassword(_ url: String) -> String {
            guard var components = URLComponents(string: url), components.password != nil else { return url }
            components.password = "***"
            return components.string ?? url
        }

        func run() throws {
            // Without a home folder there is no file to list, nor to add to (it advised `add`: helper-110).
            _ = try options.existingConfigPath()
            // The accounts need no store: a file named with --config lists without a home folder.
            let configuration = try options.configuration()
            if configuration.syncAccounts.isEmpty {
                print("No sync accounts. Add one with `taskwidget sync account add NAME --url URL --user USER --password-command CMD`.")
            } else {
                let rows = configuration.syncAccounts.map { account in
                    [
                        account.name, Self.withoutPassword(account.url), account.user ?? "-",
                        account.passwordCommand != nil ? "command" : account.passwordFile.map { "file \($0)" } ?? "none",
                        account.inbox ?? "-",
                    ]
                }
                print(Listing.table(header: ["NAME", "URL", "USER", "PASSWORD", "INBOX"], rows: rows), terminator: "")
            }
            // The accounts are listed whatever the store says; a store that cannot be read says so.
            let unconfigured: [UnconfiguredAccountState]
            do {
                unconfigured = try UnconfiguredAccountState.find(in: options.context(), configured: configuration.syncAccounts)
            } catch let error as TaskWidgetError {
                CommandRunner.report(TaskWidgetError(error.code, "note: cannot read what the store keeps for other accounts: \(error.message)"))
                return
            }
            for unconfigured in unconfigured {
                let held = unconfigured.held
                print(
                    "Not in config.toml: \(unconfigured.account.removingControlCharacters), whose \(held.words) here "
                        + "\(held.agreeing("go", "goes")) to no other account until `\(unconfigured.forgetCommand.removingControlCharacters)`.")
            }
        }
    }

    struct Rm: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "rm", abstract: "Remove an account's table from config.toml (its tasks stay in the store).",
            discussion: """
                The store keeps what it synced with the account: added again with the same name \
                and server, it syncs on from there, and its lists go to no other account meanwhile. \
                `taskwidget sync account forget NAME` forgets it.

                Example: taskwidget sync account rm home
                """)
        @OptionGroup var options: SyncGlobalOptions
        @Argument(help: "The account's name.") var name: String

        func run() throws {
            let path = try options.existingConfigPath()
            try SyncAccountsFile.remove(named: name, fromConfigAt: path, home: ProcessInfo.processInfo.environment["HOME"])
            print("Removed the account \(name) from \(path)")
            // What the store keeps for it, when it can be read: the removal is done either way.
            guard let context = try? options.context(),
                let kept = try? UnconfiguredAccountState.find(in: context, configured: []).first(where: { $0.account == name })
            else { return }
            print(
                "The store keeps its \(kept.held.words) for it, and no other account takes \(kept.held.agreeing("them", "it")): "
                    + "add it again to sync on, or run `\(kept.forgetCommand)` to let \(kept.held.agreeing("them", "it")) go.")
        }
    }

    struct Forget: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "forget", abstract: "Forget what this store synced with an account, for its next sync to start anew.",
            discussion: """
                For an account moved to a server that does not hold its tasks yet: sync refuses \
                the new URL, since what it synced would read as deleted there. Forgotten, the \
                account's next sync is a first sync with the URL it names then: it sends the \
                account's lists and tasks there (no other account takes them meanwhile) and takes \
                what the server holds. Deletions made on either side since the last sync are not \
                carried over. The lists and tasks stay here, and config.toml is not changed. An \
                account that config.toml no longer names leaves its lists and tasks to this \
                machine.

                Example: taskwidget sync account forget home
                """)
        @OptionGroup var options: SyncGlobalOptions
        @Argument(help: "The account's name.") var name: String

        func run() throws {
            let context = try options.context()
            guard FileManager.default.fileExists(atPath: context.location.path) else {
                print("There is no store at \(context.location.path): nothing to forget.")
                return
            }
            let isConfigured = try context.configuration(using: .sync).syncAccounts.contains { $0.name == name }
            let store = try context.storeForWriting()
            // Under the sync lock: a sync of the account running now would write its state again.
            let lock = try SyncLock(store: context.location)
            defer { lock.release() }
            guard let kept = try store.forgetSyncState(account: name, keepingClaims: isConfigured) else {
                // State is kept by the exact name: name the ones there are, for a typo or another case.
                let names = try store.accountsWithSyncState().map(\.account.removingControlCharacters)
                // Neither configured nor synced: a typo, an error as for `account rm` (it exited 0).
                guard isConfigured else {
                    throw TaskWidgetError(
                        .notFound,
                        "this store has synced nothing with an account named “\(name.sanitizedForMessage)”, and config.toml names none: "
                            + (names.isEmpty ? "there is nothing to forget" : "it keeps what it synced with \(names.joined(separator: ", "))"))
                }
                print(
                    "This store has synced nothing with an account named \(name): nothing to forget"
                        + (names.isEmpty ? "." : " (it keeps what it synced with \(names.joined(separator: ", "))).")
                )
                return
            }
            let held = HeldHere(lists: kept.lists, tasks: kept.tasks)
            let left = held.isEmpty ? "it held \(held.words) here" : "its \(held.words) \(held.agreeing("stay", "stays")) here"
            if isConfigured {
                let sent = held.isEmpty ? "this store's tasks" : held.agreeing("them", "it")
                print(
                    "Forgot what this store synced with the account \(name); \(left)\(held.isEmpty ? "" : ", kept for it"). "
                        + "Its next sync is a first sync: it sends \(sent) to the server and takes what is there.")
            } else {
                print(
                    "Forgot what this store synced with the account \(name), which the configuration does not name; "
                        + "\(left)\(held.isEmpty ? "" : " as this machine's own").")
            }
        }
    }
}
