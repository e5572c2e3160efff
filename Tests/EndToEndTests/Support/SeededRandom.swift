import Foundation

/// A seeded generator (SplitMix64): the same seed makes the same choices (operations, kill
/// moments), so a failing run can be replayed with `TASKWIDGET_SEED=…`. Tests put the seed in
/// their failure messages.
struct SeededRandom: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// `TASKWIDGET_SEED` when set, else a new seed.
    static func seed() -> UInt64 {
        ProcessInfo.processInfo.environment["TASKWIDGET_SEED"].flatMap { UInt64($0) } ?? UInt64.random(in: 0..<1_000_000_000)
    }

    /// An independent generator for one of several workers.
    func forWorker(_ index: Int) -> SeededRandom {
        var copy = self
        return SeededRandom(seed: copy.next() ^ UInt64(index + 1) &* 0xD1B5_4A32_D192_ED03)
    }
}
