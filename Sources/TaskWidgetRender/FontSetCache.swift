internal import CPangoCairo
import Foundation
import Glibc
import TaskWidgetCore

/// The widgets' own fontconfig configuration (SPEC §9): only the font files of the families they
/// name, linked into `$XDG_CACHE_HOME/taskwidget/fonts/KEY/fonts`, with fontconfig's cache of that
/// folder beside it. Loading the system's configuration parses some forty XML files, and Pango's
/// fallback sort then ranks every installed font (hundreds) for every font it opens: two thirds of
/// a `render`'s instructions. Loading this one reads one short file and one cache.
///
/// It is made from the system's configuration the first time, and again whenever the KEY changes:
/// the families, the `FONTCONFIG_*` variables and when fontconfig's configuration folders and its
/// system and user caches last changed (installing or removing fonts runs `fc-cache`, which
/// rewrites them). A text that needs another font (emoji, another script) is drawn with the
/// system's configuration instead: ``FontSystem`` falls back to it.
enum FontSetCache {
    /// The version of the folder's contents: a set made by another version is made again.
    private static let format = 2

    /// The configuration of `families`' fonts for `environment`, made now if it is not in the cache
    /// yet; `nil` when it cannot be (no cache folder, none of the families installed), and the
    /// system's configuration is used.
    static func configuration(families: [String], environment: [String: String]) -> OpaquePointer? {
        guard let cacheHome = XDGPaths(environment: environment).cacheHome else { return nil }
        let base = XDGPaths.taskwidgetFolder(in: cacheHome) + "/fonts"
        let (setup, fonts) = keys(families: families, environment: environment, cacheHome: cacheHome)
        let folder = "\(base)/\(setup)-\(fonts)"
        let file = folder + "/fonts.conf"
        // Folders others may change (an older version made them under umask 000) are made private
        // again, or, not the user's own, not used: whoever can write them chooses the fonts read.
        for path in [cacheHome, XDGPaths.taskwidgetFolder(in: cacheHome), base] where !makePrivate(path) { return nil }
        if FileManager.default.fileExists(atPath: file) {
            if isPrivate(set: folder),
                let config = load(parsing: { config in file.withFontconfigString { FcConfigParseAndLoad(config, $0, FcFalse) } })
            {
                return config
            }
            // Made by someone else, or changed by others: made again.
            try? FileManager.default.removeItem(atPath: folder)
        }
        guard let config = make(families: families, in: folder) else { return nil }
        // The same set-up with older fonts: never read again.
        let stale = (try? FileManager.default.contentsOfDirectory(atPath: base)) ?? []
        for name in stale where name.hasPrefix(setup + "-") && name != "\(setup)-\(fonts)" {
            try? FileManager.default.removeItem(atPath: "\(base)/\(name)")
        }
        return config
    }

    /// The status of `path` (of the file a link names, with `following`), if there is one. (Glibc's
    /// `stat`, named so: CPangoCairo's headers bring their own, without TaskWidgetCore's members.)
    private static func status(of path: String, following: Bool) -> Glibc.stat? {
        var status = Glibc.stat()
        return (following ? stat(path, &status) : lstat(path, &status)) == 0 ? status : nil
    }

    /// Whether `status` is of a file of the user's (or root's) that others may not change.
    private static func isPrivate(_ status: Glibc.stat) -> Bool {
        status.isOwnedByUserOrRoot && !status.isWritableByOthers
    }

    /// Whether the set in `folder` is private: its folders, and its files but the links to font
    /// files (a link in place of one of them, or of fonts.conf, is not).
    private static func isPrivate(set folder: String) -> Bool {
        let folders = [folder, folder + "/fonts", folder + "/cache"]
        let files = [folder + "/fonts.conf"] + ((try? FileManager.default.contentsOfDirectory(atPath: folder + "/cache")) ?? []).map { folder + "/cache/" + $0 }
        return folders.allSatisfy { status(of: $0, following: true).map(isPrivate) == true }
            && files.allSatisfy { status(of: $0, following: false).map(isPrivate) == true }
    }

    /// Takes the group's and others' write permission away from `folder` (the one a link names)
    /// if it is the user's; false when it is another user's that they may change. A folder not
    /// there yet is fine.
    private static func makePrivate(_ folder: String) -> Bool {
        guard let status = status(of: folder, following: true), !isPrivate(status) else { return true }
        return status.st_uid == geteuid() && chmod(folder, status.st_mode & 0o7755) == 0
    }

    /// What the configuration depends on: the set-up (families and variables), and the fonts
    /// installed (when fontconfig's folders changed) with the folder's format, each hashed to 16
    /// hex digits.
    private static func keys(families: [String], environment: [String: String], cacheHome: String) -> (setup: String, fonts: String) {
        let variables = ["FONTCONFIG_FILE", "FONTCONFIG_PATH", "FONTCONFIG_SYSROOT"].map { environment[$0] ?? "" }
        let setup = (families + variables).joined(separator: "\n")
        var watched = ["/etc/fonts", "/etc/fonts/conf.d", "/var/cache/fontconfig", cacheHome + "/fontconfig"]
        if let file = environment["FONTCONFIG_FILE"] { watched.append(file) }
        let fonts = (["fonts.conf \(format)"] + watched.map { "\($0) \(modificationTime(of: $0))" }).joined(separator: "\n")
        return (FNV1a.hex(of: setup.utf8), FNV1a.hex(of: fonts.utf8))
    }

    private static func modificationTime(of path: String) -> String {
        var status = stat()
        guard stat(path, &status) == 0 else { return "-" }
        return "\(status.st_mtim.tv_sec).\(status.st_mtim.tv_nsec)"
    }

    /// A configuration this made, read by `parse`, with its fonts; `nil` if it has none.
    private static func load(parsing parse: (OpaquePointer) -> FcBool) -> OpaquePointer? {
        guard let config = FcConfigCreate() else { return nil }
        if parse(config) == FcTrue, FcConfigBuildFonts(config) == FcTrue, let fonts = FcConfigGetFonts(config, FcSetSystem), fonts.pointee.nfont > 0 {
            return config
        }
        FcConfigDestroy(config)
        return nil
    }

    /// Links the files of `families` (as the system's configuration finds them) into `folder`,
    /// loads the configuration, which writes fontconfig's cache of the folder, and writes its
    /// `fonts.conf` last: a folder with one is complete.
    private static func make(families: [String], in folder: String) -> OpaquePointer? {
        let files = fontFiles(of: families)
        guard !files.isEmpty else { return nil }
        let manager = FileManager.default
        do {
            // 0755 under any umask: a folder others may write would let them put in fonts.conf.
            try AtomicFile.makeFolder(folder + "/fonts")
            for (index, file) in files.enumerated() {
                let link = "\(folder)/fonts/\(index)-\(PathText.lastComponent(of: file))"
                if (try? manager.destinationOfSymbolicLink(atPath: link)) != file {
                    try? manager.removeItem(atPath: link)
                    try manager.createSymbolicLink(atPath: link, withDestinationPath: file)
                }
            }
            let preferred = families.map { "<family>\($0.xmlEscaped)</family>" }.joined()
            let accepted = families.map { "<pattern><patelt name=\"family\"><string>\($0.xmlEscaped)</string></patelt></pattern>" }
            // A collection file holds other faces too (NotoSansCJK-Regular.ttc: CJK JP, KR, TC, HK
            // and mono ones): only the families' faces are kept, or every fallback sort merges
            // the coverage of ten CJK faces.
            let text = """
                <?xml version="1.0"?>
                <!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">
                <!-- taskwidget's widget fonts, linked from the system's configuration (made again when fonts change). -->
                <fontconfig>
                  <dir>\((folder + "/fonts").xmlEscaped)</dir>
                  <cachedir>\((folder + "/cache").xmlEscaped)</cachedir>
                  <selectfont>
                    <rejectfont><pattern><patelt name="scalable"><bool>true</bool></patelt></pattern></rejectfont>
                    <acceptfont>\(accepted.joined())</acceptfont>
                  </selectfont>
                  <alias><family>sans-serif</family><prefer>\(preferred)</prefer></alias>
                </fontconfig>

                """
            guard let config = load(parsing: { config in text.withFontconfigString { FcConfigParseAndLoadFromMemory(config, $0, FcFalse) } })
            else { return nil }
            // fontconfig writes its cache as 0666 less the umask; it maps that file and trusts it.
            for name in (try? manager.contentsOfDirectory(atPath: folder + "/cache")) ?? [] {
                let path = folder + "/cache/" + name
                if let mode = (try? manager.attributesOfItem(atPath: path))?[.posixPermissions] as? Int, mode & 0o022 != 0 {
                    try? manager.setAttributes([.posixPermissions: mode & ~0o022], ofItemAtPath: path)
                }
            }
            do {
                try AtomicFile.write(Data(text.utf8), to: URL(fileURLWithPath: folder + "/fonts.conf"))
            } catch {
                FcConfigDestroy(config)
                return nil
            }
            return config
        } catch {
            return nil
        }
    }

    /// Every file of `families` in the system's configuration, in a stable order.
    private static func fontFiles(of families: [String]) -> [String] {
        guard let system = FcInitLoadConfigAndFonts() else { return [] }
        defer { FcConfigDestroy(system) }
        let objects = FcObjectSetCreate()
        defer { FcObjectSetDestroy(objects) }
        FcObjectSetAdd(objects, FC_FILE)
        var files = Set<String>()
        for family in families {
            let pattern = FcPatternCreate()
            defer { FcPatternDestroy(pattern) }
            _ = family.withFontconfigString { FcPatternAddString(pattern, FC_FAMILY, $0) }
            guard let list = FcFontList(system, pattern, objects) else { continue }
            defer { FcFontSetDestroy(list) }
            for index in 0..<Int(list.pointee.nfont) {
                var file: UnsafeMutablePointer<FcChar8>?
                if FcPatternGetString(list.pointee.fonts[index], FC_FILE, 0, &file) == FcResultMatch, let file {
                    files.insert(String(cString: file))
                }
            }
        }
        return files.sorted()
    }
}

extension String {
    /// This string as fontconfig takes strings (`const FcChar8 *`, UTF-8).
    fileprivate func withFontconfigString<Result>(_ body: (UnsafePointer<FcChar8>) -> Result) -> Result {
        withCString { $0.withMemoryRebound(to: FcChar8.self, capacity: utf8.count + 1, body) }
    }

    /// Escaped for XML text.
    fileprivate var xmlEscaped: String {
        replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
    }
}
