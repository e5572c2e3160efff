import CLinuxEvents
import Glibc
import TaskWidgetCore

/// Why standard output takes no more lines; the loop then ends normally.
enum OutputEnded: Error {
    /// The reader closed its end.
    case readerGone
    /// A stop signal came while a line waited for a reader that had stopped reading.
    case stopped
}

/// Standard output, written with `write(2)` and never buffered: each line reaches the reader whole.
///
/// A pipe or socket whose reader stopped reading (a frozen bar) fills up, and a write to it waits.
/// The stop signals, blocked for the loop's signalfd, would then wait too, for good: so a line to a
/// pipe or socket is written once it has room, in pieces it takes without waiting, while SIGTERM,
/// SIGINT and SIGHUP end the wait (helper-71).
public struct StandardOutput: LineSink {
    /// Whether standard output is a pipe or a socket (else a file or a terminal, written at once).
    private let waitsForReader: Bool
    /// A signalfd that is readable while a stop signal is pending; made at the first wait. It is
    /// never read: the signal stays pending for the loop's own signalfd.
    private var stopSignals: Int32 = -1

    public init() {
        waitsForReader = stat.of(descriptor: STDOUT_FILENO)?.isPipeOrSocket == true
    }

    public mutating func write(_ text: String) throws {
        let bytes = Array(text.utf8)
        do {
            guard waitsForReader else { return try SystemError.writeAll(bytes, to: STDOUT_FILENO) }
            var offset = 0
            while offset < bytes.count {
                try waitForRoom()
                // A pipe with room takes PIPE_BUF bytes without waiting.
                let end = min(bytes.count, offset + Int(PIPE_BUF))
                try SystemError.writeAll(bytes[offset..<end], to: STDOUT_FILENO)
                offset = end
            }
        } catch let error as SystemError {
            if error.code == EPIPE { throw OutputEnded.readerGone }
            throw TaskWidgetError.standardOutput(error.code)
        }
    }

    /// Returns once standard output has room (or its reader is gone: the write then says so);
    /// throws ``OutputEnded/stopped`` when a stop signal comes first.
    private mutating func waitForRoom() throws {
        if stopSignals < 0 {
            var set = sigset_t()
            sigemptyset(&set)
            for signal in [SIGTERM, SIGINT, SIGHUP] { sigaddset(&set, signal) }
            stopSignals = signalfd(-1, &set, Int32(SFD_NONBLOCK | SFD_CLOEXEC))
        }
        var descriptors = [pollfd(fd: STDOUT_FILENO, events: Int16(POLLOUT), revents: 0), pollfd(fd: stopSignals, events: Int16(POLLIN), revents: 0)]
        while poll(&descriptors, 2, -1) < 0 {
            guard errno == EINTR else { return }
        }
        if descriptors[0].revents == 0, descriptors[1].revents != 0 { throw OutputEnded.stopped }
    }
}
