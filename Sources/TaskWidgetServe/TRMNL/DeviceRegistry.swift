import Foundation
public import HTTPTypes
public import Logging
import Synchronization
public import TaskWidgetConfig
import TaskWidgetCore

/// The registered TRMNL devices, read from ``DeviceFile`` and read again when the file changes (a
/// `serve device add` while the server runs takes effect at the device's next request).
public final class DeviceRegistry: Sendable {
    private struct Loaded {
        var devices: [String: DeviceRecord] = [:]
        var modification: Date?
        /// Unregistered devices that asked to be set up (a bounded few), each logged once.
        var unregistered: Set<String> = []
        /// Whether more unregistered devices asked than the log names.
        var unregisteredOverflowed = false
        /// The setups of unregistered devices each client address asked for in its current minute.
        var unknownSetups: [String: (minuteStart: ContinuousClock.Instant, count: Int)] = [:]
        /// What the log has said of registered devices (``isFirst(notice:)``).
        var notices: Set<String> = []
    }

    /// The file; `nil` for a registry held in memory (tests).
    private let path: String?
    private let loaded: Mutex<Loaded>
    private let logger: Logger?

    /// The devices of the file at `path`, read now: a file that cannot be read is an error, so
    /// that serve does not start to refuse every device without a word. Later reads that fail
    /// keep the devices read before, and say so in `logger`'s log.
    public init(path: String?, logger: Logger) throws {
        self.path = path
        self.logger = logger
        guard let path else {
            loaded = Mutex(Loaded())
            return
        }
        let modification = Self.modificationDate(of: path)
        loaded = Mutex(Loaded(devices: Self.byKey(try DeviceFile.load(path: path)), modification: modification))
    }

    /// A registry of `devices`, held in memory.
    public init(_ devices: [DeviceRecord]) {
        path = nil
        logger = nil
        loaded = Mutex(Loaded(devices: Self.byKey(devices)))
    }

    /// How many unregistered devices the log names: anyone who reaches the server can send any
    /// number of made-up IDs, and each would be a line in the journal.
    static let unregisteredLogged = 64

    /// What the log says of a request to be set up from `id`, which no registered device has.
    public enum UnregisteredNotice: Equatable {
        /// The first request from `id`: the log names it, and how to register it.
        case first
        /// The first unregistered device over ``DeviceRegistry/unregisteredLogged``: the log says
        /// that later ones are not named.
        case tooMany
        /// Said before.
        case none
    }

    /// Whether the log names `id`: once for each of the first 64 unregistered IDs (a device retries
    /// its setup every few minutes), then one line that says the rest are not named.
    public func notice(forUnregistered id: String) -> UnregisteredNotice {
        loaded.withLock { state in
            if state.unregistered.contains(Self.key(id)) { return .none }
            guard state.unregistered.count < Self.unregisteredLogged else {
                defer { state.unregisteredOverflowed = true }
                return state.unregisteredOverflowed ? .none : .tooMany
            }
            state.unregistered.insert(Self.key(id))
            return .first
        }
    }

    /// Whether the log has not said `notice` yet (of a registered device: its ID and what is said):
    /// a device repeats its request every few minutes, and the log says each thing once, and at
    /// most ``unregisteredLogged`` of them.
    public func isFirst(notice: String) -> Bool {
        loaded.withLock { state in
            guard state.notices.count < Self.unregisteredLogged else { return false }
            return state.notices.insert(notice).inserted
        }
    }

    /// The panel a TRMNL device says it has (its `Width` and `Height` headers), when it is one a
    /// widget may be drawn for.
    static func panelSize(in headers: HTTPFields) -> WidgetSize? {
        guard let width = headers[.width].flatMap({ Int($0) }), let height = headers[.height].flatMap({ Int($0) }),
            WidgetSize.allowedPoints.contains(width), WidgetSize.allowedPoints.contains(height)
        else { return nil }
        return WidgetSize(width: width, height: height)
    }

    /// How many setups of unregistered devices one client address may ask for in a minute. A device
    /// that is not registered yet retries every few minutes; 20 000 made-up MAC addresses a second
    /// were answered, so the registered device's, and with it its key, was found by trying them
    /// all (helper-136).
    static let unknownSetupsPerMinute = 10
    /// How many client addresses the count keeps at once; past it, every new one waits.
    static let unknownSetupAddresses = 4096

    /// Whether a client at `address` may ask for a setup now: not after ``unknownSetupsPerMinute``
    /// setups of unregistered devices in its current minute, whatever it asks for then (a device
    /// found would stand out among the refusals). Returns the seconds to wait when it may not.
    public func setupWait(for address: String, at now: ContinuousClock.Instant = .now) -> Int? {
        let address = Self.client(at: address)
        return loaded.withLock { state in
            guard let (start, count) = state.unknownSetups[address], now - start < .seconds(60) else {
                return Self.hasRoom(in: &state, at: now) ? nil : 60
            }
            guard count >= Self.unknownSetupsPerMinute else { return nil }
            let (seconds, attoseconds) = (start + .seconds(60) - now).components
            return Int(seconds) + (attoseconds > 0 ? 1 : 0)
        }
    }

    /// Counts a setup that `address` asked for an unregistered device.
    public func countUnknownSetup(from address: String, at now: ContinuousClock.Instant = .now) {
        let address = Self.client(at: address)
        loaded.withLock { state in
            if let (start, count) = state.unknownSetups[address], now - start < .seconds(60) {
                state.unknownSetups[address] = (start, count + 1)
            } else if state.unknownSetups[address] != nil || Self.hasRoom(in: &state, at: now) {
                state.unknownSetups[address] = (now, 1)
            }
        }
    }

    /// What one client holds of `address`: an IPv4 address, or an IPv6 address's /64, in which a
    /// host picks its addresses as it likes.
    static func client(at address: String) -> String {
        var bytes = [UInt8](repeating: 0, count: 16)  // an in6_addr
        guard inet_pton(AF_INET6, address, &bytes) == 1 else { return address }
        guard bytes[0..<10].contains(where: { $0 != 0 }) else { return address }  // ::ffff:192.0.2.1, ::1
        return bytes.prefix(8).map { String($0, radix: 16) }.joined(separator: ".") + "/64"
    }

    /// Whether the count has room for another address, once the minutes that are over are dropped.
    private static func hasRoom(in state: inout Loaded, at now: ContinuousClock.Instant) -> Bool {
        if state.unknownSetups.count >= unknownSetupAddresses {
            state.unknownSetups = state.unknownSetups.filter { now - $0.value.minuteStart < .seconds(60) }
        }
        return state.unknownSetups.count < unknownSetupAddresses
    }

    /// The device with MAC `id` (compared case-insensitively: firmware sends upper case).
    public func device(id: String) -> DeviceRecord? { current()[Self.key(id)] }

    /// The device a request comes from: its `ID` is registered and its `Access-Token` is that
    /// device's key (compared in constant time).
    public func device(sending headers: HTTPFields) -> DeviceRecord? {
        guard let id = headers[.deviceID], let device = device(id: id), let key = headers[.accessToken],
            ConstantTime.equals(Array(device.apiKey.utf8), Array(key.utf8))
        else { return nil }
        return device
    }

    /// Whether a request for an image comes from a registered device: by its headers, as on
    /// `/api/display`, or by a device's key among `tokens` (the `?token=` of the URL `image_url`
    /// hands out: the firmware fetches the image with no header of its own). Compared in
    /// constant time.
    public func isDevice(sending headers: HTTPFields, tokens: [Substring]) -> Bool {
        if device(sending: headers) != nil { return true }
        let keys = current().values.map { Array($0.apiKey.utf8) }
        var matched: UInt8 = 0
        for token in tokens { matched |= ConstantTime.equalsAny(keys, token.utf8) ? 1 : 0 }
        return matched != 0
    }

    /// Every device's API key with the path of its image, for ``AuthMiddleware``.
    public var keys: [AuthMiddleware<ServeRequestContext>.DeviceKey] {
        current().values.map { .init(key: Array($0.apiKey.utf8), imagePaths: [$0.imagePath(of: $0.imageSpec), $0.imagePath(of: $0.setupImageSpec)]) }
    }

    /// The devices, the file read again if it changed. A file that cannot be read keeps the devices
    /// read before (the server keeps serving; `serve device ls` says what is wrong with it).
    private func current() -> [String: DeviceRecord] {
        guard let path else { return loaded.withLock { $0.devices } }
        let modification = Self.modificationDate(of: path)
        if let devices = loaded.withLock({ $0.modification == modification ? $0.devices : nil }) { return devices }
        var read: [String: DeviceRecord]?
        do {
            read = Self.byKey(try DeviceFile.load(path: path))
        } catch {
            // Once per change of the file: the modification is remembered below.
            let reason = (error as? TaskWidgetError)?.logDescription ?? "\(error)"
            logger?.warning("the devices file cannot be read: the devices read before stay (taskwidget serve device ls says why)", metadata: ["error": "\(reason)"])
        }
        let (devices, dropped) = loaded.withLock { state in
            let dropped = modification == nil && read?.isEmpty == true && !state.devices.isEmpty
            if let read { state.devices = read }
            state.modification = modification
            return (state.devices, dropped)
        }
        if dropped { logger?.warning("the devices file is gone: no TRMNL device is registered now (taskwidget serve device add registers one)") }
        return devices
    }

    private static func key(_ id: String) -> String { id.uppercased() }

    private static func byKey(_ devices: [DeviceRecord]) -> [String: DeviceRecord] {
        Dictionary(devices.map { (key($0.id), $0) }, uniquingKeysWith: { $1 })
    }

    private static func modificationDate(of path: String) -> Date? {
        (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date
    }
}

extension DeviceRecord {
    /// The path and query of one of the device's images (``imageSpec``, ``setupImageSpec``),
    /// which its key opens (``AuthMiddleware``).
    func imagePath(of spec: WidgetImageSpec) -> String {
        "/widget/\(spec.size).\(spec.format.rawValue)?theme=mono&depth=\(spec.depth ?? 1)"
    }

    /// ``imagePath(of:)`` with the device's key as `token`, as `/api/setup` and `/api/display`
    /// hand it out (in `image_url`): the firmware sends its `Access-Token` to the API only, and
    /// fetches the image with a plain GET, which a server with a token answers only with a key in
    /// the URL.
    func imagePathWithKey(of spec: WidgetImageSpec) -> String {
        imagePath(of: spec) + "&token=" + (apiKey.addingPercentEncoding(withAllowedCharacters: Self.keyCharacters) ?? "")
    }

    /// What a key keeps unescaped in a query: letters, digits, `-`, `_`, `.` and `~`.
    private static let keyCharacters = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.~")
}
