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
        let faces = Self.families(of: made)
        FcConfigDestroy(made)
        // Only the families' faces: not the other faces of NotoSansCJK-Regular.ttc (JP, KR, ...).
        #expect(faces.count >= 4 && faces.allSatisfy { !Set($0).isDisjoint(with: FontSystem.ownFamilies) }, "\(faces)")
        #expect(faces.contains { $0.contains("Noto Sans CJK SC") } && !faces.contains { $0.contains("Noto Sans CJK JP") })
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

    /// The family names of each face of `config`.
    private static func families(of config: OpaquePointer) -> [[String]] {
        guard let set = FcConfigGetFonts(config, FcSetSystem) else { return [] }
        return (0..<Int(set.pointee.nfont)).map { index in
            var names: [String] = []
            var name: UnsafeMutablePointer<FcChar8>?
            while FcPatternGetString(set.pointee.fonts[index], FC_FAMILY, Int32(names.count), &name) == FcResultMatch, let name {
                names.append(String(cString: name))
            }
            return names
        }
    }

    @Test func noCacheFolderMeansTheSystemsFonts() throws {
        #expect(FontSetCache.configuration(families: FontSystem.ownFamilies, environment: ["HOME": "relative"]) == nil)
        #expect(FontSetCache.configuration(families: FontSystem.ownFamilies, environment: ["XDG_CACHE_HOME": "/proc/version"]) == nil)
    }
}
