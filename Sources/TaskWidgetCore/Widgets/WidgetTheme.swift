/// The looks of a PNG widget (SPEC §7).
public enum WidgetTheme: String, CaseIterable, Sendable, Codable {
    /// Dark text on a white card.
    case light
    /// Light text on a near-black card.
    case dark
    /// Pure black on white, text without antialiasing: for 1-bit e-ink panels.
    case mono
}
