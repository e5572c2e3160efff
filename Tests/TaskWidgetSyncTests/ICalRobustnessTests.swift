import Foundation
import Testing
import TaskWidgetSync

@testable import TaskWidgetTestSupport

@Suite("iCalendar robustness")
struct ICalRobustnessTests {
    @Test(
        "malformed text gives a typed error with its line",
        arguments: [
            ("BEGIN:VCALENDAR\r\nBEGIN:VTODO\r\nEND:VCALENDAR\r\n", ICalError.Code.mismatchedEnd, 3),
            ("BEGIN:VCALENDAR\r\nBEGIN:VTODO\r\nEND:VTODO\r\n", .unclosedComponent, 1),
            ("END:VCALENDAR\r\n", .unexpectedEnd, 1),
            ("BEGIN:VCALENDAR\r\nSUMMARY\r\nEND:VCALENDAR\r\n", .missingColon, 2),
            ("BEGIN:VCALENDAR\r\nX;P=1", .missingColon, 2),
            ("BEGIN:VCALENDAR\r\nX;P=\"abc:d\r\nEND:VCALENDAR\r\n", .unterminatedQuote, 2),
            ("BEGIN:VCALENDAR\r\nX;P:v\r\nEND:VCALENDAR\r\n", .invalidParameter, 2),
            ("BEGIN:VCALENDAR\r\nX;P=\"a\"b:v\r\nEND:VCALENDAR\r\n", .invalidParameter, 2),
            ("BEGIN:VCALENDAR\r\nX;=a:v\r\nEND:VCALENDAR\r\n", .invalidName, 2),
            ("SUMMARY:outside\r\n", .propertyOutsideComponent, 1),
            (" continued\r\nBEGIN:X\r\nEND:X\r\n", .continuationWithoutLine, 1),
            ("BEGIN:X\r\n\r\n continued\r\nEND:X\r\n", .continuationWithoutLine, 3),
            (":no name\r\n", .invalidName, 1),
            ("BEGIN:X\r\nSUM MARY:x\r\nEND:X\r\n", .invalidName, 2),
            ("BEGIN:\r\nEND:\r\n", .invalidName, 1),
            ("BEGIN:X Y\r\nEND:X Y\r\n", .invalidName, 1),
        ])
    func malformed(text: String, code: ICalError.Code, line: Int) {
        #expect(throws: ICalError(code, line: line)) { try ICalendar(parsing: text) }
    }

    @Test("empty input", arguments: ["", "\r\n", "\n\n\n", "\u{FEFF}"])
    func empty(text: String) {
        #expect(throws: ICalError(.empty)) { try ICalendar(parsing: text) }
    }

    @Test("invalid UTF-8 is an error, not a crash")
    func invalidUTF8() {
        var bytes = Array("BEGIN:VCALENDAR\r\nSUMMARY:".utf8)
        bytes += [0xFF, 0xC3, 0x0D, 0x0A] + Array("END:VCALENDAR\r\n".utf8)
        #expect(throws: ICalError(.invalidUTF8, line: 2)) { try ICalendar(parsing: Data(bytes)) }
    }

    @Test("nesting is bounded")
    func nesting() {
        let deep = String(repeating: "BEGIN:X\r\n", count: 40) + String(repeating: "END:X\r\n", count: 40)
        #expect(throws: ICalError(.nestingTooDeep, line: 33)) { try ICalendar(parsing: deep) }
        #expect(throws: Never.self) { try ICalendar(parsing: deep, maximumDepth: 40) }
    }

    @Test("error descriptions never quote the input")
    func logSafe() {
        let secret = "Surprise party for Alice"
        let inputs = [
            "BEGIN:VCALENDAR\r\n\(secret)\r\nEND:VCALENDAR\r\n",
            "BEGIN:\(secret)\r\nEND:VCALENDAR\r\n",
            "BEGIN:VCALENDAR\r\nX;P=\"\(secret)\r\n",
        ]
        for input in inputs {
            do {
                _ = try ICalendar(parsing: input)
                Issue.record("should not parse")
            } catch {
                #expect(!error.description.contains("Alice"))
                #expect(error.description.hasPrefix("line "))
            }
        }
    }

    // MARK: Bounded work on 10 MB inputs (no time is asserted: a quadratic parser would hang).

    static let tenMegabytes = 10 * 1024 * 1024

    @Test("a 10 MB calendar of many tasks parses and round-trips")
    func largeValid() throws {
        var text = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\n"
        var count = 0
        while text.utf8.count < Self.tenMegabytes {
            text += "BEGIN:VTODO\r\nUID:\(count)\r\nSUMMARY:Task number \(count) with some text to fill the line\r\n"
            text += "DESCRIPTION;ALTREP=\"cid:\(count)\":" + String(repeating: "long note ", count: 20) + "\r\n"
            text += "END:VTODO\r\n"
            count += 1
        }
        text += "END:VCALENDAR\r\n"
        let calendar = try ICalendar(parsing: text)
        #expect(calendar.vcalendar?.components("VTODO").count == count)
        #expect(calendar.serialized() == text)
    }

    @Test(
        "10 MB of hostile text ends in an error, never a crash or a hang",
        arguments: [
            "one line",  // no line break at all
            "nesting",  // BEGIN after BEGIN
            "parameters",  // one content line of endless parameters, the last quote open
            "folds",  // one property folded over a million lines, never closed
            "colons",  // a property name then nothing but ; and =
        ])
    func hostile(kind: String) {
        let size = Self.tenMegabytes
        let bytes: [UInt8] =
            switch kind {
            case "one line": Array(repeating: UInt8(ascii: "X"), count: size)
            case "nesting": repeated("BEGIN:VTODO\r\n", size / 13)
            case "parameters": Array("BEGIN:X\r\nY".utf8) + repeated(";P=\"a,b\",c", size / 11) + Array(";Q=\"open".utf8)
            case "folds": Array("BEGIN:X\r\nY:".utf8) + repeated("\r\n folded", size / 9)
            default: Array("BEGIN:X\r\nY".utf8) + repeated(";=", size / 2)
            }
        #expect(throws: ICalError.self) { try ICalendar(parsing: Data(bytes)) }
    }

    @Test("10 MB of random bytes ends in an error, never a crash")
    func randomBytes() {
        var generator = SplitMix64(seed: 42)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Self.tenMegabytes)
        for _ in 0..<(Self.tenMegabytes / 8) {
            withUnsafeBytes(of: generator.next()) { bytes.append(contentsOf: $0) }
        }
        #expect(throws: ICalError.self) { try ICalendar(parsing: Data(bytes)) }
    }

    private func repeated(_ pattern: String, _ count: Int) -> [UInt8] {
        let unit = Array(pattern.utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(unit.count * count)
        for _ in 0..<count { bytes.append(contentsOf: unit) }
        return bytes
    }

    @Test("mutated calendars either parse (and then round-trip) or throw", arguments: Fixtures.all.map(\.name))
    func mutations(name: String) throws {
        let original = Array(try #require(Fixtures.all.first { $0.name == name }?.text).utf8)
        let interesting: [UInt8] = Array(":;,\"=\r\n \t\\".utf8) + [0xE6, 0x80, 0xFF]
        var generator = SplitMix64(seed: UInt64(original.count))
        var parsed = 0
        for _ in 0..<500 {
            var bytes = original
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                let index = Int.random(in: 0..<bytes.count, using: &generator)
                switch Int.random(in: 0..<3, using: &generator) {
                case 0: bytes[index] = interesting.randomElement(using: &generator)!
                case 1: bytes.remove(at: index)
                default: bytes.insert(interesting.randomElement(using: &generator)!, at: index)
                }
            }
            guard let calendar = try? ICalendar(parsing: Data(bytes)) else { continue }
            parsed += 1
            let written = calendar.serializedData()
            #expect(try ICalendar(parsing: written) == calendar)
            // Mapping never crashes on what parses either.
            _ = try? TodoMapping(timeZone: berlin).fields(from: calendar)
        }
        // The round trip was checked: not every mutation broke the text.
        #expect(parsed > 0)
    }
}

@Suite("hostile values")
struct HostileValueTests {
    @Test("extreme numbers and durations neither trap nor hang, reading or writing")
    func extremes() throws {
        let text = crlf(
            """
            BEGIN:VCALENDAR
            BEGIN:VTODO
            UID:x
            SEQUENCE:9223372036854775807
            X-APPLE-SORT-ORDER:99999999999999999999999
            PERCENT-COMPLETE:-9223372036854775808
            DUE:99991231T235959Z
            DTSTART:00010101T000000Z
            BEGIN:VALARM
            TRIGGER:P999999999W
            END:VALARM
            BEGIN:VALARM
            TRIGGER;RELATED=START:-P999999999DT999999999H
            END:VALARM
            END:VTODO
            END:VCALENDAR
            """)
        let mapping = TodoMapping(timeZone: berlin)
        var calendar = try ICalendar(parsing: text)
        var fields = try mapping.fields(from: calendar)
        #expect(fields.sortOrder == nil)
        fields.title = "changed"
        fields.reminderDate = .distantFuture
        fields.dueDate = Date(timeIntervalSince1970: 1e300)
        fields.completedAt = Date(timeIntervalSince1970: -1e300)
        try mapping.apply(fields, to: &calendar, now: .distantPast)
        let written = calendar.serialized()
        #expect(written.contains("SEQUENCE:9223372036854775807"))
        #expect(written.contains("DUE:99991231T235959Z"))
        #expect(written.contains("COMPLETED:00010101T000000Z"))
        _ = try mapping.fields(from: ICalendar(parsing: written))
    }
}
