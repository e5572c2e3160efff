import Foundation
import PropertyBased
import Synchronization
import Testing

/// Deterministic property checks over swift-property-based generators.
///
/// `propertyCheck` draws a new random seed on every run; these properties draw case `i` from a
/// seed fixed in the test and `i` instead, so every run (and CI) tries the same inputs, and a
/// failure names the seed and the case, which reproduce it. A failing case stops the property.
///
/// - `TASKWIDGET_PROPERTY_SEED=<n>` (decimal or `0x…`) replaces every property's seed, to explore
///   other inputs (`random` draws one; the failure message names it);
/// - `TASKWIDGET_PROPERTY_SCALE=<k>` runs k times as many cases, and gives time-bounded ones k
///   times the time.
enum SeededProperty {
    /// One generated input, with what reproduces it.
    struct Case<Value> {
        var index: Int
        var seed: UInt64
        var value: Value

        var label: String { "case \(index) of seed \(SeededProperty.hex(seed))" }
    }

    /// The seed a property runs from: `seed`, unless the environment names another.
    static func seed(_ seed: UInt64) -> UInt64 { overridingSeed ?? seed }

    private static let overridingSeed: UInt64? = {
        guard let text = ProcessInfo.processInfo.environment["TASKWIDGET_PROPERTY_SEED"] else { return nil }
        if text == "random" { return UInt64.random(in: 0...UInt64.max) }
        return text.hasPrefix("0x") ? UInt64(text.dropFirst(2), radix: 16) : UInt64(text)
    }()

    static let scale: Int = ProcessInfo.processInfo.environment["TASKWIDGET_PROPERTY_SCALE"].flatMap { Int($0) }.map { max(1, $0) } ?? 1

    static func hex(_ value: UInt64) -> String { "0x" + String(value, radix: 16) }

    /// The generator state of case `index`: SplitMix64 of the seed and the index, so that each case
    /// stands alone (a case reproduces without running the ones before it).
    static func random(seed: UInt64, index: Int) -> Xoshiro {
        var split = SplitMix64(seed: seed &+ UInt64(index) &* 0x9E37_79B9_7F4A_7C15)
        return Xoshiro(seed: (split.next(), split.next(), split.next(), split.next()))
    }

    /// The first `count` cases of `input` from `seed` (scaled by `TASKWIDGET_PROPERTY_SCALE`).
    static func cases<Value, Shrink>(_ count: Int, seed: UInt64, from input: Generator<Value, Shrink>) -> [Case<Value>] {
        let seed = self.seed(seed)
        return (0..<count * scale).map { index in
            var random = random(seed: seed, index: index)
            return Case(index: index, seed: seed, value: input.run(using: &random))
        }
    }

    /// Runs `body` on the first `count` cases of `input` from `seed`; every issue a case records
    /// names the case, its seed and its input, and the first failing case ends the property.
    /// Returns how many cases ran.
    @discardableResult
    static func check<Value, Shrink>(
        count: Int, seed: UInt64, input: Generator<Value, Shrink>, sourceLocation: SourceLocation = #_sourceLocation,
        _ body: (Value) throws -> Void
    ) async -> Int {
        await run(seed: seed, input: input, limit: count * scale, until: nil, sourceLocation: sourceLocation, body)
    }

    /// Like ``check(count:seed:input:sourceLocation:_:)``, for the first `minimum` cases and then
    /// until `budget` has passed, at most `count`: the inputs are the same sequence on every run,
    /// cut where the time runs out (never before `minimum`, however slow the machine). Returns how
    /// many cases ran.
    @discardableResult
    static func explore<Value, Shrink>(
        count: Int, minimum: Int, seed: UInt64, budget: Duration, input: Generator<Value, Shrink>,
        sourceLocation: SourceLocation = #_sourceLocation, _ body: (Value) throws -> Void
    ) async -> Int {
        let deadline = ContinuousClock.now + budget * scale
        return await run(
            seed: seed, input: input, limit: count * scale, minimum: minimum, until: deadline, sourceLocation: sourceLocation, body)
    }

    private static func run<Value, Shrink>(
        seed: UInt64, input: Generator<Value, Shrink>, limit: Int, minimum: Int = 0, until deadline: ContinuousClock.Instant?,
        sourceLocation: SourceLocation, _ body: (Value) throws -> Void
    ) async -> Int {
        let seed = self.seed(seed)
        var index = 0
        while index < limit, index < minimum || deadline.map({ ContinuousClock.now < $0 }) ?? true {
            var random = random(seed: seed, index: index)
            let value = input.run(using: &random)
            let label = Case(index: index, seed: seed, value: value).label
            // Described only when an issue needs it (issues are recorded on this task, while `value` lives).
            nonisolated(unsafe) let described = value
            let failed = Mutex(false)
            let annotate = IssueHandlingTrait.compactMapIssues { issue in
                var issue = issue
                let input = String(reflecting: described).prefix(2000)
                issue.comments.append("\(label) (TASKWIDGET_PROPERTY_SEED=\(hex(seed)) reproduces it): input \(input)")
                failed.withLock { $0 = true }
                return issue
            }
            do {
                // The body runs before `provideScope` returns, on this task: it never escapes.
                try await withoutActuallyEscaping(body) { body in
                    nonisolated(unsafe) let run = { try body(value) }
                    try await annotate.provideScope(for: Test.current!, testCase: Test.Case.current) { try run() }
                }
            } catch {
                Issue.record(error, "\(label) (TASKWIDGET_PROPERTY_SEED=\(hex(seed)) reproduces it)", sourceLocation: sourceLocation)
                return index + 1
            }
            index += 1
            if failed.withLock({ $0 }) { break }
        }
        return index
    }
}
