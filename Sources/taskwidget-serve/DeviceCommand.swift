import ArgumentParser
import Foundation
import TaskWidgetCLI
import TaskWidgetConfig
import TaskWidgetCore
import TaskWidgetFormats
import TaskWidgetServe

/// `taskwidget serve device add|ls|rm`: the TRMNL devices serve answers (SPEC §11).
struct DeviceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "device",
        abstract: "Register the TRMNL devices that serve answers (BYOS).",
        discussion: """
            A device is known by the MAC address it sends in its ID header. Its key and settings \
            live in devices.toml in the config folder, never in the store; a running server sees \
            changes at the device's next request.

            Examples:
              taskwidget serve device add AA:BB:CC:DD:EE:FF --name kitchen
              taskwidget serve device add 11:22:33:44:55:66 --size 1872x1404 --depth 4
              taskwidget serve device ls
              taskwidget serve device rm AA:BB:CC:DD:EE:FF
            """,
        subcommands: [Add.self, List.self, Remove.self])

    @ParentCommand var serve: ServeCommand

    func validate() throws {
        try serve.refuseOwnOptions(for: "device")
    }

    /// The devices file, which needs a config folder.
    static func path() throws -> String {
        guard let path = DeviceFile.path(environment: ProcessInfo.processInfo.environment) else {
            throw TaskWidgetError(.badConfig, "no config folder for devices.toml: set HOME or XDG_CONFIG_HOME")
        }
        return path
    }

    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add", abstract: "Register a device, or change one (its key stays).",
            discussion: """
                Examples:
                  taskwidget serve device add AA:BB:CC:DD:EE:FF --name kitchen
                  # A panel of 2 bits (firmware 1.6 and later):
                  taskwidget serve device add AA:BB:CC:DD:EE:FF --depth 2
                  # A TRMNL X:
                  taskwidget serve device add 11:22:33:44:55:66 --size 1872x1404 --depth 4
                """)

        @Argument(
            help: ArgumentHelp(
                "The device's MAC address, as it sends it (e.g. AA:BB:CC:DD:EE:FF); for a device added already, its friendly ID too.",
                valueName: "id"))
        var id: String
        @Option(help: "A name to know it by.") var name: String?
        @Option(help: ArgumentHelp("Its panel in pixels (default 800x480, the original TRMNL).", valueName: "WxH")) var size: String?
        @Option(help: ArgumentHelp("Gray bits of its panel: 1, 2 (firmware 1.6 and later) or 4 (TRMNL X) (default 1).", valueName: "bits"))
        var depth: Int?
        @Option(help: "png (default), or bmp (1-bit BMP3, 800x480 only, for old firmware).") var imageFormat: WidgetImageSpec.Format?

        func validate() throws {
            if let depth, ![1, 2, 4].contains(depth) { throw ValidationError("--depth must be 1, 2 or 4") }
            if imageFormat == .bmp, let depth, depth != 1 { throw ValidationError("a BMP is 1-bit: leave out --depth or use png") }
            // A device's image is drawn at scale 1, so its points are its pixels.
            if let size {
                do {
                    _ = try WidgetSize(parsing: size, unit: "pixels")
                } catch let error as TaskWidgetError {
                    throw ValidationError(error.message)
                }
            }
        }

        func run() throws {
            let path = try DeviceCommand.path()
            var devices = try DeviceFile.load(path: path)
            // A device added already by its friendly ID too, as `rm` takes it (helper-164).
            let existing = devices.firstIndex { [$0.id.uppercased(), $0.friendlyID.uppercased()].contains(id.uppercased()) }
            // A new one as the firmware sends its ID: with colons (the registry ignores case only).
            guard existing != nil || DeviceRecord.isDeviceID(id) else {
                throw TaskWidgetError(
                    .invalidInput,
                    "the device ID is its MAC address, six pairs of hex digits such as AA:BB:CC:DD:EE:FF (a friendly ID names a device added already: "
                        + "`taskwidget serve device ls` shows them)")
            }
            var device =
                existing.map { devices[$0] }
                ?? DeviceRecord(id: id, apiKey: SecretFile.randomSecret(), friendlyID: Self.friendlyID(avoiding: devices.map(\.friendlyID)))
            // One line, as `device ls` shows it (a line break in it vanished there, helper-96).
            if let name { device.name = try Validation.title(name, noun: "device name") }
            if let size { device.size = try WidgetSize(parsing: size) }
            if let depth { device.depth = depth }
            if let imageFormat { device.format = imageFormat }
            var note: String?
            // The firmware's BMP reader takes 800 x 480 only (a 1872 x 1404 BMP was served, 331 kB,
            // and refused by the device without a word: helper-131).
            if device.format == .bmp && device.size != DeviceRecord.defaultSize {
                throw TaskWidgetError(
                    .invalidInput, "a TRMNL device takes BMP images at 800x480 only: give \(device.size) as --image-format png, or --size 800x480")
            }
            if device.format == .bmp {
                if let depth, depth != 1 {
                    throw TaskWidgetError(.invalidInput, "\(device.id) gets 1-bit BMP images: add --image-format png to give it \(depth) bits")
                }
                // Said: the depth it had was lost without a word, and png did not bring it back (helper-113).
                if device.depth != 1 {
                    note = "a BMP is 1-bit, so its \(device.depth) bits are gone: `--image-format png --depth \(device.depth)` gives them back"
                }
                device.depth = 1
            }
            // Before anything is saved: a config serve would refuse is refused here too (helper-89).
            let port = existing == nil ? try Self.configuredPort() : nil
            if let existing { devices[existing] = device } else { devices.append(device) }
            try DeviceFile.save(devices, path: path)
            // With its name, which `--name` may have just changed (helper-167).
            let named = device.name.map { ", \($0.removingControlCharacters)" } ?? ""
            print(
                "\(existing == nil ? "Added" : "Changed") \(device.id) (\(device.friendlyID)\(named)): "
                    + "\(device.size) \(device.depth)-bit \(device.format.rawValue)")
            if let note { print("Note: \(note)") }
            if let port {
                print("Point the device at this server (TRMNL firmware: custom server, http://HOST:\(port)) and it gets its key at setup")
            }
        }

        /// The port of config.toml's `[serve] listen`, else the default: the one it always named
        /// was 8787 (helper-86).
        static func configuredPort() throws -> Int {
            let configuration = try Configuration.load(environment: ProcessInfo.processInfo.environment, using: .serve)
            guard let listen = configuration.serve.listen else { return ListenAddress.defaultPort }
            guard let address = ListenAddress(listen) else { throw ServeCommand.badListen(in: configuration) }
            return address.port
        }

        /// Six letters and digits, as TRMNL's own friendly IDs, none already taken.
        static func friendlyID(avoiding taken: [String]) -> String {
            let alphabet = Array("ABCDEFGHJKLMNPQRSTUVWXYZ23456789")
            var generator = SystemRandomNumberGenerator()
            while true {
                let id = String((0..<6).map { _ in alphabet.randomElement(using: &generator)! })
                if !taken.contains(id) { return id }
            }
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "ls", abstract: "List the registered devices (never their keys).")

        func run() throws {
            let devices = try DeviceFile.load(path: try DeviceCommand.path())
            guard !devices.isEmpty else {
                print("No devices: add one with `taskwidget serve device add MAC`")
                return
            }
            let rows = devices.map { [$0.id, $0.friendlyID, $0.name ?? "", $0.size.description, "\($0.depth)-bit", $0.format.rawValue] }
            print(Listing.table(header: ["ID", "FRIENDLY", "NAME", "SIZE", "DEPTH", "FORMAT"], rows: rows), terminator: "")
        }
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "rm", abstract: "Forget a device (its key stops working).")

        @Argument(help: ArgumentHelp("The device's MAC address, or its friendly ID (serve device ls shows both).", valueName: "id"))
        var id: String

        func run() throws {
            let path = try DeviceCommand.path()
            var devices = try DeviceFile.load(path: path)
            guard let index = devices.firstIndex(where: { [$0.id.uppercased(), $0.friendlyID.uppercased()].contains(id.uppercased()) }) else {
                throw TaskWidgetError(.notFound, "no device \(id.sanitizedForMessage): see `taskwidget serve device ls`")
            }
            let removed = devices.remove(at: index)
            try DeviceFile.save(devices, path: path)
            print("Removed \(removed.id) (\(removed.friendlyID))")
        }
    }
}
