import Foundation
import TaskWidgetCore

/// `[sync.accounts.NAME]`: a CalDAV account that `taskwidget sync` brings in and out.
///
/// ```toml
/// [sync.accounts.home]
/// url = "https://dav.example.com/remote.php/dav"
/// user = "alice"
/// password_command = "pass show dav/alice"
/// inbox = "Tasks"
/// ```
public struct SyncAccount: Sendable, Equatable {
    public var name: String
    /// A principal, calendar-home or server URL (discovery starts there).
    public var url: String
    public var user: String?
    /// A command whose standard output is the password.
    public var passwordCommand: String?
    /// A file holding the password, readable by its owner only.
    public var passwordFile: String?
    /// The collection that holds the Inbox's tasks.
    public var inbox: String?

    public init(
        name: String, url: String, user: String? = nil, passwordCommand: String? = nil, passwordFile: String? = nil,
        inbox: String? = nil
    ) {
        self.name = name
        self.url = url
        self.user = user
        self.passwordCommand = passwordCommand
        self.passwordFile = passwordFile
        self.inbox = inbox
    }

    /// Said at `account add` and at every sync of an account with a password over `http://` to
    /// another machine than this one, where anyone on the way reads it (helper-117); `nil` for
    /// https, loopback, or no password.
    public var clearTextPasswordNote: String? {
        guard passwordCommand != nil || passwordFile != nil, let parsed = URL(string: url), parsed.scheme?.lowercased() == "http",
            let host = parsed.host?.lowercased(), !(host == "localhost" || host == "::1" || host.hasPrefix("127."))
        else { return nil }
        return "note: the account “\(name)” sends its password unencrypted (http://) to \(host): use https:// if the server offers it"
    }

    init(reader: ConfigReader) throws {
        try reader.allowKeys(["url", "user", "password_command", "password_file", "inbox"])
        guard let url = try reader.string("url") else { throw reader.error(nil, "an account needs a url") }
        let (command, file) = (try reader.string("password_command"), try reader.path("password_file"))
        if command != nil && file != nil {
            throw reader.error("password_file", "give password_command or password_file, not both")
        }
        // An Inbox of no name is none, as sync reads it: new Inbox tasks go to an account that has one.
        let inbox = try reader.string("inbox").flatMap { $0.trimmingWhitespace.isEmpty ? nil : $0 }
        self.init(
            name: reader.keyPath.last ?? "", url: url, user: try reader.string("user"), passwordCommand: command, passwordFile: file,
            inbox: inbox)
    }
}
