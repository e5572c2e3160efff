import Foundation
import Testing

@testable import TaskWidgetCore
@testable import TaskWidgetTestSupport
@testable import TaskWidgetRender

/// The fixed stores, clock and zone of the renderer tests, and renders with fontconfig pinned to
/// the fonts in `fonts.conf` (set before the first Pango call of the process).
enum RenderFixture {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    static let zone = TimeZone(identifier: "Europe/Berlin")!
    /// Sunday 22 November 2026, 16:27 in Berlin.
    static let now = Instant(secondsSince1970: 1_795_361_220)
    static let created = now.adding(seconds: -3 * 86_400)

    static let cjk = "買い物リスト"
    static let arabic = "دفع الإيجار"
    static let emoji = "🎉 Party 👩‍👩‍👧"
    static let markup = "Prepare <b>slides</b> & notes"
    static let long = String(repeating: "A very long title that goes on ", count: 10)

    /// Every test renders through here, so the fonts are pinned before any Pango call.
    private static let pinnedFonts: Void = {
        setenv("FONTCONFIG_FILE", folder.appendingPathComponent("fonts.conf").path, 1)
    }()

    static func render(
        _ scenario: Scenario, family: WidgetFamily, theme: WidgetTheme = .light, scale: Int = 1, size: WidgetSize? = nil
    ) throws -> RenderedWidget {
        _ = pinnedFonts
        let renderer = try WidgetRenderer(family: family, size: size, scale: scale, theme: theme)
        return try renderer.render(entry(scenario, family: family), recording: true)
    }

    /// The entry at now of a scenario's store, for a widget of `family`. The fonts are pinned
    /// here too, for the tests that render an entry of their own.
    static func entry(_ scenario: Scenario, family: WidgetFamily) throws -> TimelineEntry {
        _ = pinnedFonts
        let request = TimelineRequest(now: now, calendar: LocalCalendar(timeZone: zone), view: TaskView(scope: scenario.scope), family: family)
        return TimelineProvider().timeline(for: request, snapshot: try TimelineSnapshot(scenario.export, request: request)).entries[0]
    }

    /// The stores the golden images show.
    enum Scenario: String, CaseIterable, Sendable {
        /// Latin, CJK, Arabic and emoji titles, markup characters, overdue and active tasks, habits.
        case mixed
        /// The mixed store seen by a widget for the list Work.
        case workList
        /// One task whose title is 300 characters long.
        case longTitle
        /// No tasks at all.
        case empty
        /// 500 open tasks, 40 of them overdue.
        case many

        var scope: TaskScope { self == .workList ? .list("Work") : .all }

        var export: StoreExport {
            switch self {
            case .mixed, .workList: RenderFixture.mixed
            case .longTitle: RenderFixture.store([(RenderFixture.long, 60 * 60, nil)])
            case .empty: StoreExport()
            case .many: RenderFixture.store((0..<500).map { ("Task number \($0 + 1)", Int64($0 - 40) * 600 + 60, $0 % 3) })
            }
        }
    }

    /// Tasks (title, due in seconds from now or nil, list index or nil) in three lists.
    static func store(_ tasks: [(String, Int64?, Int?)]) -> StoreExport {
        let lists = [("Home", "34C759"), ("Work", "007AFF"), ("Errands", "FF9500")].enumerated().map { index, list in
            TaskList(id: TL.id(index, kind: 1), name: list.0, colorHex: list.1, createdAt: created, sortOrder: index)
        }
        let items = tasks.enumerated().map { index, task in
            TaskItem(
                id: TL.id(index), title: task.0, dueDate: task.1.map { now.adding(seconds: $0) },
                listID: task.2.map { lists[$0].id }, sortOrder: index, createdAt: created.adding(seconds: Int64(index)))
        }
        return StoreExport(lists: lists, tasks: items)
    }

    static var mixed: StoreExport {
        var export = store([
            ("Pay rent", -2 * 3600, 0),
            (cjk, 90 * 60, nil),
            (arabic, 3 * 3600, 0),
            (emoji, nil, nil),
            (markup, 26 * 3600, 1),
            ("Review pull request #42", 20 * 60, 1),
            ("Call the dentist", -26 * 3600, nil),
            ("Book flights to Lisbon ✈️", 5 * 86_400, 2),
            ("Renew passport", 21 * 86_400, 2),
            ("Water the plants", 7 * 3600, 0),
            ("Buy milk & eggs", 5 * 3600, 2),
            ("Read 20 pages", nil, nil),
            ("Fix the leaking tap", nil, 0),
        ])
        export.tasks[12].start(at: created)
        let today = LocalCalendar(timeZone: zone).localDay(containing: now)
        export.habits = [("Drink water", "💧", "32ADE6", true), ("Read", "📖", "AF52DE", false), ("Walk", "🚶", "34C759", true)]
            .enumerated().map { index, habit in
                StoreExport.HabitRecord(
                    habit: Habit(id: TL.id(index, kind: 2), name: habit.0, icon: habit.1, colorHex: habit.2, createdAt: created),
                    completions: habit.3 ? [.init(day: today, status: .done)] : [])
            }
        return export
    }
}
