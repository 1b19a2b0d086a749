/// An enum of a spec that tolerates values it does not know.
///
/// Servers add enum values; a shipped app must not fail to decode a whole
/// response because of one. Generated enums conform with a case per known
/// value plus `unknown(RawValue)`, which keeps the value so that it encodes
/// back unchanged:
///
/// ```swift
/// public enum ErrorCode: OpenEnum {
///     case invalidRequest, rateLimited
///     case unknown(String)
///     public init(rawValue: String) { ... }  // "RATE_LIMITED" -> .rateLimited, else .unknown
///     public var rawValue: String { ... }
/// }
/// ```
///
/// A request may only send a value the spec lists: ``knownRawValues`` holds
/// them, and validation (``Validatable``) refuses `unknown(...)` with a value
/// outside them before the request goes out.
public protocol OpenEnum: RawRepresentable, Codable, Hashable, Sendable, Validatable
where RawValue: Codable & Hashable & Sendable {
    /// Maps every raw value: known ones to their case, others to `unknown`.
    init(rawValue: RawValue)
    /// The values the spec lists, in its order (empty: any value is allowed).
    static var knownRawValues: [RawValue] { get }
}

extension OpenEnum {
    /// No list: any value is allowed.
    public static var knownRawValues: [RawValue] { [] }

    /// Decodes the raw value; an unknown value becomes the `unknown` case.
    public init(from decoder: any Decoder) throws {
        self.init(rawValue: try RawValue(from: decoder))
    }

    /// Encodes the raw value (an unknown one as it was received).
    public func encode(to encoder: any Encoder) throws {
        try rawValue.encode(to: encoder)
    }
}
