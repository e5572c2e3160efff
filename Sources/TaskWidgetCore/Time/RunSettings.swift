public import Foundation

/// The clock and time zone of one run, resolved once at the command's edge and passed down.
public enum RunSettings {
    /// `--tz ZONE`, else `TZ`, else the system zone. An unknown zone is an error, never UTC.
    public static func timeZone(argument: String?, environment: [String: String], system: TimeZone) throws -> TimeZone {
        if let argument {
            // `UTC+3` is three hours ahead to Foundation and ISO 8601, and behind to POSIX (and to
            // `TZ` here): refused rather than read one way.
            if let offset = posixFixedOffset(argument), offset.secondsFromGMT() != 0 {
                let ahead = -offset.secondsFromGMT()  // as ISO 8601 reads the sign
                let hours = abs(ahead) / 3600
                let etc = ahead % 3600 == 0 ? ", or Etc/GMT\(ahead > 0 ? "-" : "+")\(hours) for \(counted(hours, "hour")) \(ahead > 0 ? "ahead of" : "behind") UTC" : ""
                throw TaskWidgetError(
                    .invalidInput,
                    "--tz \(argument.sanitizedForMessage) reads two ways (TZ counts its offset west of UTC): use a zone name like Europe/Moscow\(etc)")
            }
            guard let zone = zone(named: argument) else {
                throw TaskWidgetError(
                    .invalidInput,
                    "unknown time zone “\(argument.sanitizedForMessage)” in --tz: \(zoneNamed(near: argument).map { "did you mean “\($0)”?" } ?? "use a name like Europe/Berlin or UTC")")
            }
            return zone
        }
        if var name = environment["TZ"], !name.isEmpty {
            if name.hasPrefix(":") { name.removeFirst() }
            // A path to a zone file (`:/etc/localtime`, `/usr/share/zoneinfo/Europe/Berlin`): its
            // name is what follows `zoneinfo/` once links are resolved; the system's own file is
            // the system zone. Any other file is refused: Foundation reads zones by name only, and
            // a guess would put due dates at the wrong hours.
            if name.hasPrefix("/") {
                let resolved = URL(fileURLWithPath: name).resolvingSymlinksInPath().path
                if let range = resolved.range(of: "zoneinfo/") {
                    name = String(resolved[range.upperBound...])
                } else if resolved == URL(fileURLWithPath: "/etc/localtime").resolvingSymlinksInPath().path {
                    return system
                } else {
                    let problem = FileManager.default.fileExists(atPath: resolved) ? "is no zone of /usr/share/zoneinfo" : "does not exist"
                    throw TaskWidgetError(
                        .invalidInput,
                        "TZ names the file \(name.removingControlCharacters), which \(problem): set TZ to a zone name like Europe/Berlin, or pass --tz")
                }
            }
            guard let zone = posixFixedOffset(name) ?? zone(named: name) else {
                throw TaskWidgetError(
                    .invalidInput,
                    "unknown time zone “\(name.sanitizedForMessage)” in TZ: set TZ to \(zoneNamed(near: name) ?? "a name like Europe/Berlin"), or pass --tz")
            }
            return zone
        }
        return system
    }

    /// The zone of tzdata's `name`. Foundation calls `UTC` "GMT", which the timeline then
    /// showed for `--tz UTC`: it is tzdata's `Etc/UTC` instead, the name the system's UTC has.
    private static func zone(named name: String) -> TimeZone? {
        TimeZone(identifier: name == "UTC" ? "Etc/UTC" : name)
    }

    /// The name of the zone that `name` spells in another case (`europe/berlin`, `utc`), for an error.
    private static func zoneNamed(near name: String) -> String? {
        let lowercased = name.lowercased()
        let (current, former) = tzdataNames()
        let zones = ["UTC"] + current + former + TimeZone.knownTimeZoneIdentifiers
        // Or a typo, an accent (tzdata's names have none: `Europe/Zürich`, helper-169) or a space;
        // a zone's current name first (`Asia/Kolkatta` was “Asia/Calcutta”, helper-174).
        let typed = name.replacingOccurrences(of: " ", with: "_")
        return zones.first { $0.lowercased() == lowercased }
            ?? NameLookup.closest(to: typed, among: ["UTC"] + current) ?? NameLookup.closest(to: typed, among: zones)
    }

    /// The zones of the system's tz database (`tzdata.zi`), by their current names, and the
    /// former names and aliases it links to them (`Asia/Calcutta`, `US/Pacific`); none without it.
    private static func tzdataNames() -> (current: [String], former: [String]) {
        guard let text = try? String(contentsOfFile: "/usr/share/zoneinfo/tzdata.zi", encoding: .utf8) else { return ([], []) }
        var (current, former): ([String], [String]) = ([], [])
        for line in text.split(separator: "\n") where line.hasPrefix("Z ") || line.hasPrefix("L ") {
            let fields = line.split(separator: " ")
            if line.hasPrefix("Z "), fields.count > 1 { current.append(String(fields[1])) }
            if line.hasPrefix("L "), fields.count > 2 { former.append(String(fields[2])) }
        }
        return (current, former)
    }

    /// The zone of a POSIX `TZ` value with a fixed offset and no daylight saving time: `UTC+3`,
    /// `JST-9`, `<+0530>-5:30`. POSIX counts the offset west of Greenwich, so `UTC+3` is three hours
    /// behind UTC, as `date` shows it, where Foundation would read the name `UTC+3` as three hours
    /// ahead. A whole number of hours is its IANA zone, `Etc/GMT+3` (tzdata's names count west
    /// too), so that the timeline names a zone other programs read; another offset has no name.
    /// `nil` for anything else (zone names, rules with daylight saving time).
    static func posixFixedOffset(_ value: String) -> TimeZone? {
        var rest = Substring(value)
        if rest.first == "<" {
            guard let end = rest.firstIndex(of: ">"), rest.distance(from: rest.startIndex, to: end) > 3 else { return nil }
            rest = rest[rest.index(after: end)...]
        } else {
            let name = rest.prefix { $0.isASCII && $0.isLetter }
            guard name.count >= 3 else { return nil }
            rest = rest.dropFirst(name.count)
        }
        var west = true
        if let sign = rest.first, sign == "+" || sign == "-" {
            west = sign == "+"
            rest = rest.dropFirst()
        }
        let fields = rest.split(separator: ":", omittingEmptySubsequences: false)
        guard (1...3).contains(fields.count),
            fields.allSatisfy({ (1...2).contains($0.count) && $0.allSatisfy { $0.isASCII && $0.isNumber } })
        else { return nil }
        let numbers = fields.compactMap { Int($0) }
        let seconds = numbers[0] * 3600 + (numbers.count > 1 ? numbers[1] * 60 : 0) + (numbers.count > 2 ? numbers[2] : 0)
        guard numbers[0] <= 24, numbers.dropFirst().allSatisfy({ $0 < 60 }) else { return nil }
        let hours = seconds / 3600
        if seconds % 3600 == 0, hours <= (west ? 12 : 14), let zone = TimeZone(identifier: hours == 0 ? "Etc/UTC" : "Etc/GMT\(west ? "+" : "-")\(hours)") {
            return zone
        }
        return TimeZone(secondsFromGMT: west ? -seconds : seconds)
    }

    /// `--now ISO8601`, else the clock, to the millisecond the store keeps. A `--now` whose
    /// timeline (the 24 hours after it, and the day after those) would reach the year 10000 in
    /// `calendar`'s zone, where no date is written, is refused: the timeline ended in dates of that
    /// year.
    public static func now(argument: String?, calendar: LocalCalendar, clock: Date) throws -> Instant {
        guard let argument else { return Instant(clock) }
        let now = try WhenParser.parseInstant(argument, calendar: calendar)
        guard calendar.localDay(containing: now) <= latestDay else {
            throw TaskWidgetError(
                .invalidInput, "--now must be before 9999-12-30, so that its timeline ends in the year 9999: give an earlier instant")
        }
        return now
    }

    /// The last day a `--now` may fall on.
    private static let latestDay = LocalDay("9999-12-29")!
}
