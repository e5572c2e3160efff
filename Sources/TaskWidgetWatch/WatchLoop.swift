import CLinuxEvents
import Foundation
import Glibc
public import Logging
import TaskWidgetCore

/// Runs watch mode: the Linux side (signalfd, timerfd, inotify, poll) around a ``WatchSession``.
/// It sleeps in one `poll` with no timeout, so it wakes only for an entry date, a file event on the
/// store, a paced line or debounce, a signal, or its reader going away.
public enum WatchLoop {
    /// The signals the loop reads from a signalfd instead of letting them act.
    private static let handledSignals = [SIGTERM, SIGINT, SIGHUP, SIGUSR1]

    /// Blocks the signals the loop handles and ignores SIGPIPE (a write then fails with EPIPE).
    /// Call it first thing, before any thread starts: threads inherit the mask.
    public static func blockSignals() {
        var set = signalSet()
        pthread_sigmask(SIG_BLOCK, &set, nil)
        signal(SIGPIPE, SIG_IGN)
    }

    /// Prints the first line, then follows the store and the clock until SIGTERM, SIGINT or SIGHUP,
    /// or until the reader of standard output goes away: all of which end it normally.
    /// Throws a ``TaskWidgetError`` when the loop cannot be set up or standard output fails.
    public static func run(_ session: inout WatchSession, clock: WatchClock, storePath: String, logger: Logger) throws {
        let events = try EventSources(storePath: storePath, timerClock: clock.timerClock, signals: signalSet(), logger: logger)
        do {
            try session.start(at: clock.now())
            while true {
                events.arm(
                    entryDeadline: session.entryDeadline.map(clock.timerDeadline(for:)),
                    followUpDeadline: session.followUpDeadline)
                guard let wake = events.next() else { return }
                try session.handle(wake, at: clock.now())
            }
        } catch is ReaderGone {
            logger.debug("the reader is gone")
        }
    }

    private static func signalSet() -> sigset_t {
        var set = sigset_t()
        sigemptyset(&set)
        for signal in handledSignals { sigaddset(&set, signal) }
        return set
    }
}

/// The reader of standard output closed its end.
struct ReaderGone: Error {}

/// Standard output, written with `write(2)` and never buffered: each line reaches the reader whole.
public struct StandardOutput: LineSink {
    public init() {}

    public mutating func write(_ text: String) throws {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { Glibc.write(STDOUT_FILENO, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                if errno == EPIPE { throw ReaderGone() }
                throw TaskWidgetError.standardOutput(errno)
            }
            bytes = bytes.dropFirst(written)
        }
    }
}

/// The descriptors the loop sleeps on, and what each wake-up means.
private final class EventSources {
    private let signals: Int32
    private let entryTimer: Int32
    private let followUpTimer: Int32
    private let inotify: Int32
    private let timerClock: WatchClock.TimerClock
    private let folder: String
    /// The store's file and the files SQLite writes beside it (not `-shm`: readers write it too).
    private let names: Set<String>
    /// The store's folder, or while it does not exist its nearest existing ancestor.
    private var watched: (descriptor: Int32, folder: String)?
    /// What `poll` sleeps on: signals, the two timers, inotify, and standard output (no events
    /// asked: poll still reports POLLERR when a pipe's reader closed it).
    private var descriptors: [pollfd] = []
    /// Where inotify events are read, kept for the life of the loop.
    private var eventBuffer = [UInt8](repeating: 0, count: 16 * 1024)
    private let logger: Logger

    private static let folderMask = UInt32(IN_CLOSE_WRITE | IN_MODIFY | IN_CREATE | IN_DELETE | IN_MOVED_TO | IN_MOVED_FROM)
        | UInt32(IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR)
    private static let ancestorMask = UInt32(IN_CREATE | IN_MOVED_TO | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR)

    init(storePath: String, timerClock: WatchClock.TimerClock, signals set: sigset_t, logger: Logger) throws {
        let url = URL(fileURLWithPath: storePath)
        folder = url.deletingLastPathComponent().path
        let name = url.lastPathComponent
        names = [name, name + "-wal", name + "-journal"]
        self.timerClock = timerClock
        self.logger = logger
        var set = set
        signals = signalfd(-1, &set, Int32(SFD_NONBLOCK | SFD_CLOEXEC))
        let flags = Int32(TFD_NONBLOCK | TFD_CLOEXEC)
        entryTimer = timerfd_create(timerClock == .realtime ? CLOCK_REALTIME : CLOCK_MONOTONIC, flags)
        followUpTimer = timerfd_create(CLOCK_MONOTONIC, flags)
        inotify = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard signals >= 0, entryTimer >= 0, followUpTimer >= 0, inotify >= 0 else {
            let reason = String(cString: strerror(errno))
            close()
            throw TaskWidgetError(
                .ioFailure, "cannot set up watching (\(reason)): check the inotify and file limits", context: reason)
        }
        descriptors = [signals, entryTimer, followUpTimer, inotify].map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            + [pollfd(fd: STDOUT_FILENO, events: 0, revents: 0)]
        rewatch()
    }

    deinit { close() }

    private func close() {
        for descriptor in [signals, entryTimer, followUpTimer, inotify] where descriptor >= 0 { _ = Glibc.close(descriptor) }
    }

    /// Sets both timers (absolute times in ns; `nil` disarms). The entry timer on the real clock is
    /// cancelled when the clock is set, so a jump wakes the loop.
    func arm(entryDeadline: Int64?, followUpDeadline: Int64?) {
        let cancelOnSet = timerClock == .realtime ? Int32(TFD_TIMER_CANCEL_ON_SET) : 0
        set(entryTimer, to: entryDeadline, flags: Int32(TFD_TIMER_ABSTIME) | cancelOnSet)
        set(followUpTimer, to: followUpDeadline, flags: Int32(TFD_TIMER_ABSTIME))
    }

    private func set(_ timer: Int32, to deadline: Int64?, flags: Int32) {
        var value = itimerspec()
        if let deadline {
            // Zero would disarm: a deadline that early has passed anyway.
            let nanoseconds = max(deadline, 1)
            value.it_value = timespec(tv_sec: Int(nanoseconds / 1_000_000_000), tv_nsec: Int(nanoseconds % 1_000_000_000))
        }
        timerfd_settime(timer, flags, &value, nil)
    }

    /// Sleeps until something happens. `nil` means stop: a terminating signal, or the reader of
    /// standard output is gone (noticed even while there is nothing to write).
    func next() -> WatchSession.Wake? {
        for index in descriptors.indices { descriptors[index].revents = 0 }
        while poll(&descriptors, nfds_t(descriptors.count), -1) < 0 {
            guard errno == EINTR else { return nil }
        }
        var wake: WatchSession.Wake = []
        if descriptors[0].revents != 0 {
            var information = signalfd_siginfo()
            while read(signals, &information, MemoryLayout<signalfd_siginfo>.size) == MemoryLayout<signalfd_siginfo>.size {
                guard Int32(information.ssi_signo) == SIGUSR1 else {
                    logger.debug("stopping on signal \(information.ssi_signo)")
                    return nil
                }
                logger.debug("SIGUSR1: refreshing")
                wake.insert(.refresh)
            }
        }
        if descriptors[4].revents & Int16(POLLERR | POLLHUP) != 0 { return nil }
        var expirations: UInt64 = 0
        if descriptors[1].revents != 0, read(entryTimer, &expirations, 8) < 0, errno == ECANCELED {
            wake.insert(.clockSet)
        }
        if descriptors[2].revents != 0 { _ = read(followUpTimer, &expirations, 8) }
        if descriptors[3].revents != 0, readFileEvents() { wake.insert(.storeActivity) }
        return wake
    }

    /// Drains the inotify queue; whether any event may concern the store.
    private func readFileEvents() -> Bool {
        var concernsStore = false
        var folderChanged = false
        while true {
            let count = eventBuffer.withUnsafeMutableBytes { read(inotify, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            eventBuffer.withUnsafeBytes { raw in
                var offset = 0
                while offset + MemoryLayout<inotify_event>.size <= count {
                    let event = raw.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
                    let nameStart = offset + MemoryLayout<inotify_event>.size
                    let nameBytes = raw[nameStart..<(nameStart + Int(event.len))].prefix { $0 != 0 }
                    let name = String(decoding: nameBytes, as: UTF8.self)
                    offset = nameStart + Int(event.len)
                    if event.wd != watched?.descriptor { continue }
                    if event.mask & UInt32(IN_DELETE_SELF | IN_MOVE_SELF | IN_IGNORED) != 0 {
                        folderChanged = true
                    } else if watched?.folder != folder {
                        // Something appeared in an ancestor: maybe the store's folder, or a step to it.
                        folderChanged = true
                    } else if names.contains(name) {
                        concernsStore = true
                    }
                }
            }
        }
        if folderChanged {
            if let watched { inotify_rm_watch(inotify, watched.descriptor) }
            watched = nil
            rewatch()
            // The store may have come or gone with its folder.
            concernsStore = true
        }
        return concernsStore
    }

    /// Watches the store's folder, or while it does not exist its nearest existing ancestor.
    private func rewatch() {
        var target = folder
        var isFolder: ObjCBool = false
        while !(FileManager.default.fileExists(atPath: target, isDirectory: &isFolder) && isFolder.boolValue), target != "/" {
            target = (target as NSString).deletingLastPathComponent
            if target.isEmpty { target = "/" }
        }
        let descriptor = inotify_add_watch(inotify, target, target == folder ? Self.folderMask : Self.ancestorMask)
        if descriptor < 0 {
            logger.warning("cannot watch \(target) (\(SystemError(errno))): changes show at the next entry only")
            watched = nil
        } else {
            logger.debug("watching \(target)")
            watched = (descriptor, target)
        }
    }
}
