// What must hold for any input of the two fuzz targets, `import` JSON and the date grammar. Shared,
// through a symbolic link, by the bounded fuzz tests of the suite (FuzzTests.swift) and the
// libFuzzer targets of scripts/fuzz, so it uses TaskWidgetCore's public API and Foundation only.

import Foundation
import TaskWidgetCore

enum FuzzOracle {
    /// Any bytes as an export file: either a one-line `.data` error, or a document whose own export
    /// decodes to the same document again (a store must be able to restore its backup). Returns
    /// what went wrong, or nil.
    static func importProblem(_ data: Data) -> String? {
        let document: StoreExport
        do {
            document = try StoreExport.decode(data, source: "fuzz.json")
        } catch let error as TaskWidgetError {
            return errorProblem(error, expected: .badImport)
        } catch {
            return "decode threw a \(type(of: error)), not a TaskWidgetError: \(error)"
        }
        let exported: Data
        do {
            exported = try document.jsonData()
        } catch {
            return "a decoded document does not encode: \(error)"
        }
        do {
            let again = try StoreExport.decode(exported, source: "export")
            guard again == document else { return "a decoded document's export decodes to another document" }
        } catch {
            return "a decoded document's export does not import: \(error)"
        }
        return nil
    }

    /// The zones the date target picks from: DST at 02:00 and at midnight, half-hour DST, odd offsets.
    static let zones = [
        "UTC", "Europe/Berlin", "America/New_York", "America/Santiago", "Australia/Lord_Howe", "Pacific/Chatham",
        "Asia/Kathmandu", "America/St_Johns",
    ].map { TimeZone(identifier: $0)! }

    /// Bytes for the date target: the first picks the zone, the next four the now (whole seconds
    /// from 1971 on, fractions too), the rest is the text.
    static func whenProblem(_ data: Data) -> String? {
        guard data.count >= 5 else { return nil }
        let bytes = [UInt8](data)
        let zone = zones[Int(bytes[0]) % zones.count]
        let raw = bytes[1..<5].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        let now = Instant(Date(timeIntervalSince1970: 31_536_000 + Double(raw) * 1.000_123))
        return whenProblem(String(decoding: bytes[5...], as: UTF8.self), now: now, zone: zone)
    }

    /// Any text as a WHEN (`--due`, `--remind`) and as an instant (`--now`): either a one-line usage
    /// error that quotes at most a short piece of the text, or an instant the store can keep and
    /// export (whole seconds for WHEN). Returns what went wrong, or nil.
    static func whenProblem(_ text: String, now: Instant, zone: TimeZone) -> String? {
        let calendar = LocalCalendar(timeZone: zone)
        let parser = WhenParser(now: now, calendar: calendar)
        for purpose in [WhenParser.Purpose.due, .reminder] {
            do {
                let instant = try parser.parse(text, for: purpose)
                guard instant == instant.flooredToSecond else {
                    return "\(purpose) date \(instant) is not whole seconds"
                }
                if let problem = instantProblem(instant) { return "\(purpose): \(problem)" }
            } catch {
                if let problem = errorProblem(error, expected: .invalidInput) { return problem }
            }
        }
        do {
            let instant = try WhenParser.parseInstant(text, calendar: calendar)
            if let problem = instantProblem(instant) { return "instant: \(problem)" }
        } catch {
            if let problem = errorProblem(error, expected: .invalidInput) { return problem }
        }
        return nil
    }

    /// A parsed instant must be writable, and read back exactly from what `export` writes.
    private static func instantProblem(_ instant: Instant) -> String? {
        guard InstantFormat.writableRange.contains(instant) else { return "\(instant.millisecondsSince1970) ms is outside the writable years" }
        let text = InstantFormat.utc(instant)
        guard let back = InstantFormat.parse(text) else { return "\(text) does not read back" }
        guard back == instant else { return "\(text) reads back as \(back.millisecondsSince1970) ms, not \(instant.millisecondsSince1970)" }
        return nil
    }

    /// Errors are of the documented kind, one line, and short whatever the input (a 1 MB input
    /// must not give a 1 MB message): at most `maxBytes` bytes of UTF-8 and, if given, at most
    /// `maxCharacters` characters. The suite's tests check every error message this way.
    static func errorProblem(
        _ error: TaskWidgetError, expected: TaskWidgetError.Code, maxBytes: Int = 600, maxCharacters: Int? = nil
    ) -> String? {
        guard error.code == expected else { return "a \(error.code) error, not \(expected): \(error.message)" }
        let breaks: Set<Unicode.Scalar> = ["\n", "\r", "\u{0B}", "\u{0C}", "\u{85}", "\u{2028}", "\u{2029}"]
        guard !error.message.unicodeScalars.contains(where: { breaks.contains($0) || $0.value < 0x20 }) else {
            return "the message is not one line of text: \(error.message.debugDescription)"
        }
        guard error.message.utf8.count <= maxBytes else { return "the message is \(error.message.utf8.count) bytes long" }
        if let maxCharacters, error.message.count > maxCharacters {
            return "the message is \(error.message.count) characters long: \(error.message.prefix(200))…"
        }
        return nil
    }
}
