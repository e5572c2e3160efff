public import Foundation
import Glibc
import TaskWidgetCore

/// A file in the config folder that holds a secret on its first line (serve's token, a sync
/// account's password): only its owner may read it, and messages name the file, never the secret.
public enum SecretFile {
    /// The first line of the file at `path`, without its line break. `what` names the file in
    /// errors ("the token file"). What is not a file, a file that others may read, and one whose
    /// first line is empty or blank are refused.
    public static func read(_ path: String, what: String) throws -> String {
        try requirePrivate(path, what: what)
        guard let data = FileManager.default.contents(atPath: path) else {
            throw TaskWidgetError(.badConfig, "cannot read \(what) \(path): check its permissions", context: "\(what) unreadable")
        }
        let secret = firstLine(of: data)
        guard !secret.allSatisfy(\.isWhitespace) else {
            throw TaskWidgetError(.badConfig, "\(what) \(path) is empty: put the secret on its first line", context: "\(what) empty")
        }
        return secret
    }

    /// Refuses what is not a file at `path`, a file another user owns, one whose group or others
    /// have any permission, and one that others could replace (a link of theirs, a folder they
    /// may change), as config.toml is: the token was the first line of any file another user's
    /// link led to, such as a private key (helper-117).
    public static func requirePrivate(_ path: String, what: String) throws {
        var status = stat()
        guard stat(path, &status) == 0 else {
            throw TaskWidgetError(
                .badConfig, "cannot read \(what) \(path): check that it exists", context: "\(what) missing", cause: SystemError(errno))
        }
        guard status.st_mode & S_IFMT == S_IFREG else {
            throw TaskWidgetError(.badConfig, "\(what) \(path) is not a file: give the path of the file", context: "\(what) not a file")
        }
        // Before the mode: `chmod 600` is no advice for a file of another user.
        guard status.isOwnedByUserOrRoot else {
            throw TaskWidgetError(
                .badConfig, "\(what) \(path) belongs to another user: give the path of a file of yours", context: "\(what) owner \(status.st_uid)")
        }
        guard status.st_mode & 0o077 == 0 else {
            let risk = status.st_mode & 0o044 != 0 ? "can be read by others" : status.st_mode & 0o022 != 0 ? "can be changed by others" : "has permissions for others"
            // `chmod 600` of a link changes what it leads to: /etc/passwd, for a root that took
            // the advice (helper-153). The file is named, and no chmod is advised.
            var link = stat()
            if lstat(path, &link) == 0, link.st_mode & S_IFMT == S_IFLNK {
                let target = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
                throw TaskWidgetError(
                    .badConfig, "\(what) \(path) is a link to \(target), which \(risk): give the path of a file that only you can read",
                    context: "\(what) link mode \(String(status.st_mode & 0o777, radix: 8))")
            }
            throw TaskWidgetError(
                .badConfig, "\(what) \(path) \(risk): run `chmod 600 \(path)`",
                context: "\(what) mode \(String(status.st_mode & 0o777, radix: 8))")
        }
        try InputFile.refuseIfOthersCanChange(
            path, status: status, why: "whoever can replace it chooses the secret", code: .badConfig, context: "secret file")
    }

    /// The secret in the file at `path`, made first when there is no file, or an empty one (as
    /// `: > file; chmod 600 file` leaves it: it was refused as empty, helper-112): a new random
    /// one, written atomically, readable by its owner only. Says whether it was made. The folder
    /// is made when `makesFolder` (taskwidget's own config folder); a folder the user named must
    /// exist, so that a typo does not leave new folders behind.
    public static func readOrCreate(_ path: String, what: String, makesFolder: Bool) throws -> (secret: String, isNew: Bool) {
        if FileManager.default.fileExists(atPath: path) {
            try requirePrivate(path, what: what)
            let isBlank = FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self).allSatisfy(\.isWhitespace) } ?? false
            if !isBlank { return (try read(path, what: what), false) }
        }
        let secret = randomSecret()
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent()
        if makesFolder {
            try AtomicFile.makeFolder(folder.path, permissions: 0o700)
        } else if !FileManager.default.fileExists(atPath: folder.path) {
            throw TaskWidgetError(.invalidInput, "the folder \(folder.path) for \(what) does not exist: create it first", context: "\(what) folder missing")
        }
        try AtomicFile.write(Data((secret + "\n").utf8), to: url, permissions: 0o600)
        // Checked as its readers check it: one made in a folder others may change was printed,
        // and serve then refused it (helper-153).
        do {
            try requirePrivate(path, what: what)
        } catch {
            unlink(path)
            throw error
        }
        SavedChanges.note()
        return (secret, true)
    }

    /// 32 random bytes as base64url without padding (43 characters): safe in a header, a query
    /// string and a TOML string.
    public static func randomSecret() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
        return Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    /// The first line of `data`, without its line break (`\n`, `\r\n` or `\r`; no other
    /// character ends it).
    public static func firstLine(of data: Data) -> String {
        // By scalar: `\r\n` is one Character, so a split of Characters on `\n` never split it.
        let scalars = String(decoding: data, as: UTF8.self).unicodeScalars
        return String(scalars[..<(scalars.firstIndex { $0 == "\n" || $0 == "\r" } ?? scalars.endIndex)])
    }
}
