/// A length of time as config.toml and options such as `snooze --by` take it: a whole number and
/// a unit, `s`, `m`, `h`, `d` (24 h) or `w`, without a space: `30m`, `24h`, `2d`, `1w`.
public enum DurationText {
    /// The forms, for messages.
    public static let examples = "30m, 24h, 2d or 1w"

    /// The seconds `text` says, or `nil` when it is not a duration (or more than a million units).
    ///
    /// ```swift
    /// DurationText.seconds("90m")  // 5400
    /// ```
    public static func seconds(_ text: String) -> Int64? {
        let digits = text.prefix { $0.isASCII && $0.isNumber }
        let factors: [Substring: Int64] = ["s": 1, "m": 60, "h": 3600, "d": 86_400, "w": 604_800]
        guard let count = Int64(digits), count <= 1_000_000, let factor = factors[text.dropFirst(digits.count)] else { return nil }
        return count * factor
    }
}
