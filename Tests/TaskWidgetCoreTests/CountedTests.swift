import TaskWidgetCore
import Testing

/// Counts in messages take the noun's number: `import` said "Imported 0 lists, 1 tasks".
@Suite struct CountedTests {
    @Test(arguments: [(0, "0 tasks"), (1, "1 task"), (2, "2 tasks"), (300, "300 tasks")])
    func theNounFollowsTheCount(count: Int, text: String) {
        #expect(counted(count, "task") == text)
    }
}
