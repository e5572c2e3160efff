import Foundation
import GRDB
public import TaskWidgetCore

extension TaskStore {
    /// Creates a habit.
    public func addHabit(named name: String, icon: String?, colorHex: String?, now: Instant) throws -> Habit {
        let name = try Validation.title(name, noun: "habit name")
        let icon = try icon.map(Validation.icon) ?? Habit.defaultIcon
        let colorHex = try colorHex.map(Validation.colorHex) ?? TaskList.defaultColorHex
        return try write { db in
            try Self.ensureHabitNameIsFree(name, in: db)
            let habit = Habit(name: name, icon: icon, colorHex: colorHex, createdAt: now)
            try habit.insert(db)
            return habit
        }
    }

    /// Changes a habit's name, icon or color (`nil` keeps it); changing only the case of its name
    /// is allowed. Returns the habit as it is now.
    public func editHabit(_ name: String, newName: String?, icon: String?, colorHex: String?) throws -> Habit {
        let newName = try newName.map { try Validation.title($0, noun: "habit name") }
        let icon = try icon.map(Validation.icon)
        let colorHex = try colorHex.map(Validation.colorHex)
        return try write { db in
            var habit = try Self.habit(named: name, in: db)
            if let newName, !NameLookup.isSame(newName, habit.name) {
                try Self.ensureHabitNameIsFree(newName, in: db)
            }
            habit.name = newName ?? habit.name
            habit.icon = icon ?? habit.icon
            habit.colorHex = colorHex ?? habit.colorHex
            try habit.update(db)
            return habit
        }
    }

    /// Every habit with what was recorded for it on `day`, in creation order.
    public func habitDays(on day: LocalDay) throws -> [HabitDay] {
        try read { db in try Self.habitDays(on: day, in: db) }
    }

    /// Records `status` for a habit on `day`. Idempotent: checking twice leaves one record.
    public func checkHabit(_ name: String, on day: LocalDay, status: HabitStatus) throws -> HabitDay {
        try write { db in
            let habit = try Self.habit(named: name, in: db)
            try HabitCompletion(habitID: habit.id, day: day, status: status).upsert(db)
            return HabitDay(habit: habit, day: day, status: status)
        }
    }

    /// Removes what was recorded for a habit on `day`. Idempotent. Returns the habit and the
    /// status that was removed (`nil` when nothing was recorded).
    public func uncheckHabit(_ name: String, on day: LocalDay) throws -> (habit: Habit, removed: HabitStatus?) {
        try write { db in
            let habit = try Self.habit(named: name, in: db)
            let removed = try Self.removeCompletion(of: habit, on: day, in: db)
            return (habit, removed)
        }
    }

    /// The seed's `toggleToday`: a habit done on `day` is unchecked, any other is checked as done
    /// (a missed or skipped day too). Returns what is recorded now.
    public func toggleHabit(_ name: String, on day: LocalDay) throws -> HabitDay {
        try write { db in
            let habit = try Self.habit(named: name, in: db)
            if try Self.removeCompletion(of: habit, on: day, in: db) == .done {
                return HabitDay(habit: habit, day: day, status: nil)
            }
            try HabitCompletion(habitID: habit.id, day: day, status: .done).insert(db)
            return HabitDay(habit: habit, day: day, status: .done)
        }
    }

    /// Deletes the completion of `habit` on `day`, if any, and returns its status.
    private static func removeCompletion(of habit: Habit, on day: LocalDay, in db: Database) throws -> HabitStatus? {
        guard let completion = try HabitCompletion.fetchOne(db, key: ["habitID": habit.id.lowercasedString, "day": day.description]) else {
            return nil
        }
        try completion.delete(db)
        return completion.status
    }

    /// Deletes a habit and its completions.
    /// Deletes the habit called `name` and its history; returns it and how many days of history
    /// went with it.
    public func deleteHabit(_ name: String) throws -> (habit: Habit, days: Int) {
        try write { db in
            let habit = try Self.habit(named: name, in: db)
            let days = try Self.historyDays(of: habit, in: db)
            try habit.delete(db)
            return (habit, days)
        }
    }

    /// The habit called `name` and how many days of history it has (checked, skipped or missed).
    public func habitWithHistory(named name: String) throws -> (habit: Habit, days: Int) {
        try read { db in
            let habit = try Self.habit(named: name, in: db)
            return (habit, try Self.historyDays(of: habit, in: db))
        }
    }

    private static func historyDays(of habit: Habit, in db: Database) throws -> Int {
        try HabitCompletion.filter(Column("habitID") == habit.id.lowercasedString).fetchCount(db)
    }

    static func habitDays(on day: LocalDay, in db: Database) throws -> [HabitDay] {
        let habits = try Habit.fetchAllInOrder(db)
        let completions = try HabitCompletion.filter(Column("day") == day.description).fetchAll(db)
        let statusByHabit = Dictionary(completions.map { ($0.habitID, $0.status) }, uniquingKeysWith: { first, _ in first })
        return habits.map { HabitDay(habit: $0, day: day, status: statusByHabit[$0.id]) }
    }

    private static func ensureHabitNameIsFree(_ name: String, in db: Database) throws {
        if let existing = try Habit.fetchAll(db).first(where: { NameLookup.isSame($0.name, name) }) {
            throw TaskWidgetError(.nameTaken, "a habit named “\(existing.name)” already exists: choose another name")
        }
    }

    private static func habit(named name: String, in db: Database) throws -> Habit {
        try NameLookup.find(name, in: Habit.fetchAllInOrder(db), named: \.name, kind: "habit")
    }
}
