/// Fills in, for each member of a union without a discriminator, the wire
/// names of the properties it declares (``UnionShape/Member/objectKeys``),
/// once every type is declared: a member that is a structure (through
/// aliases) without `additionalProperties` has its property names; any
/// other member (a map, JSON, a scalar, a structure that keeps any
/// property) has none, and matches any object member.
enum UnionKeysAnalysis {
    /// The declarations with their unions' member keys filled in.
    static func fillKeys(_ types: [TypeDeclaration]) -> [TypeDeclaration] {
        var byName: [String: TypeDeclaration] = [:]
        func index(_ declaration: TypeDeclaration, prefix: String) {
            let name = prefix.isEmpty ? declaration.name : prefix + "." + declaration.name
            byName[name] = declaration
            for nested in declaration.nested { index(nested, prefix: name) }
        }
        for declaration in types { index(declaration, prefix: "") }

        func keys(of type: SwiftType) -> [String]? {
            var current = type
            for _ in 0..<8 {
                guard case .named(let name) = current, let declaration = byName[name] else { return nil }
                switch declaration.kind {
                case .alias(let target): current = target
                case .structure(let shape): return shape.additionalProperties == nil ? shape.properties.map(\.wireName) : nil
                default: return nil
                }
            }
            return nil
        }
        func fill(_ declaration: TypeDeclaration) -> TypeDeclaration {
            var declaration = declaration
            declaration.nested = declaration.nested.map(fill)
            if case .union(var shape) = declaration.kind, shape.discriminator == nil {
                for index in shape.members.indices { shape.members[index].objectKeys = keys(of: shape.members[index].type) }
                declaration.kind = .union(shape)
            }
            return declaration
        }
        return types.map(fill)
    }
}
