import Foundation
public import TaskWidgetCore
import TOMLKit

/// A TRMNL device registered with `taskwidget serve device add` (SPEC §11).
public struct DeviceRecord: Sendable, Equatable {
    /// The device's MAC address, as it sends it in `ID` (compared case-insensitively).
    public var id: String
    public var name: String?
    /// Its `Access-Token`: a secret, kept in the config folder, never in the store.
    public var apiKey: String
    /// The short name TRMNL tools show.
    public var friendlyID: String
    /// The panel in points (800 × 480 on the original device).
    public var size: WidgetSize
    /// Gray bits of its images: 1 (original), 2 (original on firmware ≥ 1.6.0) or 4 (TRMNL X).
    public var depth: Int
    public var format: WidgetImageSpec.Format

    /// The original TRMNL's panel, which a device has unless registered with another.
    public static let defaultSize = WidgetSize(width: 800, height: 480)
    /// The TRMNL X's panel, of 16 grays.
    public static let xSize = WidgetSize(width: 1872, height: 1404)

    /// The options of `serve device add` for a device that says its panel is `size`: the TRMNL X's
    /// 16 grays with its panel (a 1-bit image on it was the advice, helper-167).
    public static func options(for size: WidgetSize) -> String {
        size == xSize ? "--size \(size) --depth 4" : "--size \(size)"
    }

    /// Whether `text` is a device ID as the firmware sends it: a MAC address, six pairs of hex
    /// digits with colons (`AA:BB:CC:DD:EE:FF`).
    public static func isDeviceID(_ text: String) -> Bool {
        text.wholeMatch(of: /(?:[0-9A-Fa-f]{2}:){5}[0-9A-Fa-f]{2}/) != nil
    }

    public init(
        id: String, name: String? = nil, apiKey: String, friendlyID: String, size: WidgetSize = DeviceRecord.defaultSize,
        depth: Int = 1, format: WidgetImageSpec.Format = .png
    ) {
        self.id = id
        self.name = name
        self.apiKey = apiKey
        self.friendlyID = friendlyID
        self.size = size
        self.depth = depth
        self.format = format
    }

    /// The image the device shows: its panel, black and white, at its depth.
    public var imageSpec: WidgetImageSpec {
        // The depth and format were checked when the device was added, and when devices.toml was read.
        try! WidgetImageSpec(family: .large, size: size, theme: .mono, depth: depth, format: format)
    }

    /// The image `/api/setup` hands out: for the original's 800 × 480 panel, the 1-bit BMP, which
    /// its firmware before 1.8.5 keeps only at exactly 48 062 bytes at setup (a PNG there showed
    /// "API size error" as the device's first screen: helper-131); else ``imageSpec``.
    public var setupImageSpec: WidgetImageSpec {
        guard size == Self.defaultSize else { return imageSpec }
        return try! WidgetImageSpec(family: .large, size: size, theme: .mono, depth: 1, format: .bmp)
    }
}

/// `$XDG_CONFIG_HOME/taskwidget/devices.toml`: the registered devices and their keys, written
/// whole (atomically, readable by its owner only) by `serve device add|rm`.
public enum DeviceFile {
    /// The file's path, `nil` without a home.
    public static func path(environment: [String: String]) -> String? {
        XDGPaths(environment: environment).configHome.map { XDGPaths.taskwidgetFolder(in: $0) + "/devices.toml" }
    }

    /// The devices in the file; none when there is no file.
    public static func load(path: String) throws -> [DeviceRecord] {
        guard let data = try InputFile.readIfPresent(path, named: path) else { return [] }
        // The devices' keys open their images, as the token does.
        try SecretFile.requirePrivate(path, what: "the devices file")
        let text = String(decoding: data, as: UTF8.self)
        let table: TOMLTable
        do {
            table = try TOMLTable(string: text)
        } catch let error as TOMLParseError {
            throw TaskWidgetError(
                .badConfig, "\(path):\(error.source.begin.line): \(error.advice(in: text)): fix or remove the file",
                context: path)
        }
        let reader = ConfigReader(table: table, keyPath: [], source: ConfigSource(path: path, text: text))
        try reader.allowKeys(["devices"])
        return try reader.tables("devices").map { device in
            try device.allowKeys(["name", "api_key", "friendly_id", "size", "depth", "format"])
            guard let key = try device.string("api_key"), let friendlyID = try device.string("friendly_id") else {
                throw device.error(nil, "a device needs api_key and friendly_id: add it again with `taskwidget serve device add`")
            }
            let size = try device.string("size").map { text in
                do { return try WidgetSize(parsing: text) } catch { throw device.error("size", "expected WIDTHxHEIGHT, e.g. 800x480") }
            }
            let format = try device.string("format").map { text in
                guard let format = WidgetImageSpec.Format(rawValue: text) else { throw device.error("format", "expected png or bmp") }
                return format
            }
            // The depths `serve device add` takes; a BMP is 1-bit. A device the file gets wrong is
            // refused here, with its line, not when it first asks for an image.
            let depth = try device.int("depth", in: Int.min...Int.max) ?? 1
            guard [1, 2, 4].contains(depth) else { throw device.error("depth", "expected 1, 2 or 4 bits") }
            guard format != .bmp || depth == 1 else { throw device.error("depth", "a BMP is 1-bit: use depth = 1, or format = \"png\"") }
            return DeviceRecord(
                id: device.keyPath.last ?? "", name: try device.string("name"), apiKey: key, friendlyID: friendlyID,
                size: size ?? DeviceRecord.defaultSize, depth: depth, format: format ?? .png)
        }
    }

    /// Writes `devices` to `path` whole, readable by its owner only.
    public static func save(_ devices: [DeviceRecord], path: String) throws {
        var text = "# The TRMNL devices of `taskwidget serve`, written by `taskwidget serve device add|rm`.\n"
        text += "# The keys are the devices' secrets: keep this file to yourself.\n"
        for device in devices {
            let quote = { (text: String) in JSONValue.string(text).compactText }  // a TOML basic string is a JSON string
            text += "\n[devices.\(quote(device.id))]\n"
            if let name = device.name { text += "name = \(quote(name))\n" }
            text += "api_key = \(quote(device.apiKey))\nfriendly_id = \(quote(device.friendlyID))\n"
            text += "size = \(quote(device.size.description))\ndepth = \(device.depth)\nformat = \(quote(device.format.rawValue))\n"
        }
        let url = URL(fileURLWithPath: path)
        try AtomicFile.makeFolder(url.deletingLastPathComponent().path, permissions: 0o700)
        try AtomicFile.write(Data(text.utf8), to: url, permissions: 0o600)
        SavedChanges.note()
    }
}
