import HTTPTypes
import Hummingbird
import Logging
import TaskWidgetConfig
import TaskWidgetCore

/// TRMNL's "bring your own server" API (SPEC §11, shared/reference/trmnl-byos.md).
func addTRMNLRoutes(to router: Router<ServeRequestContext>, cache: DashboardCache, devices: DeviceRegistry) {
    /// `GET /api/setup`: open (the device has no key yet); a registered `ID` gets its key.
    router.get("/api/setup") { request, context -> Response in
        let address = context.clientAddress ?? "an unknown address"
        if let seconds = devices.setupWait(for: address) { throw ServeHTTPError.tooManySetups(retryAfter: seconds) }
        guard let id = request.headers[.deviceID], let device = devices.device(id: id) else {
            devices.countUnknownSetup(from: address)
            // Said where the user looks: the MAC address to register is known only here. Only a
            // MAC address is written (the header is anyone's text), once.
            if let id = request.headers[.deviceID], DeviceRecord.isDeviceID(id) {
                switch devices.notice(forUnregistered: id) {
                case .first:
                    // The panel it says it has: a TRMNL X registered as the 800×480 default got an
                    // image for another screen (helper-164).
                    let panel = DeviceRegistry.panelSize(in: request.headers)
                    let size = panel.flatMap { $0 == DeviceRecord.defaultSize ? nil : " " + DeviceRecord.options(for: $0) } ?? ""
                    context.logger.warning(
                        .init(stringLiteral: "a TRMNL device that is not registered asked to be set up, from \(address): if it is yours, register it with "
                            + "`taskwidget serve device add \(id)\(size)`"))
                case .tooMany:
                    context.logger.warning(
                        "more than \(DeviceRegistry.unregisteredLogged) TRMNL devices that are not registered asked to be set up: the log names no more of them until serve restarts")
                case .none: break
                }
            }
            return json(
                status: .notFound,
                .object([("status", .int(404)), ("api_key", .null), ("friendly_id", .null), ("image_url", .null), ("filename", .null)]))
        }
        let image = try await cache.widget(device.setupImageSpec).representation
        return json(
            status: .ok,
            .object([
                ("status", .int(200)), ("api_key", .string(device.apiKey)), ("friendly_id", .string(device.friendlyID)),
                ("image_url", .string(imageURL(of: device.setupImageSpec, for: device, request: request, context: context))),
                ("filename", .string(image.hash.description)),
                ("message", .string("Welcome to taskwidget")),
            ]))
    }

    /// `GET /api/display`: the device polls; `filename` changes exactly when the image does, and
    /// `refresh_rate` is the seconds until it next does (at least a minute, at most 15).
    router.get("/api/display") { request, context -> Response in
        guard let device = devices.device(sending: request.headers) else {
            // A registered device with another key: its key was replaced (`device rm` and `add`),
            // and it shows an error until it is set up again, which nothing said (helper-164).
            // Once for each key the device is registered with (a second replacement is said too).
            if let id = request.headers[.deviceID], let registered = devices.device(id: id), request.headers[.accessToken] != nil,
                devices.isFirst(notice: "\(registered.id) key \(registered.apiKey)")
            {
                context.logger.warning(
                    .init(stringLiteral: "the TRMNL device \(id) sent a key that is not its own (replaced by `serve device rm` and `add`?): "
                        + "set it up again (its reset or Wi-Fi setup) to give it the new one"))
            }
            throw ServeHTTPError.deviceNotKnown
        }
        // Once for each registration it contradicts.
        if let panel = DeviceRegistry.panelSize(in: request.headers), panel != device.size,
            devices.isFirst(notice: "\(device.id) size \(panel) registered \(device.size)")
        {
            context.logger.warning(
                .init(stringLiteral: "the TRMNL device \(device.id) says its screen is \(panel), and is registered for \(device.size): if it is right, run "
                    + "`taskwidget serve device add \(device.id) \(DeviceRecord.options(for: panel))`"))
        }
        // While the store cannot be read, the image of the failure, and a minute until the next look.
        let image = try await cache.widget(device.imageSpec).representation
        let refreshRate = min(900, max(60, cache.maxAge(until: cache.current.state?.imageValidUntil)))
        return json(
            status: .ok,
            .object([
                ("status", .int(0)), ("image_url", .string(imageURL(of: device.imageSpec, for: device, request: request, context: context))),
                ("filename", .string(image.hash.description)), ("refresh_rate", .int(Int64(refreshRate))),
                ("update_firmware", .bool(false)), ("firmware_url", .null), ("reset_firmware", .bool(false)),
                ("special_function", .string("none")),
            ]))
    }

    /// `POST /api/log`: read (up to the context's limit, else 413) and dropped: device logs may
    /// carry anything, and our logs carry no content.
    router.post("/api/log") { request, context -> Response in
        var request = request
        _ = try await request.collectBody(upTo: context.maxUploadSize)
        return Response(status: .noContent)
    }
}

/// Absolute, as the firmware wants: from the `Host` the device used (checked to be a plain
/// host[:port]), so that it works behind whatever name the device was given; without one, the
/// address and port the connection reached.
private func imageURL(of spec: WidgetImageSpec, for device: DeviceRecord, request: Request, context: ServeRequestContext) -> String {
    let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-:[]")
    let host = request.head.authority.flatMap { $0.count <= 255 && $0.allSatisfy(allowed.contains) ? $0 : nil }
    return "http://\(host ?? context.localAuthority ?? "localhost")\(device.imagePathWithKey(of: spec))"
}

private func json(status: HTTPResponse.Status, _ value: JSONValue) -> Response {
    Response(
        status: status, headers: [.contentType: "application/json", .cacheControl: "no-store"],
        body: .init(byteBuffer: ByteBuffer(string: value.compactText + "\n")))
}
