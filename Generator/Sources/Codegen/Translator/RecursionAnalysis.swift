/// Finds the types that contain themselves through non-collection
/// references, which Swift cannot lay out inline, and boxes one link of each
/// cycle: a union (`oneOf`/`anyOf` enum) on a cycle is declared `indirect`
/// (``UnionShape/isIndirect``), and a struct on a cycle that passes through
/// no union (a `parent: Node?`) becomes a final class
/// (``StructureShape/isRecursive``). Arrays and dictionaries box their
/// contents already; unions off every cycle store their payloads inline.
enum RecursionAnalysis {
    /// The declarations with recursive structures and unions marked.
    static func markRecursive(_ declarations: [TypeDeclaration]) -> [TypeDeclaration] {
        // Two graphs: with the unions' edges (a union on a cycle of it is
        // indirect), and without them (a struct on a cycle of that one has no
        // indirect union to break it).
        var edges: [String: [String]] = [:]
        var unionEdges: [String: [String]] = [:]
        func collect(_ declaration: TypeDeclaration, prefix: String?) {
            let qualified = prefix.map { "\($0).\(declaration.name)" } ?? declaration.name
            switch declaration.kind {
            case .structure(let shape): edges[qualified] = shape.properties.compactMap { directName($0.type) }
            case .alias(let type): edges[qualified] = directName(type).map { [$0] } ?? []
            case .openEnum: edges[qualified] = []
            case .union(let shape):
                edges[qualified] = []
                unionEdges[qualified] = shape.members.compactMap { directName($0.type) }
            }
            for nested in declaration.nested { collect(nested, prefix: qualified) }
        }
        for declaration in declarations { collect(declaration, prefix: nil) }
        let recursiveStructures = onCycles(edges)
        let recursiveUnions = onCycles(edges.merging(unionEdges) { _, union in union }).intersection(unionEdges.keys)
        guard !recursiveStructures.isEmpty || !recursiveUnions.isEmpty else { return declarations }

        func mark(_ declaration: TypeDeclaration, prefix: String?) -> TypeDeclaration {
            var declaration = declaration
            let qualified = prefix.map { "\($0).\(declaration.name)" } ?? declaration.name
            if case .structure(var shape) = declaration.kind, recursiveStructures.contains(qualified) {
                shape.isRecursive = true
                declaration.kind = .structure(shape)
            }
            if case .union(var shape) = declaration.kind, recursiveUnions.contains(qualified) {
                shape.isIndirect = true
                declaration.kind = .union(shape)
            }
            declaration.nested = declaration.nested.map { mark($0, prefix: qualified) }
            return declaration
        }
        return declarations.map { mark($0, prefix: nil) }
    }

    /// The nodes that reach themselves.
    private static func onCycles(_ edges: [String: [String]]) -> Set<String> {
        var result = Set<String>()
        for start in edges.keys {
            var stack = edges[start] ?? []
            var seen = Set<String>()
            while let next = stack.popLast() {
                if next == start {
                    result.insert(start)
                    break
                }
                if seen.insert(next).inserted { stack += edges[next] ?? [] }
            }
        }
        return result
    }

    private static func directName(_ type: SwiftType) -> String? {
        switch type {
        case .named(let name): return name
        case .optional(let wrapped), .nullable(let wrapped): return directName(wrapped)
        case .array, .dictionary: return nil
        }
    }
}
