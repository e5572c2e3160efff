public import Foundation

/// The JSON form of timelines and entries (SPEC §5), documented by `docs/timeline.schema.json`.
/// Keys are written in a fixed order, so the same timeline always gives the same bytes. An entry's
/// JSON is also what the PNG renderer reads (``entry(from:)``): there is no second format.
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
        let local = { (instant: Instant) in JSONValue.string(InstantFormat.local(instant, in: zone)) }
        return .object([
            ("date", local(entry.date)),
            ("epoch", .int(entry.date.secondsSince1970)),
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

    /// ``FNV1a`` of what the entry shows: counts, top, habits, the relevance score and the scope.
    static func contentHash(of entry: TimelineEntry) -> String {
        let text = JSONValue.object(
            content(of: entry, in: utc) + [("score", .int(Int64(entry.relevance.score))), ("scope", .optional(entry.scopeTitle))]
        ).compactText
        return FNV1a.hex(of: text.utf8)
    }

    private static let utc = TimeZone(identifier: "UTC")!

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
                    ("id", .string(task.id.lowercasedString)),
                    ("title", .string(task.title)),
                    ("list", .optional(task.listName)),
                    ("colorHex", .optional(task.colorHex)),
                    ("dueDate", .optional(task.dueDate.map { InstantFormat.local($0, in: zone) })),
                    ("isOverdue", .bool(task.isOverdue)),
                    ("state", .string(task.state.rawValue)),
                    ("dueLabel", .optional(task.dueLabel)),
                    ("reminderDate", .optional(task.reminderDate.map { InstantFormat.local($0, in: zone) })),
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

    /// Reads one entry written by ``value(of:in:)``: the renderer's input. The entry's local day is
    /// the date its `dayStart` is written with. Anything else is an ``TaskWidgetError/Code/invalidInput``
    /// error.
    public static func entry(from data: Data) throws -> TimelineEntry {
        let document: EntryDocument
        do {
            document = try JSONDecoder().decode(EntryDocument.self, from: data)
        } catch {
            throw TaskWidgetError(.invalidInput, "the input is not a timeline entry (see docs/timeline.schema.json)")
        }
        return try document.entry()
    }

    /// The documented entry object, as JSON decodes it.
    private struct EntryDocument: Decodable {
        struct Task: Decodable {
            var id: UUID
            var title: String
            var list: String?
            var colorHex: String?
            var dueDate: String?
            var isOverdue: Bool
            var state: TaskState
            var dueLabel: String?
            var reminderDate: String?
        }

        struct Habits: Decodable {
            struct Item: Decodable {
                var name: String
                var icon: String
                var colorHex: String
                var status: HabitStatus?
            }

            var done: Int
            var total: Int
            var items: [Item]
        }

        struct Counts: Decodable {
            var open, overdue, dueToday, dueSoon, completedToday, inbox: Int
        }

        struct Relevance: Decodable {
            var score: Int
            var duration: Int64
        }

        var date: String
        var reasons: [String]
        var dayStart: String
        var dayEnd: String
        var scope: String?
        var counts: Counts
        var top: [Task]
        var habits: Habits
        var relevance: Relevance
        var nextChange: String

        func entry() throws -> TimelineEntry {
            func instant(_ text: String) throws -> Instant {
                guard let instant = InstantFormat.parse(text) else {
                    throw TaskWidgetError(.invalidInput, "the entry's date “\(text.sanitizedForMessage)” is not RFC 3339")
                }
                return instant
            }
            guard let day = LocalDay(String(dayStart.prefix(10))) else {
                throw TaskWidgetError(.invalidInput, "the entry's dayStart “\(dayStart.sanitizedForMessage)” is not RFC 3339")
            }
            return TimelineEntry(
                date: try instant(date), reasons: EntryReasons(names: reasons), day: day, dayStart: try instant(dayStart),
                dayEnd: try instant(dayEnd),
                counts: TaskCounts(
                    open: counts.open, overdue: counts.overdue, dueToday: counts.dueToday, dueSoon: counts.dueSoon,
                    completedToday: counts.completedToday, inbox: counts.inbox),
                top: try top.map { task in
                    TopTask(
                        id: task.id, title: task.title, listName: task.list, colorHex: task.colorHex,
                        dueDate: try task.dueDate.map(instant), isOverdue: task.isOverdue, state: task.state,
                        dueLabel: task.dueLabel, reminderDate: try task.reminderDate.map(instant))
                },
                habits: HabitSummary(
                    done: habits.done, total: habits.total,
                    items: habits.items.map { .init(name: $0.name, icon: $0.icon, colorHex: $0.colorHex, status: $0.status) }),
                relevance: TaskWidgetCore.Relevance(score: relevance.score, duration: relevance.duration),
                nextChange: try instant(nextChange), scopeTitle: scope)
        }
    }
}
