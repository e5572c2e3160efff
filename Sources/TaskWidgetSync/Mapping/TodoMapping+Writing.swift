public import Foundation
import TaskWidgetCore

extension TodoMapping {
    /// Writes `fields` into the calendar object's VTODO (the one ``fields(from:)`` reads), changing
    /// only the properties whose values differ; returns whether anything changed.
    ///
    /// What changes, and how:
    /// - SUMMARY, COMPLETED, CREATED, X-APPLE-SORT-ORDER: rewritten in place, keeping their
    ///   parameters (TZID and VALUE go from date properties, which become UTC). A SUMMARY whose
    ///   cleaned-up form is the new title stays as it is.
    /// - DUE: a DUE that names the same instant is kept as it is (so a DATE read from the server
    ///   comes back as the same DATE). A changed due is written as a DATE when
    ///   ``TodoFields/dueIsDateOnly`` is set and it is 23:59:00 local (unless DTSTART is a
    ///   DATE-TIME: RFC 5545 wants both of one type), else as a UTC DATE-TIME; DURATION goes. A
    ///   DTSTART of the other type, or after the new DUE, is made to agree with it (`fitStart`);
    ///   a repeating task's keeps its type, and the DUE is written as its day beside a DATE.
    ///   A due date removed here leaves the alarms relative to it at their instants.
    /// - STATUS: written only when the state differs, so CANCELLED stays CANCELLED while the task
    ///   stays completed. PERCENT-COMPLETE, when present, becomes 100 on completion and goes when a
    ///   task at 100 is reopened.
    /// - Reminder: the task's VALARM (``reminderAlarm(of:zones:)``: the first with an instant, not
    ///   acknowledged since) is kept byte for byte when it fires at `reminderDate`; else only its
    ///   TRIGGER changes, to an absolute UTC time. With no such VALARM a new one is added
    ///   (ACTION:DISPLAY). A `nil` reminder removes every such VALARM (else the next one would
    ///   become the reminder on the next read), and keeps acknowledged and location alarms. Other
    ///   VALARMs stay as they are.
    /// - When anything changed: LAST-MODIFIED = `fields.modifiedAt` (never earlier than the one
    ///   there), DTSTAMP = `now`, SEQUENCE + 1. A difference in `modifiedAt` alone changes nothing.
    ///
    /// A due date that is the one both sides `agreed` on at the last sync was not changed here,
    /// and DUE stays as it is, with the alarms when the reminder is the agreed one too. So do
    /// COMPLETED, X-APPLE-SORT-ORDER and CREATED, whose values the store may have filled in. The VTODO
    /// may read otherwise in this run's time zone: an all-day DUE pulled in Berlin (23:59 there) reads as 23:59 UTC in a run
    /// in UTC, and was rewritten as a due time.
    ///
    /// - Throws: ``ICalError/Code/noTodo``, ``ICalError/Code/missingUID``, or
    ///   ``ICalError/Code/uidMismatch`` when `fields.uid` is not the VTODO's UID.
    @discardableResult
    public func apply(_ fields: TodoFields, agreed: TodoFields? = nil, to calendar: inout ICalendar, now: Date) throws(ICalError) -> Bool {
        let location = try Self.locateTodo(in: calendar)
        let container = calendar.components[location.container]
        guard case .component(var todo) = container.children[location.child] else { throw ICalError(.noTodo) }
        let zones = ICalTimeZones(floating: timeZone, calendar: container)
        let old = try self.fields(of: todo, zones: zones)
        guard old.uid == fields.uid else { throw ICalError(.uidMismatch) }

        var new = fields.normalized()
        if let agreed = agreed?.normalized() {
            // The reminder too, with the due date: an alarm relative to a DUE that moves here is
            // written as the store's instant, not as this run's reading of it.
            if new.dueDate == agreed.dueDate {
                (new.dueDate, new.dueIsDateOnly) = (old.dueDate, old.dueIsDateOnly)
                if new.reminderDate == agreed.reminderDate { new.reminderDate = old.reminderDate }
            }
            // What the store fills in where the server has nothing stays out of the object while
            // it is as agreed: a CANCELLED task's completion time (another client's CANCELLED
            // has no COMPLETED), a sort order, a creation time.
            if new.completedAt == agreed.completedAt { new.completedAt = old.completedAt }
            if new.sortOrder == agreed.sortOrder { new.sortOrder = old.sortOrder }
            if new.createdAt == agreed.createdAt { new.createdAt = old.createdAt }
        }
        guard write(new, over: old, into: &todo, zones: zones) else { return false }
        let modifiedAt = max(fields.modifiedAt ?? now, old.modifiedAt ?? .distantPast)
        Self.setDate("LAST-MODIFIED", .utc(modifiedAt), in: &todo)
        Self.setDate("DTSTAMP", .utc(now), in: &todo)
        // A hostile SEQUENCE:9223372036854775807 must not trap.
        let sequence = max(0, Self.integer("SEQUENCE", of: todo) ?? 0)
        Self.setValue("SEQUENCE", String(sequence == Int.max ? sequence : sequence + 1), in: &todo)
        calendar.components[location.container].children[location.child] = .component(todo)
        return true
    }

    /// A new calendar object for a task the server does not have yet: PRODID `-//taskwidget//EN`,
    /// VERSION 2.0, and a VTODO with UID, DTSTAMP (`now`), CREATED and LAST-MODIFIED (the
    /// fields', else `now`), SUMMARY, STATUS, then DUE, COMPLETED, X-APPLE-SORT-ORDER and a VALARM
    /// when set.
    public func newCalendar(for fields: TodoFields, now: Date) -> ICalendar {
        let fields = fields.normalized()
        let created = fields.createdAt ?? now
        var todo = ICalComponent(
            "VTODO",
            properties: [
                ICalProperty("UID", text: fields.uid),
                ICalProperty("DTSTAMP", value: ICalDateTime.utc(now).valueText),
                ICalProperty("CREATED", value: ICalDateTime.utc(created).valueText),
                ICalProperty("LAST-MODIFIED", value: ICalDateTime.utc(fields.modifiedAt ?? now).valueText),
                ICalProperty("SUMMARY", text: fields.title),
                ICalProperty("STATUS", value: "NEEDS-ACTION"),
            ])
        // What the skeleton above reads as; `write` adds the rest.
        let skeleton = TodoFields(
            uid: fields.uid, title: fields.title, createdAt: TodoFields.wholeSeconds(created),
            modifiedAt: fields.modifiedAt)
        write(fields, over: skeleton, into: &todo, zones: ICalTimeZones(floating: timeZone))
        let vcalendar = ICalComponent(
            "VCALENDAR",
            properties: [ICalProperty("PRODID", value: Self.productID), ICalProperty("VERSION", value: "2.0")],
            components: [todo])
        return ICalendar(components: [vcalendar])
    }

    /// Writes the fields that differ from `old` (what `todo` reads as now); returns whether any did.
    @discardableResult
    private func write(_ new: TodoFields, over old: TodoFields, into todo: inout ICalComponent, zones: ICalTimeZones)
        -> Bool
    {
        var changed = false
        // A title the store holds cleaned up (a line break, an empty or an over-long SUMMARY: see
        // `Validation.titleFromElsewhere`) was not changed here: SUMMARY stays as the other
        // client wrote it.
        if new.title != old.title, new.title != Validation.titleFromElsewhere(old.title) {
            if !todo.updateProperty("SUMMARY", { $0.textValue = new.title }) {
                todo.appendProperty(ICalProperty("SUMMARY", text: new.title))
            }
            changed = true
        }
        if new.dueDate != old.dueDate {
            writeDue(new, into: &todo, zones: zones)
            changed = true
        }
        if new.state != old.state {
            Self.writeState(new.state, into: &todo)
            changed = true
        }
        if new.completedAt != old.completedAt {
            if let completedAt = new.completedAt {
                Self.setDate("COMPLETED", .utc(completedAt), in: &todo)
            } else {
                todo.removeProperties("COMPLETED")
            }
            changed = true
        }
        if let createdAt = new.createdAt, createdAt != old.createdAt {
            Self.setDate("CREATED", .utc(createdAt), in: &todo)
            changed = true
        }
        if new.sortOrder != old.sortOrder {
            if let sortOrder = new.sortOrder {
                Self.setValue("X-APPLE-SORT-ORDER", String(sortOrder), in: &todo)
            } else {
                todo.removeProperties("X-APPLE-SORT-ORDER")
            }
            changed = true
        }
        // After DUE: a trigger relative to DUE is judged against the new due date.
        if writeReminder(new.reminderDate, into: &todo, zones: zones) { changed = true }
        return changed
    }

    private func writeDue(_ new: TodoFields, into todo: inout ICalComponent, zones: ICalTimeZones) {
        guard let due = new.dueDate else {
            // Alarms relative to the due date keep their instants: without DUE (or DURATION),
            // RFC 5545 gives them nothing to be relative to. So do those relative to a start the
            // task does not have, which are read from its due date.
            fixAlarms(relatedTo: todo.property("DTSTART") == nil ? ["END", "START"] : ["END"], in: &todo, zones: zones)
            todo.removeProperties("DUE")
            todo.removeProperties("DURATION")
            return
        }
        todo.removeProperties("DURATION")  // DUE and DURATION exclude each other
        let start = todo.property("DTSTART").flatMap(ICalDateTime.init(property:))
        var value = ICalDateTime.utc(due)
        let isDay = new.dueIsDateOnly && start?.isDate != false && TodoFields.isDayWithoutTime(due, in: timeZone)
        // A series of days stays one: its start's type is that of RRULE's UNTIL and of the
        // overrides' RECURRENCE-ID, so the due takes it (the store keeps a time set here until
        // the server's task changes).
        if isDay || (Self.repeats(todo) && start?.isDate == true), let day = ICalDateTime.date(containing: due, in: timeZone) {
            value = day
        }
        Self.setDate("DUE", value, in: &todo)
        if let start { fitStart(start, to: value, in: &todo, zones: zones) }
    }

    /// Makes DTSTART agree with a DUE written here, as RFC 5545 §3.8.2.3 asks (servers built on
    /// sabre/dav, Nextcloud's among them, refuse the task otherwise): of the same value type, so a
    /// DATE start beside a due time becomes the start of its day in this run's zone; and not after
    /// DUE, so a start after a due date moved earlier becomes DUE. Alarms relative to the start
    /// keep their instants (written as such). A repeating task's start anchors the series: with
    /// a due date moved before it, it goes back by whole periods of its RRULE to the last one not
    /// after the due, in its own form (its type is the due's already, ``writeDue``; a TZID
    /// stays), so the series keeps its weekdays, times, overrides and exceptions, and its alarms
    /// stay relative to each occurrence.
    private func fitStart(_ start: ICalDateTime, to due: ICalDateTime, in todo: inout ICalComponent, zones: ICalTimeZones) {
        guard let startInstant = start.instant(in: zones), let dueInstant = due.instant(in: zones) else { return }
        let repeats = Self.repeats(todo)
        var fitted = start.isDate == due.isDate ? start : ICalDateTime.utc(startInstant)
        if startInstant > dueInstant {
            fitted =
                repeats
                ? Self.seriesStart(start, notAfter: dueInstant, rule: todo.property("RRULE")?.value, zones: zones)
                    ?? ICalDateTime.moment(dueInstant, inFormOf: start, zones: zones) ?? due
                : due
        }
        guard fitted != start else { return }
        if !repeats { fixAlarms(relatedTo: ["START"], in: &todo, zones: zones) }
        Self.setDate("DTSTART", fitted, in: &todo)
    }

    /// `start` moved back by whole periods of `rule` (FREQ × INTERVAL, counted on the wall clock
    /// of the start's zone) to the last one not after `limit` that keeps the start's day of the
    /// month (and month, yearly), in `start`'s form. `nil` when that would not keep the series as
    /// it is: a rule that counts its occurrences (COUNT), picks days other than a week's weekdays
    /// or a month's days, of an unknown FREQ or an INTERVAL past 1 000, or a zone not known.
    private static func seriesStart(_ start: ICalDateTime, notAfter limit: Date, rule: String?, zones: ICalTimeZones) -> ICalDateTime? {
        var parts: [String: String] = [:]
        for part in (rule ?? "").split(separator: ";") {
            let pair = part.split(separator: "=", maxSplits: 1)
            if pair.count == 2 { parts[pair[0].uppercased()] = pair[1].uppercased() }
        }
        let units: [String: (Calendar.Component, Int, Double, kept: Set<String>)] = [
            "SECONDLY": (.second, 1, 1, []), "MINUTELY": (.minute, 1, 60, []), "HOURLY": (.hour, 1, 3_600, []),
            "DAILY": (.day, 1, 86_400, []), "WEEKLY": (.day, 7, 86_400, ["BYDAY"]),
            "MONTHLY": (.month, 1, 2_629_746, ["BYMONTHDAY"]), "YEARLY": (.year, 1, 31_556_952, ["BYMONTH", "BYMONTHDAY"]),
        ]
        guard let frequency = parts["FREQ"], let (component, multiple, seconds, kept) = units[frequency] else { return nil }
        // A weekly BYDAY of weekdays (`MO,WE`), not of positions (`1MO`), keeps with whole weeks.
        let picks = Set(parts.keys).subtracting(["FREQ", "INTERVAL", "UNTIL", "WKST"])
        guard picks.isSubset(of: kept), !(parts["BYDAY"]?.contains(where: \.isNumber) ?? false) else { return nil }
        let interval = parts["INTERVAL"].map { Int($0) ?? 0 } ?? 1
        guard (1...1_000).contains(interval), let startInstant = start.instant(in: zones), let zone = start.wallClockZone(in: zones)
        else { return nil }
        let calendar = Calendar.iCalGregorian(in: zone)
        let step = interval * multiple
        let back = { (periods: Int) in calendar.date(byAdding: component, value: -periods * step, to: startInstant) }
        // The fewest periods that reach the limit: an estimate from their mean length, then adjusted.
        var periods = max(1, Int(min(startInstant.timeIntervalSince(limit) / (seconds * Double(step)), 1e6)))
        var reached = false
        for _ in 0..<1_000 {
            guard let moved = back(periods) else { return nil }
            if moved > limit {
                periods += 1
            } else if periods > 1, let later = back(periods - 1), later <= limit {
                periods -= 1
            } else {
                reached = true
                break
            }
        }
        guard reached else { return nil }
        // A month or year without the start's day (the 31st, 29 February) holds no occurrence:
        // the calendar would give its last day.
        let day = calendar.dateComponents([.month, .day], from: startInstant)
        for more in 0..<100 {
            guard let moved = back(periods + more) else { return nil }
            let candidate = calendar.dateComponents([.month, .day], from: moved)
            let keepsDay =
                (component != .month && component != .year) || (candidate.day == day.day && (component != .year || candidate.month == day.month))
            if keepsDay { return ICalDateTime.moment(moved, inFormOf: start, zones: zones) }
        }
        return nil
    }

    /// Whether the VTODO is a series (RRULE or RDATE).
    private static func repeats(_ todo: ICalComponent) -> Bool {
        todo.property("RRULE") != nil || todo.property("RDATE") != nil
    }

    /// Writes the triggers of the alarms relative to the start (`START`, the default) or to the
    /// due date (`END`), as `related` says, as the instants they fire at now: before that property
    /// moves or goes.
    private func fixAlarms(relatedTo related: Set<String>, in todo: inout ICalComponent, zones: ICalTimeZones) {
        let current = todo
        for (index, child) in todo.children.enumerated() {
            guard case .component(var alarm) = child, alarm.hasName("VALARM"), let trigger = alarm.property("TRIGGER"),
                trigger.parameterValue("VALUE")?.uppercased() != "DATE-TIME", related.contains(trigger.parameterValue("RELATED")?.uppercased() ?? "START"),
                let instant = alarmInstant(alarm, in: current, zones: zones)
            else { continue }
            alarm.setProperty(Self.absoluteTrigger(instant, keeping: trigger.parameters))
            todo.children[index] = .component(alarm)
        }
    }

    private static func writeState(_ state: TaskState, into todo: inout ICalComponent) {
        let status =
            switch state {
            case .notStarted: "NEEDS-ACTION"
            case .active: "IN-PROCESS"
            case .completed: "COMPLETED"
            }
        setValue("STATUS", status, in: &todo)
        guard todo.property("PERCENT-COMPLETE") != nil else { return }
        if state == .completed {
            setValue("PERCENT-COMPLETE", "100", in: &todo)
        } else if integer("PERCENT-COMPLETE", of: todo) == 100 {
            todo.removeProperties("PERCENT-COMPLETE")
        }
    }

    /// Returns whether the VTODO's alarms changed.
    private func writeReminder(_ reminder: Date?, into todo: inout ICalComponent, zones: ICalTimeZones) -> Bool {
        guard let reminder else {
            let count = todo.children.count
            let current = todo
            todo.children.removeAll { child in
                guard case .component(let alarm) = child, alarm.hasName("VALARM"),
                    let instant = alarmInstant(alarm, in: current, zones: zones)
                else { return false }
                return isPending(alarm, at: instant, zones: zones)
            }
            return todo.children.count != count
        }
        guard let existing = reminderAlarm(of: todo, zones: zones) else {
            todo.appendComponent(
                ICalComponent(
                    "VALARM",
                    properties: [
                        ICalProperty("ACTION", value: "DISPLAY"),
                        ICalProperty("DESCRIPTION", text: Self.alarmDescription),
                        Self.absoluteTrigger(reminder, keeping: []),
                    ]))
            return true
        }
        guard existing.instant != reminder, case .component(var alarm) = todo.children[existing.index] else {
            return false
        }
        let kept = alarm.property("TRIGGER")?.parameters ?? []
        alarm.setProperty(Self.absoluteTrigger(reminder, keeping: kept))
        todo.children[existing.index] = .component(alarm)
        return true
    }

    /// `TRIGGER;VALUE=DATE-TIME:...Z`, keeping the trigger's other parameters (X- ones).
    private static func absoluteTrigger(_ instant: Date, keeping parameters: [ICalParameter]) -> ICalProperty {
        let others = parameters.filter { !$0.hasName("VALUE") && !$0.hasName("RELATED") }
        return ICalProperty(
            "TRIGGER", parameters: [ICalParameter("VALUE", "DATE-TIME")] + others,
            value: ICalDateTime.utc(instant).valueText)
    }

    /// Sets a date property in place (keeping its other parameters) or appends it.
    static func setDate(_ name: String, _ value: ICalDateTime, in todo: inout ICalComponent) {
        let updated = todo.updateProperty(name) { property in
            let others = property.parameters.filter { !$0.hasName("TZID") && !$0.hasName("VALUE") }
            property.parameters = value.parameters + others
            property.value = value.valueText
        }
        if !updated { todo.appendProperty(ICalProperty(name, parameters: value.parameters, value: value.valueText)) }
    }

    /// Sets a property's raw value in place or appends the property.
    static func setValue(_ name: String, _ value: String, in todo: inout ICalComponent) {
        if !todo.updateProperty(name, { $0.value = value }) { todo.appendProperty(ICalProperty(name, value: value)) }
    }
}
