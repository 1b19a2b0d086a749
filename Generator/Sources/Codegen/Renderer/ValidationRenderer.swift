/// Renders the checks of the spec's constraints: the `validate` lines of a
/// structure, the checks of an operation's parameters and body, and the
/// `ValidationPatterns` namespace that compiles each pattern once.
struct ValidationRenderer {
    /// The qualified names of the types that validate themselves.
    let validatable: Set<String>

    /// The checks of one value: its own constraints, its elements', and the
    /// `validate` of a type that checks itself. Empty when there is nothing to check.
    func checks(of value: String, at key: String, type: SwiftType, constraints: ConstraintDeclaration?, elements: ConstraintDeclaration?) -> [String] {
        var lines: [String] = []
        let keyLiteral = SwiftLiteral.string(key)
        if let constraints {
            lines.append("try validator.check(\(value), at: \(keyLiteral), \(Self.expression(constraints)))")
        }
        if let elements {
            lines.append("try validator.checkElements(\(value), at: \(keyLiteral), \(Self.expression(elements)))")
        }
        if ValidationAnalysis.isValidatable(type, in: validatable) {
            lines.append("try validator.validate(\(value), at: \(keyLiteral))")
        }
        return lines
    }

    /// The checks of a union member's value, which sits at the union's own path.
    func memberChecks(of value: String, type: SwiftType, constraints: ConstraintDeclaration?, elements: ConstraintDeclaration?) -> [String] {
        var lines: [String] = []
        if let constraints { lines.append("try validator.check(\(value), \(Self.expression(constraints)))") }
        if let elements { lines.append("try validator.checkElements(\(value), \(Self.expression(elements)))") }
        if ValidationAnalysis.isValidatable(type, in: validatable) { lines.append("try \(value).validate(&validator)") }
        return lines
    }

    /// `ValueConstraints(maxLength: 6, pattern: ValidationPatterns.otpCode, isSecret: true)`.
    static func expression(_ constraints: ConstraintDeclaration) -> String {
        var arguments: [String] = []
        if let value = constraints.minLength { arguments.append("minLength: \(value)") }
        if let value = constraints.maxLength { arguments.append("maxLength: \(value)") }
        if let pattern = constraints.pattern { arguments.append("pattern: ValidationPatterns.\(pattern.name)") }
        if let value = constraints.minimum { arguments.append("minimum: \(number(value))") }
        if let value = constraints.exclusiveMinimum { arguments.append("exclusiveMinimum: \(number(value))") }
        if let value = constraints.maximum { arguments.append("maximum: \(number(value))") }
        if let value = constraints.exclusiveMaximum { arguments.append("exclusiveMaximum: \(number(value))") }
        if let value = constraints.multipleOf { arguments.append("multipleOf: \(number(value))") }
        if let value = constraints.minItems { arguments.append("minItems: \(value)") }
        if let value = constraints.maxItems { arguments.append("maxItems: \(value)") }
        if constraints.isSecret { arguments.append("isSecret: true") }
        return "ValueConstraints(\(arguments.joined(separator: ", ")))"
    }

    /// `1`, `0.01`, `1e+20`: a `Double` literal.
    private static func number(_ value: Double) -> String {
        SwiftLiteral.double(value)
    }

    /// `enum ValidationPatterns` with one `static let` per pattern; nothing
    /// when the spec has none.
    static func renderPatterns(_ patterns: [PatternDeclaration], into writer: inout SwiftWriter) {
        guard !patterns.isEmpty else { return }
        writer.line("")
        writer.line("/// The spec's `pattern`s, each compiled once per process, on first use.")
        writer.block("enum ValidationPatterns") { writer in
            for pattern in patterns {
                writer.line("static let \(pattern.name) = ValidationPattern(\(SwiftLiteral.rawString(pattern.source)))")
            }
        }
    }
}
