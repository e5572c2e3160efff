public import Foundation

/// A point on the UTC time line in whole milliseconds since 1970-01-01T00:00:00Z: the one time type
/// of taskwidget. The store keeps instants to the millisecond, the timeline works in whole seconds
/// of the same type, and `Date` appears only where Foundation's calendar needs it.
///
/// In JSON (the export file) an instant is its ISO 8601 text in UTC, with milliseconds when there
/// are any: `"2026-11-23T08:00:00Z"`, `"2026-11-23T08:00:00.250Z"` (see ``InstantFormat``).
///
/// ```swift
/// let due = Instant(secondsSince1970: 1_795_435_200)
/// due.adding(seconds: 900) > due  // true
/// ```
public struct Instant: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    public var millisecondsSince1970: Int64

    public init(millisecondsSince1970: Int64) {
        self.millisecondsSince1970 = millisecondsSince1970
    }

    public init(secondsSince1970: Int64) {
        millisecondsSince1970 = secondsSince1970 * 1000
    }

    /// The millisecond that contains a nanosecond count (a clock's reading), rounded down.
    public init(nanosecondsSince1970: Int64) {
        millisecondsSince1970 = InstantFormat.floorDivision(nanosecondsSince1970, 1_000_000).quotient
    }

    /// `date` rounded to the millisecond.
    public init(_ date: Date) {
        millisecondsSince1970 = Int64((date.timeIntervalSince1970 * 1000).rounded())
    }

    public var date: Date { Date(timeIntervalSince1970: Double(millisecondsSince1970) / 1000) }

    /// The whole seconds since 1970, rounded down (towards the past, also before 1970).
    public var secondsSince1970: Int64 { InstantFormat.floorDivision(millisecondsSince1970, 1000).quotient }

    /// This instant rounded down to a whole second.
    public var flooredToSecond: Instant { Instant(secondsSince1970: secondsSince1970) }

    /// The first whole second at or after this instant.
    public var ceiledToSecond: Instant {
        let floored = flooredToSecond
        return floored == self ? floored : floored.adding(seconds: 1)
    }

    public func adding(seconds: Int64) -> Instant {
        Instant(millisecondsSince1970: millisecondsSince1970 + seconds * 1000)
    }

    /// Whole seconds from `earlier` to this instant (negative when `earlier` is later), rounded down.
    public func seconds(since earlier: Instant) -> Int64 {
        secondsSince1970 - earlier.secondsSince1970
    }

    public static func < (lhs: Instant, rhs: Instant) -> Bool {
        lhs.millisecondsSince1970 < rhs.millisecondsSince1970
    }

    /// ISO 8601 in UTC: `2026-11-23T08:00:00Z`.
    public var description: String { InstantFormat.utc(self) }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let instant = InstantFormat.parse(text) else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "expected an ISO 8601 instant such as 2026-11-23T08:00:00Z")
        }
        self = instant
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(InstantFormat.utc(self))
    }
}
