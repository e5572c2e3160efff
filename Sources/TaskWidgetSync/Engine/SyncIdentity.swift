import Foundation
import TaskWidgetCore

/// How server identities become store identities, the same way on every store that syncs with
/// the same server, so that two machines end up with the same ids (and the same `export`).
enum SyncIdentity {
    /// The task id of a VTODO's UID: the UID itself when it is a UUID (taskwidget's tasks, and
    /// most clients'), else a UUID derived from it (the UID is kept beside the task).
    static func taskID(forUID uid: String) -> UUID {
        UUID(uuidString: uid) ?? derivedUUID("uid:" + uid)
    }

    /// The UID of a task id, as taskwidget writes it.
    static func uid(for taskID: UUID) -> String {
        taskID.lowercasedString
    }

    /// The list id of a collection new to this store: the collection's last path segment when it
    /// is a UUID (taskwidget names the collections it makes after the list's id), else a UUID
    /// derived from its path.
    static func listID(forCollection href: DAVHref) -> UUID {
        UUID(uuidString: href.lastComponent) ?? derivedUUID("collection:" + href.path)
    }

    /// A name-based UUID (version 8, RFC 9562) from two FNV-1a hashes of `text`: stable across
    /// runs, machines and versions, which is all it needs to be.
    static func derivedUUID(_ text: String) -> UUID {
        let (high, low) = (FNV1a.value(of: text.utf8), FNV1a.value(of: text.utf8, offsetBasis: 0x6c62_272e_07bb_0142))
        var bytes = [UInt8](repeating: 0, count: 16)
        for index in 0..<8 {
            bytes[index] = UInt8(truncatingIfNeeded: high >> (56 - 8 * index))
            bytes[8 + index] = UInt8(truncatingIfNeeded: low >> (56 - 8 * index))
        }
        bytes[6] = (bytes[6] & 0x0f) | 0x80  // version 8
        bytes[8] = (bytes[8] & 0x3f) | 0x80  // RFC 9562 variant
        return UUID(
            uuid: (
                bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7], bytes[8], bytes[9],
                bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
            ))
    }

    /// A list color from a server's `calendar-color` (`#RRGGBB` or `#RRGGBBAA`, or CSS's short
    /// `#RGB` and `#RGBA`), else `nil`.
    static func colorHex(fromCalendarColor color: String?) -> String? {
        guard var digits = color?.trimmingCharacters(in: .whitespaces) else { return nil }
        if digits.hasPrefix("#") { digits.removeFirst() }
        switch digits.count {
        case 3, 4: return try? Validation.colorHex(String(digits.prefix(3).flatMap { [$0, $0] }))
        case 6, 8: return try? Validation.colorHex(String(digits.prefix(6)))
        default: return nil
        }
    }
}
