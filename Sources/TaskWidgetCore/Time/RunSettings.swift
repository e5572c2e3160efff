public import Foundation

/// The clock and time zone of one run, resolved once at the command's edge and passed down.
public enum RunSettings {
    /// `--tz ZONE`, else `TZ`, else the system zone. An unknown zone is an error, never UTC.
    public static func timeZone(argument: String?, environment: [String: String], system: TimeZone) throws -> TimeZone {
        if let argument {
            guard let zone = TimeZone(identifier: argument) else {
                throw TaskWidgetError(
                    .invalidInput, "unknown time zone “\(argument.sanitizedForMessage)” in --tz: use a name like Europe/Berlin or UTC")
            }
            return zone
        }
        if var name = environment["TZ"], !name.isEmpty {
            if name.hasPrefix(":") { name.removeFirst() }
            // A path to a zone file (`:/etc/localtime`, `/usr/share/zoneinfo/Europe/Berlin`): its
            // name is what follows `zoneinfo/` once links are resolved; the system's own file is
            // the system zone.
            if name.hasPrefix("/") {
                let resolved = URL(fileURLWithPath: name).resolvingSymlinksInPath().path
                guard let range = resolved.range(of: "zoneinfo/") else { return system }
                name = String(resolved[range.upperBound...])
            }
            guard let zone = TimeZone(identifier: name) else {
                throw TaskWidgetError(
                    .invalidInput, "unknown time zone “\(name.sanitizedForMessage)” in TZ: set TZ to a name like Europe/Berlin, or pass --tz")
            }
            return zone
        }
        return system
    }

    /// `--now ISO8601`, else the clock, to the millisecond the store keeps.
    public static func now(argument: String?, calendar: LocalCalendar, clock: Date) throws -> Instant {
        try argument.map { try WhenParser.parseInstant($0, calendar: calendar) } ?? Instant(clock)
    }
}
