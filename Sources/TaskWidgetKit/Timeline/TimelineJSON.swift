public import Foundation

/// The JSON form of timelines and entries (SPEC §5), documented by `docs/timeline.schema.json`.
/// Keys are written in a fixed order, so the same timeline always gives the same bytes.
public enum TimelineJSON {
    /// The whole timeline, pretty-printed.
    public static func document(_ timeline: Timeline) -> String {
        let zone = timeline.timeZone
        return JSONValue.object([
            ("schema", .string(Timeline.schema)),
            ("generatedAt", .string(InstantFormat.local(timeline.generatedAt, in: zone))),
            ("timeZone", .string(zone.identifier)),
            ("reloadAfter", .string(InstantFormat.local(timeline.reloadAfter, in: zone))),
            ("validUntil", .string(InstantFormat.local(timeline.validUntil, in: zone))),
            ("truncated", .bool(timeline.truncated)),
            ("entries", .array(timeline.entries.map { value(of: $0, in: zone) })),
        ]).prettyText + "\n"
    }

    /// One entry as a JSON object (also the `json` status format's context).
    public static func value(of entry: TimelineEntry, in zone: TimeZone) -> JSONValue {
        let local = { (seconds: Int64) in JSONValue.string(InstantFormat.local(seconds, in: zone)) }
        return .object([
            ("date", local(entry.date)),
            ("epoch", .int(entry.date)),
            ("reasons", .array(entry.reasons.names.map(JSONValue.string))),
            ("dayStart", local(entry.dayStart)),
            ("dayEnd", local(entry.dayEnd)),
            ("scope", .optional(entry.scopeTitle)),
        ] + content(of: entry, in: zone) + [
            ("relevance", .object([("score", .int(Int64(entry.relevance.score))), ("duration", .int(entry.relevance.duration))])),
            ("nextChange", local(entry.nextChange)),
            ("contentHash", .string(entry.contentHash)),
        ])
    }

    /// FNV-1a (64 bit) of what the entry shows: counts, top, habits and the relevance score. Stable
    /// across runs and machines, unlike Swift's `Hasher`.
    static func contentHash(of entry: TimelineEntry) -> String {
        let text = JSONValue.object(
            content(of: entry, in: TimeZone(identifier: "UTC")!) + [("score", .int(Int64(entry.relevance.score))), ("scope", .optional(entry.scopeTitle))]
        ).compactText
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    private static func content(of entry: TimelineEntry, in zone: TimeZone) -> [(String, JSONValue)] {
        let counts = entry.counts
        let int = { (value: Int) in JSONValue.int(Int64(value)) }
        return [
            ("counts", .object([
                ("open", int(counts.open)), ("overdue", int(counts.overdue)), ("dueToday", int(counts.dueToday)),
                ("dueSoon", int(counts.dueSoon)), ("completedToday", int(counts.completedToday)), ("inbox", int(counts.inbox)),
            ])),
            ("top", .array(entry.top.map { task in
                .object([
                    ("id", .string(task.id.uuidString.lowercased())),
                    ("title", .string(task.title)),
                    ("list", .optional(task.listName)),
                    ("colorHex", .optional(task.colorHex)),
                    ("dueDate", .optional(task.dueDate.map { InstantFormat.local($0, in: zone) })),
                    ("isOverdue", .bool(task.isOverdue)),
                    ("state", .string(task.state.rawValue)),
                    ("dueLabel", .optional(task.dueLabel)),
                ])
            })),
            ("habits", .object([
                ("done", int(entry.habits.done)), ("total", int(entry.habits.total)),
                ("items", .array(entry.habits.items.map { item in
                    .object([
                        ("name", .string(item.name)), ("icon", .string(item.icon)), ("colorHex", .string(item.colorHex)),
                        ("status", .optional(item.status?.rawValue)),
                    ])
                })),
            ])),
        ]
    }
}
