import Foundation
import Testing
import TaskWidgetSync

@Suite("iCalendar writing")
struct ICalWritingTests {
    @Test("an untouched calendar comes back byte for byte", arguments: Fixtures.all.map(\.name))
    func roundTrip(name: String) throws {
        let text = try #require(Fixtures.all.first { $0.name == name }?.text)
        let calendar = try ICalendar(parsing: text)
        #expect(calendar.serialized() == text)
        #expect(calendar.serializedData() == Data(text.utf8))
        // Parsing what was written gives the same tree.
        #expect(try ICalendar(parsing: calendar.serialized()) == calendar)
    }

    @Test("LF-only input is written with CRLF, otherwise unchanged", arguments: Fixtures.all.map(\.name))
    func lineEndings(name: String) throws {
        let text = try #require(Fixtures.all.first { $0.name == name }?.text)
        let lfOnly = text.replacingOccurrences(of: "\r\n", with: "\n")
        #expect(try ICalendar(parsing: lfOnly).serialized() == text)
    }

    @Test(
        "long values fold at 75 octets without splitting a UTF-8 sequence",
        arguments: [
            String(repeating: "日本語の長いタスク名", count: 15),  // 150 CJK characters, 3 bytes each
            String(repeating: "🎉👩‍👩‍👧‍👦", count: 40),  // 4-byte scalars and ZWJ sequences
            String(repeating: "a", count: 74) + "é" + String(repeating: "b", count: 200),
            String(repeating: "x", count: 75 - "SUMMARY:".count),  // exactly 75 octets: no fold
            "short",
        ])
    func folding(title: String) throws {
        var todo = ICalComponent("VTODO", properties: [ICalProperty("UID", value: "1")])
        todo.setProperty(ICalProperty("SUMMARY", text: title))
        let calendar = ICalendar(components: [ICalComponent("VCALENDAR", components: [todo])])
        let data = calendar.serializedData()

        // Each physical line is at most 75 octets and valid UTF-8 by itself.
        var lineCount = 0
        for line in Array(data).split(separator: 0x0A) {
            #expect(line.last == 0x0D)
            let content = line.dropLast()
            #expect(content.count <= 75)
            #expect(String(validating: content, as: UTF8.self) != nil)
            lineCount += 1
        }
        let summaryBytes = "SUMMARY:".utf8.count + title.utf8.count
        #expect(lineCount >= 5 + (summaryBytes - 1) / 75)

        // Unfolding gives the title back.
        let parsed = try ICalendar(parsing: data)
        #expect(parsed.vcalendar?.components("VTODO").first?.property("SUMMARY")?.textValue == title)
    }

    @Test("a changed property is rewritten; everything else keeps its bytes and order")
    func changedProperty() throws {
        var calendar = try ICalendar(parsing: Fixtures.thunderbird)
        let vcalendar = try #require(calendar.vcalendar)
        var todo = vcalendar.components("VTODO")[0]
        todo.updateProperty("SUMMARY") { $0.textValue = "Prepare the annual report; now" }
        replaceTodo(in: &calendar, with: todo)

        let before = lines(Fixtures.thunderbird)
        let after = lines(calendar.serialized())
        #expect(after.count == before.count)
        let changed = zip(before, after).filter { $0 != $1 }
        #expect(changed.count == 1)
        #expect(changed.first?.1 == #"SUMMARY:Prepare the annual report\; now"#)
    }

    @Test("setting a property to an equal one keeps its original bytes")
    func equalSetKeepsBytes() throws {
        var calendar = try ICalendar(parsing: Fixtures.thunderbird)
        var todo = todo(of: calendar)
        let description = try #require(todo.property("DESCRIPTION"))
        #expect(description.isVerbatim)
        todo.setProperty(description)
        todo.updateProperty("DESCRIPTION") { $0.value = description.value }
        #expect(todo.property("DESCRIPTION")?.isVerbatim == true)
        replaceTodo(in: &calendar, with: todo)
        #expect(calendar.serialized() == Fixtures.thunderbird)
    }

    @Test(
        "rewritten parameters are quoted when they must be",
        arguments: [
            (ICalParameter("CN", "Doe, Jane"), #"CN="Doe, Jane""#),
            (ICalParameter("ALTREP", "cid:x@y"), #"ALTREP="cid:x@y""#),
            (ICalParameter("X-A", "a;b"), #"X-A="a;b""#),
            (ICalParameter("ROLE", "CHAIR"), "ROLE=CHAIR"),
            (ICalParameter("MEMBER", values: ["mailto:a@x", "mailto:b@x"]), #"MEMBER="mailto:a@x","mailto:b@x""#),
            (ICalParameter("X-Q", #"say "hi""#), "X-Q=say ^'hi^'"),
        ])
    func parameterQuoting(parameter: ICalParameter, written: String) throws {
        let property = ICalProperty("X-P", parameters: [parameter], value: "v")
        let calendar = ICalendar(components: [ICalComponent("X", properties: [property])])
        #expect(lines(calendar.serialized())[1] == "X-P;\(written):v")
        // Read back: the same parameter (the quote excepted, which RFC 6868 encodes).
        if !written.contains("^'") {
            #expect(try ICalendar(parsing: calendar.serialized()).components[0].properties[0].parameters == [parameter])
        }
    }

    @Test("a raw value with a line break cannot break the line")
    func rawLineBreak() {
        let property = ICalProperty("X-NOTE", value: "one\r\ntwo\nthree\rfour")
        let text = ICalendar(components: [ICalComponent("X", properties: [property])]).serialized()
        #expect(lines(text)[1] == #"X-NOTE:one\ntwo\nthree\nfour"#)
    }

    @Test("new properties go after the last property, new components at the end")
    func insertionPlaces() throws {
        var todo = todo(of: try ICalendar(parsing: Fixtures.tasksOrg))
        todo.appendProperty(ICalProperty("X-NEW", value: "1"))
        let names = todo.children.map { child -> String in
            switch child {
            case .property(let property): property.name
            case .component(let component): component.name
            }
        }
        #expect(Array(names.suffix(2)) == ["X-NEW", "VALARM"])
    }
}

@Suite("component and property editing")
struct ICalEditingTests {
    @Test("setProperty replaces in place and drops duplicates; removeProperties and removeComponents")
    func componentEditing() {
        var component = ICalComponent(
            "VTODO",
            properties: [
                ICalProperty("UID", value: "1"), ICalProperty("X-A", value: "a"), ICalProperty("SUMMARY", value: "s"),
                ICalProperty("x-a", value: "b"),
            ],
            components: [ICalComponent("VALARM"), ICalComponent("X-SUB")])
        component.setProperty(ICalProperty("X-A", value: "c"))
        #expect(component.properties.map(\.value) == ["1", "c", "s"])
        let removed = component.removeProperties("summary")
        let removedAgain = component.removeProperties("summary")
        #expect(removed && !removedAgain)
        let removedAlarms = component.removeComponents { $0.hasName("valarm") }
        #expect(removedAlarms == 1)
        #expect(component.components.map(\.name) == ["X-SUB"])
        let updated = component.updateProperty("DUE") { $0.value = "x" }
        #expect(!updated)
    }

    @Test("setParameter keeps the first one's place and spelling, removes duplicates, or removes all")
    func parameterEditing() {
        var property = ICalProperty(
            "DUE", parameters: [ICalParameter("tzid", "A"), ICalParameter("X", "1"), ICalParameter("TZID", "B")],
            value: "v")
        property.setParameter("TZID", "C")
        #expect(property.parameters == [ICalParameter("tzid", "C"), ICalParameter("X", "1")])
        property.setParameter("VALUE", "DATE")
        #expect(property.parameters.last == ICalParameter("VALUE", "DATE"))
        property.setParameter("tzid", nil)
        #expect(property.parameterValue("TZID") == nil)
    }

    @Test("a parsed property is verbatim until it changes")
    func verbatim() throws {
        var property = try #require(
            ICalendar(parsing: "BEGIN:X\r\nSUMMARY;LANGUAGE=en:Hi\r\nEND:X\r\n").components.first?.properties.first)
        #expect(property.isVerbatim)
        property.value = "Hi"
        #expect(property.isVerbatim)
        property.textValue = "Hello"
        #expect(!property.isVerbatim)
        #expect(property.parameterValue("language") == "en")
    }
}
