import Foundation

@testable import TaskWidgetTestSupport

/// Whether a line printed by `status` or `watch` is one valid line of its format, as its host
/// parses it, for a store that could be read (an error line counts as a problem here).
enum StatusLineCheck {
    static let formats = ["text", "json", "waybar", "i3bar", "polybar", "tmux"]

    /// What is wrong with the line, or `nil` if it is valid.
    static func problem(_ line: String, format: String) -> String? {
        if line.isEmpty { return "empty" }
        if line.unicodeScalars.contains(where: HostileText.isControl) { return "a control character" }
        switch format {
        case "waybar":
            guard let object = jsonObject(line) else { return "not a JSON object" }
            guard Set(object.keys) == ["text", "tooltip", "class", "alt", "percentage"] else { return "keys \(object.keys.sorted())" }
            guard let text = object["text"] as? String, !text.isEmpty, let tooltip = object["tooltip"] as? String else { return "text or tooltip" }
            guard let kind = object["class"] as? String, ["overdue", "due-soon", "ok", "empty"].contains(kind), object["alt"] as? String == kind
            else { return "class \(object["class"] ?? "none")" }
            guard let percentage = object["percentage"] as? NSNumber, (0...100).contains(percentage.intValue) else { return "percentage" }
            return pangoProblem(text, tags: [], spans: false) ?? pangoProblem(tooltip, tags: ["<b>", "</b>", "</span>"], spans: true)
        case "i3bar":
            guard let object = jsonObject(line) else { return "not a JSON object" }
            let keys = Set(object.keys).subtracting(["color"])
            guard keys == ["full_text", "short_text", "urgent", "name", "instance", "markup"] else { return "keys \(object.keys.sorted())" }
            guard let text = object["full_text"] as? String, !text.hasPrefix("⚠ taskwidget"), object["urgent"] is Bool else { return "full_text or urgent" }
            if let color = object["color"] { guard (color as? String)?.wholeMatch(of: /#[0-9A-Fa-f]{6}/) != nil else { return "color \(color)" } }
            return object["markup"] as? String == "pango" ? pangoProblem(text, tags: [], spans: false) : nil
        case "json":
            guard let object = jsonObject(line) else { return "not a JSON object" }
            for key in ["date", "epoch", "reasons", "counts", "top", "habits", "relevance", "nextChange", "contentHash"] where object[key] == nil {
                return "no \(key)"
            }
            return (object["counts"] as? [String: Any])?["open"] is Int ? nil : "counts.open"
        case "polybar":
            // A title's `%` is followed by a zero-width space (polybar has no escape for it).
            return tagProblem(line, marker: "%", escape: "\u{200B}", open: "{", tags: [/F#[0-9a-fA-F]{6}/, /F-/], close: "}")
        case "tmux":
            return tagProblem(line, marker: "#", escape: "#", open: "[", tags: [/fg=[a-z]+(?:,bold)?/, /default/], close: "]")
        default:
            return line.hasPrefix("⚠ taskwidget") ? "an error line" : nil
        }
    }

    static func jsonObject(_ line: String) -> [String: Any]? {
        try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
    }

    static let pangoEntities = ["&amp;", "&lt;", "&gt;", "&quot;", "&#39;"]

    /// Pango markup: every `<` starts one of the allowed tags (or, with `spans`, a
    /// `<span color='#rrggbb'>`), every `&` an entity, and no `>` stands alone. Read scalar by
    /// scalar, as Pango reads bytes (like the unit tests' `Independent.markupProblems`): a mark
    /// joined to a `<` makes one `Character` but leaves the `<` a tag opener.
    private static func pangoProblem(_ text: String, tags: [String], spans: Bool) -> String? {
        var rest = Substring(text).unicodeScalars
        while let index = rest.firstIndex(where: { $0 == "&" || $0 == "<" || $0 == ">" }) {
            let tail = rest[index...]
            let known: Int? =
                switch tail.first {
                case "&": pangoEntities.first { tail.starts(with: $0.unicodeScalars) }?.unicodeScalars.count
                case "<": tags.first { tail.starts(with: $0.unicodeScalars) }?.unicodeScalars.count ?? (spans ? spanLength(tail) : nil)
                default: nil
                }
            guard let known else { return "markup not escaped (\(tail.first!) at “\(Substring(tail.prefix(12)))”): \(text)" }
            rest = tail.dropFirst(known)
        }
        return nil
    }

    /// The length in scalars of the `<span color='#rrggbb'>` that `scalars` starts with, if any.
    private static func spanLength(_ scalars: Substring.UnicodeScalarView) -> Int? {
        let open = "<span color='#".unicodeScalars
        let close = "'>".unicodeScalars
        guard scalars.starts(with: open) else { return nil }
        let digits = scalars.dropFirst(open.count).prefix(6)
        guard digits.count == 6, digits.allSatisfy({ $0.isASCII && $0.properties.isASCIIHexDigit }),
            scalars.dropFirst(open.count + 6).starts(with: close)
        else { return nil }
        return open.count + 6 + close.count
    }

    /// A host whose tags start with MARKER OPEN (polybar's `%{`, tmux's `#[`): every MARKER is
    /// escaped (a title's: followed by ESCAPE) or starts one of the known tags.
    private static func tagProblem(
        _ line: String, marker: Character, escape: Character, open: Character, tags: [Regex<Substring>], close: Character
    ) -> String? {
        let scalars = line.unicodeScalars
        var index = scalars.startIndex
        while let found = scalars[index...].firstIndex(of: marker.unicodeScalars.first!) {
            let next = scalars.index(after: found)
            guard next < scalars.endIndex else { return "a lone \(marker) at the end" }
            if scalars[next] == escape.unicodeScalars.first! {
                index = scalars.index(after: next)
                continue
            }
            guard scalars[next] == open.unicodeScalars.first!, let end = scalars[next...].firstIndex(of: close.unicodeScalars.first!)
            else { return "a lone \(marker): \(line)" }
            let tag = Substring(scalars[scalars.index(after: next)..<end])
            guard tags.contains(where: { (try? $0.wholeMatch(in: tag)) != nil }) else { return "unknown tag \(tag): \(line)" }
            index = scalars.index(after: end)
        }
        return line.contains("⚠ taskwidget") ? "an error line" : nil
    }
}
