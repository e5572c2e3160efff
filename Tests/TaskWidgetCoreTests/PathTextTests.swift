import Foundation
import Testing

@testable import TaskWidgetCore
@testable import TaskWidgetTestSupport

@Suite struct PathTextTests {
    /// Foundation's `NSString` methods trap on these (Swift 6.3), which crashed every command given
    /// `--store a` (helper-92).
    @Test(arguments: [("a", ""), ("é", ""), ("-", ""), ("a/", ""), ("a//", "")])
    func aPathOfOneCharacterIsABareName(path: String, folder: String) {
        #expect(PathText.folder(of: path) == folder)
        #expect(PathText.lastComponent(of: path) == path.prefix(1).description)
    }

    /// Where Foundation does not trap, the parts are the ones it gives.
    @Test(arguments: ["/a/b", "/a", "a/b/", "ab", "./a", "xy//", "a//b", "//a", "/a//", "ab//cd/", "/", "/tmp/tasks.sqlite", "Sync/tasks.sqlite"])
    func thePartsAreFoundationsWhereItDoesNotTrap(path: String) {
        #expect(PathText.folder(of: path) == (path as NSString).deletingLastPathComponent)
        #expect(PathText.lastComponent(of: path) == (path as NSString).lastPathComponent)
    }

    /// `~/` and `~` are `$HOME`; `~user`, a `~` further on and other paths stay as they are.
    @Test(arguments: [("~/t", "/home/u/t"), ("~", "/home/u"), ("~other/t", "~other/t"), ("a/~/t", "a/~/t"), ("/t", "/t"), ("-", "-")])
    func aLeadingTildeIsHome(path: String, expanded: String) throws {
        #expect(try PathText.expandingHome(path, in: "--file", environment: ["HOME": "/home/u"]) == expanded)
    }

    /// A home that ends in `/` (`HOME=/`) adds no second slash (it gave `//t`: helper-102).
    @Test(arguments: [("/", "~/t", "/t"), ("/", "~", "/"), ("/home/u/", "~/t", "/home/u/t"), ("//", "~/t", "/t")])
    func aHomeEndingInASlashAddsNoSecond(home: String, path: String, expanded: String) throws {
        #expect(try PathText.expandingHome(path, in: "--file", environment: ["HOME": home]) == expanded)
    }

    @Test func aTildeNeedsAnAbsoluteHome() {
        let error = expectError(.invalidInput) { try PathText.expandingHome("~/t", in: "--file", environment: ["HOME": ""]) }
        #expect(error?.message == "HOME is empty, so ~/ in --file names no folder: give an absolute path")
    }
}
