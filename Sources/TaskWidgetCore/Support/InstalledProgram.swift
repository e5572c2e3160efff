import Foundation

/// The programs installed together: taskwidget and its helpers (`taskwidget-render`,
/// `taskwidget-serve`, …) live in one folder, where each finds the others.
public enum InstalledProgram {
    /// The folder of the running executable, symbolic links resolved.
    public static var folder: String {
        let path = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: path).deletingLastPathComponent().path
    }

    /// The path of the program `name` beside the running one, if it is there and executable.
    public static func path(of name: String) -> String? {
        let path = folder + "/" + name
        return access(path, X_OK) == 0 ? path : nil
    }
}
