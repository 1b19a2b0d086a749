/// One step of a value's path: a property or dictionary key, or an array index.
public enum ValuePathComponent: Sendable, Hashable {
    /// A property name (as on the wire) or a dictionary key.
    case key(String)
    /// An array index.
    case index(Int)
}

/// Walks a value and throws ``ConstraintViolation`` at the first constraint it
/// breaks; keeps the path from the root (`body`, `query`, `response`) to the
/// value being checked, which is formatted only when something fails.
public struct ConstraintValidator {
    /// The operation the value belongs to.
    public let operationID: String
    /// Whether the value is a response's.
    public let isInResponse: Bool
    private var path: [ValuePathComponent]

    /// A validator whose paths start at `root` (`response`), or at the
    /// keys the checks name (`body`, `query.limit`) when `root` is nil.
    public init(operationID: String, root: String? = nil, isInResponse: Bool = false) {
        self.operationID = operationID
        self.isInResponse = isInResponse
        self.path = root.map { [.key($0)] } ?? []
    }

    /// Checks `value` at `root` for `operationID`.
    public static func validate(_ value: some Validatable, operationID: String, root: String?, isInResponse: Bool = false) throws {
        var validator = ConstraintValidator(operationID: operationID, root: root, isInResponse: isInResponse)
        try value.validate(&validator)
    }

    /// Checks the scalar constraints of the value at `key` (a property's wire
    /// name, a parameter's `query.limit`).
    public mutating func check<Value: ConstrainedValue>(_ value: Value, at key: String, _ constraints: ValueConstraints) throws {
        path.append(.key(key))
        defer { path.removeLast() }
        try check(value, constraints)
    }

    /// Checks the scalar constraints of the value at the current path (a
    /// union's member).
    public mutating func check<Value: ConstrainedValue>(_ value: Value, _ constraints: ValueConstraints) throws {
        guard let (rule, actual) = value.brokenRule(of: constraints) else { return }
        try fail(rule, actual: actual, isSecret: constraints.isSecret)
    }

    /// Checks the scalar constraints of each element of the array (or each
    /// value of the dictionary) at the current path (a union's member).
    public mutating func checkElements<Values: ConstrainedElements>(_ values: Values, _ constraints: ValueConstraints) throws
    where Values.CheckedElement: ConstrainedValue {
        try values.forEachElement { position, element in
            guard let (rule, actual) = element.brokenRule(of: constraints) else { return }
            path.append(position)
            try fail(rule, actual: actual, isSecret: constraints.isSecret)
        }
    }

    /// Checks the scalar constraints of each element of the array (or each
    /// value of the dictionary) at `key`.
    public mutating func checkElements<Values: ConstrainedElements>(_ values: Values, at key: String, _ constraints: ValueConstraints) throws
    where Values.CheckedElement: ConstrainedValue {
        path.append(.key(key))
        defer { path.removeLast() }
        try checkElements(values, constraints)
    }

    /// Checks a value that validates itself, at `key`.
    public mutating func validate<Value: Validatable>(_ value: Value, at key: String) throws {
        try validate(value, position: .key(key))
    }

    /// Checks a value that validates itself, at a path component (an
    /// element's index or key).
    public mutating func validate<Value: Validatable>(_ value: Value, position component: ValuePathComponent) throws {
        path.append(component)
        defer { path.removeLast() }
        try value.validate(&self)
    }

    /// Throws the violation of `rule` at the current path; the value is
    /// shown unless the field is secret-like.
    public func fail(_ rule: ConstraintViolation.Rule, actual: String, isSecret: Bool) throws -> Never {
        throw ConstraintViolation(operationID: operationID, path: formattedPath, rule: rule, actual: isSecret ? nil : actual, isInResponse: isInResponse)
    }

    /// `body.items[3].name`.
    private var formattedPath: String {
        var text = ""
        for component in path {
            switch component {
            case .key(let key): text += text.isEmpty ? key : "." + key
            case .index(let index): text += "[\(index)]"
            }
        }
        return text
    }
}
