import Foundation
import Testing
import TaskWidgetSync

@Suite("iCalendar parsing")
struct ICalParsingTests {
    private func summary(_ text: String) throws -> ICalProperty {
        let calendar = try ICalendar(parsing: text)
        return try #require(calendar.components.first?.components("VTODO").first?.property("SUMMARY"))
    }

    @Test(
        "unfolds CRLF and LF lines continued by a space or a tab",
        arguments: [
            ("CRLF + space", "BEGIN:VCALENDAR\r\nBEGIN:VTODO\r\nSUMMARY:Hello\r\n  World\r\nEND:VTODO\r\nEND:VCALENDAR\r\n", "Hello World"),
            ("CRLF + tab", "BEGIN:VCALENDAR\r\nBEGIN:VTODO\r\nSUMMARY:Hel\r\n\tlo\r\nEND:VTODO\r\nEND:VCALENDAR\r\n", "Hello"),
            ("LF only", "BEGIN:VCALENDAR\nBEGIN:VTODO\nSUMMARY:Hel\n lo\nEND:VTODO\nEND:VCALENDAR\n", "Hello"),
            ("mixed, no final break", "BEGIN:VCALENDAR\nBEGIN:VTODO\r\nSUMMARY:a\r\n b\n c\nEND:VTODO\nEND:VCALENDAR", "abc"),
            ("many folds", "BEGIN:VCALENDAR\nBEGIN:VTODO\nSUMMARY:1\n 2\n 3\n 4\n\t5\nEND:VTODO\nEND:VCALENDAR\n", "12345"),
        ])
    func unfolding(name: String, text: String, expected: String) throws {
        #expect(try summary(text).textValue == expected)
    }

    @Test("a fold inside a UTF-8 sequence is unfolded, and written back as it was")
    func foldInsideSequence() throws {
        // 日 is E6 97 A5: this producer folded it after its first byte.
        var bytes = Array("BEGIN:VCALENDAR\r\nBEGIN:VTODO\r\nSUMMARY:".utf8)
        bytes += [0xE6, 0x0D, 0x0A, 0x20, 0x97, 0xA5, 0x0D, 0x0A] + Array("END:VTODO\r\nEND:VCALENDAR\r\n".utf8)
        let calendar = try ICalendar(parsing: Data(bytes))
        #expect(calendar.vcalendar?.components("VTODO").first?.property("SUMMARY")?.textValue == "日")
        #expect(Array(calendar.serializedData()) == bytes)
    }

    @Test("parameters: quoted values with : ; , and several values, names ignoring case")
    func parameters() throws {
        let calendar = try ICalendar(parsing: Fixtures.thunderbird)
        let todo = todo(of: calendar)

        let description = try #require(todo.property("description"))
        #expect(description.parameterValue("altrep") == "cid:part1.0001@example.org")
        #expect(description.textValue.hasPrefix("Collect the numbers from sales, marketing and support; then"))
        #expect(description.textValue.contains("summary.\nSecond paragraph"))

        let attendee = try #require(todo.property("ATTENDEE"))
        #expect(attendee.parameterValue("CN") == "Doe, Jane")
        #expect(attendee.parameter("Delegated-From")?.values == ["mailto:a@example.com", "mailto:b@example.com"])
        #expect(attendee.value == "mailto:jane@example.com")

        let due = try #require(todo.property("DUE"))
        #expect(due.parameterValue("TZID") == "/mozilla.org/20050126_1/Europe/Berlin")
        #expect(due.value == "20261127T170000")

        let location = try #require(
            ICalendar(parsing: Fixtures.apple).vcalendar?.components("VTODO").first?.components("VALARM").last?
                .property("X-APPLE-STRUCTURED-LOCATION"))
        #expect(location.parameterValue("X-TITLE") == "Home, sweet home")
        #expect(location.value == "geo:52.52,13.40")
    }

    @Test(
        "content lines split into name, parameters and value",
        arguments: [
            ("X-A:b", "X-A", [ICalParameter](), "b"),
            ("X-A:", "X-A", [], ""),
            ("X-A:b:c;d,e", "X-A", [], "b:c;d,e"),
            ("X-A;P=1:v", "X-A", [ICalParameter("P", "1")], "v"),
            ("X-A;P=:v", "X-A", [ICalParameter("P", "")], "v"),
            ("X-A;P=\"\":v", "X-A", [ICalParameter("P", "")], "v"),
            ("X-A;P=1,2;Q=\"x:y\",z:v", "X-A", [ICalParameter("P", values: ["1", "2"]), ICalParameter("Q", values: ["x:y", "z"])], "v"),
            ("x-lower;p=ü:ä", "x-lower", [ICalParameter("p", "ü")], "ä"),
            ("X-A;P=\"a;b\":\"quoted value\"", "X-A", [ICalParameter("P", "a;b")], "\"quoted value\""),
        ])
    func contentLines(line: String, name: String, parameters: [ICalParameter], value: String) throws {
        let calendar = try ICalendar(parsing: "BEGIN:X\r\n\(line)\r\nEND:X\r\n")
        let property = try #require(calendar.components.first?.properties.first)
        #expect(property.name == name)
        #expect(property.parameters == parameters)
        #expect(property.value == value)
    }

    @Test(
        "TEXT escaping and unescaping",
        arguments: [
            (#"a\\b"#, "a\\b"),
            (#"a\;b"#, "a;b"),
            (#"a\,b"#, "a,b"),
            (#"a\nb"#, "a\nb"),
            (#"a\Nb"#, "a\nb"),
            (#"a\:b"#, "a:b"),  // not RFC, written by some producers
            (#"trailing\"#, "trailing\\"),
            (#"\\n"#, "\\n"),
            ("plain text ✓ 日本", "plain text ✓ 日本"),
        ])
    func textUnescaping(raw: String, text: String) {
        #expect(ICalText.unescape(raw) == text)
    }

    @Test(
        "TEXT escaping",
        arguments: [
            ("a\\b", #"a\\b"#),
            ("a;b,c", #"a\;b\,c"#),
            ("line\nbreak", #"line\nbreak"#),
            ("crlf\r\nbreak", #"crlf\nbreak"#),
            ("cr\rbreak", #"cr\nbreak"#),
            ("colon: stays", "colon: stays"),
            ("\\n literal", #"\\n literal"#),
        ])
    func textEscaping(text: String, raw: String) {
        #expect(ICalText.escape(text) == raw)
        #expect(ICalText.unescape(raw) == text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n"))
    }

    @Test("lists split at unescaped commas")
    func lists() {
        #expect(ICalText.splitList(#"Work,Home\, garden,"#) == ["Work", #"Home\, garden"#, ""])
        #expect(ICalProperty("CATEGORIES", value: #"Work,Home\, garden"#).textValues == ["Work", "Home, garden"])
    }

    @Test("components nest, and properties after a sub-component keep their place")
    func structure() throws {
        let calendar = try ICalendar(parsing: Fixtures.thunderbird)
        #expect(calendar.components.count == 1)
        let vcalendar = try #require(calendar.vcalendar)
        #expect(vcalendar.components.map(\.name) == ["VTIMEZONE", "VTODO"])
        let todo = todo(of: calendar)
        #expect(todo.components("VALARM").count == 2)
        guard case .property(let last) = todo.children.last else {
            Issue.record("the last child of the VTODO should be X-MOZ-LASTACK")
            return
        }
        #expect(last.name == "X-MOZ-LASTACK")
    }

    @Test("a byte order mark and empty lines are tolerated")
    func tolerated() throws {
        let text = "\u{FEFF}BEGIN:VCALENDAR\r\n\r\nBEGIN:VTODO\r\nUID:1\r\nEND:VTODO\r\nEND:VCALENDAR\r\n\r\n\r\n"
        let calendar = try ICalendar(parsing: text)
        #expect(calendar.serialized() == "BEGIN:VCALENDAR\r\nBEGIN:VTODO\r\nUID:1\r\nEND:VTODO\r\nEND:VCALENDAR\r\n")
    }

    @Test("component names ignore case; END must match BEGIN")
    func caseInsensitiveNames() throws {
        let calendar = try ICalendar(parsing: "begin:vcalendar\nBEGIN:VTodo\nuid:1\nend:VTODO\nEND:VCALENDAR\n")
        #expect(calendar.vcalendar?.components("vtodo").first?.property("UID")?.value == "1")
    }
}
