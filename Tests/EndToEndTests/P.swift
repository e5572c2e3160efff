import Testing
@Test func nothing2() {}
