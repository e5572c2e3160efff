public import TaskWidgetWatch

extension WatchInstant {
    /// A clock reading `seconds` after `start` (seconds since 1970) on both clocks, the monotonic
    /// one starting at 1 000 s, plus `drift` seconds on the wall clock only (a jump), for the
    /// sessions that follow the clock (watch, notify, serve).
    public static func reading(_ seconds: Double, after start: Int64, drift: Int64 = 0) -> WatchInstant {
        let second: Int64 = 1_000_000_000
        let elapsed = Int64(seconds * 1e9)
        return WatchInstant(wall: start * second + elapsed + drift * second, monotonic: 1_000 * second + elapsed)
    }
}
