import Foundation

/// Checks `condition` every `interval` until it holds (true) or `timeout` passes (false). For
/// states no event announces: a socket's answer, a file another process writes, /proc.
func waitUntil(within timeout: Duration, every interval: Duration = .milliseconds(20), _ condition: () -> Bool) -> Bool {
    let deadline = ContinuousClock.now + timeout
    let microseconds = UInt32(interval.components.seconds * 1_000_000 + interval.components.attoseconds / 1_000_000_000_000)
    while !condition() {
        guard ContinuousClock.now < deadline else { return false }
        usleep(microseconds)
    }
    return true
}
