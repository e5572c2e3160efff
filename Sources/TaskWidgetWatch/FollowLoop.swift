import CLinuxEvents
import Foundation
import Glibc
public import Logging
import TaskWidgetCore

/// Runs a ``Follower``: the Linux side (signalfd, timerfd, inotify, poll) of watch, serve and
/// notify. It sleeps in one `poll` with no timeout of its own, so it wakes only for an entry date, a
/// file event on the store, a follow-up, a signal, an extra source, a stop, or (for watch) its
/// reader going away.
public enum FollowLoop {
    /// How a loop ends besides a stop request, and what else it sleeps on.
    public struct Options {
        /// Stop on SIGTERM, SIGINT or SIGHUP, refresh on SIGUSR1 and wake for the next view on
        /// SIGUSR2, read from a signalfd (call ``blockSignals()`` first). Off for serve, whose
        /// server handles the signals.
        public var handlesSignals = true
        /// Stop when the reader of standard output goes away (watch).
        public var followsStandardOutput = false
        /// More descriptors to sleep on.
        public var sources: [any EventSource] = []

        public init(handlesSignals: Bool = true, followsStandardOutput: Bool = false, sources: [any EventSource] = []) {
            self.handlesSignals = handlesSignals
            self.followsStandardOutput = followsStandardOutput
            self.sources = sources
        }
    }

    /// The signals the loop reads from a signalfd instead of letting them act.
    private static let handledSignals = [SIGTERM, SIGINT, SIGHUP, SIGUSR1, SIGUSR2]

    /// Blocks the signals the loop handles and ignores SIGPIPE (a write then fails with EPIPE).
    /// Call it first thing, before any thread starts: threads inherit the mask.
    public static func blockSignals() {
        var set = signalSet()
        pthread_sigmask(SIG_BLOCK, &set, nil)
        signal(SIGPIPE, SIG_IGN)
    }

    /// Starts `follower`, then follows the store and the clock until a stop: a signal, the reader
    /// of standard output going away (both with ``Options``), or `stop` from another thread. All
    /// end it normally. Throws a ``TaskWidgetError`` when the loop cannot be set up or the follower fails.
    public static func run(
        _ follower: inout some Follower, clock: WatchClock, storePath: String, options: Options = Options(), stop: StopSignal? = nil,
        logger: Logger
    ) throws {
        let start = clock.firstReading()
        let events = try FollowEvents(
            storePath: storePath, timerClock: clock.timerClock, signals: options.handlesSignals ? signalSet() : nil,
            followsStandardOutput: options.followsStandardOutput, stop: stop, logger: logger)
        do {
            try follower.start(at: start)
            while true {
                events.arm(
                    entryDeadline: follower.entryDeadline.map(clock.timerDeadline(for:)), followUpDeadline: follower.followUpDeadline)
                guard let wake = events.next(sources: options.sources) else { return }
                try follower.handle(wake, at: clock.now())
            }
        } catch OutputEnded.readerGone {
            logger.debug("the reader is gone")
        } catch OutputEnded.stopped {
            logger.debug("stopping on a signal while waiting for the reader")
        }
    }

    private static func signalSet() -> sigset_t {
        var set = sigset_t()
        sigemptyset(&set)
        for signal in handledSignals { sigaddset(&set, signal) }
        return set
    }
}

/// Asks a running ``FollowLoop`` to end (from any thread), or to open the store again and look at
/// it now (serve's SIGUSR1, as watch's).
public final class StopSignal: Sendable {
    /// An eventfd: its counter counts refresh requests, and a stop adds ``stopCount``.
    fileprivate let descriptor: Int32
    fileprivate static let stopCount: UInt64 = 1 << 32

    public init() throws {
        descriptor = eventfd(0, Int32(EFD_NONBLOCK | EFD_CLOEXEC))
        guard descriptor >= 0 else {
            throw TaskWidgetError.system(errno, "cannot set up following the store", advice: "raise the open file limit (ulimit -n)")
        }
    }

    deinit { close(descriptor) }

    /// Ends the loop at its next wake-up, which this causes.
    public func stop() {
        var count = Self.stopCount
        _ = write(descriptor, &count, 8)
    }

    /// Wakes the loop to open the store again and read it (``FollowWake/refresh``, ``FollowWake/reopen``).
    public func refresh() {
        var one: UInt64 = 1
        _ = write(descriptor, &one, 8)
    }
}

/// The descriptors the loop sleeps on, and what each wake-up means.
private final class FollowEvents {
    private let signals: Int32
    private let stop: StopSignal?
    private let followsStandardOutput: Bool
    private let entryTimer: Int32
    private let followUpTimer: Int32
    private let inotify: Int32
    private let timerClock: WatchClock.TimerClock
    /// The store's path as given, which may be a link to the file SQLite writes beside.
    private let storePath: String
    /// The folder of the store's file, links resolved: SQLite writes its `-wal` beside the file a
    /// link points to, so the link's folder saw no commit (helper-85).
    private var folder = ""
    /// The store's file and the files SQLite writes beside it (not `-shm`: readers write it too).
    private var names: Set<String> = []
    /// The store's own file name: the one whose attribute changes (a `chmod`) concern it. SQLite
    /// run as root changes the owner of the `-wal` at every open, the follower's own too, which
    /// would wake it at start and then at every follow-up check.
    private var storeName = ""
    /// When the store's path is a link: its name, and the watch on its folder when that is not the
    /// file's. The link made, removed or pointed elsewhere changes the file followed.
    private var link: (name: String, descriptor: Int32?)?
    /// The store's folder, or while it does not exist its nearest existing ancestor.
    private var watched: (descriptor: Int32, folder: String)?
    /// The folders above the watched one, watched for their own move or deletion only: a parent
    /// moved away and back (`mv ~/.local/share ~/.local/share-away`) sends the watched folder no
    /// event, and the follower went on watching it where it went, the store "gone" for good or
    /// a new one there not seen (helper-76).
    private var ancestors: [Int32] = []
    /// What `poll` sleeps on: signals, the two timers, inotify, and standard output (no events
    /// asked: poll still reports POLLERR when a pipe's reader closed it).
    private var descriptors: [pollfd] = []
    /// Where inotify events are read, kept for the life of the loop.
    private var eventBuffer = [UInt8](repeating: 0, count: 16 * 1024)
    private let logger: Logger

    /// No IN_CLOSE_WRITE: every reader (a bar's `status`, tmux's) opens the `-wal` for writing and
    /// closes it having written nothing, and each woke every follower into its checks. A write is
    /// IN_MODIFY (a commit's frames, a checkpoint, a `cp` over the store).
    private static let folderMask = UInt32(IN_MODIFY | IN_ATTRIB | IN_CREATE | IN_DELETE | IN_MOVED_TO | IN_MOVED_FROM)
        | UInt32(IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR)
    private static let ancestorMask = UInt32(IN_CREATE | IN_MOVED_TO | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR)
    private static let aboveMask = UInt32(IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR)

    init(
        storePath: String, timerClock: WatchClock.TimerClock, signals set: sigset_t?, followsStandardOutput: Bool, stop: StopSignal?,
        logger: Logger
    ) throws {
        self.storePath = URL(fileURLWithPath: storePath).path
        self.timerClock = timerClock
        self.followsStandardOutput = followsStandardOutput
        self.stop = stop
        self.logger = logger
        if var set {
            signals = signalfd(-1, &set, Int32(SFD_NONBLOCK | SFD_CLOEXEC))
        } else {
            signals = -2  // none asked: poll ignores negative descriptors
        }
        let flags = Int32(TFD_NONBLOCK | TFD_CLOEXEC)
        entryTimer = timerfd_create(timerClock == .realtime ? CLOCK_REALTIME : CLOCK_MONOTONIC, flags)
        followUpTimer = timerfd_create(CLOCK_MONOTONIC, flags)
        inotify = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard signals != -1, entryTimer >= 0, followUpTimer >= 0, inotify >= 0 else {
            let reason = String(cString: strerror(errno))
            close()
            throw TaskWidgetError(
                .ioFailure, "cannot set up watching (\(reason)): check the inotify and file limits", context: reason)
        }
        // Descriptors that are not there (no signals, no stop, stdout not followed) are negative:
        // poll skips them.
        descriptors = [signals, entryTimer, followUpTimer, inotify, stop?.descriptor ?? -1].map {
            pollfd(fd: $0, events: Int16(POLLIN), revents: 0)
        } + [pollfd(fd: followsStandardOutput ? STDOUT_FILENO : -1, events: 0, revents: 0)]
        rewatch()
    }

    deinit { close() }

    private func close() {
        for descriptor in [signals, entryTimer, followUpTimer, inotify] where descriptor >= 0 { _ = Glibc.close(descriptor) }
    }

    /// The fixed descriptors' places in ``descriptors``; the extra sources' follow them.
    private enum Slot {
        static let signals = 0, entryTimer = 1, followUpTimer = 2, inotify = 3, stop = 4, standardOutput = 5, extra = 6
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

    /// Sleeps until something happens (the extra `sources` too). `nil` means stop: a stop request, a
    /// terminating signal, or the reader of standard output is gone (noticed even while there is
    /// nothing to write).
    func next(sources: [any EventSource]) -> FollowWake? {
        descriptors.removeSubrange(Slot.extra...)
        var timeout: Int32 = -1
        var ranges: [Range<Int>] = []
        for source in sources {
            let (extra, limit) = source.prepare()
            ranges.append(descriptors.count..<descriptors.count + extra.count)
            descriptors += extra
            if limit >= 0 { timeout = timeout < 0 ? limit : min(timeout, limit) }
        }
        for index in descriptors.indices { descriptors[index].revents = 0 }
        while poll(&descriptors, nfds_t(descriptors.count), timeout) < 0 {
            guard errno == EINTR else { return nil }
        }
        for (source, range) in zip(sources, ranges) { source.dispatch(Array(descriptors[range])) }
        var wake: FollowWake = []
        if descriptors[Slot.stop].revents != 0, let stop {
            var count: UInt64 = 0
            _ = read(stop.descriptor, &count, 8)
            guard count < StopSignal.stopCount else {
                logger.debug("stopping on request")
                return nil
            }
            logger.debug("refreshing on request")
            wake.formUnion([.refresh, .reopen])
        }
        if descriptors[Slot.signals].revents != 0 {
            var information = signalfd_siginfo()
            while read(signals, &information, MemoryLayout<signalfd_siginfo>.size) == MemoryLayout<signalfd_siginfo>.size {
                switch Int32(information.ssi_signo) {
                case SIGUSR1:
                    logger.debug("SIGUSR1: refreshing")
                    wake.formUnion([.refresh, .reopen])
                case SIGUSR2:
                    logger.debug("SIGUSR2: next view")
                    wake.insert(.nextView)
                default:
                    logger.debug("stopping on signal \(information.ssi_signo)")
                    return nil
                }
            }
        }
        if descriptors[Slot.standardOutput].revents & Int16(POLLERR | POLLHUP) != 0 { return nil }
        var expirations: UInt64 = 0
        if descriptors[Slot.entryTimer].revents != 0, read(entryTimer, &expirations, 8) < 0, errno == ECANCELED {
            wake.insert(.clockSet)
        }
        if descriptors[Slot.followUpTimer].revents != 0 { _ = read(followUpTimer, &expirations, 8) }
        if descriptors[Slot.inotify].revents != 0, readFileEvents() { wake.insert(.storeActivity) }
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
                    if ancestors.contains(event.wd) {
                        folderChanged = true
                        continue
                    }
                    if let link, event.wd == link.descriptor || event.wd == watched?.descriptor, name == link.name,
                        event.mask & UInt32(IN_CREATE | IN_DELETE | IN_MOVED_TO | IN_MOVED_FROM) != 0
                    {
                        folderChanged = true  // the link changed: follow the file it names now
                        continue
                    }
                    if event.wd != watched?.descriptor { continue }
                    if event.mask & UInt32(IN_DELETE_SELF | IN_MOVE_SELF | IN_IGNORED) != 0 {
                        folderChanged = true
                    } else if watched?.folder != folder {
                        // Something appeared in an ancestor: maybe the store's folder, or a step to it.
                        folderChanged = true
                    } else if names.contains(name), event.mask != UInt32(IN_ATTRIB) || name == storeName {
                        concernsStore = true
                    }
                }
            }
        }
        if folderChanged {
            for descriptor in [watched?.descriptor, link?.descriptor].compactMap({ $0 }) + ancestors { inotify_rm_watch(inotify, descriptor) }
            (watched, ancestors, link) = (nil, [], nil)
            rewatch()
            // The store may have come or gone with its folder.
            concernsStore = true
        }
        return concernsStore
    }

    /// Watches the store's folder, or while it does not exist its nearest existing ancestor, and
    /// the folder of a link to the store. `attempt` counts the looks again below.
    private func rewatch(attempt: Int = 0) {
        locateStore()
        var target = folder
        var isFolder: ObjCBool = false
        while !(FileManager.default.fileExists(atPath: target, isDirectory: &isFolder) && isFolder.boolValue), target != "/" {
            target = PathText.folder(of: target)
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
        var above = PathText.folder(of: target)
        while !above.isEmpty, above != "/", above != "." {
            let descriptor = inotify_add_watch(inotify, above, Self.aboveMask)
            if descriptor >= 0 { ancestors.append(descriptor) }
            above = PathText.folder(of: above)
        }
        if let name = link?.name {
            let linkFolder = PathText.folder(of: storePath)
            // One watch per folder: adding one again on the same folder would replace its mask.
            if !Self.isSameFolder(linkFolder, target) {
                let descriptor = inotify_add_watch(inotify, linkFolder, Self.linkMask)
                link = (name, descriptor >= 0 ? descriptor : nil)
            }
        }
        // A folder made between the look for the nearest ancestor and its watch sends that watch
        // no event: `import` made ~/.local/share and its taskwidget folder at once, and a watch
        // stayed on ~/.local/share for minutes (helper-98). Look again, now that the watch is there.
        if let watched, watched.folder != folder, attempt < 40, Self.nextStep(from: watched.folder, to: folder) {
            for descriptor in [watched.descriptor, link?.descriptor].compactMap({ $0 }) + ancestors { inotify_rm_watch(inotify, descriptor) }
            (self.watched, ancestors, link) = (nil, [], nil)
            rewatch(attempt: attempt + 1)
        }
    }

    /// Whether the folder one step from `ancestor` towards `folder` exists.
    private static func nextStep(from ancestor: String, to folder: String) -> Bool {
        let base = ancestor.hasSuffix("/") ? ancestor : ancestor + "/"
        guard folder.hasPrefix(base), let step = folder.dropFirst(base.count).split(separator: "/").first else { return false }
        var isFolder: ObjCBool = false
        return FileManager.default.fileExists(atPath: base + step, isDirectory: &isFolder) && isFolder.boolValue
    }

    /// Added to what the folder is watched for already, if it is an ancestor (a watch again replaced its mask).
    private static let linkMask = UInt32(IN_CREATE | IN_DELETE | IN_MOVED_TO | IN_MOVED_FROM | IN_ONLYDIR) | UInt32(IN_MASK_ADD)

    /// The file the store's path names now: the path itself, or the file a link points to, which
    /// may be gone (a store moved away to be restored: its folder is watched for its return, where
    /// Foundation, which resolves existing files only, left the link's folder, helper-89).
    private func locateStore() {
        var file = storePath
        link = nil
        for _ in 0..<40 {
            guard stat.ofLink(atPath: file)?.isSymbolicLink == true, let target = try? FileManager.default.destinationOfSymbolicLink(atPath: file)
            else { break }
            if link == nil { link = (PathText.lastComponent(of: storePath), nil) }
            file = target.hasPrefix("/") ? target : PathText.folder(of: file) + "/" + target
        }
        let resolved = URL(fileURLWithPath: file).standardizedFileURL
        folder = resolved.deletingLastPathComponent().path
        storeName = resolved.lastPathComponent
        names = [storeName, storeName + "-wal", storeName + "-journal"]
    }

    private static func isSameFolder(_ first: String, _ second: String) -> Bool {
        var (a, b) = (stat(), stat())
        return stat(first, &a) == 0 && stat(second, &b) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino
    }
}
