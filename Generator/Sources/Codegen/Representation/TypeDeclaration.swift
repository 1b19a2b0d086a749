/// A Swift type the generator declares for a schema: what passes from
/// translation to rendering.
public struct TypeDeclaration: Sendable, Hashable {
    /// The kinds of declaration.
    public enum Kind: Sendable, Hashable {
        /// A `struct` (or, for recursive types, a `final class`) of properties.
        case structure(StructureShape)
        /// An enum of string or integer values that keeps unknown values.
        case openEnum(OpenEnumShape)
        /// An enum with a case per `oneOf`/`anyOf` member.
        case union(UnionShape)
        /// `typealias Name = Type`.
        case alias(SwiftType)
    }

    /// The simple name (`BrandingRecord`, `Status`).
    public var name: String
    /// The doc comment, from `title`/`description`.
    public var documentation: String?
    /// Whether the schema is `deprecated`.
    public var isDeprecated: Bool
    /// What is declared.
    public var kind: Kind
    /// Types declared inside this one (inline schemas of its properties).
    public var nested: [TypeDeclaration] = []
    /// Whether the type checks constraints of the spec on its values
    /// (`Validatable`): a structure or union that holds a constrained value
    /// or an enum, directly or through other types.
    public var isValidatable: Bool = false
}

/// A struct's stored properties and coding.
public struct StructureShape: Sendable, Hashable {
    /// The properties, in document order.
    public var properties: [PropertyDeclaration]
    /// The value type of extra properties kept in `additionalProperties`, if any.
    public var additionalProperties: SwiftType?
    /// Whether the type takes part in a reference cycle and is declared as a
    /// `final class` (a struct cannot contain itself).
    public var isRecursive: Bool
    /// Whether a request can carry the type (a request body or parameter
    /// reaches it). Only then does a required nullable property need to be
    /// sent as `null`: a type only responses carry encodes (for an app's own
    /// storage) with nil left out, which it decodes back the same.
    public var isInRequests: Bool = true
    /// Whether a response can carry the type (a response body reaches it):
    /// then its assumed properties decode leniently.
    public var isInResponses: Bool = true

    /// Whether its properties are `var`: a request can carry the type, so
    /// callers build and change it. Types only responses carry are immutable
    /// snapshots (`let`), which also halves their compiled code, and so are
    /// recursive ones (shared class instances).
    public var isMutable: Bool { isInRequests && !isRecursive }

    /// Whether the synthesized `Codable` conformance is not enough.
    public var needsCustomCoding: Bool {
        isRecursive || additionalProperties != nil || properties.contains { $0.defaultValue != nil || $0.decodesLeniently } || needsCustomEncoding
    }

    /// Whether the synthesized `encode(to:)` would get something wrong: extra
    /// members, or a required nullable property that a request must send as
    /// `null` (synthesized code leaves nil out).
    public var needsCustomEncoding: Bool {
        isRecursive || additionalProperties != nil || (isInRequests && properties.contains { $0.isRequired && $0.type.isOptional && !$0.decodesLeniently })
    }
}

/// One stored property.
public struct PropertyDeclaration: Sendable, Hashable {
    /// The Swift name (`logoURL`).
    public var name: String
    /// The JSON name (`logo_url`).
    public var wireName: String
    /// The type as declared (`String?`, `Nullable<String>?`, `[Pet]`).
    public var type: SwiftType
    /// The doc comment.
    public var documentation: String?
    /// Whether the schema is `deprecated`.
    public var isDeprecated: Bool
    /// The schema `default` as a Swift expression, applied when the field is absent.
    public var defaultValue: String?
    /// Whether the schema lists the property in `required` (a required
    /// nullable property is `T?` and encodes nil as `null`).
    public var isRequired: Bool
    /// The constraints on the value (string, number, or array count).
    public var constraints: ConstraintDeclaration?
    /// The constraints on each element of the array or map.
    public var elementConstraints: ConstraintDeclaration?
    /// A default for the initialiser's argument only (decoding still
    /// requires the field): the discriminator value of a union member, so
    /// that callers do not restate what the case already says.
    public var initializerDefault: String?
    /// Whether the spec marks the property a guess (`x-assumed`, on it or
    /// its object): its constraints are not checked.
    public var isAssumed: Bool = false
    /// Whether it decodes leniently: an assumed property of a type a
    /// response carries, optional, `nil` when absent, `null` or of another
    /// type (reported once through `AssumedFields`).
    public var decodesLeniently: Bool = false

    /// The stored property's name: a deprecated property is stored as
    /// `_name` behind a deprecated accessor, so the type's own code (coding,
    /// validation) does not warn.
    public var storageName: String { isDeprecated ? "_" + SwiftName.unescaped(name) : name }
}

/// An enum of known values plus `unknown(...)`.
public struct OpenEnumShape: Sendable, Hashable {
    /// `String` or `Int`.
    public var rawType: String
    /// Case name -> raw value literal (`"RATE_LIMITED"`, `2`), in document order.
    public var cases: [(name: String, literal: String)]

    /// Compares cases.
    public static func == (lhs: OpenEnumShape, rhs: OpenEnumShape) -> Bool {
        lhs.rawType == rhs.rawType && lhs.cases.map(\.name) == rhs.cases.map(\.name) && lhs.cases.map(\.literal) == rhs.cases.map(\.literal)
    }

    /// Hashes cases.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(rawType)
        for item in cases {
            hasher.combine(item.name)
            hasher.combine(item.literal)
        }
    }
}

/// A `oneOf`/`anyOf` as an enum.
public struct UnionShape: Sendable, Hashable {
    /// One member.
    public struct Member: Sendable, Hashable {
        /// The case name.
        public var name: String
        /// Its payload type.
        public var type: SwiftType
        /// The discriminator values that select it.
        public var discriminatorValues: [String]
        /// The constraints on a string, number or array member.
        public var constraints: ConstraintDeclaration?
        /// The constraints on each element of an array member.
        public var elementConstraints: ConstraintDeclaration?
        /// The wire names of its properties, when it is an object that takes
        /// no others (``UnionKeysAnalysis``): how a value without a
        /// discriminator is matched to the member that declares the most of it.
        package var objectKeys: [String]?
    }

    /// The members, tried in order when there is no discriminator.
    public var members: [Member]
    /// The discriminator property's wire name.
    public var discriminator: String?
    /// The case a value whose discriminator is absent or mapped to no member
    /// decodes as (OpenAPI 3.2's `defaultMapping`); nil: such a value is
    /// kept as `undocumented`.
    public var defaultMember: String?
    /// Whether the enum has the `undocumented` case: a discriminated union
    /// without a default member.
    public var keepsUndocumented: Bool { discriminator != nil && defaultMember == nil }
    /// Whether the enum takes part in a reference cycle and is declared
    /// `indirect` (its payloads boxed); other unions store them inline.
    public var isIndirect: Bool = false
}
