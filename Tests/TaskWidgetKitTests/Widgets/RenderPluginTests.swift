import Foundation
import Testing
@testable import TaskWidgetKit

/// The render plugin's C contract, both sides in one process: what `png(for:)` sends is what the
/// plugin's drawing gets, and what the drawing returns or throws is what the caller gets back.
@Suite struct RenderPluginTests {
    /// Calls `RenderPlugin.serve` the way the plugin's entry point does, with `request`'s bytes.
    static func serve(_ request: Data, draw: (WidgetImageSpec, TimelineEntry, TimeZone) throws -> Data) -> (Int32, Data) {
        var output: UnsafeMutablePointer<UInt8>?
        var length = -1
        let status = request.withUnsafeBytes { bytes in
            RenderPlugin.serve(bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), bytes.count, &output, &length, draw: draw)
        }
        defer { free(output) }
        return (status, Data(bytes: output!, count: length))
    }

    @Test(arguments: [UInt64(1), 2, 3])
    func everyEntryOfATimelineReachesTheDrawingIntact(seed: UInt64) throws {
        let zone = Fixed.zone("America/New_York")
        let now = Int64(Fixed.instant("2026-11-22T16:27:00-05:00").timeIntervalSince1970)
        let timeline = try TL.timeline(RandomStore.make(seed: seed, now: now, zone: zone), now: now, zone: zone, family: .large)
        let spec = try WidgetImageSpec(family: .large, size: WidgetSize(width: 800, height: 480), scale: 2, theme: .mono)
        for entry in timeline.entries {
            let request = try JSONEncoder().encode(RenderPlugin.Request(spec: spec, timeZone: zone, entry: entry))
            var received: (WidgetImageSpec, TimelineEntry, TimeZone)?
            let (status, bytes) = Self.serve(request) { spec, entry, zone in
                received = (spec, entry, zone)
                return Data("png of \(entry.date)".utf8)
            }
            #expect(status == 0)
            #expect(bytes == Data("png of \(entry.date)".utf8))
            #expect(received?.0 == spec && received?.1 == entry && received?.2 == zone, "seed \(seed) at \(entry.date)")
        }
    }

    @Test(arguments: TaskWidgetError.Kind.allCases)
    func aDrawingErrorComesBackWithItsExitStatusAndMessage(kind: TaskWidgetError.Kind) throws {
        let entry = try #require(try TL.timeline(RandomStore.make(seed: 4, now: 0, zone: .gmt), now: 0, zone: .gmt).entries.first)
        let request = try JSONEncoder().encode(RenderPlugin.Request(spec: WidgetImageSpec(family: .small), timeZone: .gmt, entry: entry))
        let (status, bytes) = Self.serve(request) { _, _, _ in throw TaskWidgetError(kind, "cannot draw “this”") }
        #expect(status == kind.exitStatus)
        #expect(TaskWidgetError.Kind(exitStatus: status) == kind)
        #expect(String(decoding: bytes, as: UTF8.self) == "cannot draw “this”")
    }

    @Test func aRequestFromAnotherVersionIsAnIOErrorAndDrawsNothing() {
        var drew = false
        let (status, bytes) = Self.serve(Data(#"{"spec":{"family":"huge"}}"#.utf8)) { _, _, _ in
            drew = true
            return Data()
        }
        #expect(status == 74 && !drew)
        #expect(String(decoding: bytes, as: UTF8.self).contains("from another version"))
    }
}
