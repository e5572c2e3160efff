extension String {
    /// The text for XML or HTML element content and attribute values: `&`, `<`, `>` and both
    /// quotes as references (`&#39;` rather than `&apos;`, which HTML 4 lacks). Without `quotes`,
    /// only the three that markup gives meaning in content (the freedesktop notification body).
    public func markupEscaped(quotes: Bool = true) -> String {
        var escaped = ""
        escaped.reserveCapacity(utf8.count)
        for character in self {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"" where quotes: escaped += "&quot;"
            case "'" where quotes: escaped += "&#39;"
            default: escaped.append(character)
            }
        }
        return escaped
    }
}
