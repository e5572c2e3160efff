import Foundation
import GRDB
public import TaskWidgetCore

extension TaskStore {
    /// Fills an empty store with ``DemoData``; a store that already has data is left alone.
    public func fillWithDemoData(now: Instant, calendar: LocalCalendar) throws {
        let isEmpty = try read { db in
            try TaskItem.fetchCount(db) == 0 && TaskList.fetchCount(db) == 0 && Habit.fetchCount(db) == 0
        }
        guard isEmpty else {
            throw TaskWidgetError(
                .invalidInput, "the store \(path) already has data: pass `--store PATH` with a new file for the demo")
        }
        try importing(DemoData.export(now: now, calendar: calendar), source: "demo data")
    }
}
