import CGio

/// A `GError` taken over from GLib (and freed): what went wrong, without anything the caller sent.
struct GLibFailure: Error, CustomStringConvertible {
    let domain: GQuark
    let code: Int32
    /// GLib's message, with the `GDBus.Error:name:` prefix of remote errors stripped.
    let message: String
    /// The D-Bus error name of an error the peer (bus or server) replied with.
    let remoteName: String?

    /// Takes ownership of `error` (frees it). A missing error becomes a generic failure.
    init(taking error: UnsafeMutablePointer<GError>?) {
        guard let error else {
            domain = 0
            code = 0
            message = "unknown GLib failure"
            remoteName = nil
            return
        }
        if let name = g_dbus_error_get_remote_error(error) {
            remoteName = String(cString: name)
            g_free(name)
            _ = g_dbus_error_strip_remote_error(error)
        } else {
            remoteName = nil
        }
        domain = error.pointee.domain
        code = error.pointee.code
        message = error.pointee.message.map { String(cString: $0) } ?? ""
        g_error_free(error)
    }

    /// The call was cancelled by our own `GCancellable` (shutdown): nothing to report.
    var isCancelled: Bool {
        domain == cgio_io_error_quark() && code == Int32(G_IO_ERROR_CANCELLED.rawValue)
    }

    /// The notification server (or the bus connection) is gone, or could not be started: the call
    /// may be retried when a server appears.
    var meansServerGone: Bool {
        if domain == cgio_io_error_quark() && code == Int32(G_IO_ERROR_CLOSED.rawValue) { return true }
        guard let remoteName else { return false }
        return remoteName == "org.freedesktop.DBus.Error.ServiceUnknown"
            || remoteName == "org.freedesktop.DBus.Error.NameHasNoOwner"
            || remoteName.hasPrefix("org.freedesktop.DBus.Error.Spawn.")
    }

    /// The server left the bus (it crashed, or was killed while it hung) before it answered: the
    /// bus answers `NoReply` in its place. What the call asked for died with it.
    var meansServerLeftWithoutReplying: Bool {
        remoteName == "org.freedesktop.DBus.Error.NoReply"
    }

    /// What may be logged or reported: the D-Bus error name when there is one (a server's message
    /// could quote what it was sent), else GLib's own message.
    var description: String { remoteName ?? message }
}

/// Small helpers over GVariant, whose variadic constructors and accessors Swift cannot import.
enum Variant {
    /// Runs `body` with a `const GVariantType *` for a type string (valid during `body` only; GLib
    /// copies types it keeps).
    static func withType<Result>(_ typeString: String, _ body: (OpaquePointer?) -> Result) -> Result {
        typeString.withCString { body(cgio_variant_type($0)) }
    }

    /// Whether `value` has the given type, such as `"(us)"`.
    static func value(_ value: OpaquePointer?, hasType typeString: String) -> Bool {
        guard let value else { return false }
        return withType(typeString) { g_variant_is_of_type(value, $0) != 0 }
    }

    /// A new floating string value. NULs are dropped (GVariant strings are C strings).
    static func string(_ text: String) -> OpaquePointer? {
        g_variant_new_string(text.contains("\0") ? text.replacing("\0", with: "") : text)
    }

    /// A new floating array of strings (`as`), also when empty.
    static func stringArray(_ strings: [String]) -> OpaquePointer? {
        let children = strings.map { string($0) }
        return withType("s") { type in
            children.withUnsafeBufferPointer { g_variant_new_array(type, $0.baseAddress, gsize($0.count)) }
        }
    }

    /// The child at `index` of a tuple or container, as a string (`s` or `o`).
    static func string(in value: OpaquePointer?, at index: Int) -> String {
        let child = g_variant_get_child_value(value, gsize(index))
        defer { g_variant_unref(child) }
        return String(cString: g_variant_get_string(child, nil))
    }

    /// The child at `index`, as a `u`.
    static func uint32(in value: OpaquePointer?, at index: Int) -> UInt32 {
        let child = g_variant_get_child_value(value, gsize(index))
        defer { g_variant_unref(child) }
        return g_variant_get_uint32(child)
    }

    /// The child at `index`, an `as`, as strings.
    static func strings(in value: OpaquePointer?, at index: Int) -> [String] {
        let array = g_variant_get_child_value(value, gsize(index))
        defer { g_variant_unref(array) }
        return (0..<Int(g_variant_n_children(array))).map { string(in: array, at: $0) }
    }
}
