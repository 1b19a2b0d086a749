/// Finds the declarations a client's operations reach: the types of their
/// parameters, bodies, responses and streams, and every type those reach
/// through properties, elements, members, aliases and nested types. A
/// filtered client (``OperationFilter``) keeps only these.
///
/// Types are found by reflection over the operation and type declarations,
/// so a type a new kind of declaration carries is found without a change
/// here: every ``SwiftType`` inside counts.
enum ReachabilityAnalysis {
    /// `types` without the top-level declarations no operation reaches, in
    /// their order.
    static func reachable(_ types: [TypeDeclaration], from operations: [OperationDeclaration]) -> [TypeDeclaration] {
        var edges: [String: [String]] = [:]
        for declaration in types { edges[declaration.name] = topLevelNames(in: declaration) }
        var kept = Set<String>()
        var stack = operations.flatMap { topLevelNames(in: $0) }
        while let next = stack.popLast() {
            guard edges[next] != nil, kept.insert(next).inserted else { continue }
            stack += edges[next] ?? []
        }
        return types.filter { kept.contains($0.name) }
    }

    /// The top-level type names (`Pet` of `Pet.Status`) of every Swift type
    /// inside `value`.
    static func topLevelNames(in value: Any) -> [String] {
        var names: [String] = []
        func visit(_ value: Any) {
            if let type = value as? SwiftType {
                names += type.referencedNames.map { String($0.prefix { $0 != "." }) }
                return
            }
            let mirror = Mirror(reflecting: value)
            for child in mirror.children { visit(child.value) }
        }
        visit(value)
        return names
    }
}
