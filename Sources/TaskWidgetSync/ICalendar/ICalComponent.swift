/// A component such as `VCALENDAR`, `VTODO`, `VALARM` or `VTIMEZONE`: a name and its children,
/// properties and sub-components, in the order they were read.
///
/// Keeping one ordered list of children (rather than properties apart from components) is what
/// makes a component that nobody changed come back in the same order, byte for byte, even when a
/// producer writes properties after a sub-component.
///
/// ```swift
/// var todo = ICalComponent("VTODO", properties: [ICalProperty("UID", value: "42")])
/// todo.setProperty(ICalProperty("SUMMARY", text: "Buy milk"))
/// todo.property("summary")?.textValue  // "Buy milk"
/// ```
public struct ICalComponent: Sendable, Equatable {
    /// One child of a component.
    public enum Child: Sendable, Equatable {
        case property(ICalProperty)
        case component(ICalComponent)
    }

    /// The name as written after `BEGIN:`; compare with ``hasName(_:)``.
    public var name: String
    /// Properties and sub-components in their order.
    public var children: [Child]

    /// A component whose properties come first, then its sub-components.
    public init(_ name: String, properties: [ICalProperty] = [], components: [ICalComponent] = []) {
        self.name = name
        self.children = properties.map(Child.property) + components.map(Child.component)
    }

    /// Whether the component is called `name`, ignoring ASCII case.
    public func hasName(_ name: String) -> Bool { asciiCaseInsensitiveEqual(self.name, name) }

    /// The properties, in order.
    public var properties: [ICalProperty] {
        children.compactMap {
            if case .property(let property) = $0 { property } else { nil }
        }
    }

    /// The sub-components, in order.
    public var components: [ICalComponent] {
        children.compactMap {
            if case .component(let component) = $0 { component } else { nil }
        }
    }

    /// The first property called `name` (ignoring case).
    public func property(_ name: String) -> ICalProperty? {
        for case .property(let property) in children where property.hasName(name) { return property }
        return nil
    }

    /// Every property called `name` (ignoring case), in order.
    public func properties(_ name: String) -> [ICalProperty] { properties.filter { $0.hasName(name) } }

    /// Every sub-component called `name` (ignoring case), in order.
    public func components(_ name: String) -> [ICalComponent] { components.filter { $0.hasName(name) } }

    /// Replaces the first property with the same name, in its place, and removes the others of that
    /// name; appends it when there is none. Setting a property equal to the one there changes
    /// nothing (its original bytes are kept).
    public mutating func setProperty(_ property: ICalProperty) {
        var placed = false
        children.removeAll { child in
            guard case .property(let existing) = child, existing.hasName(property.name) else { return false }
            defer { placed = true }
            return placed
        }
        if let index = firstPropertyIndex(property.name) {
            if case .property(let existing) = children[index], existing == property { return }
            children[index] = .property(property)
        } else {
            appendProperty(property)
        }
    }

    /// Changes the first property called `name` in place; returns `false` when there is none.
    @discardableResult
    public mutating func updateProperty(_ name: String, _ change: (inout ICalProperty) -> Void) -> Bool {
        guard let index = firstPropertyIndex(name), case .property(var property) = children[index] else {
            return false
        }
        change(&property)
        children[index] = .property(property)
        return true
    }

    /// Removes every property called `name`; returns whether there was one.
    @discardableResult
    public mutating func removeProperties(_ name: String) -> Bool {
        let count = children.count
        children.removeAll {
            if case .property(let property) = $0 { property.hasName(name) } else { false }
        }
        return children.count != count
    }

    /// Adds a property after the last property (so before sub-components that follow the
    /// properties, where most producers put them).
    public mutating func appendProperty(_ property: ICalProperty) {
        let last = children.lastIndex {
            if case .property = $0 { true } else { false }
        }
        children.insert(.property(property), at: last.map { $0 + 1 } ?? 0)
    }

    /// Adds a sub-component at the end.
    public mutating func appendComponent(_ component: ICalComponent) {
        children.append(.component(component))
    }

    /// Removes the sub-components for which `shouldRemove` is true; returns how many went.
    @discardableResult
    public mutating func removeComponents(where shouldRemove: (ICalComponent) -> Bool) -> Int {
        let count = children.count
        children.removeAll {
            if case .component(let component) = $0 { shouldRemove(component) } else { false }
        }
        return count - children.count
    }

    private func firstPropertyIndex(_ name: String) -> Int? {
        children.firstIndex {
            if case .property(let property) = $0 { property.hasName(name) } else { false }
        }
    }
}
