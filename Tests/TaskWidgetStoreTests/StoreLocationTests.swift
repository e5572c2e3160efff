import Foundation
import Testing

@testable import TaskWidgetCore
@testable import TaskWidgetStore
@testable import TaskWidgetTestSupport

/// Where the store is: `--store`, `TASKWIDGET_STORE`, config.toml's `store`, then the XDG data folder.
@Suite struct StoreLocationTests {
    @Test(arguments: [
        ("/explicit/s.sqlite", ["TASKWIDGET_STORE": "/env/s.sqlite", "XDG_DATA_HOME": "/xdg", "HOME": "/home/u"],
         "/explicit/s.sqlite", false),
        ("relative.sqlite", ["HOME": "/home/u"], "relative.sqlite", false),
        // A shell leaves `--store=~/…` as it is (helper-92).
        ("~/tasks/s.sqlite", ["HOME": "/home/u"], "/home/u/tasks/s.sqlite", false),
        (nil, ["TASKWIDGET_STORE": "/env/s.sqlite", "XDG_DATA_HOME": "/xdg", "HOME": "/home/u"], "/env/s.sqlite", false),
        (nil, ["TASKWIDGET_STORE": "", "XDG_DATA_HOME": "/xdg", "HOME": "/home/u"], "/xdg/taskwidget/tasks.sqlite", true),
        // `~/` as config.toml reads it (systemd's Environment= does not expand it); `~user` is left.
        (nil, ["TASKWIDGET_STORE": "~/tasks/s.sqlite", "HOME": "/home/u"], "/home/u/tasks/s.sqlite", false),
        (nil, ["TASKWIDGET_STORE": "~other/s.sqlite", "HOME": "/home/u"], "~other/s.sqlite", false),
        (nil, ["XDG_DATA_HOME": "/xdg"], "/xdg/taskwidget/tasks.sqlite", true),
        (nil, ["XDG_DATA_HOME": "xdg", "HOME": "/home/u"], "/home/u/.local/share/taskwidget/tasks.sqlite", true),
        (nil, ["XDG_DATA_HOME": "", "HOME": "/home/u"], "/home/u/.local/share/taskwidget/tasks.sqlite", true),
        (nil, ["HOME": "/home/u"], "/home/u/.local/share/taskwidget/tasks.sqlite", true),
    ] as [(String?, [String: String], String, Bool)])
    func storeLocationPrecedence(explicit: String?, environment: [String: String], path: String, isDefault: Bool) throws {
        let location = try StoreLocation.resolve(explicitPath: explicit, environment: environment)
        #expect(location == StoreLocation(path: path, isDefault: isDefault))
    }

    /// config.toml's `store` comes after `--store` and `TASKWIDGET_STORE`, before the default.
    @Test func theConfiguredStoreComesThird() throws {
        let environment = ["TASKWIDGET_STORE": "/env/s.sqlite", "HOME": "/home/u"]
        let configured = "/config/s.sqlite"
        #expect(try StoreLocation.resolve(explicitPath: "/explicit/s.sqlite", environment: environment, configured: configured).path == "/explicit/s.sqlite")
        #expect(try StoreLocation.resolve(explicitPath: nil, environment: environment, configured: configured).path == "/env/s.sqlite")
        #expect(try StoreLocation.resolve(explicitPath: nil, environment: ["HOME": "/home/u"], configured: configured) == StoreLocation(path: configured, isDefault: false))
    }

    @Test func aHomeInTheStorePathNeedsHOME() throws {
        let error = expectError(.invalidInput) { try StoreLocation.resolve(explicitPath: nil, environment: ["TASKWIDGET_STORE": "~/s.sqlite"]) }
        #expect(error?.message == "HOME is not set, so ~/ in TASKWIDGET_STORE names no folder: give an absolute path")
        let explicit = expectError(.invalidInput) { try StoreLocation.resolve(explicitPath: "~/s.sqlite", environment: ["HOME": "relative"]) }
        #expect(explicit?.message == "HOME is not an absolute path, so ~/ in --store names no folder: give an absolute path")
    }

    /// A path that ends in `/` names a folder, wherever it comes from: SQLite could not open it,
    /// and the errors said to make the store or to check permissions (helper-94).
    @Test func aPathEndingInASlashIsRefused() throws {
        let explicit = expectError(.notAFile) { try StoreLocation.resolve(explicitPath: "a/", environment: [:]) }
        #expect(explicit?.message == "a/ names a folder, not a store file: give --store a file path")
        let variable = expectError(.notAFile) { try StoreLocation.resolve(explicitPath: nil, environment: ["TASKWIDGET_STORE": "/tmp/x/"]) }
        #expect(variable?.message == "/tmp/x/ names a folder, not a store file: give TASKWIDGET_STORE a file path")
        // `~` alone is the home folder: `add --store='~'` made a store file named `~` (helper-99).
        let home = expectError(.notAFile) { try StoreLocation.resolve(explicitPath: "~", environment: ["HOME": "/home/u"]) }
        #expect(home?.message == "~ names a folder, not a store file: give --store a file path")
        let folder = FileManager.default.temporaryDirectory.path
        let existing = expectError(.notAFile) { try StoreLocation.resolve(explicitPath: nil, environment: ["TASKWIDGET_STORE": folder]) }
        #expect(existing?.message == "\(folder) is a folder, not a store file: give TASKWIDGET_STORE a file path, like \(folder)/tasks.sqlite")
    }

    /// `--store ""` (a shell variable that is not set) is refused: it fell through to
    /// `TASKWIDGET_STORE` or the default store, the user's own tasks.
    @Test func anEmptyStorePathIsRefused() throws {
        let error = expectError(.invalidInput) {
            try StoreLocation.resolve(explicitPath: "", environment: ["TASKWIDGET_STORE": "/env/s.sqlite", "HOME": "/home/u"])
        }
        #expect(error?.message == "--store needs a path: give the store file, or leave --store out for the default")
    }

    /// The message says what is wrong with HOME: it said "not set" for a HOME set empty or
    /// relative (helper-90).
    @Test(arguments: [
        ([:], "not set"), (["HOME": ""], "empty"), (["XDG_DATA_HOME": "relative"], "not set"), (["HOME": "relative/home"], "not an absolute path"),
        (["TASKWIDGET_STORE": ""], "not set"),
    ])
    func withoutHomeThereIsNoDefaultStore(environment: [String: String], home: String) throws {
        let error = expectError(.invalidInput) { try StoreLocation.resolve(explicitPath: nil, environment: environment) }
        #expect(error?.message == "HOME is \(home), so there is no default store: pass --store PATH, or set TASKWIDGET_STORE or XDG_DATA_HOME")
    }

}
