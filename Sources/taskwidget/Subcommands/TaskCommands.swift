import ArgumentParser
import Foundation
import TaskWidgetCLI
import TaskWidgetCore
import TaskWidgetFormats
import TaskWidgetStore

struct Add: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add", _superCommandName: "taskwidget",
        abstract: "Create a task and print its id.",
        discussion: """
            --list names an existing list (a name that is not one is refused, with the closest \
            name); add --new-list to create it. `--list inbox` is the Inbox, as with no --list. \
            A title of - is read from standard input: one line.

            Examples:
              taskwidget add "Call mom" --due fri --remind "fri 5pm"
              taskwidget add "Plan the trip" --list Travel --new-list
              taskwidget add "Book the flights" --due "tomorrow 9am" --list Travel
              rofi -dmenu -p Task | taskwidget add - --due today
            """)

    @OptionGroup var options: GlobalOptions
    @Argument(help: "The task's title, or - to read it from standard input.") var title: String
    @Option(help: ArgumentHelp("Put it in this list, or `inbox` (the default).", valueName: "name|inbox")) var list: String?
    @Flag(help: "Create the --list if there is none by that name.") var newList = false
    @Option(help: ArgumentHelp("When it is due (see WHEN in `taskwidget help`).", valueName: "when")) var due: String?
    @Option(help: ArgumentHelp("When to be reminded.", valueName: "when")) var remind: String?

    func validate() throws {
        if newList {
            guard let list else { throw ValidationError("--new-list needs --list NAME") }
            if TaskList.isInbox(list) { throw ValidationError("the Inbox is always there: leave out --new-list, or name another list") }
        }
    }

    func run() throws {
        let context = try options.context()
        let title = self.title == "-" ? try Self.titleFromStandardInput() : self.title
        let listName = list.flatMap { TaskList.isInbox($0) ? nil : $0 }
        // Check the input before the store is opened, so a bad first command creates no store.
        _ = try Validation.title(title)
        _ = try listName.map(Validation.listName)
        let dueReading = try due.map { try context.reading($0, for: .due, option: "--due") }
        let remindReading = try remind.map { try context.reading($0, for: .reminder, option: "--remind") }
        let newTask = NewTask(
            title: title, dueDate: dueReading?.instant, reminderDate: remindReading?.instant, listName: listName, createsList: newList)
        let store = try context.storeForWriting()
        let (task, createdList) = try store.addTask(newTask, now: context.now)
        if let createdList {
            // A typo made a second list without a word, where one without --new-list is refused
            // with the closest name (helper-142).
            let others = (try? store.listSummaries().map(\.list.name).filter { $0 != createdList.name }) ?? []
            let typo = NameLookup.closest(to: createdList.name, among: others).map { closest in
                " (did you mean “\(closest)”? then: taskwidget edit \(confirmedID(of: task, in: store)) --list \(closest.shellQuoted) && "
                    + "taskwidget list rm \(createdList.name.shellQuoted))"
            }
            writeToStandardError("taskwidget: created the list “\(createdList.name)”\(typo ?? "")\n")
        }
        noteIfPassed(due: task.dueDate, reminder: task.reminderDate, now: context.now)
        noteIfMoved([(due, dueReading, "the due time"), (remind, remindReading, "the reminder")])
        noteIfRemindedAfterDue(task)
        print(confirmedID(of: task, in: store))
    }
}

extension Add {
    /// The one line standard input holds (`add -`), without its line ending (and blank lines
    /// after it). It made a task "-". On a terminal, the line typed: Enter ends it.
    static func titleFromStandardInput() throws -> String {
        if isatty(STDIN_FILENO) == 1 {
            if isatty(STDERR_FILENO) == 1 { writeToStandardError("Title: ") }
            return readLine() ?? ""
        }
        // A title and its line ending; more is never one title (`yes | taskwidget add -` never ends).
        let limit = Validation.maximumTitleLength * Validation.maximumBytesPerCharacter + 2
        let data = try InputFile.read("-", named: "standard input", limit: limit) {
            TaskWidgetError(
                .invalidInput,
                "standard input is longer than a title can be (one line of at most \(Validation.maximumTitleLength) characters): "
                    + "add takes one title (run it once per line, or use import)",
                context: "title")
        }
        guard var text = String(data: data, encoding: .utf8) else {
            throw TaskWidgetError(.invalidInput, "standard input is not UTF-8 text: give the title as one line of text", context: "title")
        }
        while text.last?.isNewline == true { text.removeLast() }  // "\r\n" is one Character
        // Said of the input: "the title is empty" did not say where it came from (helper-120).
        guard !text.trimmingWhitespace.isEmpty else {
            throw TaskWidgetError(.invalidInput, "standard input holds no title: pipe one line of text into `taskwidget add -`", context: "title")
        }
        guard !text.contains(where: \.isNewline) else {
            throw TaskWidgetError(
                .invalidInput,
                "standard input holds more than one line: add takes one title (one add per line: "
                    + "while read -r title; do taskwidget add \"$title\"; done < FILE)",
                context: "title")
        }
        return text
    }
}

struct Ls: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ls", _superCommandName: "taskwidget",
        abstract: "List open tasks (or all with --all).",
        discussion: """
            Marks: ○ open, ! overdue, ▶ active, ✓ completed. The Inbox comes first, then each \
            list in the order of `taskwidget list ls`. On a terminal, overdue tasks are red and \
            each list has a dot of its colour (--color; NO_COLOR turns it off). A title is cut \
            with "…" at the width the other columns leave of the terminal's (of COLUMNS, if \
            set), and in a pipe at 44 characters unless COLUMNS is set; --format json has \
            whole titles.

            Examples:
              taskwidget ls
              taskwidget ls --list Work --all
              taskwidget ls --inbox --format json
              COLUMNS=200 taskwidget ls | grep -i contract
            """)

    enum Format: String, ExpressibleByArgument, CaseIterable { case table, json }

    @OptionGroup var options: GlobalOptions
    @OptionGroup var scope: ScopeOptions
    @Flag(help: "Include completed tasks.") var all = false
    @Option(help: "table or json.") var format: Format = .table
    @Option(help: "Colour the table: auto (on a terminal, unless NO_COLOR is set), always or never.") var color: ColorChoice = .auto

    func run() throws {
        let context = try options.context()
        let view = try scope.selectedView(in: context)
        let store = try context.storeForReading()
        func listed(includingCompleted: Bool) throws -> [ListedTask] {
            try store.tasks(in: view.scope, includeCompleted: includingCompleted, missingListAdvice: view.missingListAdvice)
                .filter { view.includes($0.task, at: context.now) }
        }
        let tasks = try listed(includingCompleted: all)
        // With nothing open and nothing completed either, the table says how to add a task, not to
        // look at --all: it shows everything there is.
        let showsEverything = try all || (tasks.isEmpty && format == .table && listed(includingCompleted: true).isEmpty)
        let isTerminal = isatty(STDOUT_FILENO) == 1
        let usesColor = color.usesColor(isTerminal: isTerminal, environment: context.environment)
        let width = terminalWidthOfStandardOutput(context.environment)
        let listing = Listing(now: context.now, calendar: context.calendar, usesColor: usesColor, terminalWidth: width)
        print(format == .json ? try listing.json(tasks) : listing.table(tasks, in: view, includesCompleted: showsEverything), terminator: "")
    }
}

/// The width of the terminal on standard output, for the tables of `ls`, `list ls` and `habit ls`:
/// `COLUMNS` when it is set, in a pipe too (`COLUMNS=200 taskwidget ls | grep …` found no word
/// past the 44th column, helper-142), else the terminal's own; `nil` in a pipe or a file.
func terminalWidthOfStandardOutput(_ environment: [String: String]) -> Int? {
    if let columns = environment["COLUMNS"].flatMap(Int.init), columns > 0 { return columns }
    guard isatty(STDOUT_FILENO) == 1 else { return nil }
    var size = winsize()
    guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
    return Int(size.ws_col)
}

/// The id a confirmation shows for `task`, as `ls` shows it. The change is made by then: a failure
/// to read the longer id must not report it as failed, so the 8 digits stand in.
private func confirmedID(of task: TaskItem, in store: TaskStore) -> String {
    (try? store.shownID(of: task.id)) ?? task.id.shortID
}

/// How a refusal names `task`: by its title, or for a bar's click (``TopTaskOptions/isClick``),
/// whose messages go to the bar's log, where titles never go, as the task a bar shows, by its id.
private func refusalName(of task: TaskItem, in store: TaskStore, click: Bool) -> String {
    click ? "the task a bar shows (\(confirmedID(of: task, in: store)))" : "“\(task.title.sanitizedForMessage)”"
}

/// A note on standard error for a due date or reminder given that has passed (a typo in a year
/// made an overdue task without a word); the task is kept as given.
private func noteIfPassed(due: Instant? = nil, reminder: Instant? = nil, now: Instant) {
    if let due, OverdueRule.isOverdue(dueDate: due, at: now) {
        writeToStandardError("taskwidget: note: that due time has passed; the task is overdue\n")
    }
    if let reminder, reminder < now {
        writeToStandardError(
            "taskwidget: note: that reminder time has passed; notify shows a missed reminder only within missed_within (24h by default) of its time\n")
    }
}

/// A time alone that has passed today means tomorrow (`--remind 06:00` at 06:40), today's weekday
/// the one a week later (`fri` on a Friday), and a time the clocks skip moves by the gap: said on
/// stderr, where only `ls` showed them (helper-134, helper-138, helper-158).
private func noteIfMoved(_ options: [(text: String?, reading: WhenParser.Reading?, what: String)]) {
    for case let (text?, reading?, what) in options {
        let skipped = reading.skippedTime
        if reading.meansTomorrow {
            writeToStandardError(
                "taskwidget: note: \(text.trimmingWhitespace.sanitizedForMessage) has passed today, so \(what) is tomorrow\(skipped == nil ? " at that time" : "")\n")
        }
        if let weekday = reading.todaysWeekday {
            writeToStandardError(
                "taskwidget: note: today is \(weekday.name), so \(what) is a week from today; for today, give `\(weekday.todayInstead)`\n")
        }
        if let skipped {
            writeToStandardError(
                "taskwidget: note: the clocks skip \(skipped.asked) on \(skipped.day) (they go forward), so \(what) is \(skipped.shown)\n")
        }
    }
}

/// A reminder set after the due date (`--due today --remind tomorrow`) reminds of a task already
/// overdue: said on stderr, and kept as given (helper-74 found it taken without a word).
private func noteIfRemindedAfterDue(_ task: TaskItem) {
    guard let due = task.dueDate, let reminder = task.reminderDate, reminder > due else { return }
    writeToStandardError("taskwidget: note: the reminder comes after the due time; the task will be overdue by then\n")
}

/// `done`, `undo`, `start`, `stop`, `snooze`: apply one change to the tasks `ids` name (with
/// `top`, to the task a bar shows: its `action` names the change when nothing is open) and print
/// a line per task: `verb` for one it changed (`reopening` for one it also reopened, as `start`
/// does), `unchanged` for one that already was as asked (`Already completed`).
private func changeTasks(
    _ ids: [String], _ options: GlobalOptions, top: (options: TopTaskOptions, action: String)? = nil, verb: String,
    reopening: String? = nil, unchanged: String, detail: ((TaskItem, CommandContext) -> String?)? = nil,
    _ change: (TaskStore, [String], CommandContext) throws -> [TaskUpdate]
) throws {
    let context = try options.context()
    let store = try context.storeForChanging()
    let ids = try top.map { try $0.options.ids(ids, store: store, context: context, action: $0.action) } ?? ids
    for update in try change(store, ids, context) {
        let said = update.isChanged ? (update.isReopening ? reopening ?? verb : verb) : unchanged
        let shown = update.isChanged ? detail?(update.task, context).map { " (\($0))" } ?? "" : ""
        printConfirmation("\(said) \(confirmedID(of: update.task, in: store)) \(update.task.title)\(shown)")
    }
}

/// Where a snoozed task went, as `ls` shows it: `due Tomorrow 09:00, reminder 17:27` (snooze said
/// nothing of it, helper-119).
private func snoozedTo(_ task: TaskItem, _ context: CommandContext) -> String? {
    let labeler = DueLabeler(calendar: context.calendar)
    let parts = [
        labeler.label(for: task, at: context.now).map { "due " + $0 },
        task.reminderDate.map { "reminder " + labeler.timeLabel(for: $0, at: context.now) },
    ]
    return parts.contains { $0 != nil } ? parts.compactMap { $0 }.joined(separator: ", ") : nil
}

struct Done: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "done", _superCommandName: "taskwidget",
        abstract: "Complete tasks.",
        discussion: """
            --top completes the task a bar shows, as a bar's click action does; with \
            nothing open it says so and exits 64.

            Examples:
              taskwidget done 3f2a 9c1b
              taskwidget done --top --view work
            """)
    @OptionGroup var options: GlobalOptions
    @Argument(help: "Task ids (4 or more characters).") var ids: [String] = []
    @OptionGroup var top: TopTaskOptions

    func validate() throws { try top.validate(ids: ids) }

    func run() throws {
        try changeTasks(ids, options, top: (top, "complete"), verb: "Completed", unchanged: "Already completed") { store, ids, context in
            // A bar's click: its warning went to the bar's log, too late for the undo it advised,
            // and the series ended on every device at the next sync (helper-154).
            let clicked = top.isClick ? try ids.map { try store.task(withID: $0) } : []
            let clickedRepeating = try store.tasksRepeatingOnServer(clicked.filter { !$0.isCompleted }.map(\.id))
            if let task = clicked.first(where: { clickedRepeating.contains($0.id) }) {
                throw TaskWidgetError(
                    .invalidInput,
                    "\(refusalName(of: task, in: store, click: true)) repeats on the server: a click would complete the whole series there at the "
                        + "next sync; complete it on the phone, or run `taskwidget done \(confirmedID(of: task, in: store))` to end the series "
                        + "(nothing was completed)",
                    context: "top task repeats on the server")
            }
            let updates = try store.completeTasks(ids, now: context.now)
            let repeating = try store.tasksRepeatingOnServer(updates.filter(\.isChanged).map(\.task.id))
            for update in updates where repeating.contains(update.task.id) {
                writeToStandardError(
                    "taskwidget: “\(update.task.title.sanitizedForMessage)” repeats on the server: the next sync completes the whole series there "
                        + "(`taskwidget undo \(confirmedID(of: update.task, in: store))` before it keeps the series; complete it on the phone for the next one)\n")
            }
            return updates
        }
    }
}

struct Undo: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "undo", _superCommandName: "taskwidget",
        abstract: "Reopen completed tasks.", discussion: "Example: taskwidget undo 3f2a")
    @OptionGroup var options: GlobalOptions
    @Argument(help: "Task ids (4 or more characters).") var ids: [String] = []

    /// As done's: argument-parser's own words were "missing expected argument '<ids> ...'" (helper-129).
    func validate() throws {
        if ids.isEmpty { throw ValidationError("give task ids: `taskwidget ls --all` shows completed ones") }
    }

    func run() throws {
        try changeTasks(ids, options, verb: "Reopened", unchanged: "Already open") { try $0.uncompleteTasks($1, now: $2.now) }
    }
}

struct Start: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "start", _superCommandName: "taskwidget",
        abstract: "Mark a task as being worked on.",
        discussion: """
            A completed task is reopened. --top starts the task a bar shows; with nothing \
            open it says so and exits 64.

            Examples:
              taskwidget start 3f2a
              taskwidget start --top --list Work
            """)
    @OptionGroup var options: GlobalOptions
    @Argument(help: "The task's id (4 or more characters).") var id: String?
    @OptionGroup var top: TopTaskOptions

    func validate() throws { try top.validate(id: id) }

    func run() throws {
        try changeTasks(
            id.map { [$0] } ?? [], options, top: (top, "start"), verb: "Started", reopening: "Reopened and started",
            unchanged: "Already started"
        ) { try $0.startTasks($1, now: $2.now) }
    }
}

struct Snooze: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "snooze", _superCommandName: "taskwidget",
        abstract: "Move tasks' due dates and reminders later (1 hour, or --by).",
        discussion: """
            A due date or reminder that has passed moves to now + DURATION, a later \
            one by DURATION, so the task is neither overdue nor reminded of for that \
            long; days and weeks keep the time of day across a change of clocks, as \
            `--due "in 1d"` does. A due date given as a day alone moves to the day \
            that holds that time. A task with neither gets a reminder in DURATION. --top snoozes the \
            task a bar shows; with nothing open it says so and exits 64. A task that \
            repeats on a sync server is refused (exit 64): the next sync would move the \
            whole series there; snooze it on the phone.

            Examples:
              taskwidget snooze 3f2a --by 30m
              taskwidget snooze --top --view work --by 1d
            """)
    @OptionGroup var options: GlobalOptions
    @Argument(help: "Task ids (4 or more characters).") var ids: [String] = []
    @OptionGroup var top: TopTaskOptions
    @Option(help: ArgumentHelp("How much later: \(DurationText.examples).", valueName: "duration")) var by = "1h"

    func validate() throws {
        // `snooze 3f2a 1h` read 1h as a task id (helper-171), and `+1h`, `in 1h`, `1d12h` too
        // (helper-174); `100d` may be one.
        for id in ids where !(id.count >= 4 && id.allSatisfy(\.isHexDigit)) {
            var amount = id.trimmingWhitespace
            for prefix in ["+", "in "] where amount.lowercased().hasPrefix(prefix) { amount = String(amount.dropFirst(prefix.count)).trimmingWhitespace }
            guard let by = DurationText.amount(amount) != nil ? amount : DurationText.hoursInstead(of: amount) else { continue }
            throw ValidationError("“\(id.sanitizedForMessage)” is a duration, not a task id: give it as --by \(by.sanitizedForMessage)")
        }
        try top.validate(ids: ids)
        guard (DurationText.amount(by)?.seconds ?? 0) > 0 else {
            if let hours = DurationText.hoursInstead(of: by) {
                throw ValidationError("--by: days and weeks do not combine with hours or minutes: write \(by.sanitizedForMessage) as \(hours)")
            }
            throw ValidationError("--by takes a duration such as \(DurationText.examples)")
        }
    }

    func run() throws {
        let amount = DurationText.amount(by) ?? TimeAmount(count: 1, unit: .hour)
        try changeTasks(ids, options, top: (top, "snooze"), verb: "Snoozed", unchanged: "Not snoozed (completed)", detail: snoozedTo) {
            store, ids, context in
            let tasks = try ids.map { try store.task(withID: $0) }
            let repeating = try store.tasksRepeatingOnServer(tasks.filter { !$0.isCompleted }.map(\.id))
            if let task = tasks.first(where: { repeating.contains($0.id) }) {
                throw TaskWidgetError(
                    .invalidInput,
                    "\(refusalName(of: task, in: store, click: top.isClick)) repeats on the server: snoozing it here would move the whole series there "
                        + "at the next sync; snooze it on the phone (nothing was snoozed)")
            }
            return try store.snoozeTasks(ids, by: amount, now: context.now, in: context.calendar)
        }
    }
}

struct Stop: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stop", _superCommandName: "taskwidget",
        abstract: "Put an active task back to not started.",
        discussion: """
            --top stops the task a bar shows (`Not active` when it is not active: a task \
            due before the active one goes first there); with nothing open it says so and \
            exits 64.

            Examples:
              taskwidget stop 3f2a
              taskwidget stop --top --list Work
            """)
    @OptionGroup var options: GlobalOptions
    @Argument(help: "The task's id (4 or more characters).") var id: String?
    @OptionGroup var top: TopTaskOptions

    func validate() throws { try top.validate(id: id) }

    func run() throws {
        try changeTasks(id.map { [$0] } ?? [], options, top: (top, "stop"), verb: "Stopped", unchanged: "Not active") {
            try $0.stopTasks($1, now: $2.now)
        }
    }
}

struct Edit: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "edit", _superCommandName: "taskwidget",
        abstract: "Change a task's title, due date, reminder or list.",
        discussion: """
            --list moves the task to the end of an existing list (a name that is not one is \
            refused, with the closest name), or to the Inbox with `--list inbox`.

            Examples:
              taskwidget edit 3f2a --due "fri 5pm"
              taskwidget edit 3f2a --due none --list inbox
              taskwidget edit 3f2a --title "Pay the rent"
            """)

    @OptionGroup var options: GlobalOptions
    @Argument(help: "The task's id (4 or more characters).") var id: String
    @Option(help: "A new title.") var title: String?
    @Option(help: ArgumentHelp("A new due date, or `none`.", valueName: "when|none")) var due: String?
    @Option(help: ArgumentHelp("A new reminder, or `none`.", valueName: "when|none")) var remind: String?
    @Option(help: ArgumentHelp("Move it to this list, or `inbox`.", valueName: "name|inbox")) var list: String?

    func run() throws {
        let context = try options.context()
        // A date not read names `none` too, the way to clear one (helper-170).
        func reading(_ text: String?, for purpose: WhenParser.Purpose, option: String) throws -> WhenParser.Reading? {
            guard let text, text.lowercased() != "none" else { return nil }
            do {
                return try context.reading(text, for: purpose, option: option)
            } catch let error as TaskWidgetError where error.message.hasPrefix("\(option): cannot read") {
                throw TaskWidgetError(error.code, error.message + "; or none to clear it", context: error.context, cause: error.cause)
            }
        }
        let dueReading = try reading(due, for: .due, option: "--due")
        let remindReading = try reading(remind, for: .reminder, option: "--remind")
        // Given as `none`: cleared.
        func change(_ text: String?, _ reading: WhenParser.Reading?) -> TaskChanges.Change<Instant>? {
            text == nil ? nil : reading.map { .set($0.instant) } ?? .clear
        }
        let changes = TaskChanges(
            title: title, dueDate: change(due, dueReading), reminderDate: change(remind, remindReading),
            list: list.map { TaskList.isInbox($0) ? .clear : .set($0) })
        guard !changes.isEmpty else {
            throw ValidationError("nothing to change: give --title, --due, --remind or --list")
        }
        let store = try context.storeForChanging()
        if changes.dueDate != nil || changes.reminderDate != nil {
            // As snooze: the next sync would move the whole series there, and pin its reminder to
            // this occurrence: later ones reminded nowhere (helper-93).
            let task = try store.task(withID: id)
            if try !store.tasksRepeatingOnServer([task.id]).isEmpty {
                throw TaskWidgetError(
                    .invalidInput,
                    "“\(task.title.sanitizedForMessage)” repeats on the server: a due date or reminder set here would move the whole series "
                        + "there at the next sync and leave later occurrences without their reminder; change it on the phone (nothing was changed)")
            }
        }
        let update = try store.editTask(id, changes, now: context.now)
        let task = update.task
        noteIfPassed(
            due: changes.dueDate != nil ? task.dueDate : nil, reminder: changes.reminderDate != nil ? task.reminderDate : nil, now: context.now)
        noteIfMoved([(due, dueReading, "the due time"), (remind, remindReading, "the reminder")])
        if update.isChanged, changes.dueDate != nil || changes.reminderDate != nil { noteIfRemindedAfterDue(task) }
        // Kept, but never shown: notify reminds of open tasks only (helper-172).
        if task.isCompleted, case .set = changes.reminderDate {
            writeToStandardError(
                "taskwidget: note: the task is completed, so notify shows no reminder for it "
                    + "(`taskwidget undo \(confirmedID(of: task, in: store))\(options.repeatedStore(in: context))` reopens it)\n")
        }
        // As `done` says "Already completed": a change to what the task already has.
        printConfirmation("\(update.isChanged ? "Edited" : "Unchanged") \(confirmedID(of: task, in: store)) \(task.title)")
    }
}

struct Rm: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rm", _superCommandName: "taskwidget",
        abstract: "Delete tasks.", discussion: "Example: taskwidget rm 3f2a 9c1b")
    @OptionGroup var options: GlobalOptions
    @Argument(help: "Task ids (4 or more characters).") var ids: [String] = []
    @Flag(help: "Confirm that a task that repeats on a sync server is deleted there, the whole series.") var yes = false

    func validate() throws {
        if ids.isEmpty { throw ValidationError("give task ids: `taskwidget ls` shows them") }
    }

    func run() throws {
        let context = try options.context()
        let store = try context.storeForChanging()
        // As `done` warns: the next sync deleted the whole series on the phone, which no undo
        // brings back (helper-171).
        if !yes {
            let tasks = try ids.map { try store.task(withID: $0) }
            let repeating = try store.tasksRepeatingOnServer(tasks.map(\.id))
            if let task = tasks.first(where: { repeating.contains($0.id) }) {
                throw TaskWidgetError(
                    .needsConfirmation,
                    "“\(task.title.sanitizedForMessage)” repeats on the server: deleting it here deletes the whole series there at the next "
                        + "sync; delete one occurrence on the phone, or run `taskwidget rm \(ids.map(\.shellQuoted).joined(separator: " "))"
                        + "\(options.repeatedStore(in: context)) --yes` to delete the series (nothing was deleted)",
                    context: "task repeats on the server")
            }
        }
        for task in try store.deleteTasks(ids, now: context.now) {
            printConfirmation("Deleted \(task.id.shortID) \(task.title)")
        }
    }
}

struct Move: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "move", _superCommandName: "taskwidget",
        abstract: "Move a task to another position in its list.",
        discussion: """
            N counts from 1 among the open tasks of the task's list (or the Inbox), as \
            `taskwidget ls --list NAME` shows them; for a completed task, among all of them, as \
            `taskwidget ls --all` shows them.

            Example: taskwidget move 3f2a --to 1
            """)
    @OptionGroup var options: GlobalOptions
    @Argument(help: "The task's id (4 or more characters).") var id: String
    @Option(name: .customLong("to"), help: ArgumentHelp("The new position, from 1.", valueName: "n")) var position: Int

    func run() throws {
        let context = try options.context()
        let store = try context.storeForChanging()
        let moved = try store.moveTask(id, to: position, now: context.now)
        printConfirmation(
            moved.moved
                ? "Moved \(confirmedID(of: moved.task, in: store)) \(moved.task.title) to position \(moved.position)"
                : "\(confirmedID(of: moved.task, in: store)) \(moved.task.title) is already at position \(moved.position): nothing changed")
    }
}
