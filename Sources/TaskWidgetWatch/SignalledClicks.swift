import CLinuxEvents
public import Glibc
public import TaskWidgetCore

/// Clicks sent as signals, for bars that run a click's command themselves (waybar, polybar), so
/// that the click acts on the view watch shows: `SIGRTMIN+N` is a click of button `N` as i3bar
/// numbers them (1 left, 2 middle, 3 right, 4 and 5 the wheel up and down, 6 to 9 the wheel
/// sideways and the back and forward buttons, which do nothing: their default action would end
/// watch, and the module with it, helper-98). Read from a signalfd that the ``FollowLoop`` sleeps on.
///
/// ```swift
/// SignalledClicks.blockSignals()  // first thing, with FollowLoop.blockSignals()
/// let clicks = try SignalledClicks()
/// ```
public final class SignalledClicks: ClickSource {
    private let descriptor: Int32
    private var clicks: [BarClick] = []

    /// The signal of a click of `button`.
    public static func signal(for button: Int) -> Int32 { __libc_current_sigrtmin() + Int32(button) }

    private static var signals: sigset_t {
        var set = sigset_t()
        sigemptyset(&set)
        for button in 1...9 { sigaddset(&set, signal(for: button)) }
        return set
    }

    /// Blocks the click signals, whose default action would end the process. Call it first thing,
    /// before any thread starts: threads inherit the mask.
    public static func blockSignals() {
        var set = signals
        pthread_sigmask(SIG_BLOCK, &set, nil)
    }

    public init() throws(TaskWidgetError) {
        var set = Self.signals
        descriptor = signalfd(-1, &set, Int32(SFD_NONBLOCK | SFD_CLOEXEC))
        guard descriptor >= 0 else {
            throw .system(errno, "cannot receive clicks as signals", advice: "check the file limits (ulimit -n)")
        }
    }

    deinit { close(descriptor) }

    public func prepare() -> (descriptors: [Glibc.pollfd], timeout: Int32) {
        ([pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)], -1)
    }

    public func dispatch(_ descriptors: [Glibc.pollfd]) {
        guard let reported = descriptors.first, reported.revents != 0 else { return }
        var information = signalfd_siginfo()
        while read(descriptor, &information, MemoryLayout<signalfd_siginfo>.size) == MemoryLayout<signalfd_siginfo>.size {
            clicks.append(BarClick(button: Int(Int32(information.ssi_signo) - Self.signal(for: 0))))
        }
    }

    public func takeClicks() -> [BarClick] {
        defer { clicks = [] }
        return clicks
    }
}
