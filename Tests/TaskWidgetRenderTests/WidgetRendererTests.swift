import Foundation
import Testing

@testable import TaskWidgetCore
@testable import TaskWidgetTestSupport
@testable import TaskWidgetRender

/// The PNG widgets of SPEC §7: golden images per family, theme and store, and the facts that do
/// not depend on the fonts (sizes, no unknown glyphs, ellipses, colors, determinism).
@Suite struct WidgetRendererTests {
    typealias Scenario = RenderFixture.Scenario

    static let goldenCases: [(WidgetFamily, WidgetTheme, Scenario)] =
        WidgetFamily.allCases.flatMap { family in
            WidgetTheme.allCases.flatMap { theme in
                [Scenario.mixed, .longTitle, .empty, .many].map { (family, theme, $0) }
            }
        } + [(.medium, .light, .workList), (.small, .dark, .workList)]

    @Test(arguments: goldenCases)
    func matchesTheGoldenImage(family: WidgetFamily, theme: WidgetTheme, scenario: Scenario) throws {
        let widget = try RenderFixture.render(scenario, family: family, theme: theme)
        try GoldenImage.compare(widget.image, toGolden: "\(family.rawValue)-\(theme.rawValue)-\(scenario.rawValue)")
        #expect(widget.report.unknownGlyphs == 0, "some text has no font: install the fonts of scripts/lib/dependencies.sh")
    }

    @Test(arguments: WidgetFamily.allCases, [1, 2, 3])
    func pixelSizeIsPointsTimesScale(family: WidgetFamily, scale: Int) throws {
        let image = try DecodedImage(png: RenderFixture.render(.mixed, family: family, scale: scale).image)
        let points = WidgetSize(family)
        #expect((image.width, image.height) == (points.width * scale, points.height * scale))
    }

    @Test func familiesHaveTheirSizes() {
        #expect(WidgetSize(.small) == WidgetSize(width: 170, height: 170))
        #expect(WidgetSize(.medium) == WidgetSize(width: 364, height: 170))
        #expect(WidgetSize(.large) == WidgetSize(width: 364, height: 382))
    }

    @Test(arguments: [WidgetTheme.light, .mono])
    func aDashboardCanvasHasItsSizeTimesScale(theme: WidgetTheme) throws {
        let widget = try RenderFixture.render(.mixed, family: .large, theme: theme, scale: 2, size: WidgetSize(parsing: "800x480"))
        let image = try DecodedImage(png: widget.image)
        #expect((image.width, image.height) == (1600, 960))
        #expect(widget.report.rows.count == 12)
        #expect(image.pixel(0, 0) == (255, 255, 255, 255), "a dashboard is drawn edge to edge")
    }

    @Test func sizesAreReadAsWidthByHeight() throws {
        #expect(try WidgetSize(parsing: "800x480") == WidgetSize(width: 800, height: 480))
        #expect(try WidgetSize(parsing: "296×128") == WidgetSize(width: 296, height: 128))
        for bad in ["800", "800x", "x480", "0x480", "800x480x2", "99999x10", "-800x480", "+800x480", "800x 480", "wide"] {
            #expect(throws: TaskWidgetError.self, "\(bad)") { try WidgetSize(parsing: bad) }
        }
        #expect(throws: TaskWidgetError.self) { try WidgetRenderer(family: .small, scale: 4) }
    }

    @Test(arguments: WidgetFamily.allCases, WidgetTheme.allCases)
    func everyScriptHasAFontAndShortTitlesAreWhole(family: WidgetFamily, theme: WidgetTheme) throws {
        let widget = try RenderFixture.render(.mixed, family: family, theme: theme, scale: 2)
        #expect(widget.report.unknownGlyphs == 0)
        let titles = widget.report.rows.map(\.title)
        #expect(titles.count == family.taskRows)
        for short in [RenderFixture.cjk, RenderFixture.arabic, RenderFixture.emoji, "Pay rent"] where titles.contains(short) {
            #expect(!widget.report.ellipsized.contains(short), "\(short) fits and must not be cut")
        }
    }

    /// A title whose first letter is right-to-left is laid out right to left: "אבגד abcdefgh" shows
    /// its Hebrew at the right, after the Latin, as "abcdefgh אבגד" shows it. Laid out left to
    /// right, a mixed title read its clauses backwards (helper-118).
    @Test func aTitleThatStartsRightToLeftIsLaidOutRightToLeft() throws {
        let renderer = try WidgetRenderer(family: .medium, theme: .mono)
        func image(_ title: String) throws -> Data {
            var entry = try RenderFixture.entry(.longTitle, family: .medium)
            entry.top[0].title = title
            return try renderer.render(entry).image
        }
        #expect(try image("אבגד abcdefgh") == image("abcdefgh אבגד"))
        #expect(try image("abcdefgh אבגד") != image("abcdefgh"), "the Hebrew is drawn")
    }

    @Test(arguments: WidgetFamily.allCases)
    func aLongTitleEndsWithAnEllipsis(family: WidgetFamily) throws {
        let widget = try RenderFixture.render(.longTitle, family: family)
        #expect(widget.report.rows.map(\.title) == [RenderFixture.long])
        #expect(widget.report.ellipsized.contains(RenderFixture.long))
    }

    /// A due date in another year lost its end to the ellipsis in the medium widget ("Overdue ·
    /// Tue 16 Dec 2025 …", helper-164): it is shown without its time of day instead.
    @Test func aLongDueLabelDropsItsTimeRatherThanBeingCut() throws {
        var entry = try RenderFixture.entry(.mixed, family: .medium)
        entry.top[0].dueLabel = "Overdue · Tue 16 Dec 2025 09:00"
        let widget = try WidgetRenderer(family: .medium).render(entry, recording: true)
        #expect(widget.report.ellipsized.allSatisfy { !$0.hasPrefix("Overdue") }, "\(widget.report.ellipsized)")
        var shortened = entry
        shortened.top[0].dueLabel = "Overdue · Tue 16 Dec 2025"
        #expect(try widget.image == WidgetRenderer(family: .medium).render(shortened).image)
    }

    /// A long list name is cut before the counts are: they read `1 overdue · 1 toda…`.
    @Test(arguments: [WidgetFamily.medium, .large])
    func aLongListNameIsCutBeforeTheCounts(family: WidgetFamily) throws {
        var entry = try RenderFixture.entry(.mixed, family: family)
        entry.scopeTitle = "Gartenarbeit im Schrebergarten am Stadtrand"
        let widget = try WidgetRenderer(family: family).render(entry, recording: true)
        #expect(widget.report.ellipsized.contains("Gartenarbeit im Schrebergarten am Stadtrand"))
        #expect(!widget.report.ellipsized.contains { $0.contains("open") }, "\(widget.report.ellipsized)")
    }

    /// The small widget's number is set smaller when its caption would not fit beside it: at four
    /// digits the caption read `2000 ov…`, at five `20000 …` (helper-88).
    @Test(arguments: [2_000, 20_000, 99_999])
    func aBigNumberLeavesItsCaptionWhole(overdue: Int) throws {
        var entry = try RenderFixture.entry(.mixed, family: .small)
        entry.counts.overdue = overdue
        let widget = try WidgetRenderer(family: .small).render(entry, recording: true)
        #expect(!widget.report.ellipsized.contains("overdue"), "\(widget.report.ellipsized)")
    }

    /// Habit icons of several code points are drawn whole, and an emoji asked for in color is in
    /// color: `🏃‍♀️`, `🇩🇪` and `👍🏽` showed "…" in their circles (the widgets' own fonts drew them as
    /// boxes, which the ellipsis then cut away before the fallback looked), and `❤️` was a black ❤.
    @Test func emojiHabitIconsAreWholeAndInColor() throws {
        var entry = try RenderFixture.entry(.empty, family: .large)
        let icons = ["❤️", "🏃‍♀️", "🇩🇪", "👍🏽"]
        entry.habits = HabitSummary(
            done: 0, total: icons.count, items: icons.map { HabitSummary.Item(name: $0, icon: $0, colorHex: "007AFF", status: nil) })
        let widget = try WidgetRenderer(family: .large).render(entry, recording: true)
        #expect(widget.report.ellipsized.isEmpty, "\(widget.report.ellipsized)")
        #expect(widget.report.unknownGlyphs == 0)
        // Nothing else on this widget is red: the heart is, drawn from the color emoji font.
        let image = try DecodedImage(png: widget.image)
        let red = (0..<image.height).contains { y in
            (0..<image.width).contains { x in
                let (r, g, b, _) = image.pixel(x, y)
                return r > 180 && g < 90 && b < 90
            }
        }
        #expect(red)
    }

    /// Icons of a few characters are set smaller to fit their circles: `GYM`, `読書`, `日本語` and two
    /// flags showed "…" (helper-138, helper-140). One too long at half the size is still cut.
    @Test func wideHabitIconsAreSetSmallerToFit() throws {
        var entry = try RenderFixture.entry(.empty, family: .large)
        let icons = ["GYM", "読書", "日本語", "🇯🇵🇩🇪", "ABCDEFGH"]
        entry.habits = HabitSummary(
            done: 0, total: icons.count, items: icons.map { HabitSummary.Item(name: $0, icon: $0, colorHex: "007AFF", status: nil) })
        let widget = try WidgetRenderer(family: .large).render(entry, recording: true)
        #expect(widget.report.ellipsized == ["ABCDEFGH"])
        #expect(widget.report.unknownGlyphs == 0)
    }

    /// The notice of a store that cannot be read wraps onto the lines below it: on an e-ink
    /// canvas the whole advice shows (one line cut it before "taskwidget add"); on a small card
    /// its third line ends with an ellipsis.
    @Test func theUnavailableNoticeWrapsItsMessage() throws {
        let message = "there is no store at /home/someone/.local/share/taskwidget/tasks.sqlite yet: check the path "
            + "(--store, TASKWIDGET_STORE), or create it with a first `taskwidget add`"
        let eInk = WidgetRenderer(spec: try WidgetImageSpec(family: .medium, size: WidgetSize(width: 800, height: 480), theme: .mono, depth: 1))
        #expect(try eInk.renderUnavailable(message: message, recording: true).report.ellipsized.isEmpty)
        let small = try WidgetRenderer(family: .small)
        #expect(try small.renderUnavailable(message: message, recording: true).report.ellipsized == [message])
    }

    @Test func titlesAreTextNotMarkup() throws {
        let widget = try RenderFixture.render(.mixed, family: .large)
        #expect(widget.report.rows.map(\.title).contains(RenderFixture.markup))
    }

    @Test(arguments: WidgetFamily.allCases)
    func noTasksShowsAllDone(family: WidgetFamily) throws {
        let widget = try RenderFixture.render(.empty, family: family)
        #expect(widget.report.rows.isEmpty)
        let image = try DecodedImage(png: widget.image)
        // The check's circle, in the theme's green, in the middle of the widget.
        let green = WidgetTheme.light.palette.done
        let greens = (0..<image.height).reduce(0) { count, y in
            count + (0..<image.width).filter { x in image.pixel(x, y) == (green.red, green.green, green.blue, 255) }.count
        }
        #expect(greens > 400)
    }

    @Test(arguments: [WidgetTheme.light, .dark])
    func anOverdueTaskIsDrawnInTheThemesRed(theme: WidgetTheme) throws {
        let widget = try RenderFixture.render(.mixed, family: .medium, theme: theme, scale: 2)
        let entry = try RenderFixture.entry(.mixed, family: .medium)
        let overdue = try #require(entry.top.first { $0.isOverdue })
        #expect(overdue.dueLabel?.hasPrefix("Overdue · ") == true)
        let image = try DecodedImage(png: widget.image)
        let red = theme.palette.red
        func redPixels(in row: RenderReport.Row) -> Int {
            var count = 0
            for y in Int(row.top * 2)..<Int(row.bottom * 2) {
                for x in 0..<image.width {
                    let (r, g, b, _) = image.pixel(x, y)
                    if abs(Int(r) - Int(red.red)) + abs(Int(g) - Int(red.green)) + abs(Int(b) - Int(red.blue)) < 24 { count += 1 }
                }
            }
            return count
        }
        for row in widget.report.rows {
            let isOverdue = entry.top.first { $0.title == row.title }?.isOverdue == true
            #expect((row.color == red) == isOverdue, "\(row.title)")
            if isOverdue {
                #expect(redPixels(in: row) > 200, "\(row.title) is overdue: drawn in red")
            } else {
                #expect(redPixels(in: row) == 0, "\(row.title) is not overdue: no red")
            }
        }
    }

    /// Black and white has no red: an overdue task's dot is a `!` (a mark taller than wide), the
    /// others' a round dot, in every family. The small widget, which has no due labels, showed
    /// an overdue task as any other.
    @Test(arguments: WidgetFamily.allCases)
    func monoMarksOverdueTasks(family: WidgetFamily) throws {
        let widget = try RenderFixture.render(.mixed, family: family, theme: .mono, scale: 2)
        let entry = try RenderFixture.entry(.mixed, family: family)
        let image = try DecodedImage(png: widget.image)
        // The ink of the row's mark: left of 25 points in (titles start at 29 or more), in the
        // middle of the row's band (the large widget's last band holds the habits' rule).
        func markSize(of row: RenderReport.Row) -> (width: Int, height: Int) {
            var (xs, ys) = ([Int](), [Int]())
            let margin = (row.bottom - row.top) * 0.2
            for y in Int((row.top + margin) * 2)..<Int((row.bottom - margin) * 2) {
                for x in 0..<50 where image.pixel(x, y).0 == 0 {
                    xs.append(x)
                    ys.append(y)
                }
            }
            return ((xs.max() ?? 0) - (xs.min() ?? 0) + 1, (ys.max() ?? 0) - (ys.min() ?? 0) + 1)
        }
        var overdueRows = 0
        for row in widget.report.rows {
            let mark = markSize(of: row)
            if entry.top.first(where: { $0.title == row.title })?.isOverdue == true {
                overdueRows += 1
                #expect(mark.height > 2 * mark.width, "\(row.title) is overdue: marked !, not \(mark)")
            } else {
                #expect(abs(mark.height - mark.width) <= 1, "\(row.title): a round dot, not \(mark)")
            }
        }
        #expect(overdueRows > 0)
    }

    /// Counts too wide for the header lose their last parts whole: `1000 overdue · 20 today`, not
    /// `1000 overdue · 20 today · 1020 o…` (helper-77).
    @Test(arguments: [WidgetFamily.medium, .large])
    func countsThatDoNotFitLoseTheirLastPartsWhole(family: WidgetFamily) throws {
        var entry = try RenderFixture.entry(.many, family: family)
        (entry.counts.overdue, entry.counts.dueToday, entry.counts.open) = (1000, 20, 1020)
        let widget = try WidgetRenderer(family: family, scale: 2).render(entry, recording: true)
        #expect(!widget.report.ellipsized.contains { $0.contains("overdue") }, "\(widget.report.ellipsized)")
        (entry.counts.overdue, entry.counts.dueToday, entry.counts.open) = (10, 2, 12)
        let fits = try WidgetRenderer(family: family, scale: 2).render(entry, recording: true)
        #expect(fits.report.ellipsized.isEmpty, "\(fits.report.ellipsized)")
    }

    @Test(arguments: WidgetFamily.allCases, [Scenario.mixed, .many])
    func monoIsPureBlackAndWhite(family: WidgetFamily, scenario: Scenario) throws {
        let image = try DecodedImage(png: RenderFixture.render(scenario, family: family, theme: .mono, scale: 2).image)
        var colors = Set<UInt32>()
        for pixel in stride(from: 0, to: image.rgba.count, by: 4) {
            colors.insert(image.rgba[pixel..<pixel + 4].reduce(0) { $0 << 8 | UInt32($1) })
        }
        #expect(colors == [0x0000_00FF, 0xFFFF_FFFF])
    }

    @Test func aFamilyCardHasTransparentRoundedCorners() throws {
        let image = try DecodedImage(png: RenderFixture.render(.mixed, family: .medium, theme: .dark).image)
        #expect(image.pixel(0, 0).3 == 0)
        #expect(image.pixel(image.width / 2, image.height / 2).3 == 255)
    }

    @Test func theSameInputsGiveTheSameBytesAlsoInParallel() async throws {
        let cases = WidgetTheme.allCases.flatMap { theme in WidgetFamily.allCases.map { (theme, $0) } }
        let serial = try cases.map { try RenderFixture.render(.mixed, family: $0.1, theme: $0.0, scale: 2).image }
        let parallel = try await withThrowingTaskGroup(of: (Int, Data).self) { group in
            for (index, (theme, family)) in cases.enumerated() {
                group.addTask { (index, try RenderFixture.render(.mixed, family: family, theme: theme, scale: 2).image) }
            }
            return try await group.reduce(into: [Int: Data]()) { $0[$1.0] = $1.1 }
        }
        #expect(cases.indices.map { parallel[$0] } == serial)
    }

    @Test(arguments: WidgetTheme.allCases)
    func everyTextColorMeetsWCAGAA(theme: WidgetTheme) {
        let palette = theme.palette
        for (name, color) in palette.textColors {
            let ratio = color.contrastRatio(with: palette.background)
            #expect(ratio >= 4.5, "\(theme) \(name) \(color.markup) on \(palette.background.markup): \(ratio)")
        }
    }

    @Test func contrastRatiosAreWCAGs() {
        #expect(abs(RGB(0x000000).contrastRatio(with: RGB(0xFFFFFF)) - 21) < 0.001)
        #expect(RGB(0x777777).contrastRatio(with: RGB(0xFFFFFF)) < 4.5)  // the classic gray that fails AA
        #expect(abs(RGB(0x767676).contrastRatio(with: RGB(0xFFFFFF)) - 4.54) < 0.01)
    }

    @Test func theComparatorToleratesShadesButNotChanges() throws {
        let png = try RenderFixture.render(.mixed, family: .small).image
        let original = try DecodedImage(png: png)
        var shaded = original
        for index in stride(from: 0, to: shaded.rgba.count, by: 4) { shaded.rgba[index] = shaded.rgba[index] &+ (shaded.rgba[index] < 200 ? 20 : 0) }
        #expect(GoldenImage.differingPixels(original, shaded) == 0)
        let other = try DecodedImage(png: RenderFixture.render(.many, family: .small).image)
        #expect(GoldenImage.differingPixels(original, other) > 16)
    }
}
