import ArgumentParser
import Foundation
import TaskWidgetCLI
import TaskWidgetConfig
import TaskWidgetCore
import TaskWidgetFormats
import TaskWidgetStore
import TaskWidgetSync

/// `taskwidget sync account add|ls|rm`: the accounts in config.toml, edited in place.
struct AccountCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "account", abstract: "Add, list and remove CalDAV accounts (in config.toml).",
        subcommands: [Add.self, Ls.self, Rm.self])

    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add", abstract: "Add an account: a [sync.accounts.NAME] table at the end of config.toml.",
            discussion: """
                The password comes from a command's output (a password manager) or from a file \
                that only you can read (chmod 600); it is never written to the configuration.

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
        @Option(help: ArgumentHelp("The server, principal or calendar-home URL; a calendar's URL syncs that calendar only.", valueName: "url")) var url: String
        @Option(help: ArgumentHelp("The user name.", valueName: "user")) var user: String?
        @Option(help: ArgumentHelp("A command that prints the password (run with /bin/sh).", valueName: "cmd")) var passwordCommand: String?
        @Option(help: ArgumentHelp("A file holding the password, readable by you only.", valueName: "file"), completion: .file()) var passwordFile: String?
        @Option(help: ArgumentHelp("The collection (its name) that holds the Inbox's tasks.", valueName: "collection")) var inbox: String?

        func validate() throws {
            guard passwordCommand == nil || passwordFile == nil else {
                throw ValidationError("give --password-command or --password-file, not both")
            }
            guard let parsed = URL(string: url), parsed.scheme == "https" || parsed.scheme == "http", parsed.host != nil else {
                throw ValidationError("--url must be an http or https address, e.g. https://dav.example.com/")
            }
            guard !name.isEmpty, !name.unicodeScalars.contains(where: \.isControlOrLineBreak) else {
                throw ValidationError("the account's name must be one line of text")
            }
        }

        func run() throws {
            guard let path = options.configPath else {
                throw TaskWidgetError(.badConfig, "there is no home folder for config.toml: set HOME or pass --config")
            }
            var file = passwordFile
            if let given = file {
                let absolute = URL(fileURLWithPath: given).standardizedFileURL.path
                _ = try SyncAccount(name: name, url: url, passwordFile: absolute).credentialsCheckingFile()
                file = absolute
            }
            let account = SyncAccount(name: name, url: url, user: user, passwordCommand: passwordCommand, passwordFile: file, inbox: inbox)
            try SyncAccountsFile.add(account, toConfigAt: path, home: ProcessInfo.processInfo.environment["HOME"])
            print("Added the account \(name) to \(path). Try: taskwidget sync --account \(name.shellQuoted) --dry-run")
        }
    }

    struct Ls: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "ls", abstract: "List the accounts (never their passwords).", discussion: "Example: taskwidget sync account ls")
        @OptionGroup var options: SyncGlobalOptions

        func run() throws {
            let configuration = try options.configuration()
            guard !configuration.syncAccounts.isEmpty else {
                print("No sync accounts. Add one with `taskwidget sync account add NAME --url URL`.")
                return
            }
            let rows = configuration.syncAccounts.map { account in
                [
                    account.name, account.url, account.user ?? "-",
                    account.passwordCommand != nil ? "command" : account.passwordFile.map { "file \($0)" } ?? "none",
                    account.inbox ?? "-",
                ]
            }
            print(Listing.table(header: ["NAME", "URL", "USER", "PASSWORD", "INBOX"], rows: rows), terminator: "")
        }
    }

    struct Rm: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "rm", abstract: "Remove an account's table from config.toml (its tasks stay in the store).",
            discussion: """
                The store forgets what it synced with the account; its lists and tasks stay, as if \
                made here. Adding the account again later syncs them as a first sync does, with \
                the server the account then names.

                Example: taskwidget sync account rm home
                """)
        @OptionGroup var options: SyncGlobalOptions
        @Argument(help: "The account's name.") var name: String

        func run() throws {
            guard let path = options.configPath else {
                throw TaskWidgetError(.badConfig, "there is no home folder for config.toml: set HOME or pass --config")
            }
            let home = ProcessInfo.processInfo.environment["HOME"]
            try SyncAccountsFile.checkRemovable(named: name, fromConfigAt: path, home: home)
            let context = try options.context()
            // Under the sync lock: a sync of the account running now would write its state again.
            let storeExists = FileManager.default.fileExists(atPath: context.location.path)
            let lock = storeExists ? try SyncLock(store: context.location) : nil
            defer { lock?.release() }
            let kept = storeExists ? try context.storeForWriting().forgetSyncState(account: name) : nil
            try SyncAccountsFile.remove(named: name, fromConfigAt: path, home: home)
            print("Removed the account \(name) from \(path)")
            if let kept {
                print(
                    "This store forgot its links to the account's server; the \(counted(kept.lists, "list")) and "
                        + "\(counted(kept.tasks, "task")) it synced stay here, as if made here.")
            }
        }
    }
}
