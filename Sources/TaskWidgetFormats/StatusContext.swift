import Foundation
import Mustache
import TaskWidgetCore

/// What a name of a status template holds: a value, an object with names of its own, or a list.
/// A template's names are checked against the shapes when it is loaded (``TemplateNames``).
indirect enum ContextShape: Sendable {
    case value
    case object([String: ContextShape])
    case list(ContextShape)
}

/// One name of a template context: what it holds, and how its value is found in `Owner`.
struct ContextField<Owner>: Sendable {
    let shape: ContextShape
    let lookup: @Sendable (Owner) -> Any?

    /// A text, number or flag.
    static func value<Value: ContextScalar>(_ value: @escaping @Sendable (Owner) -> Value?) -> ContextField {
        ContextField(shape: .value) { owner in value(owner)?.contextValue }
    }

    /// An object whose names are `fields`, found in what `part` gives.
    static func object<Part>(_ fields: [String: ContextField<Part>], _ part: @escaping @Sendable (Owner) -> Part?) -> ContextField {
        ContextField(shape: .object(fields.mapValues(\.shape))) { owner in
            part(owner).map { ContextValue.object(ContextObject(owner: $0, fields: fields)) }
        }
    }

    /// A list of objects whose names are `fields`, one for each of what `parts` gives.
    static func list<Part>(_ fields: [String: ContextField<Part>], _ parts: @escaping @Sendable (Owner) -> [Part]) -> ContextField {
        ContextField(shape: .list(.object(fields.mapValues(\.shape)))) { owner in
            parts(owner).map { ContextValue.object(ContextObject(owner: $0, fields: fields)) }
        }
    }
}

/// A value of a template context: a text, a number, a flag or an object.
///
/// One type for every value a template meets, where Mustache would otherwise see `String`, `Int`,
/// `Bool` and the objects: it casts each value to its protocols (a parent? renderable? a
/// sequence? transformable? optional?), and the first cast of each type to each protocol scans all
/// of the binary's conformance records, about 0.4 M instructions in `status`. As a parent, a value
/// also answers Mustache's name lookups itself, which would otherwise reflect on strings and
/// numbers with `Mirror`. It reads as Mustache reads the plain values: `false` is an empty
/// section, and every other value, `0` and `""` too, a section pushed onto the context.
enum ContextValue: MustacheParent, MustacheCustomRenderable, MustacheTransformable {
    case text(String)
    case integer(Int64)
    case flag(Bool)
    case object(ContextObject)

    func child(named name: String) -> Any? {
        guard case .object(let object) = self else { return nil }
        return object.child(named: name)
    }

    var renderText: String {
        switch self {
        case .text(let text): text
        case .integer(let number): String(number)
        case .flag(let flag): flag ? "true" : "false"
        case .object: ""
        }
    }

    var isNull: Bool {
        if case .flag(false) = self { true } else { false }
    }

    /// Mustache's transforms of the value inside (`uppercased(title)`, `plusone(overdue)`, …).
    func transform(_ name: String) -> Any? {
        switch self {
        case .text(let text): text.transform(name)
        case .integer(let number): number.transform(name)
        case .flag, .object: nil
        }
    }
}

/// A Swift value that a template shows as a ``ContextValue``.
protocol ContextScalar: SendableMetatype {
    var contextValue: ContextValue { get }
}

extension String: ContextScalar {
    var contextValue: ContextValue { .text(self) }
}

extension Int: ContextScalar {
    var contextValue: ContextValue { .integer(Int64(self)) }
}

extension Int64: ContextScalar {
    var contextValue: ContextValue { .integer(self) }
}

extension Bool: ContextScalar {
    var contextValue: ContextValue { .flag(self) }
}

/// An object of a template context: each value is found when the template asks for it (a status
/// bar runs this every few seconds, and most templates use a few names: `entryJSON` alone
/// serialises the whole entry). One type for every owner, not a generic one, for the reason
/// ``ContextValue`` gives.
struct ContextObject {
    private let lookup: (String) -> Any?

    init<Owner>(owner: Owner, fields: [String: ContextField<Owner>]) {
        lookup = { name in fields[name]?.lookup(owner) }
    }

    func child(named name: String) -> Any? {
        lookup(name)
    }
}

/// What a status template sees (SPEC §6): the entry, with the names of its JSON (§5:
/// `counts.overdue`, `top`, `habits.items`, …), plus convenience names for bars: the counts at
/// the top level, booleans for sections, the bar's class, `next`, `summary`, and for a one-shot
/// `status` times relative to the moment it runs. docs/status-bars.md lists them all.
struct StatusContext: Sendable {
    let entry: TimelineEntry
    let timeZone: TimeZone
    /// The exact moment a one-shot `status` runs; `nil` in `watch`, whose lines must hold for a whole entry.
    let now: Instant?
    let maxWidth: Int

    /// The template context.
    var object: ContextValue { .object(ContextObject(owner: self, fields: Self.fields)) }

    /// The names of the context, what they hold, and how they are found.
    static let fields: [String: ContextField<StatusContext>] = {
        var fields: [String: ContextField<StatusContext>] = [
            // The entry, named as in its JSON.
            "date": .value { $0.local($0.entry.date) },
            "epoch": .value { $0.entry.date.secondsSince1970 },
            "reasons": ContextField(shape: .list(.value)) { $0.entry.reasons.names },
            "dayStart": .value { $0.local($0.entry.dayStart) },
            "dayEnd": .value { $0.local($0.entry.dayEnd) },
            "scope": .value { $0.entry.scopeTitle },
            "counts": .object(countFields) { $0.entry.counts },
            "top": .list(taskFields) { context in context.entry.top.map { TaskInContext(task: $0, context: context) } },
            "habits": .object(habitFields) { $0.entry.habits },
            "relevance": .object(["score": .value { $0.score }, "duration": .value { $0.duration }]) { $0.entry.relevance },
            "nextChange": .value { $0.local($0.entry.nextChange) },
            "contentHash": .value { $0.entry.contentHash },
            // For bars.
            "hasTasks": .value { $0.entry.counts.open > 0 },
            "hasOverdue": .value { $0.entry.counts.overdue > 0 },
            "hasDueToday": .value { $0.entry.counts.dueToday > 0 },
            "hasDueSoon": .value { $0.entry.counts.dueSoon > 0 },
            "hasDoneToday": .value { $0.entry.counts.completedToday > 0 },
            "hasMore": .value { $0.entry.counts.open > $0.entry.top.count },
            "more": .value { $0.entry.counts.open - $0.entry.top.count },
            "others": .value { max(0, $0.entry.counts.open - 1) },
            "summary": .value { $0.summary },
            "class": .value { $0.statusClass },
            "percentage": .value { $0.percentage },
            "color": .value { $0.color },
            "instance": .value { $0.entry.scopeTitle ?? "all" },
            "next": .object(taskFields) { context in context.entry.next.map { TaskInContext(task: $0, context: context) } },
            "habitsDone": .value { $0.entry.habits.done },
            "habitsTotal": .value { $0.entry.habits.total },
            "time": .value { String($0.local($0.entry.date).dropFirst(11).prefix(5)) },
            "entryJSON": .value { TimelineJSON.value(of: $0.entry, in: $0.timeZone).compactText },
        ]
        // `{{overdue}}` and the other counts, as `{{counts.overdue}}`.
        for (name, field) in countFields {
            fields[name] = ContextField(shape: .value) { field.lookup($0.entry.counts) }
        }
        return fields
    }()

    private static let countFields: [String: ContextField<TaskCounts>] = [
        "open": .value { $0.open }, "overdue": .value { $0.overdue }, "dueToday": .value { $0.dueToday }, "dueSoon": .value { $0.dueSoon },
        "completedToday": .value { $0.completedToday }, "inbox": .value { $0.inbox },
    ]

    private static let habitFields: [String: ContextField<HabitSummary>] = [
        "done": .value { $0.done }, "total": .value { $0.total },
        "items": .list(
            [
                "name": .value { $0.name }, "icon": .value { $0.icon }, "colorHex": .value { $0.colorHex }, "status": .value { $0.status?.rawValue },
                "isDone": .value { $0.status == .done },
            ], { $0.items }),
    ]

    /// A task of `top` or `next` with what its names need: the width titles are cut to, the zone
    /// and the moment of a one-shot status.
    private struct TaskInContext {
        let task: TopTask
        let context: StatusContext
    }

    private static let taskFields: [String: ContextField<TaskInContext>] = [
        "id": .value { $0.task.id.lowercasedString },
        "title": .value { $0.task.title.truncated(to: $0.context.maxWidth) },
        "list": .value { $0.task.listName },
        "colorHex": .value { $0.task.colorHex },
        "dueDate": .value { item in item.task.dueDate.map(item.context.local) },
        "isOverdue": .value { $0.task.isOverdue },
        "state": .value { $0.task.state.rawValue },
        "dueLabel": .value { $0.task.dueLabel },
        "reminderDate": .value { item in item.task.reminderDate.map(item.context.local) },
        "isActive": .value { $0.task.state == .active },
        "when": .value { $0.context.when($0.task) },
    ]

    private func local(_ instant: Instant) -> String {
        InstantFormat.local(instant, in: timeZone)
    }

    /// The counts that are not zero, `1 overdue · 3 today · 1 soon · 2 done`; `4 open` when none
    /// of those is, and `nil` when nothing is open or done.
    var summary: String? {
        let counts = entry.counts
        let parts = [(counts.overdue, "overdue"), (counts.dueToday, "today"), (counts.dueSoon, "soon"), (counts.completedToday, "done")]
            .filter { $0.0 > 0 }.map { "\($0.0) \($0.1)" }
        if !parts.isEmpty { return parts.joined(separator: " · ") }
        return counts.open > 0 ? "\(counts.open) open" : nil
    }

    /// `overdue`, `due-soon`, `ok` or `empty` (waybar's class and alt).
    var statusClass: String {
        if entry.counts.overdue > 0 { return "overdue" }
        if entry.counts.dueSoon > 0 { return "due-soon" }
        return entry.counts.open > 0 ? "ok" : "empty"
    }

    /// Done today out of (done today + still open and due by the end of today, overdue ones
    /// included), 0–100; 0 when nothing was due or done. Without the overdue ones, a day whose
    /// tasks had fallen due undone read 100 once one task was done.
    var percentage: Int {
        let total = entry.counts.completedToday + entry.counts.overdue + entry.counts.dueToday
        return total == 0 ? 0 : entry.counts.completedToday * 100 / total
    }

    private var color: String? {
        switch statusClass {
        case "overdue": "#FF6B6B"
        case "due-soon": "#FFB020"
        default: nil
        }
    }

    /// `2 h overdue`, `in 15 min` (to the nearest minute or hour), `due now` (within a minute either
    /// side) for a one-shot status within a day of a due time; else the due label (a day alone is
    /// `Today`, not `in 7 h` to its stored 23:59).
    private func when(_ task: TopTask) -> String? {
        guard let dueDate = task.dueDate else { return nil }
        guard let now, !DueLabeler.isDayOnly(dueDate, in: timeZone) else { return task.dueLabel }
        let seconds = Int(dueDate.millisecondsSince1970 - now.millisecondsSince1970) / 1000
        guard abs(seconds) < 24 * 3600 else { return task.dueLabel }
        guard abs(seconds) >= 60 else { return "due now" }
        // To the nearest minute or hour: 1 h 59 min is "in 2 h", not "in 1 h".
        let minutes = (abs(seconds) + 30) / 60
        let amount = minutes < 60 ? "\(minutes) min" : "\((minutes + 30) / 60) h"
        return seconds < 0 ? amount + " overdue" : "in " + amount
    }
}
