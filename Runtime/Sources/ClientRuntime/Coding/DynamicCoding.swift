/// A coding key made from any string: the one key type of every generated
/// model's coding (`container.decode(Date.self, forKey: "created_at")`),
/// and of keys a type does not declare.
public struct DynamicCodingKey: CodingKey, Hashable, Sendable, ExpressibleByStringLiteral {
    /// The key.
    public var stringValue: String
    /// Array keys are not used.
    public var intValue: Int? { nil }

    /// A key for `stringValue`.
    public init(_ stringValue: String) { self.stringValue = stringValue }
    /// A key for `stringValue`.
    public init?(stringValue: String) { self.stringValue = stringValue }
    /// Integer keys are not supported.
    public init?(intValue: Int) { nil }
    /// A key written as a literal: `"created_at"`.
    public init(stringLiteral value: String) { self.stringValue = value }
}

extension Decoder {
    /// The string value of a `oneOf`'s discriminator property.
    public func discriminatorValue(_ property: String) throws -> String {
        let container = try self.container(keyedBy: DynamicCodingKey.self)
        return try container.decode(String.self, forKey: DynamicCodingKey(property))
    }

    /// The string value of a `oneOf`'s discriminator property, nil when the
    /// object has none or it is null (a union with OpenAPI 3.2's
    /// `defaultMapping` decodes such a value as its default member).
    public func discriminatorValueIfPresent(_ property: String) throws -> String? {
        let container = try self.container(keyedBy: DynamicCodingKey.self)
        return try container.decodeIfPresent(String.self, forKey: DynamicCodingKey(property))
    }

    /// The object's members other than `knownKeys`, decoded as `Value`
    /// (`additionalProperties`).
    public func decodeAdditionalProperties<Value: Decodable>(_ type: Value.Type = Value.self, knownKeys: Set<String>) throws -> [String: Value] {
        let container = try self.container(keyedBy: DynamicCodingKey.self)
        var result: [String: Value] = [:]
        for key in container.allKeys where !knownKeys.contains(key.stringValue) {
            result[key.stringValue] = try container.decode(Value.self, forKey: key)
        }
        return result
    }

    /// Decodes a `oneOf` member through a single-value container, so the
    /// decoder's date rules apply to members such as `Date`.
    public func decodeMember<Value: Decodable>(_ type: Value.Type) throws -> Value {
        try singleValueContainer().decode(Value.self)
    }
}

extension Encoder {
    /// Writes extra members next to the declared ones.
    public func encodeAdditionalProperties<Value: Encodable>(_ properties: [String: Value]) throws {
        var container = self.container(keyedBy: DynamicCodingKey.self)
        for (key, value) in properties.sorted(by: { $0.key < $1.key }) {
            try container.encode(value, forKey: DynamicCodingKey(key))
        }
    }

    /// Encodes a `oneOf` member as the whole value.
    public func encodeMember<Value: Encodable>(_ value: Value) throws {
        var container = singleValueContainer()
        try container.encode(value)
    }
}

/// No `oneOf` member matched the value.
public struct NoMatchingMemberError: Error, Sendable, CustomStringConvertible {
    /// The union type.
    public let typeName: String
    /// The member types tried.
    public let members: [String]

    /// Creates the error.
    public init(typeName: String, members: [String]) {
        self.typeName = typeName
        self.members = members
    }

    /// `the value matches none of Cat, Dog (Pet)`.
    public var description: String { "the value matches none of \(members.joined(separator: ", ")) (\(typeName))" }
}
