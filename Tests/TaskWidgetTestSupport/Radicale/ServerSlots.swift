/// Lets at most `count` holders in at once; the others wait in turn. The Radicale tests take a
/// slot each: a dozen servers started and driven together (Python, at 70–100 ms of CPU a second
/// each) kept both cores of the test machine busy for seconds, and the timing tests running beside
/// them (a server's 1 s cut of a slow client) came up to 36 s late.
public actor ServerSlots {
    private let count: Int
    private var taken = 0
    private var waiting: [CheckedContinuation<Void, Never>] = []

    public init(count: Int) {
        self.count = count
    }

    /// Runs `body` once a slot is free, and frees it after, also when `body` throws.
    public nonisolated func withSlot<Result>(_ body: () async throws -> Result) async throws -> Result {
        await take()
        do {
            let result = try await body()
            await free()
            return result
        } catch {
            await free()
            throw error
        }
    }

    private func take() async {
        if taken < count {
            taken += 1
        } else {
            await withCheckedContinuation { waiting.append($0) }
        }
    }

    /// Hands the slot to the first waiter, or frees it.
    private func free() {
        if waiting.isEmpty {
            taken -= 1
        } else {
            waiting.removeFirst().resume()
        }
    }
}
