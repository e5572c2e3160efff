import Foundation

// The models of this module (tasks, lists, habits, a sync base) write their ids in lower case when
// encoded, as the store keeps them and as `ls`, the timeline and the status formats show them:
// Foundation writes a UUID in upper case, so an id from `ls` was not found in an export by a
// case-sensitive search. Their synthesized `encode(to:)` calls these overloads, which are more
// specific than the generic ones. Decoding reads either case.
extension KeyedEncodingContainer {
    mutating func encode(_ value: UUID, forKey key: Key) throws {
        try encode(value.lowercasedString, forKey: key)
    }

    mutating func encodeIfPresent(_ value: UUID?, forKey key: Key) throws {
        try encodeIfPresent(value?.lowercasedString, forKey: key)
    }
}
