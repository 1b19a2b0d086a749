/// Finds the types that check constraints of the spec on their values
/// (``TypeDeclaration/isValidatable``): every enum (a request may send only
/// the values it lists), every structure with a constrained property, and
/// every structure, union or alias that reaches one of those through its
/// properties, members, elements or map values. Types that reach none get no
/// `validate` method, so a spec without constraints costs no code.
enum ValidationAnalysis {
    /// The declarations with validatable structures and unions marked.
    static func markValidatable(_ declarations: [TypeDeclaration]) -> [TypeDeclaration] {
        var edges: [String: [String]] = [:]
        var validatable = Set<String>()
        func collect(_ declaration: TypeDeclaration, prefix: String?) {
            let qualified = prefix.map { "\($0).\(declaration.name)" } ?? declaration.name
            switch declaration.kind {
            case .structure(let shape):
                edges[qualified] = shape.properties.flatMap(\.type.referencedNames) + (shape.additionalProperties.map(\.referencedNames) ?? [])
                if shape.properties.contains(where: { $0.constraints != nil || $0.elementConstraints != nil }) { validatable.insert(qualified) }
            case .alias(let type): edges[qualified] = type.referencedNames
            case .union(let shape):
                edges[qualified] = shape.members.flatMap(\.type.referencedNames)
                if shape.members.contains(where: { $0.constraints != nil || $0.elementConstraints != nil }) { validatable.insert(qualified) }
            case .openEnum:
                edges[qualified] = []
                validatable.insert(qualified)
            }
            for nested in declaration.nested { collect(nested, prefix: qualified) }
        }
        for declaration in declarations { collect(declaration, prefix: nil) }

        // Propagate backwards until nothing changes: whoever holds a
        // validatable type is validatable.
        var changed = true
        while changed {
            changed = false
            for (name, targets) in edges where !validatable.contains(name) && targets.contains(where: validatable.contains) {
                validatable.insert(name)
                changed = true
            }
        }

        func mark(_ declaration: TypeDeclaration, prefix: String?) -> TypeDeclaration {
            var declaration = declaration
            let qualified = prefix.map { "\($0).\(declaration.name)" } ?? declaration.name
            declaration.isValidatable = validatable.contains(qualified)
            declaration.nested = declaration.nested.map { mark($0, prefix: qualified) }
            return declaration
        }
        return declarations.map { mark($0, prefix: nil) }
    }

    /// Whether a value of `type` validates itself (it reaches a validatable
    /// declaration through optionals, arrays and maps).
    static func isValidatable(_ type: SwiftType, in validatable: Set<String>) -> Bool {
        type.referencedNames.contains(where: validatable.contains)
    }

    /// The names of every validatable declaration, qualified.
    static func validatableNames(_ declarations: [TypeDeclaration]) -> Set<String> {
        var result = Set<String>()
        func visit(_ declaration: TypeDeclaration, prefix: String?) {
            let qualified = prefix.map { "\($0).\(declaration.name)" } ?? declaration.name
            if declaration.isValidatable { result.insert(qualified) }
            for nested in declaration.nested { visit(nested, prefix: qualified) }
        }
        for declaration in declarations { visit(declaration, prefix: nil) }
        return result
    }
}
