import Foundation

/// SplitMix64: a small generator whose whole state is the seed, so that a failing case can be
/// rebuilt from the seed it reports. Random stores, property cases and the end-to-end tests'
/// choices (operations, kill moments) draw from it.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// The seed of a randomized test: `TASKWIDGET_SEED` when set (to replay or explore), else
    /// `fixed`, so that every run of the suite makes the same choices.
    static func seed(default fixed: UInt64) -> UInt64 {
        ProcessInfo.processInfo.environment["TASKWIDGET_SEED"].flatMap { UInt64($0) } ?? fixed
    }

    /// An independent generator for one of several workers.
    func forWorker(_ index: Int) -> SplitMix64 {
        var copy = self
        return SplitMix64(seed: copy.next() ^ UInt64(index + 1) &* 0xD1B5_4A32_D192_ED03)
    }
}
