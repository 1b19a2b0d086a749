import Foundation

/// A value the spec's scalar constraints apply to: strings (length,
/// `pattern`), numbers (bounds, `multipleOf`), arrays (item counts), and
/// optionals and ``Nullable`` of them, which an absent value or `null` passes.
public protocol ConstrainedValue {
    /// The first rule the value breaks, with how the value is shown (its
    /// text, number or count); nil when it keeps them all.
    func brokenRule(of constraints: ValueConstraints) -> (rule: ConstraintViolation.Rule, actual: String)?
}

extension String: ConstrainedValue {
    /// Length (in code points, as JSON Schema counts), then `pattern`.
    public func brokenRule(of constraints: ValueConstraints) -> (rule: ConstraintViolation.Rule, actual: String)? {
        if constraints.minLength != nil || constraints.maxLength != nil {
            let length = unicodeScalars.count
            if let minimum = constraints.minLength, length < minimum { return (.minLength(minimum), "\(length) characters long") }
            if let maximum = constraints.maxLength, length > maximum { return (.maxLength(maximum), "\(length) characters long") }
        }
        if let pattern = constraints.pattern {
            switch pattern.check(self) {
            case .matches: break
            case .doesNotMatch: return (.pattern(pattern.source), Self.quoted(self))
            case .timedOut: return (.patternTimedOut(pattern.source, limit: ValidationPattern.timeLimit), "\(unicodeScalars.count) characters long")
            }
        }
        return nil
    }

    /// The text in quotes, cut after 64 characters.
    static func quoted(_ text: String) -> String {
        let shown = text.count > 64 ? text.prefix(64) + "..." : Substring(text)
        return "\"\(shown)\""
    }
}

extension Int: ConstrainedValue {}
extension Int32: ConstrainedValue {}
extension Int64: ConstrainedValue {}
extension Double: ConstrainedValue {}
extension Float: ConstrainedValue {}

extension ConstrainedValue where Self: BinaryInteger {
    /// Bounds and `multipleOf`.
    public func brokenRule(of constraints: ValueConstraints) -> (rule: ConstraintViolation.Rule, actual: String)? {
        constraints.brokenNumericRule(Double(self)).map { ($0, String(self)) }
    }
}

extension ConstrainedValue where Self: BinaryFloatingPoint {
    /// Bounds and `multipleOf`.
    public func brokenRule(of constraints: ValueConstraints) -> (rule: ConstraintViolation.Rule, actual: String)? {
        let number = Double(self)
        return constraints.brokenNumericRule(number).map { ($0, ConstraintViolation.number(number)) }
    }
}

extension Decimal: ConstrainedValue {
    /// Bounds and `multipleOf`, compared as `Double`.
    public func brokenRule(of constraints: ValueConstraints) -> (rule: ConstraintViolation.Rule, actual: String)? {
        constraints.brokenNumericRule(NSDecimalNumber(decimal: self).doubleValue).map { ($0, "\(self)") }
    }
}

extension Array: ConstrainedValue {
    /// `minItems` and `maxItems` (the elements are checked one by one
    /// through ``ConstraintValidator/checkElements(_:at:_:)``).
    public func brokenRule(of constraints: ValueConstraints) -> (rule: ConstraintViolation.Rule, actual: String)? {
        if let minimum = constraints.minItems, count < minimum { return (.minItems(minimum), "\(count) items") }
        if let maximum = constraints.maxItems, count > maximum { return (.maxItems(maximum), "\(count) items") }
        return nil
    }
}

extension Optional: ConstrainedValue where Wrapped: ConstrainedValue {
    /// An absent value keeps every rule; a present one is checked.
    public func brokenRule(of constraints: ValueConstraints) -> (rule: ConstraintViolation.Rule, actual: String)? {
        self?.brokenRule(of: constraints)
    }
}

extension Nullable: ConstrainedValue where Wrapped: ConstrainedValue {
    /// `null` keeps every rule (the schema allows it); a value is checked.
    public func brokenRule(of constraints: ValueConstraints) -> (rule: ConstraintViolation.Rule, actual: String)? {
        value?.brokenRule(of: constraints)
    }
}

/// A value that holds elements checked one by one: arrays, string-keyed
/// dictionaries (their values), and optionals and ``Nullable`` of them.
public protocol ConstrainedElements {
    /// The type of what is checked: an array's element, a dictionary's value.
    associatedtype CheckedElement
    /// Calls `body` with each element and where it sits.
    func forEachElement(_ body: (ValuePathComponent, CheckedElement) throws -> Void) rethrows
}

extension Array: ConstrainedElements {
    /// Each element with its index.
    public func forEachElement(_ body: (ValuePathComponent, Element) throws -> Void) rethrows {
        for (index, element) in enumerated() { try body(.index(index), element) }
    }
}

extension Dictionary: ConstrainedElements where Key == String {
    /// Each value with its key, in key order (so the first violation reported is stable).
    public func forEachElement(_ body: (ValuePathComponent, Value) throws -> Void) rethrows {
        for key in keys.sorted() { try body(.key(key), self[key]!) }
    }
}

extension Optional: ConstrainedElements where Wrapped: ConstrainedElements {
    /// The wrapped container's elements; none when absent.
    public func forEachElement(_ body: (ValuePathComponent, Wrapped.CheckedElement) throws -> Void) rethrows {
        try self?.forEachElement(body)
    }
}

extension Nullable: ConstrainedElements where Wrapped: ConstrainedElements {
    /// The wrapped container's elements; none for `null`.
    public func forEachElement(_ body: (ValuePathComponent, Wrapped.CheckedElement) throws -> Void) rethrows {
        try value?.forEachElement(body)
    }
}
