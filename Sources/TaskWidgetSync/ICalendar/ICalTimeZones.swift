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
///    (its DST rules are not evaluated: sync.md's Known limits say so);
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

    /// Windows time zone names (as Exchange and Outlook write them) → IANA names: every zone of
    /// CLDR's windowsZones.xml, with its "001" territory's zone (by its current tz-database name).
    /// Keys are lowercased.
    public static let windowsZones: [String: String] = {
        let pairs: [(String, String)] = [
            ("Dateline Standard Time", "Etc/GMT+12"),
            ("UTC-11", "Etc/GMT+11"),
            ("Aleutian Standard Time", "America/Adak"),
            ("Hawaiian Standard Time", "Pacific/Honolulu"),
            ("Marquesas Standard Time", "Pacific/Marquesas"),
            ("Alaskan Standard Time", "America/Anchorage"),
            ("UTC-09", "Etc/GMT+9"),
            ("Pacific Standard Time (Mexico)", "America/Tijuana"),
            ("UTC-08", "Etc/GMT+8"),
            ("Pacific Standard Time", "America/Los_Angeles"),
            ("US Mountain Standard Time", "America/Phoenix"),
            ("Mountain Standard Time (Mexico)", "America/Mazatlan"),
            ("Mountain Standard Time", "America/Denver"),
            ("Yukon Standard Time", "America/Whitehorse"),
            ("Central America Standard Time", "America/Guatemala"),
            ("Central Standard Time", "America/Chicago"),
            ("Easter Island Standard Time", "Pacific/Easter"),
            ("Central Standard Time (Mexico)", "America/Mexico_City"),
            ("Canada Central Standard Time", "America/Regina"),
            ("SA Pacific Standard Time", "America/Bogota"),
            ("Eastern Standard Time (Mexico)", "America/Cancun"),
            ("Eastern Standard Time", "America/New_York"),
            ("Haiti Standard Time", "America/Port-au-Prince"),
            ("Cuba Standard Time", "America/Havana"),
            ("US Eastern Standard Time", "America/Indiana/Indianapolis"),
            ("Turks And Caicos Standard Time", "America/Grand_Turk"),
            ("Paraguay Standard Time", "America/Asuncion"),
            ("Atlantic Standard Time", "America/Halifax"),
            ("Venezuela Standard Time", "America/Caracas"),
            ("Central Brazilian Standard Time", "America/Cuiaba"),
            ("SA Western Standard Time", "America/La_Paz"),
            ("Pacific SA Standard Time", "America/Santiago"),
            ("Newfoundland Standard Time", "America/St_Johns"),
            ("Tocantins Standard Time", "America/Araguaina"),
            ("E. South America Standard Time", "America/Sao_Paulo"),
            ("SA Eastern Standard Time", "America/Cayenne"),
            ("Argentina Standard Time", "America/Argentina/Buenos_Aires"),
            ("Greenland Standard Time", "America/Nuuk"),
            ("Montevideo Standard Time", "America/Montevideo"),
            ("Magallanes Standard Time", "America/Punta_Arenas"),
            ("Saint Pierre Standard Time", "America/Miquelon"),
            ("Bahia Standard Time", "America/Bahia"),
            ("UTC-02", "Etc/GMT+2"),
            ("Azores Standard Time", "Atlantic/Azores"),
            ("Cape Verde Standard Time", "Atlantic/Cape_Verde"),
            ("UTC", "UTC"),
            ("GMT Standard Time", "Europe/London"),
            ("Greenwich Standard Time", "Atlantic/Reykjavik"),
            ("Sao Tome Standard Time", "Africa/Sao_Tome"),
            ("Morocco Standard Time", "Africa/Casablanca"),
            ("W. Europe Standard Time", "Europe/Berlin"),
            ("Central Europe Standard Time", "Europe/Budapest"),
            ("Romance Standard Time", "Europe/Paris"),
            ("Central European Standard Time", "Europe/Warsaw"),
            ("W. Central Africa Standard Time", "Africa/Lagos"),
            ("Jordan Standard Time", "Asia/Amman"),
            ("GTB Standard Time", "Europe/Bucharest"),
            ("Middle East Standard Time", "Asia/Beirut"),
            ("Egypt Standard Time", "Africa/Cairo"),
            ("E. Europe Standard Time", "Europe/Chisinau"),
            ("Syria Standard Time", "Asia/Damascus"),
            ("West Bank Standard Time", "Asia/Hebron"),
            ("South Africa Standard Time", "Africa/Johannesburg"),
            ("FLE Standard Time", "Europe/Kiev"),
            ("Israel Standard Time", "Asia/Jerusalem"),
            ("South Sudan Standard Time", "Africa/Juba"),
            ("Kaliningrad Standard Time", "Europe/Kaliningrad"),
            ("Sudan Standard Time", "Africa/Khartoum"),
            ("Libya Standard Time", "Africa/Tripoli"),
            ("Namibia Standard Time", "Africa/Windhoek"),
            ("Arabic Standard Time", "Asia/Baghdad"),
            ("Turkey Standard Time", "Europe/Istanbul"),
            ("Arab Standard Time", "Asia/Riyadh"),
            ("Belarus Standard Time", "Europe/Minsk"),
            ("Russian Standard Time", "Europe/Moscow"),
            ("E. Africa Standard Time", "Africa/Nairobi"),
            ("Iran Standard Time", "Asia/Tehran"),
            ("Arabian Standard Time", "Asia/Dubai"),
            ("Astrakhan Standard Time", "Europe/Astrakhan"),
            ("Azerbaijan Standard Time", "Asia/Baku"),
            ("Russia Time Zone 3", "Europe/Samara"),
            ("Mauritius Standard Time", "Indian/Mauritius"),
            ("Saratov Standard Time", "Europe/Saratov"),
            ("Georgian Standard Time", "Asia/Tbilisi"),
            ("Volgograd Standard Time", "Europe/Volgograd"),
            ("Caucasus Standard Time", "Asia/Yerevan"),
            ("Afghanistan Standard Time", "Asia/Kabul"),
            ("West Asia Standard Time", "Asia/Tashkent"),
            ("Ekaterinburg Standard Time", "Asia/Yekaterinburg"),
            ("Pakistan Standard Time", "Asia/Karachi"),
            ("Qyzylorda Standard Time", "Asia/Qyzylorda"),
            ("India Standard Time", "Asia/Kolkata"),
            ("Sri Lanka Standard Time", "Asia/Colombo"),
            ("Nepal Standard Time", "Asia/Kathmandu"),
            ("Central Asia Standard Time", "Asia/Bishkek"),
            ("Bangladesh Standard Time", "Asia/Dhaka"),
            ("Omsk Standard Time", "Asia/Omsk"),
            ("Myanmar Standard Time", "Asia/Yangon"),
            ("SE Asia Standard Time", "Asia/Bangkok"),
            ("Altai Standard Time", "Asia/Barnaul"),
            ("W. Mongolia Standard Time", "Asia/Hovd"),
            ("North Asia Standard Time", "Asia/Krasnoyarsk"),
            ("N. Central Asia Standard Time", "Asia/Novosibirsk"),
            ("Tomsk Standard Time", "Asia/Tomsk"),
            ("China Standard Time", "Asia/Shanghai"),
            ("North Asia East Standard Time", "Asia/Irkutsk"),
            ("Singapore Standard Time", "Asia/Singapore"),
            ("W. Australia Standard Time", "Australia/Perth"),
            ("Taipei Standard Time", "Asia/Taipei"),
            ("Ulaanbaatar Standard Time", "Asia/Ulaanbaatar"),
            ("Aus Central W. Standard Time", "Australia/Eucla"),
            ("Transbaikal Standard Time", "Asia/Chita"),
            ("Tokyo Standard Time", "Asia/Tokyo"),
            ("North Korea Standard Time", "Asia/Pyongyang"),
            ("Korea Standard Time", "Asia/Seoul"),
            ("Yakutsk Standard Time", "Asia/Yakutsk"),
            ("Cen. Australia Standard Time", "Australia/Adelaide"),
            ("AUS Central Standard Time", "Australia/Darwin"),
            ("E. Australia Standard Time", "Australia/Brisbane"),
            ("AUS Eastern Standard Time", "Australia/Sydney"),
            ("West Pacific Standard Time", "Pacific/Port_Moresby"),
            ("Tasmania Standard Time", "Australia/Hobart"),
            ("Vladivostok Standard Time", "Asia/Vladivostok"),
            ("Lord Howe Standard Time", "Australia/Lord_Howe"),
            ("Bougainville Standard Time", "Pacific/Bougainville"),
            ("Russia Time Zone 10", "Asia/Srednekolymsk"),
            ("Magadan Standard Time", "Asia/Magadan"),
            ("Norfolk Standard Time", "Pacific/Norfolk"),
            ("Sakhalin Standard Time", "Asia/Sakhalin"),
            ("Central Pacific Standard Time", "Pacific/Guadalcanal"),
            ("Russia Time Zone 11", "Asia/Kamchatka"),
            ("New Zealand Standard Time", "Pacific/Auckland"),
            ("UTC+12", "Etc/GMT-12"),
            ("Fiji Standard Time", "Pacific/Fiji"),
            ("Chatham Islands Standard Time", "Pacific/Chatham"),
            ("UTC+13", "Etc/GMT-13"),
            ("Tonga Standard Time", "Pacific/Tongatapu"),
            ("Samoa Standard Time", "Pacific/Apia"),
            ("Line Islands Standard Time", "Pacific/Kiritimati"),
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
