import Foundation

// UUIDs go on the wire in lower case, as RFC 9562 asks and as
// `IdempotencyKeyMiddleware` writes its keys; Foundation's `Codable`
// conformance writes upper case. Generated models pick these overloads up
// (as they pick up `Nullable`'s), and parameters go through
// `JSONValue(encoding:)`, which lowers UUIDs too. Decoding accepts either case.

extension KeyedEncodingContainer {
    /// Writes a UUID in lower case.
    public mutating func encode(_ value: UUID, forKey key: Key) throws {
        try encode(value.uuidString.lowercased(), forKey: key)
    }

    /// Writes a UUID in lower case; nil writes nothing.
    public mutating func encodeIfPresent(_ value: UUID?, forKey key: Key) throws {
        guard let value else { return }
        try encode(value, forKey: key)
    }

    /// Writes UUIDs in lower case.
    public mutating func encode(_ value: [UUID], forKey key: Key) throws {
        try encode(value.map { $0.uuidString.lowercased() }, forKey: key)
    }

    /// Writes UUIDs in lower case; nil writes nothing.
    public mutating func encodeIfPresent(_ value: [UUID]?, forKey key: Key) throws {
        guard let value else { return }
        try encode(value, forKey: key)
    }
}
