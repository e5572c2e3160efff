public import Foundation

extension UUID {
    /// The 8-hex-digit prefix printed everywhere an id is shown, e.g. `3f2a9c1b`.
    public var shortID: String {
        String(uuidString.lowercased().prefix(8))
    }
}
