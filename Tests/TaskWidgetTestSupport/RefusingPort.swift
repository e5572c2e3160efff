import Glibc

/// A loopback TCP port that refuses every connection: bound, never listening, for as long as this
/// lives. Unlike a port found free and closed again, no other test's server can take it meanwhile.
/// A `silent` one takes connections (the kernel's queue does) and never answers, as a server that
/// hangs.
final class RefusingPort {
    let port: Int
    /// The socket: a test may accept on a silent one and answer itself.
    let descriptor: Int32

    init(silent: Bool = false) throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw RawError(call: "socket") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(descriptor, pointer, length) == 0 && getsockname(descriptor, pointer, &length) == 0
            }
        }
        guard bound, !silent || listen(descriptor, 16) == 0 else {
            let error = RawError(call: "bind")
            close(descriptor)
            throw error
        }
        self.descriptor = descriptor
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    deinit { close(descriptor) }
}
