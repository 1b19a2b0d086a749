/// Finds structs that contain themselves through non-collection properties
/// (a `parent: Node?`), which Swift cannot lay out as structs, and marks
/// them ``StructureShape/isRecursive`` so they render as final classes.
/// Arrays, dictionaries and enums (declared `indirect`) already box their
/// contents and break cycles.
enum RecursionAnalysis {
    /// The declarations with recursive structures marked.
    static func markRecursive(_ declarations: [TypeDeclaration]) -> [TypeDeclaration] {
        var edges: [String: [String]] = [:]
        func collect(_ declaration: TypeDeclaration, prefix: String?) {
            let qualified = prefix.map { "\($0).\(declaration.name)" } ?? declaration.name
            switch declaration.kind {
            case .structure(let shape): edges[qualified] = shape.properties.compactMap { directName($0.type) }
            case .alias(let type): edges[qualified] = directName(type).map { [$0] } ?? []
            case .openEnum, .union: edges[qualified] = []
            }
            for nested in declaration.nested { collect(nested, prefix: qualified) }
        }
        for declaration in declarations { collect(declaration, prefix: nil) }

        var recursive = Set<String>()
        for start in edges.keys {
            var stack = edges[start] ?? []
            var seen = Set<String>()
            while let next = stack.popLast() {
                if next == start {
                    recursive.insert(start)
                    break
                }
                if seen.insert(next).inserted { stack += edges[next] ?? [] }
            }
        }
        guard !recursive.isEmpty else { return declarations }

        func mark(_ declaration: TypeDeclaration, prefix: String?) -> TypeDeclaration {
            var declaration = declaration
            let qualified = prefix.map { "\($0).\(declaration.name)" } ?? declaration.name
            if case .structure(var shape) = declaration.kind, recursive.contains(qualified) {
                shape.isRecursive = true
                declaration.kind = .structure(shape)
            }
            declaration.nested = declaration.nested.map { mark($0, prefix: qualified) }
            return declaration
        }
        return declarations.map { mark($0, prefix: nil) }
    }

    private static func directName(_ type: SwiftType) -> String? {
        switch type {
        case .named(let name): return name
        case .optional(let wrapped), .nullable(let wrapped): return directName(wrapped)
        case .array, .dictionary: return nil
        }
    }
}
