import CPangoCairo
import Foundation
import Testing

@testable import TaskWidgetRender

/// The widgets' own font set (``FontSetCache``): made once from the system's configuration, read
/// from the cache after, made again when fonts change, and used by a ``FontSystem`` until a text
/// needs another font.
@Suite struct FontSetCacheTests {
    /// A cache folder of its own, and a `FONTCONFIG_FILE` whose time can change (a copy of
    /// RenderFixture's): the set's key watches it.
    private static func environment(in folder: URL) throws -> [String: String] {
        let fontsFile = folder.appendingPathComponent("fonts.conf")
        try Data(contentsOf: RenderFixture.folder.appendingPathComponent("fonts.conf")).write(to: fontsFile)
        return ["XDG_CACHE_HOME": folder.appendingPathComponent("cache").path, "FONTCONFIG_FILE": fontsFile.path]
    }

    private static func fontSets(in folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("cache/taskwidget/fonts").path).sorted()
    }

    @Test func theSetIsMadeOnceAndMadeAgainWhenFontsChange() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fontset-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let environment = try Self.environment(in: folder)
        let made = try #require(FontSetCache.configuration(families: FontSystem.ownFamilies, environment: environment))
        FcConfigDestroy(made)
        let first = try Self.fontSets(in: folder)
        #expect(first.count == 1)
        let conf = folder.appendingPathComponent("cache/taskwidget/fonts/\(first[0])/fonts.conf")
        let written = try FileManager.default.attributesOfItem(atPath: conf.path)[.modificationDate] as? Date
        let links = try FileManager.default.contentsOfDirectory(atPath: conf.deletingLastPathComponent().appendingPathComponent("fonts").path)
        #expect(links.contains { $0.hasSuffix("-Inter-Regular.otf") } && links.contains { $0.hasSuffix("-NotoSansCJK-Regular.ttc") })
        #expect(!links.contains { $0.contains("Emoji") }, "only the named families")

        // Read again, not made again.
        let read = try #require(FontSetCache.configuration(families: FontSystem.ownFamilies, environment: environment))
        FcConfigDestroy(read)
        #expect(try Self.fontSets(in: folder) == first)
        #expect(try FileManager.default.attributesOfItem(atPath: conf.path)[.modificationDate] as? Date == written)

        // The configuration changed (as installing fonts changes fontconfig's folders): a new set, the old one gone.
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -3600)], ofItemAtPath: environment["FONTCONFIG_FILE"]!)
        let remade = try #require(FontSetCache.configuration(families: FontSystem.ownFamilies, environment: environment))
        FcConfigDestroy(remade)
        let second = try Self.fontSets(in: folder)
        #expect(second.count == 1 && second != first)
    }

    @Test func noCacheFolderMeansTheSystemsFonts() throws {
        #expect(FontSetCache.configuration(families: FontSystem.ownFamilies, environment: ["HOME": "relative"]) == nil)
        #expect(FontSetCache.configuration(families: FontSystem.ownFamilies, environment: ["XDG_CACHE_HOME": "/proc/version"]) == nil)
    }
}
