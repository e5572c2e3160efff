import Foundation
import Testing

@testable import TaskWidgetConfig
@testable import TaskWidgetCore
@testable import TaskWidgetTestSupport

/// config.toml: every section read into its settings, and a bad file refused with its line.
@Suite struct ConfigurationTests {
    static let full = """
        store = "~/tasks.sqlite"

        [views.work]
        list = "Work"
        active = true

        [views.soon]
        due_within = "2d"

        [views.inbox]
        inbox = true

        [serve]
        listen = "0.0.0.0:8787"
        token_file = "~/.config/taskwidget/serve.token"
        view = "work"

        [sync.accounts.home]
        url = "https://dav.example.com/"
        user = "alice"
        password_command = "pass show dav"
        inbox = "Tasks"

        [notify]
        missed_within = "12h"
        at_due = true
        """

    @Test func everySectionIsRead() throws {
        let configuration = try Configuration.parse(Self.full, path: "config.toml", home: "/home/u")
        #expect(configuration.store == "/home/u/tasks.sqlite")
        #expect(configuration.views == [
            View(name: "work", scope: .list("Work"), activeOnly: true), View(name: "soon", dueWithin: 172_800),
            View(name: "inbox", scope: .inbox),
        ])
        #expect(configuration.serve == ServeSettings(listen: "0.0.0.0:8787", tokenFile: "/home/u/.config/taskwidget/serve.token", view: "work"))
        #expect(configuration.syncAccounts == [
            SyncAccount(name: "home", url: "https://dav.example.com/", user: "alice", passwordCommand: "pass show dav", inbox: "Tasks")
        ])
        #expect(configuration.notify == NotifySettings(missedWithin: 43_200, atDue: true))
        #expect(try configuration.view(named: "WORK").scope == .list("Work"))
        expectError(.notFound) { try configuration.view(named: "play") }
    }

    @Test func aMissingFileIsTheDefaults() throws {
        let configuration = try Configuration.load(path: "/nonexistent/config.toml", environment: [:])
        #expect(configuration.path == nil && configuration.views.isEmpty && configuration.notify == NotifySettings())
    }

    @Test(arguments: [
        ("[views.work]\nlst = \"Work\"\n", "config.toml:2: views.work.lst: unknown key"),
        ("[views.work]\nlist = 3\n", "config.toml:2: views.work.list: expected text in quotes"),
        ("\n\n[views.soon]\ndue_within = \"soon\"\n", "config.toml:4: views.soon.due_within: expected a duration"),
        ("[views.both]\nlist = \"A\"\ninbox = true\n", "config.toml:3: views.both.inbox: a view shows a list or the Inbox"),
        ("[views\nlist = 1\n", "config.toml:1:"),
        ("colour = \"red\"\n", "config.toml:1: colour: unknown key"),
        ("[sync.accounts.home]\nuser = \"a\"\n", "config.toml:1: sync.accounts.home: an account needs a url"),
    ])
    func aBadFileSaysWhereAndWhat(text: String, message: String) {
        let error = expectError(.badConfig) { try Configuration.parse(text, path: "config.toml") }
        #expect(error?.message.hasPrefix(message) == true, "\(error?.message ?? "")")
        #expect(error?.message.contains("\n") == false)
    }
}
