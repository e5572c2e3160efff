public import Foundation
import GRDB

/// Realistic sample data for a first run (`taskwidget demo`): lists, tasks that are overdue, due
/// soon, due today and later, done today, and habits — all placed relative to `now`.
public enum DemoData {
    /// `makeID` gives each record its id: random for a real store, fixed for a reproducible preview.
    public static func export(now: Date, timeZone: TimeZone, makeID: () -> UUID = UUID.init) -> StoreExport {
        let calendar = Calendar.gregorian(in: timeZone)
        let today = calendar.startOfDay(for: now)
        /// A local wall-clock time `days` days from today.
        func at(_ days: Int, _ hour: Int, _ minute: Int = 0) -> Date {
            let day = calendar.date(byAdding: .day, value: days, to: today)!
            return calendar.date(bySettingHour: hour, minute: minute, second: 0, of: day)!
        }
        /// `minutes` from now, on a quarter hour.
        func fromNow(minutes: Int) -> Date {
            let quarter = (now.timeIntervalSince1970 / 900).rounded(.down) * 900
            return Date(timeIntervalSince1970: quarter + Double(minutes * 60))
        }
        let created = calendar.date(byAdding: .day, value: -3, to: now)!
        let home = TaskList(id: makeID(), name: "Home", colorHex: "34C759", createdAt: created, sortOrder: 0)
        let work = TaskList(id: makeID(), name: "Work", colorHex: "007AFF", createdAt: created, sortOrder: 1)
        let errands = TaskList(id: makeID(), name: "Errands", colorHex: "FF9500", createdAt: created, sortOrder: 2)

        var tasks: [TaskItem] = []
        func task(_ title: String, _ list: TaskList?, due: Date? = nil, remind: Date? = nil) -> Int {
            let order = tasks.filter { $0.listID == list?.id }.count
            tasks.append(TaskItem(
                id: makeID(), title: title, dueDate: due, reminderDate: remind, listID: list?.id, sortOrder: order,
                createdAt: created.addingTimeInterval(Double(tasks.count))))
            return tasks.count - 1
        }
        _ = task("Call the dentist", nil, due: fromNow(minutes: -26 * 60))
        _ = task("Read “Deep Work” & take notes", nil)
        _ = task("Book flights to Lisbon ✈️", nil, due: at(5, 23, 59))
        _ = task("Pay rent", home, due: fromNow(minutes: -120), remind: fromNow(minutes: -180))
        let tap = task("Fix the leaking tap", home)
        _ = task("Water the plants", home, due: at(0, 23, 59))
        _ = task("Submit expense report", work, due: fromNow(minutes: 45), remind: fromNow(minutes: 15))
        _ = task("Review pull request #42", work, due: at(1, 10))
        _ = task("Prepare slides for <Monday>", work, due: at(3, 9))
        let oneOnOne = task("1:1 with Alex", work, due: at(0, 11))
        _ = task("Buy milk & eggs", errands, due: fromNow(minutes: 6 * 60))
        let dryCleaning = task("Pick up dry cleaning", errands, due: at(-1, 17))
        _ = task("Gift for 田中さん 🎁", errands, due: at(4, 23, 59))
        _ = task("Renew passport", errands, due: at(21, 23, 59))
        tasks[tap].start(at: tasks[tap].createdAt)
        tasks[oneOnOne].complete(at: fromNow(minutes: -30))
        tasks[dryCleaning].complete(at: at(-1, 16, 30))

        let day = LocalDay(containing: now, in: timeZone)
        let yesterday = LocalDay(containing: calendar.date(byAdding: .day, value: -1, to: now)!, in: timeZone)
        let habitSamples: [(String, String, String, [StoreExport.Completion])] = [
            ("Drink water", "💧", "32ADE6", [.init(day: yesterday, status: .done), .init(day: day, status: .done)]),
            ("Read 20 pages", "📖", "AF52DE", [.init(day: yesterday, status: .done)]),
            ("Walk", "🚶", "34C759", [.init(day: yesterday, status: .missed)]),
            ("Meditate", "🧘", "FF2D55", []),
        ]
        let habits = habitSamples.enumerated().map { index, sample in
            StoreExport.HabitRecord(
                habit: Habit(
                    id: makeID(), name: sample.0, icon: sample.1, colorHex: sample.2, createdAt: created.addingTimeInterval(Double(index))),
                completions: sample.3)
        }
        return StoreExport(lists: [home, work, errands], tasks: tasks, habits: habits)
    }
}

extension TaskStore {
    /// Fills an empty store with ``DemoData``; a store that already has data is left alone.
    public func fillWithDemoData(now: Date, timeZone: TimeZone) throws {
        let isEmpty = try read { db in
            try TaskItem.fetchCount(db) == 0 && TaskList.fetchCount(db) == 0 && Habit.fetchCount(db) == 0
        }
        guard isEmpty else {
            throw TaskWidgetError(
                .usage, "the store \(path) already has data: pass `--store PATH` with a new file for the demo")
        }
        try importing(DemoData.export(now: now, timeZone: timeZone), source: "demo data")
    }
}
