/// The default Mustache template of each status format, compiled in from the `.mustache` files
/// beside this one. A user's own template replaces one of them (see `taskwidget status --help`).
public enum DefaultTemplates {
    /// The template text for a format name (`text`, `json`, `waybar`, `i3bar`, `polybar`, `tmux`).
    public static func text(for format: String) -> String? {
        let bytes: [UInt8]? = switch format {
        case "text": PackageResources.text_mustache
        case "json": PackageResources.json_mustache
        case "waybar": PackageResources.waybar_mustache
        case "i3bar": PackageResources.i3bar_mustache
        case "polybar": PackageResources.polybar_mustache
        case "tmux": PackageResources.tmux_mustache
        default: nil
        }
        return bytes.map { String(decoding: $0, as: UTF8.self) }
    }
}
