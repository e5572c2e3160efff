public import ArgumentParser
import TaskWidgetCLI
import TaskWidgetCore
import TaskWidgetFormats
import TaskWidgetStore

struct HabitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "habit",
        abstract: "Manage habits and check them off day by day.",
        subcommands: [Add.self, Ls.self, Check.self, Uncheck.self, Rm.self],
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
            print("Created habit \(habit.icon) \(habit.name)")
        }
    }

    struct Ls: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "ls", abstract: "Show the habits and how each went on a day.")
        @OptionGroup var options: GlobalOptions
        @Option(help: ArgumentHelp("today, yesterday or YYYY-MM-DD (default today).", valueName: "day")) var date: String?

        func run() throws {
            let context = try options.context()
            let day = try LocalDay.habitDay(date, now: context.now, calendar: context.calendar)
            let habits = try context.storeForReading().habitDays(on: day)
            print(Listing(now: context.now, calendar: context.calendar).table(habits), terminator: "")
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
            let result = try context.storeForWriting().checkHabit(name, on: day, status: status)
            print("\(result.habit.icon) \(result.habit.name): \(status.rawValue) on \(day)")
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
            let day = try LocalDay.habitDay(date, now: context.now, calendar: context.calendar)
            let result = try context.storeForWriting().uncheckHabit(name, on: day)
            print("\(result.habit.icon) \(result.habit.name): nothing recorded on \(day)")
        }
    }

    struct Rm: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "rm",
            abstract: "Delete a habit and its history.", discussion: "Example: taskwidget habit rm Walk")
        @OptionGroup var options: GlobalOptions
        @Argument(help: "The habit's name.") var name: String

        func run() throws {
            let habit = try options.context().storeForWriting().deleteHabit(name)
            print("Deleted habit \(habit.name)")
        }
    }
}

extension HabitStatus: ExpressibleByArgument {}
