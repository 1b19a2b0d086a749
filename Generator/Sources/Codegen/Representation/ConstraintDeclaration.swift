/// The spec's constraints on one value (a property, a parameter, a body, or
/// each element of one), as generated code checks them before a request is
/// sent: the fields of the runtime's `ValueConstraints`.
public struct ConstraintDeclaration: Sendable, Hashable {
    /// `minLength`.
    public var minLength: Int?
    /// `maxLength`.
    public var maxLength: Int?
    /// `pattern`, when it compiles as an `NSRegularExpression`.
    public var pattern: PatternDeclaration?
    /// `minimum`.
    public var minimum: Double?
    /// `exclusiveMinimum`.
    public var exclusiveMinimum: Double?
    /// `maximum`.
    public var maximum: Double?
    /// `exclusiveMaximum`.
    public var exclusiveMaximum: Double?
    /// `multipleOf`.
    public var multipleOf: Double?
    /// `minItems`.
    public var minItems: Int?
    /// `maxItems`.
    public var maxItems: Int?
    /// Whether a violation must not show the value (phone numbers, codes,
    /// tokens, passwords, keys).
    public var isSecret: Bool = false

    /// Whether no constraint is set.
    public var isEmpty: Bool {
        minLength == nil && maxLength == nil && pattern == nil && minimum == nil && exclusiveMinimum == nil && maximum == nil
            && exclusiveMaximum == nil && multipleOf == nil && minItems == nil && maxItems == nil
    }
}

/// A `pattern`, compiled once per process in the generated
/// `ValidationPatterns` namespace.
public struct PatternDeclaration: Sendable, Hashable {
    /// The member name in `ValidationPatterns` (`phone`, `phone2`).
    public var name: String
    /// The pattern as the spec writes it.
    public var source: String
}
