import Foundation
import PropertyBased
import Testing

@testable import TaskWidgetCore
@testable import TaskWidgetStore
@testable import TaskWidgetTestSupport

/// Bounded fuzzing of the two parsers that read what a user hands over: `import` files and the
/// date grammar. Inputs are the committed seed corpus (scripts/fuzz/corpus, shared with the
/// libFuzzer targets of scripts/fuzz) mutated from a fixed seed, for a few seconds each (and at
/// least 2000 and 1000 inputs, however slow the machine); the checks are FuzzOracle's. Each test
/// prints how many inputs it tried.
/// `TASKWIDGET_PROPERTY_SCALE=k` fuzzes k times as long; scripts/fuzz/run.sh fuzzes with libFuzzer.
@Suite struct FuzzTests {
    static let corpus = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("scripts/fuzz/corpus")

    static func seeds(_ folder: String) throws -> [[UInt8]] {
        let url = corpus.appendingPathComponent(folder)
        let names = try FileManager.default.contentsOfDirectory(atPath: url.path).sorted()
        return try names.map { [UInt8](try Data(contentsOf: url.appendingPathComponent($0))) }
    }

    /// Tokens that make JSON and instants interesting: escapes, numbers at the limits, instants at
    /// the edges of the years, the export's own keys, deep nesting, bytes that are not UTF-8.
    static let importTokens: [[UInt8]] = [
        #""\u0000""#, #""\ud800""#, #""\udc00\ud800""#, #""\u2028\u0085""#, "1e999", "-0", "0.5", "9223372036854775808",
        "-9223372036854775809", "null", "true", "[]", "{}", #""""#, #""9999-12-31T23:59:59.9999Z""#,
        #""0000-01-01T00:00:00+00:01""#, #""2026-02-30T00:00:00Z""#, #""2026-11-23T08:00:00.1234567890Z""#, #""2026-02-29""#,
        #""schema""#, #""taskwidget.export/1""#, #""tasks""#, #""lists""#, #""habits""#, #""completions""#, #""title""#,
        #""state""#, #""completed""#, #""listID""#, #""id""#, #""ABCD0000-0000-4000-8000-000000000001""#, #""Inbox""#,
        #""\u202e\u0600<b>%{F#f00}#[fg=red]""#, String(repeating: "[", count: 600), String(repeating: "{\"a\":", count: 300),
    ].map { Array($0.utf8) } + [[0xC0, 0xAF], [0xFF], [0xED, 0xA0, 0x80], [0xEF, 0xBB, 0xBF], [0x00]]

    /// Applies one to eight random edits to a seed: overwrite, insert or delete bytes, copy a
    /// span, insert a token, cut the end; once in 50 inputs, random bytes instead.
    static func mutations(of seeds: [[UInt8]], tokens: [[UInt8]], keep header: Int = 0) -> Generator<[UInt8], Shrink.None<[UInt8]>> {
        Generator { random in
            if Int.random(in: 0..<50, using: &random) == 0 {
                return (0..<Int.random(in: 0...256, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
            }
            var bytes = seeds.randomElement(using: &random)!
            for _ in 0..<Int.random(in: 1...8, using: &random) {
                let at = Int.random(in: min(header, bytes.count)...bytes.count, using: &random)
                let span = Int.random(in: 0...min(16, bytes.count - at), using: &random)
                switch Int.random(in: 0..<6, using: &random) {
                case 0 where at < bytes.count: bytes[at] = UInt8.random(in: 0...255, using: &random)
                case 1: bytes.insert(contentsOf: (0..<Int.random(in: 1...4, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }, at: at)
                case 2: bytes.removeSubrange(at..<at + span)
                case 3: bytes.insert(contentsOf: bytes[at..<at + span], at: Int.random(in: min(header, bytes.count)...bytes.count, using: &random))
                case 4: bytes.insert(contentsOf: tokens.randomElement(using: &random)!, at: at)
                default: if at > header { bytes.removeSubrange(at...) }
                }
            }
            return bytes
        }
    }

    /// Edits a seed document as JSON, so that most results still decode and reach the rules and
    /// the store: a value replaced (by hostile text, an instant at the edges, a number at the
    /// limits, another type, a copy of another value), a key removed, an array element repeated.
    static func documentMutations(of seeds: [[UInt8]]) -> Generator<[UInt8], Shrink.None<[UInt8]>> {
        let titles = HostileText.title(controls: true)
        return Generator { random in
            let seed = seeds.randomElement(using: &random)!
            guard var tree = try? JSONSerialization.jsonObject(with: Data(seed), options: [.fragmentsAllowed]) else { return seed }
            for _ in 0..<Int.random(in: 1...4, using: &random) {
                let replacements: [Any] = [
                    titles.run(using: &random), "9999-12-31T23:59:59.9999Z", "0000-01-01T00:00:00+00:01", "2026-11-23T08:00:00.5Z",
                    "2026-02-29", "0000-02-29", "completed", "active", "done", "#1e90ff", " inbox ", "ABCD0000-0000-4000-8000-000000000001",
                    Int.max, Int.min, 1e300, -0.0, 0, 1, NSNull(), true, false, [Any](), [String: Any](), "",
                ]
                let replacement = replacements.randomElement(using: &random)!
                tree = edit(tree, depth: 0, using: &random) { node, random in
                    switch Int.random(in: 0..<8, using: &random) {
                    case 0: return .remove
                    case 1: return .repeatInArray
                    case 2: return .replace(node)
                    default: return .replace(replacement)
                    }
                }
            }
            let data = try? JSONSerialization.data(withJSONObject: tree, options: [.fragmentsAllowed])
            return data.map { [UInt8]($0) } ?? seed
        }
    }

    enum Edit { case replace(Any), remove, repeatInArray }

    /// Walks down `node` along random children and applies `change` to the node where it stops.
    static func edit(
        _ node: Any, depth: Int, using random: inout any SeededRandomNumberGenerator,
        _ change: (Any, inout any SeededRandomNumberGenerator) -> Edit
    ) -> Any {
        let stop = depth > 0 && Int.random(in: 0..<4, using: &random) == 0
        if var object = node as? [String: Any], !object.isEmpty, !stop {
            let key = object.keys.sorted().randomElement(using: &random)!
            if Int.random(in: 0..<3, using: &random) == 0, case .remove = change(object[key]!, &random) {
                object[key] = nil
            } else {
                object[key] = edit(object[key]!, depth: depth + 1, using: &random, change)
            }
            return object
        }
        if var array = node as? [Any], !array.isEmpty, !stop {
            let index = Int.random(in: 0..<array.count, using: &random)
            switch change(array[index], &random) {
            case .repeatInArray: array.insert(array[index], at: index)
            case .remove: array.remove(at: index)
            default: array[index] = edit(array[index], depth: depth + 1, using: &random, change)
            }
            return array
        }
        if case .replace(let value) = change(node, &random) { return value }
        return node
    }

    @Test func importFilesAreReadOrRefusedInOneLine() async throws {
        let fixture = try TemporaryStore()
        var decoded = 0
        var imported = 0
        let started = ContinuousClock.now
        let seeds = try Self.seeds("import")
        let bytes = Self.mutations(of: seeds, tokens: Self.importTokens)
        let documents = Self.documentMutations(of: seeds)
        let input = Generator { random in Bool.random(using: &random) ? bytes.run(using: &random) : documents.run(using: &random) }
        let count = await SeededProperty.explore(count: 200_000, minimum: 2000, seed: 0xF022_0001, budget: .seconds(3), input: input) { bytes in
            let data = Data(bytes)
            let problem = FuzzOracle.importProblem(data)
            #expect(problem == nil, "\(problem ?? "")")
            guard problem == nil, let document = try? StoreExport.decode(data, source: "fuzz.json") else { return }
            decoded += 1
            // The rules of the commands, and (for some) the store: a one-line data error or a
            // store whose own export reads back.
            do {
                _ = try document.normalized(source: "fuzz.json")
                guard decoded % 10 == 0 else { return }
                try fixture.store.importing(document, source: "fuzz.json")
                imported += 1
                let export = try fixture.store.export()
                #expect(try StoreExport.decode(export.jsonData(), source: "export") == export)
            } catch let error as TaskWidgetError {
                #expect(FuzzOracle.errorProblem(error, expected: .badImport) == nil)
            }
        }
        print("FuzzTests import: \(count) inputs in \(ContinuousClock.now - started), \(decoded) decoded, \(imported) imported (seed \(SeededProperty.hex(SeededProperty.seed(0xF022_0001))))")
        // Not only the refusals: a share of the inputs (about 4 % from the fixed seed) reaches the
        // rules, and some reach the store.
        #expect(decoded * 100 >= count, "\(decoded) of \(count) inputs decoded")
        #expect(imported > 0, "none of \(decoded) decoded inputs imported")
    }

    @Test func dateTextIsReadOrRefusedInOneLine() async throws {
        let tokens = HostileText.datePieces.map { Array($0.utf8) } + [[0xFF], [0xC0, 0xAF], [0x00]]
        let started = ContinuousClock.now
        var read = 0
        let input = Self.mutations(of: try Self.seeds("when"), tokens: tokens, keep: 5)
        let count = await SeededProperty.explore(count: 400_000, minimum: 1000, seed: 0xF022_0002, budget: .seconds(2), input: input) { bytes in
            let problem = FuzzOracle.whenProblem(Data(bytes))
            #expect(problem == nil, "\(problem ?? "")")
            if bytes.count > 5, let zone = FuzzOracle.zones.first,
                (try? WhenParser(now: Fixed.instant("2026-11-22T16:27:00Z"), calendar: LocalCalendar(timeZone: zone)).parse(String(decoding: bytes[5...], as: UTF8.self), for: .due)) != nil
            {
                read += 1
            }
        }
        print("FuzzTests dates: \(count) inputs in \(ContinuousClock.now - started), \(read) read as dates (seed \(SeededProperty.hex(SeededProperty.seed(0xF022_0002))))")
        // Not only the refusals: a share of the inputs (about 3 % from the fixed seed) reads as a date.
        #expect(read * 100 >= count, "\(read) of \(count) inputs read as dates")
    }
}
