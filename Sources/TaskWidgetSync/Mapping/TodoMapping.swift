public import Foundation
import TaskWidgetCore

/// Maps a calendar object's VTODO to ``TodoFields`` and back (SPEC §12), touching only what
/// taskwidget models: every other property, parameter and component comes back unchanged.
///
/// | VTODO | TodoFields |
/// |---|---|
/// | UID | `uid` (kept as written, UUID or not) |
/// | SUMMARY | `title` |
/// | DUE (DATE → 23:59 local, TZID, UTC, floating), else DTSTART + DURATION | `dueDate`, `dueIsDateOnly` |
/// | STATUS NEEDS-ACTION / IN-PROCESS / COMPLETED / CANCELLED (else COMPLETED, PERCENT-COMPLETE:100) | `state` |
/// | COMPLETED | `completedAt` |
/// | CREATED | `createdAt` |
/// | LAST-MODIFIED, else DTSTAMP | `modifiedAt` |
/// | X-APPLE-SORT-ORDER | `sortOrder` |
/// | the first VALARM whose trigger gives an instant, unless ACKNOWLEDGED since | `reminderDate` |
///
/// ```swift
/// let mapping = TodoMapping(timeZone: userZone)
/// var calendar = try ICalendar(parsing: body)
/// var fields = try mapping.fields(from: calendar)
/// fields.title = "Buy oat milk"
/// if try mapping.apply(fields, to: &calendar, now: now) { put(calendar.serializedData()) }
/// ```
public struct TodoMapping: Sendable {
    /// The user's zone: floating times and DATE values are read in it, and a due date at 23:59 in
    /// it may be written as a DATE.
    public var timeZone: TimeZone

    /// What a VALARM that taskwidget adds says (ACTION:DISPLAY needs a DESCRIPTION).
    public static let alarmDescription = "Reminder"
    /// The PRODID of calendar objects that taskwidget creates.
    public static let productID = "-//taskwidget//EN"

    /// A mapping for a user in `timeZone` (taskwidget's `TZ` or `--tz`).
    public init(timeZone: TimeZone) {
        self.timeZone = timeZone
    }

    // MARK: Reading

    /// The fields of the calendar object's VTODO: the first one without RECURRENCE-ID (the master
    /// of a recurring task; its overrides are left alone), else the first one.
    public func fields(from calendar: ICalendar) throws(ICalError) -> TodoFields {
        let location = try Self.locateTodo(in: calendar)
        let container = calendar.components[location.container]
        guard case .component(let todo) = container.children[location.child] else { throw ICalError(.noTodo) }
        return try fields(of: todo, in: container)
    }

    /// The fields of `todo`, whose TZIDs are defined by the VTIMEZONEs of `vcalendar`.
    public func fields(of todo: ICalComponent, in vcalendar: ICalComponent?) throws(ICalError) -> TodoFields {
        try fields(of: todo, zones: ICalTimeZones(floating: timeZone, calendar: vcalendar))
    }

    func fields(of todo: ICalComponent, zones: ICalTimeZones) throws(ICalError) -> TodoFields {
        guard let uid = todo.property("UID")?.textValue, !uid.isEmpty else { throw ICalError(.missingUID) }
        let due = dueDate(of: todo, zones: zones)
        return TodoFields(
            uid: uid,
            title: todo.property("SUMMARY")?.textValue ?? "",
            dueDate: due?.instant,
            dueIsDateOnly: due?.isDate ?? false,
            state: Self.state(of: todo),
            completedAt: instant("COMPLETED", of: todo, zones: zones),
            createdAt: instant("CREATED", of: todo, zones: zones),
            modifiedAt: instant("LAST-MODIFIED", of: todo, zones: zones) ?? instant("DTSTAMP", of: todo, zones: zones),
            sortOrder: Self.integer("X-APPLE-SORT-ORDER", of: todo),
            reminderDate: reminderAlarm(of: todo, zones: zones)?.instant
        ).normalized()
    }

    /// STATUS decides; without a STATUS taskwidget knows, a COMPLETED property or
    /// PERCENT-COMPLETE:100 means completed. CANCELLED counts as completed.
    static func state(of todo: ICalComponent) -> TaskState {
        switch todo.property("STATUS")?.value.trimmingCharacters(in: .whitespaces).uppercased() {
        case "NEEDS-ACTION": return .notStarted
        case "IN-PROCESS": return .active
        case "COMPLETED", "CANCELLED": return .completed
        default:
            if todo.property("COMPLETED") != nil { return .completed }
            return integer("PERCENT-COMPLETE", of: todo) == 100 ? .completed : .notStarted
        }
    }

    /// An INTEGER property's value; `nil` when it is missing or not a number.
    static func integer(_ name: String, of todo: ICalComponent) -> Int? {
        todo.property(name).flatMap { Int($0.value.trimmingCharacters(in: .whitespaces)) }
    }

    /// A DATE as a due date alone is kept: at 23:59 that day in the floating zone
    /// (``LocalCalendar/dayAlone(_:)``).
    private static func endOfDay(_ date: ICalDateTime, zones: ICalTimeZones) -> Date? {
        let calendar = LocalCalendar(timeZone: zones.floating)
        return date.instant(in: zones).flatMap { calendar.dayAlone(calendar.localDay(containing: Instant($0))) }?.date
    }

    /// DUE (a DATE at 23:59 local), else DTSTART + DURATION (RFC 5545 allows either).
    private func dueDate(of todo: ICalComponent, zones: ICalTimeZones) -> (instant: Date, isDate: Bool)? {
        if let property = todo.property("DUE") {
            guard let value = ICalDateTime(property: property),
                let instant = value.isDate ? Self.endOfDay(value, zones: zones) : value.instant(in: zones)
            else { return nil }
            return (instant, value.isDate)
        }
        guard let end = endFromDuration(of: todo, zones: zones) else { return nil }
        return (end.instant, false)
    }

    /// DTSTART + DURATION, with DTSTART's wall-clock zone, in which the duration's days count.
    private func endFromDuration(of todo: ICalComponent, zones: ICalTimeZones) -> (instant: Date, zone: TimeZone)? {
        guard let start = moment("DTSTART", of: todo, zones: zones),
            let duration = todo.property("DURATION").flatMap({ ICalDuration($0.value) })
        else { return nil }
        return (duration.added(to: start.instant, in: start.zone), start.zone)
    }

    /// The instant of a date property. A DATE is its day's start (00:00 local), as RFC 5545 reads
    /// DATE values and other clients count relative triggers from them.
    private func instant(_ name: String, of todo: ICalComponent, zones: ICalTimeZones) -> Date? {
        todo.property(name).flatMap(ICalDateTime.init(property:))?.instant(in: zones)
    }

    /// The instant of a date property, with the zone on whose wall clock a duration's days count
    /// from it (RFC 5545 §3.3.6): its TZID's, UTC's, or the reader's for a DATE or a floating time.
    private func moment(_ name: String, of todo: ICalComponent, zones: ICalTimeZones) -> (instant: Date, zone: TimeZone)? {
        guard let value = todo.property(name).flatMap(ICalDateTime.init(property:)), let instant = value.instant(in: zones)
        else { return nil }
        return (instant, value.wallClockZone(in: zones) ?? zones.floating)
    }

    // MARK: Alarms

    /// The instant `alarm` fires for `todo`, or `nil` when it has none taskwidget can show:
    /// - `TRIGGER;VALUE=DATE-TIME:20261127T164500Z`: that instant;
    /// - `TRIGGER;RELATED=END:-PT15M`: relative to DUE (else DTSTART + DURATION);
    /// - `TRIGGER:-PT15M` or `RELATED=START`: relative to DTSTART; a VTODO without DTSTART counts
    ///   from DUE instead (RFC 5545 leaves that case undefined; phones mean the due date);
    /// - a location alarm (RFC 9074 PROXIMITY, Apple's X-APPLE-PROXIMITY, whose trigger is a
    ///   placeholder date in 1976) has none, nor has an alarm that does nothing (RFC 9074's
    ///   ACTION:NONE, Apple's "no alarm" with that 1976 date): it showed as a reminder in 1976,
    ///   and a reminder set here went into it, so the phone never rang (helper-126).
    func alarmInstant(_ alarm: ICalComponent, in todo: ICalComponent, zones: ICalTimeZones) -> Date? {
        guard alarm.property("PROXIMITY") == nil, alarm.property("X-APPLE-PROXIMITY") == nil,
            alarm.property("ACTION")?.value.uppercased() != "NONE",
            let trigger = alarm.property("TRIGGER"), trigger.value != Self.applePlaceholderTrigger
        else { return nil }
        let valueType = trigger.parameterValue("VALUE")?.uppercased()
        let duration = valueType == "DATE-TIME" ? nil : ICalDuration(trigger.value)
        guard let duration else {
            return ICalDateTime(property: trigger)?.instant(in: zones).map(TodoFields.wholeSeconds)
        }
        let end = { moment("DUE", of: todo, zones: zones) ?? endFromDuration(of: todo, zones: zones) }
        let relatedToEnd = trigger.parameterValue("RELATED")?.uppercased() == "END"
        let base = relatedToEnd ? end() : (moment("DTSTART", of: todo, zones: zones) ?? end())
        return base.map { TodoFields.wholeSeconds(duration.added(to: $0.instant, in: $0.zone)) }
    }

    /// The date Apple's clients give an alarm that has none of its own (a location alarm, "no
    /// alarm"): whatever its action, it is no reminder in 1976 (helper-127).
    static let applePlaceholderTrigger = "19760401T005545Z"

    /// The task's reminder: the first VALARM (in order) that has an instant and is still to come
    /// there (``isPending(_:at:zones:)``).
    func reminderAlarm(of todo: ICalComponent, zones: ICalTimeZones) -> (index: Int, instant: Date)? {
        for (index, child) in todo.children.enumerated() {
            guard case .component(let alarm) = child, alarm.hasName("VALARM"),
                let instant = alarmInstant(alarm, in: todo, zones: zones), isPending(alarm, at: instant, zones: zones)
            else { continue }
            return (index, instant)
        }
        return nil
    }

    /// Whether `alarm`, which fires at `firing`, has not been acknowledged at or after it (RFC
    /// 9074's ACKNOWLEDGED, which a phone writes when the alarm is dismissed or snoozed; a snooze
    /// adds an alarm of its own, which comes next). An acknowledged one showed again here as a
    /// missed reminder, and the phone's snooze never fired (helper-93). An occurrence of a series
    /// after the acknowledgement is still to come.
    func isPending(_ alarm: ICalComponent, at firing: Date, zones: ICalTimeZones) -> Bool {
        guard let acknowledged = instant("ACKNOWLEDGED", of: alarm, zones: zones) else { return true }
        return acknowledged < firing
    }

    // MARK: Locating

    /// Where the master VTODO is: the index of its container (a VCALENDAR) among the top-level
    /// components, and its index among the container's children.
    static func locateTodo(in calendar: ICalendar) throws(ICalError) -> (container: Int, child: Int) {
        var fallback: (container: Int, child: Int)?
        for (containerIndex, container) in calendar.components.enumerated() {
            for (childIndex, child) in container.children.enumerated() {
                guard case .component(let todo) = child, todo.hasName("VTODO") else { continue }
                if todo.property("RECURRENCE-ID") == nil { return (containerIndex, childIndex) }
                if fallback == nil { fallback = (containerIndex, childIndex) }
            }
        }
        guard let fallback else { throw ICalError(.noTodo) }
        return fallback
    }
}
