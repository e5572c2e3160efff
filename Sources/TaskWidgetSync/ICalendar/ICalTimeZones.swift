public import Foundation

/// Turns the `TZID`s of one calendar into time zones, and knows the reader's zone for floating
/// times and DATE values.
///
/// A TZID is resolved, first match wins:
/// 1. as an IANA name (`Europe/Berlin`);
/// 2. as a Windows name (`W. Europe Standard Time`, see ``windowsZones``), ignoring case;
/// 3. as a prefixed IANA or Windows name, trying each suffix after a `/`
///    (`/mozilla.org/20050126_1/Europe/Berlin`, `/citadel.org/20190914_1/Europe/Berlin`);
/// 4. through the calendar's VTIMEZONE of that TZID: its `X-LIC-LOCATION` (Mozilla) resolved as
///    above, else the UTC offset of its most recent STANDARD sub-component, as a fixed offset
///    (its DST rules are not evaluated);
/// 5. otherwise `nil`: the caller treats the time as floating (the reader's zone).
///
/// The tz database is preferred to the VTIMEZONE's own rules because it knows every year's rules,
/// while VTIMEZONEs sent by clients are often truncated or stale.
public struct ICalTimeZones: Sendable {
    /// The reader's zone: floating times and DATE values are read in it.
    public var floating: TimeZone
    private var definitions: [String: Definition]

    private struct Definition: Sendable {
        var location: String?
        var standardOffset: Int?
    }

    /// The zones of `calendar` (its VTIMEZONE components), with `floating` as the reader's zone.
    public init(floating: TimeZone, calendar: ICalComponent? = nil) {
        self.floating = floating
        var definitions: [String: Definition] = [:]
        for zone in calendar?.components("VTIMEZONE") ?? [] {
            guard let tzid = zone.property("TZID")?.value, definitions[tzid] == nil else { continue }
            definitions[tzid] = Definition(
                location: zone.property("X-LIC-LOCATION")?.textValue, standardOffset: Self.standardOffset(of: zone))
        }
        self.definitions = definitions
    }

    /// The zone for `tzid`, or `nil` when it is unknown (then the time is floating).
    public func timeZone(forTZID tzid: String) -> TimeZone? {
        if let zone = Self.knownTimeZone(forTZID: tzid) { return zone }
        guard let definition = definitions[tzid] else { return nil }
        if let location = definition.location, let zone = Self.knownTimeZone(forTZID: location) { return zone }
        return definition.standardOffset.flatMap { TimeZone(secondsFromGMT: $0) }
    }

    /// The zone a TZID names by itself (steps 1–3 above), without any VTIMEZONE.
    public static func knownTimeZone(forTZID tzid: String) -> TimeZone? {
        let trimmed = tzid.trimmingCharacters(in: CharacterSet(charactersIn: " \t\""))
        guard !trimmed.isEmpty else { return nil }
        if let zone = namedZone(trimmed) { return zone }
        var rest = Substring(trimmed)
        while let slash = rest.firstIndex(of: "/") {
            rest = rest[rest.index(after: slash)...]
            if let zone = namedZone(String(rest)) { return zone }
        }
        return nil
    }

    private static func namedZone(_ name: String) -> TimeZone? {
        if let iana = windowsZones[name.lowercased()] { return TimeZone(identifier: iana) }
        // The name comes from the network and TimeZone reads a file of that name under
        // /usr/share/zoneinfo: only tz-database spellings get there, never `..` or odd bytes.
        let isTZName =
            name.utf8.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "/"), UInt8(ascii: "_"),
                    UInt8(ascii: "-"), UInt8(ascii: "+"):
                    true
                default: false
                }
            } && !name.hasPrefix("/") && !name.hasSuffix("/") && !name.contains("//")
        guard isTZName else { return nil }
        return TimeZone(identifier: name)
    }

    /// Windows time zone names (as Exchange and Outlook write them) → IANA names, after CLDR's
    /// windowsZones.xml ("001" territory). Keys are lowercased.
    public static let windowsZones: [String: String] = {
        let pairs: [(String, String)] = [
            ("UTC", "UTC"),
            ("GMT Standard Time", "Europe/London"),
            ("Greenwich Standard Time", "Atlantic/Reykjavik"),
            ("W. Europe Standard Time", "Europe/Berlin"),
            ("Central Europe Standard Time", "Europe/Budapest"),
            ("Central European Standard Time", "Europe/Warsaw"),
            ("Romance Standard Time", "Europe/Paris"),
            ("E. Europe Standard Time", "Europe/Chisinau"),
            ("FLE Standard Time", "Europe/Kiev"),
            ("GTB Standard Time", "Europe/Bucharest"),
            ("Russian Standard Time", "Europe/Moscow"),
            ("Turkey Standard Time", "Europe/Istanbul"),
            ("Israel Standard Time", "Asia/Jerusalem"),
            ("Egypt Standard Time", "Africa/Cairo"),
            ("South Africa Standard Time", "Africa/Johannesburg"),
            ("Arabian Standard Time", "Asia/Dubai"),
            ("Iran Standard Time", "Asia/Tehran"),
            ("Pakistan Standard Time", "Asia/Karachi"),
            ("India Standard Time", "Asia/Kolkata"),
            ("SE Asia Standard Time", "Asia/Bangkok"),
            ("Singapore Standard Time", "Asia/Singapore"),
            ("China Standard Time", "Asia/Shanghai"),
            ("Taipei Standard Time", "Asia/Taipei"),
            ("Tokyo Standard Time", "Asia/Tokyo"),
            ("Korea Standard Time", "Asia/Seoul"),
            ("W. Australia Standard Time", "Australia/Perth"),
            ("Cen. Australia Standard Time", "Australia/Adelaide"),
            ("E. Australia Standard Time", "Australia/Brisbane"),
            ("AUS Eastern Standard Time", "Australia/Sydney"),
            ("New Zealand Standard Time", "Pacific/Auckland"),
            ("Hawaiian Standard Time", "Pacific/Honolulu"),
            ("Alaskan Standard Time", "America/Anchorage"),
            ("Pacific Standard Time", "America/Los_Angeles"),
            ("US Mountain Standard Time", "America/Phoenix"),
            ("Mountain Standard Time", "America/Denver"),
            ("Central Standard Time", "America/Chicago"),
            ("Central Standard Time (Mexico)", "America/Mexico_City"),
            ("Canada Central Standard Time", "America/Regina"),
            ("Eastern Standard Time", "America/New_York"),
            ("Atlantic Standard Time", "America/Halifax"),
            ("Newfoundland Standard Time", "America/St_Johns"),
            ("SA Pacific Standard Time", "America/Bogota"),
            ("E. South America Standard Time", "America/Sao_Paulo"),
            ("Argentina Standard Time", "America/Argentina/Buenos_Aires"),
        ]
        return Dictionary(pairs.map { ($0.0.lowercased(), $0.1) }, uniquingKeysWith: { first, _ in first })
    }()

    /// The TZOFFSETTO of the STANDARD sub-component with the latest DTSTART.
    private static func standardOffset(of zone: ICalComponent) -> Int? {
        var best: (start: String, offset: Int)?
        for standard in zone.components("STANDARD") {
            guard let offset = standard.property("TZOFFSETTO").flatMap({ utcOffset($0.value) }) else { continue }
            // DTSTART is a local DATE-TIME, so its text orders like its time.
            let start = standard.property("DTSTART")?.value ?? ""
            if best == nil || start > best!.start { best = (start, offset) }
        }
        return best?.offset
    }

    /// `+0100`, `-0500`, `+053000` → seconds east of UTC.
    static func utcOffset(_ text: String) -> Int? {
        let bytes = Array(text.utf8.filter { $0 != 0x20 })
        guard bytes.count == 5 || bytes.count == 7, bytes[0] == UInt8(ascii: "+") || bytes[0] == UInt8(ascii: "-"),
            bytes.dropFirst().allSatisfy({ (48...57).contains($0) })
        else { return nil }
        let digits = bytes.dropFirst().map { Int($0) - 48 }
        let hours = digits[0] * 10 + digits[1]
        let minutes = digits[2] * 10 + digits[3]
        let seconds = digits.count == 6 ? digits[4] * 10 + digits[5] : 0
        guard hours < 24, minutes < 60, seconds < 60 else { return nil }
        return (bytes[0] == UInt8(ascii: "-") ? -1 : 1) * (hours * 3600 + minutes * 60 + seconds)
    }
}
