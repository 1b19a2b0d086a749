import Foundation

/// A value that the spec allows to be `null`, so that "absent" and "null"
/// differ. Properties use `Nullable<T>?`:
///
/// - `nil`: absent (not sent; in a PATCH, "leave unchanged"),
/// - `.null`: an explicit JSON `null` (in a PATCH, "clear it"),
/// - `.value(x)`: the value.
///
/// Decoding tells absent from `null` through the `KeyedDecodingContainer`
/// overload below, which `Codable` conformances pick up.
public enum Nullable<Wrapped> {
    /// An explicit JSON `null`.
    case null
    /// A value.
    case value(Wrapped)

    /// The value, or nil for `.null`.
    public var value: Wrapped? {
        if case .value(let wrapped) = self { return wrapped }
        return nil
    }
}

extension Nullable: Sendable where Wrapped: Sendable {}
extension Nullable: Equatable where Wrapped: Equatable {}
extension Nullable: Hashable where Wrapped: Hashable {}

extension Nullable: Decodable where Wrapped: Decodable {
    /// Decodes `null` or a value.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        self = container.decodeNil() ? .null : .value(try container.decode(Wrapped.self))
    }
}

extension Nullable: Encodable where Wrapped: Encodable {
    /// Encodes `null` or the value.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .value(let wrapped): try container.encode(wrapped)
        }
    }
}

extension KeyedDecodingContainer {
    /// Absent key -> nil; `null` -> `.null`; otherwise the value. (The
    /// standard `decodeIfPresent` would turn `null` into nil.)
    public func decodeIfPresent<Wrapped: Decodable>(_ type: Nullable<Wrapped>.Type, forKey key: Key) throws -> Nullable<Wrapped>? {
        guard contains(key) else { return nil }
        if try decodeNil(forKey: key) { return .null }
        return .value(try decode(Wrapped.self, forKey: key))
    }
}

extension KeyedEncodingContainer {
    /// nil -> nothing written; `.null` -> `null`; otherwise the value.
    public mutating func encodeIfPresent<Wrapped: Encodable>(_ value: Nullable<Wrapped>?, forKey key: Key) throws {
        switch value {
        case nil: return
        case .null?: try encodeNil(forKey: key)
        case .value(let wrapped)?: try encode(wrapped, forKey: key)
        }
    }
}
