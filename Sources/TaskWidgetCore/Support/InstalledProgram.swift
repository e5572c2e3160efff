import Foundation

/// The programs installed together: taskwidget and its helpers (`taskwidget-render`,
/// `taskwidget-serve`, …) live in one folder, where each finds the others.
public enum InstalledProgram {
    /// The folder of the running executable, symbolic links resolved. Read once, with `readlink`,
    /// not `FileManager`, whose set-up would come before `render` starts its helper (0.5 M
    /// instructions).
    public static let folder: String = {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX))
        let count = readlink("/proc/self/exe", &buffer, buffer.count)
        guard count > 0, count < buffer.count else {
            return URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().path
        }
        // The link is an absolute path: the folder is everything before its last slash.
        let path = buffer[..<count].map { UInt8(bitPattern: $0) }
        let slash = path.lastIndex(of: UInt8(ascii: "/")) ?? 0
        return slash == 0 ? "/" : String(decoding: path[..<slash], as: UTF8.self)
    }()

    /// The path of the program `name` beside the running one, if it is there and executable.
    public static func path(of name: String) -> String? {
        let path = folder + "/" + name
        return access(path, X_OK) == 0 ? path : nil
    }
}
