import Foundation
public import HTTPTypes
import Synchronization
public import TaskWidgetConfig
import TaskWidgetCore

/// The registered TRMNL devices, read from ``DeviceFile`` and read again when the file changes (a
/// `serve device add` while the server runs takes effect at the device's next request).
public final class DeviceRegistry: Sendable {
    private struct Loaded {
        var devices: [String: DeviceRecord] = [:]
        var modification: Date?
    }

    /// The file; `nil` for a registry held in memory (tests).
    private let path: String?
    private let loaded: Mutex<Loaded>

    /// The devices of the file at `path`.
    public init(path: String?) {
        self.path = path
        loaded = Mutex(Loaded())
    }

    /// A registry of `devices`, held in memory.
    public init(_ devices: [DeviceRecord]) {
        path = nil
        loaded = Mutex(Loaded(devices: Dictionary(devices.map { (Self.key($0.id), $0) }, uniquingKeysWith: { $1 })))
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

    /// Every device's API key with the path of its image, for ``AuthMiddleware``.
    public var keys: [AuthMiddleware<ServeRequestContext>.DeviceKey] {
        current().values.map { .init(key: Array($0.apiKey.utf8), imagePath: $0.imagePath) }
    }

    /// The devices, the file read again if it changed. A file that cannot be read keeps the devices
    /// read before (the server keeps serving; `serve device ls` says what is wrong with it).
    private func current() -> [String: DeviceRecord] {
        guard let path else { return loaded.withLock { $0.devices } }
        let modification = (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date
        if let devices = loaded.withLock({ $0.modification == modification ? $0.devices : nil }) { return devices }
        let read = (try? DeviceFile.load(path: path)).map { Dictionary($0.map { (Self.key($0.id), $0) }, uniquingKeysWith: { $1 }) }
        return loaded.withLock { state in
            if let read { state.devices = read }
            state.modification = modification
            return state.devices
        }
    }

    private static func key(_ id: String) -> String { id.uppercased() }
}

extension DeviceRecord {
    /// The path and query of the device's image, as `/api/display` hands it out (in `image_url`).
    var imagePath: String {
        let spec = imageSpec
        return "/widget/\(spec.size).\(spec.format.rawValue)?theme=mono&depth=\(spec.depth ?? 1)"
    }
}
