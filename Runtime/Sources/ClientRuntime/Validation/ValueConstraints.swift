/// The constraints a spec puts on one value: what generated code checks
/// before a request is sent (and, when asked, after a response is decoded).
///
/// Every field mirrors the JSON Schema keyword of the same name; nil means
/// the spec does not set it. Bounds are compared as `Double`, exact for
/// integers up to 2^53.
public struct ValueConstraints: Sendable {
    /// `minLength`, in Unicode code points.
    public var minLength: Int?
    /// `maxLength`, in Unicode code points.
    public var maxLength: Int?
    /// `pattern`.
    public var pattern: ValidationPattern?
    /// `minimum` (inclusive).
    public var minimum: Double?
    /// `exclusiveMinimum`.
    public var exclusiveMinimum: Double?
    /// `maximum` (inclusive).
    public var maximum: Double?
    /// `exclusiveMaximum`.
    public var exclusiveMaximum: Double?
    /// `multipleOf`.
    public var multipleOf: Double?
    /// `minItems`.
    public var minItems: Int?
    /// `maxItems`.
    public var maxItems: Int?
    /// Whether the value is a secret or personal (a phone number, a code, a
    /// token, a password, a key): a violation then never shows the value.
    public var isSecret: Bool

    /// Creates constraints; leave out what the spec does not set.
    public init(
        minLength: Int? = nil, maxLength: Int? = nil, pattern: ValidationPattern? = nil,
        minimum: Double? = nil, exclusiveMinimum: Double? = nil, maximum: Double? = nil, exclusiveMaximum: Double? = nil,
        multipleOf: Double? = nil, minItems: Int? = nil, maxItems: Int? = nil, isSecret: Bool = false
    ) {
        self.minLength = minLength
        self.maxLength = maxLength
        self.pattern = pattern
        self.minimum = minimum
        self.exclusiveMinimum = exclusiveMinimum
        self.maximum = maximum
        self.exclusiveMaximum = exclusiveMaximum
        self.multipleOf = multipleOf
        self.minItems = minItems
        self.maxItems = maxItems
        self.isSecret = isSecret
    }

    /// The first numeric rule `number` breaks.
    func brokenNumericRule(_ number: Double) -> ConstraintViolation.Rule? {
        if let minimum, number < minimum { return .minimum(minimum) }
        if let exclusiveMinimum, number <= exclusiveMinimum { return .exclusiveMinimum(exclusiveMinimum) }
        if let maximum, number > maximum { return .maximum(maximum) }
        if let exclusiveMaximum, number >= exclusiveMaximum { return .exclusiveMaximum(exclusiveMaximum) }
        if let multipleOf, multipleOf > 0 {
            let quotient = number / multipleOf
            // Decimal fractions are inexact in binary: 0.3 / 0.1 is 2.9999999999999996.
            if abs(quotient - quotient.rounded()) > 1e-9 * max(1, abs(quotient)) { return .multipleOf(multipleOf) }
        }
        return nil
    }
}
