/// A habit with what happened on one day, as `habit ls` shows it.
public struct HabitDay: Codable, Sendable, Equatable {
    public var habit: Habit
    public var day: LocalDay
    /// `nil` when nothing was recorded that day.
    public var status: HabitStatus?

    public init(habit: Habit, day: LocalDay, status: HabitStatus?) {
        self.habit = habit
        self.day = day
        self.status = status
    }

    /// "Done today" = a done completion on that day (seed 002).
    public var isDone: Bool { status == .done }
}
