/// `HOST:PORT` as a URL writes it, an IPv6 address in brackets (`[::1]:8787`): for the addresses
/// serve listens on and is reached at, and the server sync cannot connect to.
public func urlAuthority(host: String, port: Int) -> String {
    host.contains(":") && !host.hasPrefix("[") ? "[\(host)]:\(port)" : "\(host):\(port)"
}
