public import ArgumentParser
import TaskWidgetCLI
import TaskWidgetCore
import TaskWidgetFormats
import TaskWidgetStore

struct HabitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "habit",
        abstract: "Manage habits and check them off day by day.",
        subcommands: [Add.self, Ls.self, Check.self, Uncheck.self, Toggle.self, Edit.self, Rm.self],
        defaultSubcommand: Ls.self)

    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add",
            abstract: "Create a habit.", discussion: "Example: taskwidget habit add \"Drink water\" --icon 💧 --color 32ADE6")
        @OptionGroup var options: GlobalOptions
        @Argument(help: "The habit's name (unique, case-insensitive).") var name: String
        @Option(help: ArgumentHelp("A short text or an emoji (default •).", valueName: "text")) var icon: String?
        @Option(help: ArgumentHelp("Six hex digits (default 007AFF).", valueName: "hex")) var color: String?

        func run() throws {
            let context = try options.context()
            let habit = try context.storeForWriting().addHabit(named: name, icon: icon, colorHex: color, now: context.now)
            printConfirmation("Created habit \(habit.icon) \(habit.name)")
        }
    }

    struct Ls: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "ls", abstract: "Show the habits and how each went on a day.",
            discussion: "Examples:\n  taskwidget habit ls\n  taskwidget habit ls --date yesterday")
        @OptionGroup var options: GlobalOptions
        @Option(help: ArgumentHelp("today, yesterday or YYYY-MM-DD (default today).", valueName: "day")) var date: String?

        func run() throws {
            let context = try options.context()
            let day = try LocalDay.habitDay(date, now: context.now, calendar: context.calendar, allowingFuture: true)
            let habits = try context.storeForReading().habitDays(on: day)
            let width = terminalWidthOfStandardOutput(context.environment)
            print(Listing(now: context.now, calendar: context.calendar, terminalWidth: width).table(habits), terminator: "")
        }
    }

    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "check",
            abstract: "Record a habit as done (or missed, skipped) for a day.",
            discussion: """
                Examples:
                  taskwidget habit check "Drink water"
                  taskwidget habit check Walk --date yesterday --status missed
                """)
        @OptionGroup var options: GlobalOptions
        @Argument(help: "The habit's name.") var name: String
        @Option(help: ArgumentHelp("today, yesterday or YYYY-MM-DD (default today).", valueName: "day")) var date: String?
        @Option(help: "done, missed or skipped.") var status: HabitStatus = .done

        func run() throws {
            let context = try options.context()
            let day = try LocalDay.habitDay(date, now: context.now, calendar: context.calendar)
            let result = try context.storeForChanging().checkHabit(name, on: day, status: status)
            printConfirmation("\(result.habit.icon) \(result.habit.name): \(status.rawValue) on \(day)")
        }
    }

    struct Uncheck: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "uncheck",
            abstract: "Remove what was recorded for a habit on a day.",
            discussion: "Example: taskwidget habit uncheck \"Drink water\"")
        @OptionGroup var options: GlobalOptions
        @Argument(help: "The habit's name.") var name: String
        @Option(help: ArgumentHelp("today, yesterday or YYYY-MM-DD (default today).", valueName: "day")) var date: String?

        func run() throws {
            let context = try options.context()
            let day = try LocalDay.habitDay(date, now: context.now, calendar: context.calendar, allowingFuture: true)
            let (habit, removed) = try context.storeForChanging().uncheckHabit(name, on: day)
            if let removed {
                printConfirmation("\(habit.icon) \(habit.name): unchecked on \(day) (it was \(removed.rawValue))")
            } else {
                printConfirmation("\(habit.icon) \(habit.name): nothing was recorded on \(day)")
            }
        }
    }

    struct Toggle: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "toggle",
            abstract: "Check a habit as done, or uncheck it if it is done.",
            discussion: """
                A day recorded as missed or skipped becomes done. For a key binding or a bar's \
                click action.

                Example: taskwidget habit toggle Walk
                """)
        @OptionGroup var options: GlobalOptions
        @Argument(help: "The habit's name.") var name: String
        @Option(help: ArgumentHelp("today, yesterday or YYYY-MM-DD (default today).", valueName: "day")) var date: String?

        func run() throws {
            let context = try options.context()
            let day = try LocalDay.habitDay(date, now: context.now, calendar: context.calendar)
            let result = try context.storeForChanging().toggleHabit(name, on: day)
            // Said as `uncheck` says it: "not done" read as a day recorded missed (helper-138).
            printConfirmation("\(result.habit.icon) \(result.habit.name): \(result.isDone ? "done on \(day)" : "unchecked on \(day) (it was done)")")
        }
    }

    struct Edit: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "edit",
            abstract: "Rename a habit or change its icon or color.",
            discussion: """
                The habit keeps its history.

                Examples:
                  taskwidget habit edit Walk --icon 🚶
                  taskwidget habit edit Walk --name "Evening walk" --color 34C759
                """)
        @OptionGroup var options: GlobalOptions
        @Argument(help: "The habit's name.") var name: String
        @Option(name: .customLong("name"), help: ArgumentHelp("A new name.", valueName: "name")) var newName: String?
        @Option(help: ArgumentHelp("A short text or an emoji.", valueName: "text")) var icon: String?
        @Option(help: ArgumentHelp("Six hex digits.", valueName: "hex")) var color: String?

        func validate() throws {
            guard newName != nil || icon != nil || color != nil else {
                throw ValidationError("nothing to change: give --name, --icon or --color")
            }
        }

        func run() throws {
            let habit = try options.context().storeForChanging().editHabit(name, newName: newName, icon: icon, colorHex: color)
            printConfirmation("Edited habit \(habit.icon) \(habit.name) #\(habit.colorHex)")
        }
    }

    struct Rm: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "rm",
            abstract: "Delete a habit and its history.", discussion: "Example: taskwidget habit rm Walk --yes")
        @OptionGroup var options: GlobalOptions
        @Argument(help: "The habit's name.") var name: String
        @Flag(help: "Confirm that the habit's history is deleted too (a habit without one needs no --yes).") var yes = false

        func run() throws {
            let context = try options.context()
            if !yes {
                // The habit named first: a name that is none was asked to be confirmed. One never
                // checked has nothing to lose, as an empty list (helper-170).
                let (habit, days) = try context.storeForReading().habitWithHistory(named: name)
                guard days == 0 else {
                    throw ValidationError("deleting the habit “\(habit.name)” deletes its \(counted(days, "day")) of history too: add --yes to confirm")
                }
            }
            let (habit, days) = try context.storeForChanging().deleteHabit(name)
            printConfirmation("Deleted habit \(habit.name)" + (days == 0 ? "" : " and its \(counted(days, "day")) of history"))
        }
    }
}

extension HabitStatus: ExpressibleByArgument {}
