import Testing

/// Runs a serialized suite's tests, one after another, on a thread of the suite's own from the
/// start of the run, for suites whose tests block their thread while the programs they started run
/// (``ProcessRunner`` waits for them).
///
/// On Swift's cooperative pool (one thread per core, two here), every end-to-end test blocks a
/// thread while its programs run. A serialized suite's long chain of tests (a CalDAV server and
/// several syncs each, or a notification daemon per test) then waited behind all the other suites
/// and ended the run about a minute after them.
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
