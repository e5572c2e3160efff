import Synchronization

/// Whether this process saved a change the user asked for: to the store, config.toml's accounts,
/// the devices file or a token file. A command whose confirmation then cannot be written says
/// that its change was made all the same.
public enum SavedChanges {
    /// Whether a change was saved.
    public static var wereMade: Bool { made.load(ordering: .relaxed) }

    /// Notes that a change was saved.
    public static func note() {
        made.store(true, ordering: .relaxed)
    }

    private static let made = Atomic(false)
}
