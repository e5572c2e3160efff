import Foundation
import TaskWidgetCore

extension WidgetTheme {
    /// The colors of this theme. Every text color meets WCAG AA (4.5:1) on ``Palette/background``.
    var palette: Palette {
        switch self {
        case .light:
            Palette(
                background: RGB(0xFFFFFF), primary: RGB(0x1C1C1E), secondary: RGB(0x6C6C70), red: RGB(0xD70015),
                accent: RGB(0x0062CC), done: RGB(0x34C759), ring: RGB(0xD1D1D6), inboxDot: RGB(0x8E8E93))
        case .dark:
            Palette(
                background: RGB(0x1C1C1E), primary: RGB(0xFFFFFF), secondary: RGB(0xAEAEB2), red: RGB(0xFF6961),
                accent: RGB(0x409CFF), done: RGB(0x30D158), ring: RGB(0x48484A), inboxDot: RGB(0x8E8E93))
        case .mono:
            Palette(
                background: RGB(0xFFFFFF), primary: RGB(0x000000), secondary: RGB(0x000000), red: RGB(0x000000),
                accent: RGB(0x000000), done: RGB(0x000000), ring: RGB(0x000000), inboxDot: RGB(0x000000),
                isMonochrome: true)
        }
    }
}

/// A theme's colors. `primary`, `secondary`, `red` and `accent` are text colors.
struct Palette: Sendable {
    var background: RGB
    /// Titles and headline numbers.
    var primary: RGB
    /// Counts, due labels, captions.
    var secondary: RGB
    /// Overdue tasks: their titles, due labels and the overdue count.
    var red: RGB
    /// The header of an all-tasks widget.
    var accent: RGB
    /// The "All done" check and done habits (not text).
    var done: RGB
    /// Rings of habits not done yet (not text).
    var ring: RGB
    /// The dot of an Inbox task, which has no list color (not text).
    var inboxDot: RGB
    /// Black and white only: no antialiasing, no list or habit colors.
    var isMonochrome = false

    /// The colors text is drawn in, by name, for the contrast check.
    var textColors: [(name: String, color: RGB)] {
        [("primary", primary), ("secondary", secondary), ("red", red), ("accent", accent)]
    }
}

/// An sRGB color with 8 bits per channel.
struct RGB: Sendable, Equatable {
    var red: UInt8
    var green: UInt8
    var blue: UInt8

    init(_ hex: UInt32) {
        red = UInt8(hex >> 16 & 0xFF)
        green = UInt8(hex >> 8 & 0xFF)
        blue = UInt8(hex & 0xFF)
    }

    /// A list's or habit's `colorHex` (6 hex digits); `nil` when it is not one.
    init?(hex text: String) {
        guard text.count == 6, let value = UInt32(text, radix: 16) else { return nil }
        self.init(value)
    }

    /// `#RRGGBB`, for Pango markup.
    var markup: String {
        "#" + [red, green, blue].map { ($0 < 16 ? "0" : "") + String($0, radix: 16, uppercase: true) }.joined()
    }

    /// WCAG 2.1 relative luminance.
    var relativeLuminance: Double {
        func linear(_ channel: UInt8) -> Double {
            let value = Double(channel) / 255
            return value <= 0.040_45 ? value / 12.92 : pow((value + 0.055) / 1.055, 2.4)
        }
        return 0.2126 * linear(red) + 0.7152 * linear(green) + 0.0722 * linear(blue)
    }

    /// The WCAG 2.1 contrast ratio of two colors, from 1 to 21.
    func contrastRatio(with other: RGB) -> Double {
        let (lighter, darker) = (max(relativeLuminance, other.relativeLuminance), min(relativeLuminance, other.relativeLuminance))
        return (lighter + 0.05) / (darker + 0.05)
    }
}
