/// `[serve]`: where `taskwidget serve` listens and what it shows.
///
/// ```toml
/// [serve]
/// listen = "0.0.0.0:8787"
/// token_file = "~/.config/taskwidget/serve.token"
/// view = "work"
/// ```
public struct ServeSettings: Sendable, Equatable {
    /// The address and port, `HOST:PORT`.
    public var listen: String?
    /// A file holding the token clients must present; readable by its owner only.
    public var tokenFile: String?
    /// The view shown, all tasks otherwise.
    public var view: String?

    public init(listen: String? = nil, tokenFile: String? = nil, view: String? = nil) {
        self.listen = listen
        self.tokenFile = tokenFile
        self.view = view
    }

    init(reader: ConfigReader) throws {
        try reader.allowKeys(["listen", "token_file", "view"])
        self.init(listen: try reader.string("listen"), tokenFile: try reader.path("token_file"), view: try reader.string("view"))
    }
}
