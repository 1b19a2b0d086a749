/// Chooses the member of a `oneOf` or `anyOf` without a discriminator that a
/// decoded value matches best, rather than the first one that decodes.
///
/// Members whose properties are all optional decode from almost any object,
/// so the first such member used to win and drop what it does not declare:
/// GitHub's environment protection rules lost their `reviewers`, and a
/// project card `{content_id, content_type}` read as an empty note. Each
/// member that decodes is scored:
///
/// 1. whether it meets the spec's constraints (an `enum` that only one
///    member allows decides between members of the same shape);
/// 2. how many of the object's members it declares (for objects; a member
///    that keeps any property, through `additionalProperties`, declares all).
///
/// The highest score wins, the earlier member on a tie. A member that meets
/// its constraints and declares every member of the object ends the search:
/// in the common case the first member decides, at the cost it always had.
public struct UnionMatch<Union> {
    private let decoder: any Decoder
    /// The object's member names; nil when the value is not an object.
    private let objectKeys: Set<String>?
    private var best: (value: Union, isValid: Bool, declared: Int)?
    private var isDecided = false

    /// Starts matching the value `decoder` holds.
    public init(_ decoder: any Decoder) {
        self.decoder = decoder
        self.objectKeys = (try? decoder.container(keyedBy: DynamicCodingKey.self)).map { Set($0.allKeys.map(\.stringValue)) }
    }

    /// Tries one member: `keys` are the wire names of its properties, nil
    /// when it takes any member (a map, JSON, a type with
    /// `additionalProperties`) or is not an object.
    public mutating func consider(keys: Set<String>?, _ decode: (any Decoder) throws -> Union) {
        guard !isDecided, let value = try? decode(decoder) else { return }
        let isValid = Self.meetsConstraints(value)
        let declared = objectKeys.map { present in keys.map { present.intersection($0).count } ?? present.count } ?? 0
        if let best, (best.isValid ? 1 : 0, best.declared) >= (isValid ? 1 : 0, declared) { return }
        best = (value, isValid, declared)
        isDecided = isValid && declared == (objectKeys?.count ?? 0)
    }

    /// The best member, or `DecodingError.dataCorrupted` naming the members
    /// tried when none decoded.
    public func chosen(typeName: String, members: [String]) throws -> Union {
        if let best { return best.value }
        throw DecodingError.dataCorrupted(DecodingError.Context(
            codingPath: decoder.codingPath, debugDescription: NoMatchingMemberError(typeName: typeName, members: members).description))
    }

    private static func meetsConstraints(_ value: Union) -> Bool {
        guard let validatable = value as? any Validatable else { return true }
        return (try? ConstraintValidator.validate(validatable, operationID: "", root: nil)) != nil
    }
}
