/// Finds the types a request can carry: request bodies and parameters, and
/// every type they reach through properties, elements, members and aliases.
/// The others (what only responses carry) are marked immutable, and their
/// nullable properties become plain optionals: only a request needs to tell
/// "send null" from "leave it out", and an app reading a response treats
/// both as "no value". In the types a request carries, a member with a
/// schema `default` is optional: left out unless the caller gives it. Finds the types a response can carry the same way,
/// from `responseRoots` (read by ``AssumptionAnalysis``).
enum MutabilityAnalysis {
    /// The declarations with response-only structures marked immutable and
    /// without `Nullable`, and each structure marked with whether a response
    /// reaches it.
    static func markResponseOnly(_ declarations: [TypeDeclaration], requestRoots: [SwiftType], responseRoots: [SwiftType]) -> [TypeDeclaration] {
        var edges: [String: [String]] = [:]
        func collect(_ declaration: TypeDeclaration, prefix: String?) {
            let qualified = prefix.map { "\($0).\(declaration.name)" } ?? declaration.name
            var referenced: [String] = []
            switch declaration.kind {
            case .structure(let shape):
                referenced = shape.properties.flatMap(\.type.referencedNames) + (shape.additionalProperties.map(\.referencedNames) ?? [])
            case .alias(let type): referenced = type.referencedNames
            case .union(let shape): referenced = shape.members.flatMap(\.type.referencedNames)
            case .openEnum: referenced = []
            }
            edges[qualified] = referenced
            for nested in declaration.nested { collect(nested, prefix: qualified) }
        }
        for declaration in declarations { collect(declaration, prefix: nil) }

        func reached(from roots: [SwiftType]) -> Set<String> {
            var reachable = Set<String>()
            var stack = roots.flatMap(\.referencedNames)
            while let next = stack.popLast() {
                guard reachable.insert(next).inserted else { continue }
                stack += edges[next] ?? []
            }
            return reachable
        }
        let reachable = reached(from: requestRoots)
        let inResponses = reached(from: responseRoots)

        func mark(_ declaration: TypeDeclaration, prefix: String?) -> TypeDeclaration {
            var declaration = declaration
            let qualified = prefix.map { "\($0).\(declaration.name)" } ?? declaration.name
            if case .structure(var shape) = declaration.kind {
                let isInRequests = reachable.contains(qualified)
                // `isMutable` follows from it (a recursive type, a shared final class, stays immutable).
                shape.isInRequests = isInRequests
                shape.isInResponses = inResponses.contains(qualified)
                if !isInRequests {
                    shape.properties = shape.properties.map { property in
                        var property = property
                        if case .optional(.nullable(let wrapped)) = property.type { property.type = .optional(wrapped) }
                        return property
                    }
                } else {
                    // A request sends what the caller gives: a member with a
                    // schema `default` is optional, and left out when nil (the
                    // server assumes the default). A default the type held
                    // itself would be sent whatever the caller meant, and a
                    // PATCH would reset the member.
                    shape.properties = shape.properties.map { property in
                        guard let value = property.defaultValue, !property.isRequired, !property.type.isOptional else { return property }
                        var property = property
                        property.type = .optional(property.type)
                        property.defaultValue = nil
                        let note = "Left out when nil; the server then assumes `\(value)`."
                        property.documentation = property.documentation.map { $0 + "\n\n" + note } ?? note
                        return property
                    }
                }
                declaration.kind = .structure(shape)
            }
            declaration.nested = declaration.nested.map { mark($0, prefix: qualified) }
            return declaration
        }
        return declarations.map { mark($0, prefix: nil) }
    }
}
