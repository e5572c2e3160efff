import Testing

/// Runs a serialized suite's tests, one after another, on a thread apart from Swift's cooperative
/// pool from the start of the run, for suites whose tests block their thread while the programs
/// they started run (``ProcessRunner`` waits for them).
///
/// On the cooperative pool (one thread per core, two here), every end-to-end test blocks a thread
/// while its programs run, so each step of a serialized suite's long chain (a CalDAV server and
/// several syncs per test, or a notification daemon per test) waited for a thread behind the other
/// suites' tests. (Most of the sync chain's wait was for a server slot, though: see
/// `SyncCommandTests.serverSlot`.)
///
/// A test's time limit counts that wait too: the limit starts its clock, then queues the test's
/// body behind every test not yet begun. A one-minute limit on a test that takes half a second
/// ran out so: its body ran at the end of a 384-second run. On a thread of its own, a serialized suite's
/// test starts at once and its limit measures the test.
///
/// ```swift
/// @Suite(.serialized, .runsPrograms(onThreadNamed: "sync end-to-end")) struct SyncCommandTests { … }
/// ```
struct RunsProgramsTrait: SuiteTrait, TestScoping {
    let executor: DedicatedExecutor

    func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        try await withTaskExecutorPreference(executor) { try await function() }
    }
}

extension Trait where Self == RunsProgramsTrait {
    /// The suite's tests run on a thread named `name`, apart from the cooperative pool.
    static func runsPrograms(onThreadNamed name: String) -> Self {
        Self(executor: DedicatedExecutor(threads: 1, name: name))
    }
}
