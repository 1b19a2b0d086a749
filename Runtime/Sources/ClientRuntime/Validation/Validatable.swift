/// A generated type that checks the spec's constraints on its own values:
/// structures check their properties, unions the member they hold, and
/// enums that their value is one the spec lists.
///
/// Generated clients call it before a request is sent; apps can call it on
/// a value they build (``ConstraintValidator/validate(_:operationID:root:isInResponse:)``).
public protocol Validatable {
    /// Throws ``ConstraintViolation`` for the first constraint a value breaks.
    func validate(_ validator: inout ConstraintValidator) throws
}

extension Optional: Validatable where Wrapped: Validatable {
    /// An absent value is valid; a present one is checked.
    public func validate(_ validator: inout ConstraintValidator) throws {
        try self?.validate(&validator)
    }
}

extension Nullable: Validatable where Wrapped: Validatable {
    /// `null` is valid (the schema allows it); a value is checked.
    public func validate(_ validator: inout ConstraintValidator) throws {
        try value?.validate(&validator)
    }
}

extension Array: Validatable where Element: Validatable {
    /// Checks each element, its index in the path.
    public func validate(_ validator: inout ConstraintValidator) throws {
        for (index, element) in enumerated() { try validator.validate(element, position: .index(index)) }
    }
}

extension Dictionary: Validatable where Key == String, Value: Validatable {
    /// Checks each value, its key in the path, in key order.
    public func validate(_ validator: inout ConstraintValidator) throws {
        for key in keys.sorted() { try validator.validate(self[key]!, position: .key(key)) }
    }
}

extension OpenEnum {
    /// An enum value must be one the spec lists (``OpenEnum/knownRawValues``):
    /// `unknown(...)` keeps what a server sent, but a request may not send it.
    public func validate(_ validator: inout ConstraintValidator) throws {
        let known = Self.knownRawValues
        guard !known.isEmpty, !known.contains(rawValue) else { return }
        try validator.fail(.allowedValues(known.map { "\($0)" }), actual: String.quoted("\(rawValue)"), isSecret: false)
    }
}
