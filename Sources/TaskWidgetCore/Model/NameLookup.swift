/// How lists and habits are found by name: case-insensitively (Unicode-aware, so “Ärger” and
/// “ärger” are one name), ignoring surrounding spaces. The one place for that rule.
public enum NameLookup {
    public static func isSame(_ lhs: String, _ rhs: String) -> Bool {
        lhs.trimmingWhitespace.lowercased() == rhs.trimmingWhitespace.lowercased()
    }

    /// The item called `name`; an unknown name is a ``TaskWidgetError/Code/notFound`` error that
    /// lists the names there are. `kind` is `list` or `habit`, as in `taskwidget list add NAME`.
    public static func find<Item>(_ name: String, in items: [Item], named: (Item) -> String, kind: String) throws -> Item {
        if let item = items.first(where: { isSame(named($0), name) }) { return item }
        let known = items.isEmpty ? "there are no \(kind)s yet" : "the \(kind)s are " + items.map(named).joined(separator: ", ")
        throw TaskWidgetError(
            .notFound, "no \(kind) is named “\(name.sanitizedForMessage)”: \(known) (create one with `taskwidget \(kind) add NAME`)",
            context: "\(kind) not found")
    }
}
