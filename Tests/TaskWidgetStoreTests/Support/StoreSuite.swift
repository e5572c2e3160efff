@testable import TaskWidgetCore
@testable import TaskWidgetStore
@testable import TaskWidgetTestSupport

/// A suite with a new temporary store per test and a clock counted in seconds from `t0`, Monday
/// 2026-11-23, 09:00 UTC.
protocol StoreSuite {
    var fixture: TemporaryStore { get }
}

extension StoreSuite {
    static var t0: Instant { Fixed.instant("2026-11-23T09:00:00Z") }

    var store: TaskStore { fixture.store }

    /// `t0` plus `seconds`.
    func at(_ seconds: Int) -> Instant {
        Self.t0.adding(seconds: Int64(seconds))
    }
}
