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
            TaskView(name: "work", scope: .list("Work"), activeOnly: true), TaskView(name: "soon", dueWithin: 172_800),
            TaskView(name: "inbox", scope: .inbox),
        ])
        #expect(configuration.serve == ServeSettings(listen: "0.0.0.0:8787", tokenFile: "/home/u/.config/taskwidget/serve.token", view: "work"))
        #expect(configuration.syncAccounts == [
            SyncAccount(name: "home", url: "https://dav.example.com/", user: "alice", passwordCommand: "pass show dav", inbox: "Tasks")
        ])
        #expect(configuration.notify == NotifySettings(missedWithin: 43_200, atDue: true))
        #expect(try configuration.view(named: "WORK").scope == .list("Work"))
        expectError(.notFound) { try configuration.view(named: "play") }
    }

    /// An Inbox of no name is none (sync then sends new Inbox tasks to an account that has one),
    /// and no reason to refuse the file, which every command reads.
    @Test func aBlankInboxIsNone() throws {
        let configuration = try Configuration.parse("[sync.accounts.home]\nurl = \"https://d.example/\"\ninbox = \" \"\n", path: "config.toml")
        #expect(configuration.syncAccounts.map(\.inbox) == [nil])
    }

    /// Accounts come in the file's order, whatever their names: the first decides where new lists
    /// and Inbox tasks go. Names with a quote, a dot or an escape came last (helper-75).
    @Test func accountsComeInTheFilesOrderWhateverTheirNames() throws {
        let names = ["zeta", "q\"x", "a.b", "b c", "ümlaut", "tab\there", "alpha"]
        let headers = ["zeta", #""q\"x""#, #""a.b""#, #"'b c'"#, #""\u00fcmlaut""#, #""tab\there""#, " alpha "]
        let text = headers.map { "[sync.accounts.\($0)]  # \($0)\nurl = \"https://d.example/\"\n" }.joined(separator: "\n")
        #expect(try Configuration.parse(text, path: "config.toml").syncAccounts.map(\.name) == names)
    }

    @Test func watchNamesTheViewsToCycleThroughAndWhatClicksDo() throws {
        let text = Self.full + "\n[watch]\nviews = [\"soon\", \"all\", \"Work\"]\nleft_click = \"snooze\"\nright_click = \"none\"\n"
        let configuration = try Configuration.parse(text, path: "config.toml", home: "/home/u")
        #expect(configuration.watch == WatchSettings(views: ["soon", "all", "Work"], leftClick: .snooze, middleClick: .start, rightClick: .none))
        #expect(try Configuration.parse("", path: "config.toml").watch == WatchSettings())
        // `all` is all tasks, unless a view takes the name.
        #expect(try configuration.view(named: "all") == TaskView())
        let own = try Configuration.parse("[views.all]\ninbox = true\n", path: "config.toml")
        #expect(try own.view(named: "ALL") == TaskView(name: "all", scope: .inbox))
    }

    /// The syntax mistakes a newcomer makes get advice, where TOML++'s words were "Error while
    /// parsing boolean: expected 'true', saw 'T'" for `list = Travel` (helper-129).
    @Test(arguments: [
        ("list = Travel", "config.toml:2:8: the value of list is not in quotes: write text as list = \"Travel\": fix the file"),
        ("list = work  # mine", "config.toml:2:8: the value of list is not in quotes: write text as list = \"work\": fix the file"),
        ("due_within = 2d", "config.toml:2:15: the value of due_within is not in quotes: write text as due_within = \"2d\": fix the file"),
        ("active = yes", "config.toml:2:10: the value of active is yes: TOML says yes and no as true and false: fix the file"),
        ("active = True", "config.toml:2:10: the value of active is True: TOML writes it in lower case, active = true: fix the file"),
        ("list = \"Travel", "config.toml:2:15: a text in quotes is not closed on its line: end it with the quote it starts with: fix the file"),
        ("list = \"a\"\n[views.work]", "config.toml:3:1: the table [views.work] is in the file twice: keep one, with all of its keys: fix the file"),
        ("list = \"a\"\n[views.\"work\"]", "config.toml:3:1: the table [views.\"work\"] is in the file twice: keep one, with all of its keys: fix the file"),
        ("list \"Work\"", "config.toml:2:6: Error while parsing key-value pair: expected '=', saw '\"': fix the file"),
        // A name beyond ASCII, bare: TOML++'s "expected bare key starting character" (helper-169).
        ("[views.été]", "config.toml:2:8: a name with letters beyond ASCII or spaces goes in quotes: [views.\"été\"]: fix the file"),
        ("[views.Café Bar]", "config.toml:2:11: a name with letters beyond ASCII or spaces goes in quotes: [views.\"Café Bar\"]: fix the file"),
        ("été = 1", "config.toml:2:1: a name with letters beyond ASCII or spaces goes in quotes: \"été\" = …: fix the file"),
    ])
    func aSyntaxMistakeIsSaidInPlainWords(line: String, message: String) throws {
        let error = #expect(throws: TaskWidgetError.self) { try Configuration.parse("[views.work]\n\(line)\n", path: "config.toml") }
        #expect(error?.message == message)
    }

    /// A run that uses some tables only keeps the errors of the others (notify, a service, stopped
    /// for good on a typo in a view, helper-151); the tables it uses and `store` stay strict.
    @Test func anErrorInATableARunDoesNotUseIsKeptNotThrown() throws {
        let text = "store = \"/s.sqlite\"\n[views.home]\nlsit = \"Home\"\n[sync.accounts.a]\nurl = 3\n[notify]\nat_due = true\n"
        let configuration = try Configuration.parse(text, path: "config.toml", using: .notify)
        #expect(configuration.store == "/s.sqlite" && configuration.notify.atDue == true && configuration.views.isEmpty)
        #expect(configuration.problemsLeftAside.map(\.error.message) == [
            "config.toml:3: views.home.lsit: unknown key: did you mean “list”? (the keys here are active, due_within, inbox, list)",
            "config.toml:5: sync.accounts.a.url: expected text in quotes",
        ])
        #expect(throws: TaskWidgetError.self) { try Configuration.parse(text, path: "config.toml") }
        #expect(throws: TaskWidgetError.self) { try Configuration.parse(text, path: "config.toml", using: .views) }
        #expect(throws: TaskWidgetError.self) { try Configuration.parse("stor = \"/s\"\n", path: "config.toml", using: .notify) }
        #expect(throws: TaskWidgetError.self) { try Configuration.parse("[notify]\nat_due = 1\n", path: "config.toml", using: .notify) }
        // What a run uses after all is checked then.
        #expect(try configuration.checked(for: .notify).notify.atDue == true)
        #expect(throws: TaskWidgetError.self) { try configuration.checked(for: .views) }
        #expect(throws: TaskWidgetError.self) { try configuration.checked(for: .watch) }
        #expect(throws: TaskWidgetError.self) { try configuration.checked(for: .sync) }
        // watch's views are names of views: they are read with it.
        #expect(throws: TaskWidgetError.self) { try Configuration.parse(text + "[watch]\nviews = [\"home\"]\n", path: "config.toml", using: .watch) }
    }

    @Test func anUnknownViewListsTheViewsAndTheFile() throws {
        let configuration = try Configuration.parse(Self.full, path: "/home/u/.config/taskwidget/config.toml", home: "/home/u")
        let error = expectError(.notFound) { try configuration.view(named: "play") }
        #expect(error?.message == "no view is named “play”: the views are work, soon, inbox, all (defined in /home/u/.config/taskwidget/config.toml)")
        let none = expectError(.notFound) { try Configuration().view(named: "work") }
        #expect(none?.message == "no view is named “work”: there are none yet (define one as a [views.NAME] table in $XDG_CONFIG_HOME/taskwidget/config.toml)")
        #expect(none?.code.exitStatus == 64 && none?.logDescription.contains("work") == false)
    }

    @Test func aMissingFileIsTheDefaults() throws {
        let configuration = try Configuration.load(path: "/nonexistent/config.toml", environment: [:])
        #expect(configuration.path == nil && configuration.views.isEmpty && configuration.notify == NotifySettings())
    }

    /// A token or password file saved on Windows (`\r\n`) locked every client out: its `\r` stayed.
    @Test(arguments: ["tok+en/=\n", "tok+en/=\r\n", "tok+en/=\r\nsecond line\r\n", "tok+en/=", "tok+en/=\rold Mac"])
    func aSecretIsItsFirstLineWithoutItsLineBreak(text: String) {
        #expect(SecretFile.firstLine(of: Data(text.utf8)) == "tok+en/=")
        // Other characters that Swift counts as line breaks are part of a password.
        #expect(SecretFile.firstLine(of: Data("pass\u{0B}\u{2028}word\n".utf8)) == "pass\u{0B}\u{2028}word")
    }

    /// A secret file that another user owns, or that reaches the user's through another user's
    /// link, or that lies in a folder others may change, is refused as config.toml is: the token
    /// was the first line of whatever file such a link led to (helper-117).
    @Test(.enabled(if: geteuid() == 0 && getpwnam("nobody") != nil, "makes files of another user"))
    func aSecretFileOthersCouldChooseIsRefused() throws {
        let folder = try TemporaryFolder()
        let nobody = try #require(getpwnam("nobody")).pointee
        func secretFile(_ path: String) throws {
            try Data("a-secret-of-mine-0123456789\n".utf8).write(to: URL(fileURLWithPath: path))
            chmod(path, 0o600)
        }
        let mine = folder.path("mine.token")
        try secretFile(mine)
        #expect(try SecretFile.read(mine, what: "the token file") == "a-secret-of-mine-0123456789")

        let theirs = folder.path("theirs.token")
        try secretFile(theirs)
        chown(theirs, nobody.pw_uid, nobody.pw_gid)
        let owned = expectError(.badConfig) { try SecretFile.read(theirs, what: "the token file") }
        #expect(owned?.message == "the token file \(theirs) belongs to another user: give the path of a file of yours")

        let shared = folder.path("shared")
        try FileManager.default.createDirectory(atPath: shared, withIntermediateDirectories: false)
        chmod(shared, 0o1777)
        let planted = shared + "/planted.token"
        symlink(mine, planted)
        lchown(planted, nobody.pw_uid, nobody.pw_gid)
        let link = expectError(.badConfig) { try SecretFile.read(planted, what: "the token file") }
        #expect(link?.message.hasPrefix("\(planted) is a link that belongs to another user (whoever can replace it chooses the secret)") == true, "\(link?.message ?? "")")

        let open = folder.path("open")
        try FileManager.default.createDirectory(atPath: open, withIntermediateDirectories: false)
        chmod(open, 0o777)
        try secretFile(open + "/x.token")
        let replaceable = expectError(.badConfig) { try SecretFile.read(open + "/x.token", what: "the token file") }
        #expect(replaceable?.message.hasPrefix("the folder \(open) of \(open)/x.token can be changed by others") == true, "\(replaceable?.message ?? "")")

        // A folder of another user is said as such: `chmod go-w` was the advice (helper-120).
        let foreign = folder.path("foreign")
        try FileManager.default.createDirectory(atPath: foreign, withIntermediateDirectories: false)
        try secretFile(foreign + "/x.token")
        chown(foreign, nobody.pw_uid, nobody.pw_gid)
        let owned2 = expectError(.badConfig) { try SecretFile.read(foreign + "/x.token", what: "the token file") }
        #expect(
            owned2?.message
                == "the folder \(foreign) of \(foreign)/x.token belongs to another user, who could put another file in its place: keep it in a folder of yours")
    }

    /// `list = "Inbox"` is the Inbox, as `--list Inbox` is.
    @Test func aViewOfTheListNamedInboxIsTheInbox() throws {
        let configuration = try Configuration.parse("[views.later]\nlist = \"inbox\"\n", path: "config.toml")
        #expect(try configuration.view(named: "later").scope == .inbox)
    }

    /// A config folder under a file (`XDG_CONFIG_HOME` set to a file by mistake) holds no
    /// config.toml: the defaults, as when the folder is missing.
    @Test func aPathThroughAFileIsTheDefaults() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("config-\(UUID().uuidString)").path
        try Data().write(to: URL(fileURLWithPath: file))
        defer { try? FileManager.default.removeItem(atPath: file) }
        #expect(try Configuration.load(path: file + "/taskwidget/config.toml", environment: [:]).views.isEmpty)
    }

    /// A device whose depth or format no image can have is refused with its line when the file is
    /// read: serve listed it, then crashed at the device's first request (a `try!` on its image).
    @Test(arguments: [
        ("depth = 3\n", "depth: expected 1, 2 or 4 bits"), ("depth = 8\n", "depth: expected 1, 2 or 4 bits"),
        ("depth = 0\n", "depth: expected 1, 2 or 4 bits"), ("format = \"bmp\"\ndepth = 4\n", "depth: a BMP is 1-bit"),
    ])
    func aDeviceThatNoImageFitsIsRefusedWithItsLine(lines: String, message: String) throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("devices-\(UUID().uuidString).toml").path
        try Data("[devices.\"AA:BB:CC:DD:EE:FF\"]\napi_key = \"k\"\nfriendly_id = \"F\"\n\(lines)".utf8).write(to: URL(fileURLWithPath: file))
        defer { try? FileManager.default.removeItem(atPath: file) }
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file)
        let error = expectError(.badConfig) { try DeviceFile.load(path: file) }
        #expect(error?.message.hasPrefix("\(file):\(3 + lines.split(separator: "\n").count):") == true, "\(error?.message ?? "")")
        #expect(error?.message.contains(message) == true, "\(error?.message ?? "")")
        let fine = "[devices.\"AA:BB:CC:DD:EE:FF\"]\napi_key = \"k\"\nfriendly_id = \"F\"\ndepth = 2\n"
        try Data(fine.utf8).write(to: URL(fileURLWithPath: file))
        #expect(try DeviceFile.load(path: file).map(\.imageSpec.depth) == [2])
    }

    /// An empty click_command gave notifications an Open button that did nothing (helper-81).
    @Test(arguments: ["\"\"", "\"   \""])
    func anEmptyClickCommandIsRefusedWithItsLine(value: String) throws {
        let error = expectError(.badConfig) { try Configuration.parse("[notify]\nclick_command = \(value)\n", path: "config.toml") }
        #expect(
            error?.message == "config.toml:2: notify.click_command: expected a command, such as \"xdg-open https://tasks.example.com\", or leave click_command out",
            "\(error?.message ?? "")")
    }

    /// A folder in the file's place said "check its permissions", which are not what is wrong.
    @Test func aFolderInPlaceOfTheFileIsNamedAsOne() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("config-\(UUID().uuidString).toml").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let error = expectError(.notAFile) { try Configuration.load(path: folder, environment: [:]) }
        #expect(error?.message == "cannot read \(folder): it is a folder: give the path of a file")
        #expect(error?.code.exitStatus == 74)
        // devices.toml read as no devices, and `serve device add` then wrote over what it could not read.
        expectError(.notAFile) { try DeviceFile.load(path: folder) }
    }

    /// Whoever can change config.toml chooses the commands taskwidget runs (`click_command`,
    /// `password_command`), the server a password goes to, and the store the tasks are written to:
    /// a file, or a folder holding it, that others may change is refused, as OpenSSH refuses such
    /// a config. (First only files naming a command or a server were; a `store =` written there
    /// sent the user's new tasks to another user's store.)
    @Test(arguments: [
        "[notify]\nclick_command = \"xdg-open https://example.com\"\n",
        "[sync.accounts.home]\nurl = \"https://dav.example.com/\"\nuser = \"alice\"\npassword_command = \"pass dav\"\n",
        "store = \"/tmp/another-users.sqlite\"\n",
    ])
    func aFileOrFolderOthersMayChangeIsRefused(text: String) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("config-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = folder + "/config.toml"
        try Data(text.utf8).write(to: URL(fileURLWithPath: file))
        let why = "whoever can change it chooses the commands taskwidget runs and the store it writes"
        for mode in [0o666, 0o620, 0o602] {
            try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: file)
            let error = expectError(.badConfig) { try Configuration.load(path: file, environment: [:]) }
            #expect(error?.message == "\(file) can be changed by others (\(why)): run `chmod go-w \(file)`")
        }
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: file)
        #expect(throws: Never.self) { try Configuration.load(path: file, environment: [:]) }
        try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: folder)
        let error = expectError(.badConfig) { try Configuration.load(path: file, environment: [:]) }
        #expect(error?.message.hasPrefix("the folder \(folder) of \(file) can be changed by others") == true, "\(error?.message ?? "")")
    }

    /// TOML is UTF-8: a byte that is not was read as U+FFFD, in a comment without a word.
    @Test func aFileThatIsNotUTF8IsRefused() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("config-\(UUID().uuidString).toml").path
        defer { try? FileManager.default.removeItem(atPath: file) }
        try Data([0x23, 0x20, 0x63, 0x61, 0x66, 0xE9, 0x0A]).write(to: URL(fileURLWithPath: file))
        let error = expectError(.badConfig) { try Configuration.load(path: file, environment: [:]) }
        #expect(error?.message == "\(file) is not UTF-8 text: save it as UTF-8")
    }

    @Test(arguments: [
        ("[views.work]\nlst = \"Work\"\n", "config.toml:2: views.work.lst: unknown key"),
        ("[views.work]\nlist = 3\n", "config.toml:2: views.work.list: expected text in quotes"),
        ("\n\n[views.soon]\ndue_within = \"soon\"\n", "config.toml:4: views.soon.due_within: expected a duration"),
        ("[views.both]\nlist = \"A\"\ninbox = true\n", "config.toml:3: views.both.inbox: a view shows a list or the Inbox"),
        ("[views\nlist = 1\n", "config.toml:1:"),
        ("colour = \"red\"\n", "config.toml:1: colour: unknown key"),
        // A table's name mistyped: the line of its header, and the name meant.
        ("store = \"/t.sqlite\"\n\n[view.extra]\nlist = \"Work\"\n", "config.toml:3: view: unknown key: did you mean “views”? (the keys here are notify,"),
        ("[sync.accounts.home]\nuser = \"a\"\n", "config.toml:1: sync.accounts.home: an account needs a url"),
        ("[watch]\nviews = \"work\"\n", "config.toml:2: watch.views: expected a list of texts in quotes"),
        ("[watch]\nviews = []\n", "config.toml:2: watch.views: name at least one view"),
        ("[views.work]\nlist = \"W\"\n[watch]\nviews = [\"work\", \"play\"]\n", "config.toml:4: watch.views: item 2, “play”, is not a view"),
        // Days with hours: refused without a word of why (helper-170).
        ("[views.soon]\ndue_within = \"1d12h\"\n", "config.toml:2: views.soon.due_within: days and weeks do not combine with hours or minutes: write 1d12h as 36h"),
        ("[views.soon]\ndue_within = \"1w 30m\"\n", "config.toml:2: views.soon.due_within: days and weeks do not combine with hours or minutes: write 1w 30m as 10110m"),
        // Its keys commented out: it showed every task under its name (helper-170).
        ("[views.work]\n# list = \"Work\"\n", "config.toml:1: views.work: the view is empty: give it list, inbox, due_within or active"),
        // It lacked the file's line for serve (helper-164).
        ("[views.work]\nlist = \"W\"\n[serve]\nview = \"wrok\"\n", "config.toml:4: serve.view: “wrok” is not a view: the views are work, all"),
        ("[watch]\nmiddle_click = \"stop\"\n", "config.toml:2: watch.middle_click: expected one of done, start, snooze, none"),
        // `~/` without a HOME would be a folder named "~" wherever the command runs.
        ("store = \"~/tasks.sqlite\"\n", "config.toml:1: store: HOME is not set"),
        ("\nstore = \"tasks.sqlite\"\n", "config.toml:2: store: give the file as an absolute path"),
        // As for the other files: a relative token file was found from one folder only (helper-83).
        ("[serve]\ntoken_file = \"serve.token\"\n", "config.toml:2: serve.token_file: give the file as an absolute path or one starting with ~/"),
        ("[sync.accounts.home]\nurl = \"https://dav.example.com/\"\npassword_file = \"pw\"\n", "config.toml:3: sync.accounts.home.password_file: give the file as an absolute path"),
        // Two views whose names differ in case only: the second could never be shown.
        ("[views.Work]\nlist = \"Work\"\n\n[views.work]\nlist = \"Home\"\n", "config.toml:4: views.work: the view “Work” has this name but for capitals"),
        // A comment after a table's header, and Windows line ends (the header went unmatched).
        ("[views.work]  # my view\nlst = \"Work\"\n", "config.toml:2: views.work.lst: unknown key"),
        ("[views.a]\r\nlist = \"A\"\r\n\r\n[ views . \"work\" ]\r\nlst = \"Work\"\r\n", "config.toml:5: views.work.lst: unknown key"),
    ])
    func aBadFileSaysWhereAndWhat(text: String, message: String) {
        let error = expectError(.badConfig) { try Configuration.parse(text, path: "config.toml") }
        #expect(error?.message.hasPrefix(message) == true, "\(error?.message ?? "")")
        #expect(error?.message.contains("\n") == false)
    }
}
