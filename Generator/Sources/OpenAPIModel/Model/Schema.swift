/// A JSON Schema primitive type name.
public enum JSONType: String, Sendable, Hashable, CaseIterable {
    /// `string`.
    case string
    /// `number`.
    case number
    /// `integer`.
    case integer
    /// `boolean`.
    case boolean
    /// `array`.
    case array
    /// `object`.
    case object
    /// `null` (OpenAPI 3.1, or 3.0's `nullable: true`).
    case null
}

/// A Schema Object: a JSON Schema (draft 4 subset in OpenAPI 3.0, 2020-12 in
/// 3.1) normalised to one shape.
///
/// Normalisation: 3.0's `nullable: true` adds `.null` to ``types``; 3.0's
/// boolean `exclusiveMinimum` becomes the numeric ``exclusiveMinimum``; 3.1's
/// boolean schemas `true`/`false` set ``alwaysValid``; a 3.1 `$ref` with
/// sibling keywords becomes an `allOf` of the reference and the siblings.
public struct Schema: Sendable {
    /// `true` for the schema `true` (anything valid), `false` for the schema
    /// `false` (nothing valid, as in `items: false`), `nil` for an object schema.
    public var alwaysValid: Bool?
    /// The allowed types; empty means any. Includes `.null` for nullable schemas.
    public var types: [JSONType] = []
    /// `format` (`date-time`, `uuid`, `int64`, `binary`, ...).
    public var format: String?
    /// `title`.
    public var title: String?
    /// `description`.
    public var description: String?
    /// `default`.
    public var defaultValue: JSONValue?
    /// `const`.
    public var constValue: JSONValue?
    /// `enum`.
    public var enumValues: [JSONValue]?
    /// `example` (3.0) and `examples` (3.1), in that order.
    public var examples: [JSONValue] = []

    /// `properties`, in document order.
    public var properties = OrderedMap<RefOr<Schema>>()
    /// `required` property names.
    public var required: [String] = []
    /// `additionalProperties`.
    public var additionalProperties: AdditionalProperties?
    /// `patternProperties`.
    public var patternProperties = OrderedMap<RefOr<Schema>>()
    /// `minProperties`.
    public var minProperties: Int?
    /// `maxProperties`.
    public var maxProperties: Int?

    /// `items` (`false` is a schema with ``alwaysValid`` `false`).
    public var items: RefOr<Schema>?
    /// `prefixItems` (3.1 tuples).
    public var prefixItems: [RefOr<Schema>] = []
    /// `minItems`.
    public var minItems: Int?
    /// `maxItems`.
    public var maxItems: Int?
    /// `uniqueItems`.
    public var uniqueItems: Bool = false

    /// `allOf`.
    public var allOf: [RefOr<Schema>] = []
    /// `oneOf`.
    public var oneOf: [RefOr<Schema>] = []
    /// `anyOf`.
    public var anyOf: [RefOr<Schema>] = []
    /// `not`.
    public var not: RefOr<Schema>?
    /// `discriminator`.
    public var discriminator: Discriminator?

    /// `minimum` (inclusive).
    public var minimum: Double?
    /// `maximum` (inclusive).
    public var maximum: Double?
    /// The exclusive lower bound (3.1 number, or 3.0 `minimum` with `exclusiveMinimum: true`).
    public var exclusiveMinimum: Double?
    /// The exclusive upper bound.
    public var exclusiveMaximum: Double?
    /// `multipleOf`.
    public var multipleOf: Double?
    /// `minLength`.
    public var minLength: Int?
    /// `maxLength`.
    public var maxLength: Int?
    /// `pattern` (ECMA 262 regular expression).
    public var pattern: String?
    /// `contentEncoding` (3.1; `base64` replaces 3.0's `format: byte`).
    public var contentEncoding: String?
    /// `contentMediaType` (3.1; replaces 3.0's `format: binary`).
    public var contentMediaType: String?
    /// `contentSchema` (3.1): the schema of the value a string holds once
    /// decoded as its `contentMediaType` (a server-sent event's `data`).
    public var contentSchema: RefOr<Schema>?

    /// `readOnly`: sent by the server only.
    public var readOnly: Bool = false
    /// `writeOnly`: sent by the client only.
    public var writeOnly: Bool = false
    /// `deprecated`.
    public var deprecated: Bool = false
    /// `externalDocs`.
    public var externalDocs: ExternalDocumentation?
    /// `$defs` (3.1), so that references into them resolve.
    public var definitions = OrderedMap<RefOr<Schema>>()
    /// JSON Schema keywords the model does not interpret (`if`, `contains`, `$id`, ...), kept verbatim.
    public var otherKeywords = OrderedMap<JSONValue>()
    /// `x-` extensions.
    public var extensions = OrderedMap<JSONValue>()
    /// Where it is written.
    public var location: SourceLocation

    /// Creates an empty schema (anything valid) at a location.
    public init(location: SourceLocation) {
        self.location = location
    }

    /// Whether `null` is an allowed value.
    public var isNullable: Bool { types.contains(.null) }

    /// The one non-null type, when exactly one is declared.
    public var singleType: JSONType? {
        let nonNull = types.filter { $0 != .null }
        return nonNull.count == 1 ? nonNull[0] : nil
    }
}

/// `additionalProperties`: a boolean or a schema for the extra values.
public enum AdditionalProperties: Sendable {
    /// `true` (any extra property) or `false` (none).
    case allowed(Bool)
    /// Extra properties must match this schema.
    case schema(RefOr<Schema>)
}

/// A `discriminator`: which property selects the `oneOf`/`anyOf` member.
public struct Discriminator: Sendable {
    /// `defaultMapping` (3.2): the schema of a value whose property names
    /// no mapping (or is absent).
    public var defaultMapping: Reference?
    /// The property whose value names the member.
    public var propertyName: String = ""
    /// Property value -> the member's reference (a `$ref` or a schema name),
    /// resolved where possible.
    public var mapping = OrderedMap<Reference>()
    /// Where it is written.
    public var location: SourceLocation
}
