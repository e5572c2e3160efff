public import Foundation

/// Realistic sample data for a first run (`taskwidget demo`): lists, tasks that are overdue, due
/// soon, due today and later, done today, and habits — all placed relative to `now`.
public enum DemoData {
    /// `makeID` gives each record its id: random for a real store, fixed for a reproducible preview.
    public static func export(now: Instant, calendar: LocalCalendar, makeID: () -> UUID = UUID.init) -> StoreExport {
        let today = calendar.localDay(containing: now)
        /// A local wall-clock time `days` days from today.
        func at(_ days: Int, _ hour: Int, _ minute: Int = 0) -> Instant {
            calendar.instant(on: today.adding(days: days), hour: hour, minute: minute)!
        }
        /// `minutes` from now, on a quarter hour.
        func fromNow(minutes: Int) -> Instant {
            Instant(secondsSince1970: InstantFormat.floorDivision(now.secondsSince1970, 900).quotient * 900 + Int64(minutes * 60))
        }
        let created = calendar.adding(days: -3, to: now)!
        let home = TaskList(id: makeID(), name: "Home", colorHex: "34C759", createdAt: created, sortOrder: 0)
        let work = TaskList(id: makeID(), name: "Work", colorHex: "007AFF", createdAt: created, sortOrder: 1)
        let errands = TaskList(id: makeID(), name: "Errands", colorHex: "FF9500", createdAt: created, sortOrder: 2)

        var tasks: [TaskItem] = []
        func task(_ title: String, _ list: TaskList?, due: Instant? = nil, remind: Instant? = nil) -> Int {
            let order = tasks.filter { $0.listID == list?.id }.count
            tasks.append(TaskItem(
                id: makeID(), title: title, dueDate: due, reminderDate: remind, listID: list?.id, sortOrder: order,
                createdAt: created.adding(seconds: Int64(tasks.count))))
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

        let day = today
        let yesterday = today.adding(days: -1)
        let habitSamples: [(String, String, String, [StoreExport.Completion])] = [
            ("Drink water", "💧", "32ADE6", [.init(day: yesterday, status: .done), .init(day: day, status: .done)]),
            ("Read 20 pages", "📖", "AF52DE", [.init(day: yesterday, status: .done)]),
            ("Walk", "🚶", "34C759", [.init(day: yesterday, status: .missed)]),
            ("Meditate", "🧘", "FF2D55", []),
        ]
        let habits = habitSamples.enumerated().map { index, sample in
            StoreExport.HabitRecord(
                habit: Habit(
                    id: makeID(), name: sample.0, icon: sample.1, colorHex: sample.2, createdAt: created.adding(seconds: Int64(index))),
                completions: sample.3)
        }
        return StoreExport(lists: [home, work, errands], tasks: tasks, habits: habits)
    }
}

