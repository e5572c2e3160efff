import Foundation
import Testing

@testable import TaskWidgetCore
@testable import TaskWidgetFormats
@testable import TaskWidgetTestSupport

/// SPEC §6: the entry is a template's context (`{{counts.overdue}}`), with the convenience names
/// beside it, and a name the context does not have is refused when the template is loaded, with
/// its line and column.
@Suite struct TemplateContextTests {
    static let names = StatusContext.fields.mapValues(\.shape)

    func render(_ text: String, _ entry: TimelineEntry? = nil) throws -> String {
        let renderer = try StatusRenderer(format: .text, template: .init(text: text, source: "user.mustache"))
        return try renderer.line(for: try entry ?? StatusFixture.entry(StatusFixture.export), timeZone: StatusFixture.zone, now: nil)
    }

    // MARK: The entry as context

    @Test(arguments: [
        ("{{counts.overdue}}/{{counts.dueToday}}/{{counts.open}}", "1/3/7"),
        ("{{#counts}}{{overdue}} overdue of {{open}}{{/counts}}", "1 overdue of 7"),
        ("{{overdue}} = {{counts.overdue}}", "1 = 1"),
        ("{{#top}}{{#isOverdue}}{{title}} · {{state}} · {{dueDate}}{{/isOverdue}}{{/top}}",
         #"Pay rent & <stuff> "quoted" 'single' · notStarted · 2026-11-22T09:00:00+01:00"#),
        ("{{#top}}{{#isActive}}▶ {{list}}{{^list}}Inbox{{/list}} of {{open}}{{/isActive}}{{/top}}", "▶ Inbox of 7"),
        ("{{#first(top)}}{{dueLabel}}{{/first(top)}}", "Overdue · 09:00"),
        ("{{#next}}{{id}}{{/next}}", ""),  // checked below against the entry
        ("{{habits.done}}/{{habits.total}}{{#habits.items}}x{{/habits.items}}", "0/0"),
        ("{{relevance.score}} {{scope}}{{^scope}}all{{/scope}} {{date}} {{#reasons}}{{.}}{{/reasons}}", "13 all 2026-11-22T16:27:00+01:00 now"),
        ("{{summary}}", "1 overdue · 3 today · 1 soon · 1 done"),
        ("{{uppercased(class)}} {{count(top)}}", "OVERDUE 7"),
        // Values read as Mustache reads plain Swift values: a flag renders as `true`, `false` is an
        // empty section, a name inside a section of a value is found further out, `0` is a value.
        ("{{hasOverdue}} {{#hasOverdue}}{{overdue}}{{/hasOverdue}}{{^hasDoneToday}}x{{/hasDoneToday}} {{plusone(overdue)}}", "true 1 2"),
        ("{{#summary}}{{class}}{{/summary}} {{#habits.done}}zero is a value{{/habits.done}} {{#empty(scope)}}x{{/empty(scope)}}", "overdue zero is a value"),
    ])
    func theEntryAndTheConvenienceNamesRender(template: String, expected: String) throws {
        let entry = try StatusFixture.entry(StatusFixture.export)
        let line = try render(template, entry)
        if template.contains("{{id}}") {
            #expect(line == entry.next?.id.uuidString.lowercased())
        } else {
            #expect(line == expected)
        }
    }

    /// Every name of the entry's JSON (docs/timeline.schema.json) is a name of the context, and
    /// holds the same kind of thing, down to the tasks' and habits' names.
    @Test func theContextHasEveryNameOfTheEntrysJSON() throws {
        var entry = try StatusFixture.entry(StatusFixture.export)
        entry.habits = HabitSummary(done: 1, total: 1, items: [.init(name: "Walk", icon: "🚶", colorHex: "34C759", status: .done)])
        guard case .object(let members) = TimelineJSON.value(of: entry, in: StatusFixture.zone) else {
            Issue.record("the entry's JSON is not an object")
            return
        }
        func check(_ value: JSONValue, _ shape: ContextShape?, at path: String) {
            switch (value, shape) {
            case (.object(let members), .object(let names)?):
                for (name, member) in members { check(member, names[name], at: path + "." + name) }
            case (.array(let elements), .list(let element)?):
                for member in elements { check(member, element, at: path + "[]") }
            case (.string, .value?), (.int, .value?), (.bool, .value?), (.null, .value?): break
            default: Issue.record("\(path): \(value.compactText.prefix(60)) is \(shape.map { "\($0)" } ?? "missing") in the context")
            }
        }
        check(.object(members), .object(Self.names), at: "entry")
        #expect(members.count == 12)
    }

    @Test func anEmptyStateSaysSoAndHowToAddATask() throws {
        var empty = try StatusFixture.entry(StoreExport())
        let waybar = try StatusFixture.line(.waybar, empty)
        #expect(waybar.contains(#""text": "No open tasks""#) && waybar.contains(#""class": "empty""#), "\(waybar)")
        #expect(waybar.contains(#"Add one: taskwidget add \"Buy milk\" --due today"#), "\(waybar)")
        #expect(try StatusFixture.line(.text, empty) == "No open tasks")
        // Everything done today: all done.
        empty.counts.completedToday = 2
        #expect(try StatusFixture.line(.text, empty) == "All done")
        #expect(try StatusFixture.line(.waybar, empty).contains(#"No open tasks (2 done today)\nAdd one"#))
    }

    @Test func zeroCountsAreLeftOutAndAnActiveTaskIsMarked() throws {
        var builder = StoreBuilder(created: Fixed.instant("2026-11-01T08:00:00Z"))
        builder.task("Write report", kind: .active)
        builder.task("Dentist", due: Fixed.instant("2026-11-27T14:30:00+01:00"))
        let entry = try StatusFixture.entry(builder.export)
        #expect(try StatusFixture.line(.text, entry) == "next: Dentist (Fri 27 Nov 14:30)")
        let waybar = try StatusFixture.line(.waybar, entry)
        #expect(waybar.contains(#""tooltip": "2 open\nDentist · Fri 27 Nov 14:30\n▶ Write report""#), "\(waybar)")
        for format in StatusFormat.allCases where format != .json {
            let line = try StatusFixture.line(format, entry)
            #expect(!["overdue", "today", "soon", "done"].contains { line.contains("0 " + $0) }, "\(format): \(line)")
        }
        // Active and first: marked in the line too.
        var active = StoreBuilder(created: Fixed.instant("2026-11-01T08:00:00Z"))
        active.task("Write report", due: Fixed.instant("2026-11-22T18:00:00+01:00"), kind: .active)
        #expect(try StatusFixture.line(.text, StatusFixture.entry(active.export)) == "1 today · next: ▶ Write report (in 2 h)")
    }

    // MARK: Unknown names

    @Test(arguments: [
        ("{{cuonts.today}}", 1, 3, "unknown name “cuonts.today”: did you mean “counts.dueToday”?"),
        ("{\n  \"text\": \"{{#top}}{{titel}}{{/top}}\"\n}", 2, 22, "unknown name “titel”: did you mean “title”?"),
        ("{{#counts}}{{whatever}}{{/counts}}", 1, 14, "unknown name “whatever”: the entry has no such name"),
        ("{{top.title}}", 1, 3, "unknown name “top.title”"),
        ("{{ counts.overdue.x }}", 1, 4, "unknown name “counts.overdue.x”"),
        ("{{#next}}{{.open}}{{/next}}", 1, 12, "unknown name “.open”: the section's object has no such name"),
        ("{{= <% %> =}}\n<%#hasTasks%><%nope%><%/hasTasks%>", 2, 16, "unknown name “nope”"),
        ("a {{{ entryJSN }}}", 1, 7, "unknown name “entryJSN”: did you mean “entryJSON”?"),
        ("{{uppercsed(class)}}", 1, 3, "unknown transform “uppercsed”"),
        // A name of each item of a list: the habits' form before they became an object.
        ("{{#habits}}{{name}}{{/habits}}", 1, 14, "unknown name “name”: it is a name of each of “items”: put it inside {{#items}}…{{/items}}"),
        ("x {{> header}}", 1, 3, "partials ({{>name}}, {{<name}}) are not supported"),
        // A letter the parser does not take in a name: "a tag is not finished" (helper-169).
        ("{{summäry}}", 1, 3, "unknown name “summäry”: did you mean “summary”?"),
        ("{{#tóp}}x{{/tóp}}", 1, 4, "unknown name “tóp”: did you mean “top”?"),
        ("{{sum mary}}", 1, 3, "unknown name “sum mary”: did you mean “summary”?"),
    ])
    func unknownNamesAreRefusedWithLineAndColumn(template: String, line: Int, column: Int, problem: String) throws {
        let error = expectError(.badTemplate) { try StatusRenderer(format: .text, template: .init(text: template, source: "user.mustache")) }
        let message = try #require(error?.message)
        #expect(message.hasPrefix("template user.mustache:\(line):\(column): " + problem), "\(message)")
        #expect(error?.code.exitStatus == 64)
    }

    @Test(arguments: [
        "{{#top}}{{title}} of {{open}}{{^last()}}, {{/last()}}{{/top}}",  // names of outer objects, the list's own transforms
        "{{#hasTasks}}{{#next}}{{title}}{{/next}}{{/hasTasks}}{{^hasTasks}}{{class}}{{/hasTasks}}",
        "{{#habits}}{{done}}{{#items}}{{icon}}{{#isDone}}✓{{/isDone}}{{status}}{{/items}}{{/habits}}",
        "{{! {{nope}} is a comment }}{{$block}}{{open}}{{/block}}",
        "{{#.}}{{open}}{{/.}}{{#color}}{{.}}{{/color}}",
        "{{#counts.overdue}}{{overdue}}{{/counts.overdue}}",
    ])
    func knownNamesPassWhereverTheyAreUsed(template: String) throws {
        _ = try StatusRenderer(format: .text, template: .init(text: template, source: "user.mustache"))
    }
}
