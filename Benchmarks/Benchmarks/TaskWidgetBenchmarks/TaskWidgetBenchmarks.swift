import Benchmark
import Foundation
import TaskWidgetCore
import TaskWidgetFormats
import TaskWidgetRender
import TaskWidgetStore

/// The in-process benchmarks of SPEC §9, each doing what one command does after its setup, with
/// the store made in the setup and ``Fixed/now`` as the clock:
/// - `Timeline N tasks`: `taskwidget timeline` (snapshot read and every entry, without printing);
/// - `Store open + status, N tasks`: `taskwidget status` up to the entry (open read-only, read the
///   snapshot, compute the current entry);
/// - `Status FORMAT`: one line of a format for the demo store's entry (the default template);
/// - `Render FAMILY @2x`: one PNG of the demo store's entry (`render -o` without the file write),
///   the per-frame time that compare.sh sets against the C baseline;
/// - `Render medium @2x after a pause`: the same frame, drawn 200 ms after the last one, as `serve`
///   draws an image nobody asked for before (caches gone cold, idle cores asleep); compare.sh sets
///   serve's uncached first image against it too.
let benchmarks: @Sendable () -> Void = {
    Benchmark.teardown = { BenchmarkStore.removeAll() }
    let taskCounts = [1_000, 10_000, 100_000]

    for count in taskCounts {
        Benchmark("Timeline \(count) tasks") { benchmark, store in
            let request = TimelineRequest(now: Fixed.now, calendar: Fixed.calendar)
            for _ in benchmark.scaledIterations {
                blackHole(TimelineProvider().timeline(for: request, snapshot: try store.timelineSnapshot(for: request)))
            }
        } setup: {
            try BenchmarkStore.open(BenchmarkStore.generated(taskCount: count))
        }
    }

    for count in taskCounts {
        Benchmark("Store open + status, \(count) tasks") { benchmark, location in
            let request = TimelineRequest(now: Fixed.now, calendar: Fixed.calendar)
            for _ in benchmark.scaledIterations {
                let snapshot = try BenchmarkStore.open(location).timelineSnapshot(for: request)
                blackHole(TimelineProvider().currentEntry(for: request, snapshot: snapshot))
            }
        } setup: {
            try BenchmarkStore.generated(taskCount: count)
        }
    }

    for format in StatusFormat.allCases {
        Benchmark("Status \(format.rawValue)") { benchmark, fixture in
            for _ in benchmark.scaledIterations {
                blackHole(try fixture.renderer.line(for: fixture.entry, timeZone: Fixed.calendar.timeZone, now: Fixed.now))
            }
        } setup: {
            (
                renderer: try StatusRenderer(format: format, template: .resolve(format: format, path: nil, environment: [:])),
                entry: try demoEntry()
            )
        }
    }

    for family in WidgetFamily.allCases {
        // Frames take milliseconds: a few warm-up frames load the fonts, more frames steady the median.
        let configuration = Benchmark.Configuration(warmupIterations: 5, maxDuration: .seconds(3))
        Benchmark("Render \(family.rawValue) @2x", configuration: configuration) { benchmark, fixture in
            for _ in benchmark.scaledIterations {
                blackHole(try fixture.renderer.image(for: fixture.entry))
            }
        } setup: {
            (renderer: try WidgetRenderer(family: family, scale: 2), entry: try demoEntry(family: family))
        }
    }

    // One frame per run, the pause outside the measurement.
    let paused = Benchmark.Configuration(warmupIterations: 3, scalingFactor: .one, maxDuration: .seconds(10), maxIterations: 25)
    Benchmark("Render medium @2x after a pause", configuration: paused) { benchmark, fixture in
        Thread.sleep(forTimeInterval: 0.2)
        benchmark.startMeasurement()
        blackHole(try fixture.renderer.image(for: fixture.entry))
        benchmark.stopMeasurement()
    } setup: {
        (renderer: try WidgetRenderer(family: .medium, scale: 2), entry: try demoEntry(family: .medium))
    }
}

/// The demo store's entry for now, as `status` (no family) or `render --family` computes it.
func demoEntry(family: WidgetFamily? = nil) throws -> TimelineEntry {
    let request = TimelineRequest(now: Fixed.now, calendar: Fixed.calendar, family: family)
    return TimelineProvider().currentEntry(for: request, snapshot: try BenchmarkStore.open(BenchmarkStore.demo()).timelineSnapshot(for: request))
}
