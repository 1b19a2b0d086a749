/// Finds operations whose per-status enums declare the same cases, and
/// keeps one enum for each set of cases: the others become typealiases of it.
///
/// Specs document the same errors for many operations. GitHub's has 260
/// operations whose error bodies differ by status, and 124 of their enums
/// repeated an earlier one: `case notFound(BasicError)` and
/// `case unprocessableContent(ValidationError)`, with the same doc comments.
/// Each copy was an enum of its own, with its own value witnesses and
/// `Hashable` conformance to compile. Now `UsersFollowErrorBody` is a
/// typealias of the first such enum: every name a caller used still exists,
/// and `APIError<UsersFollowErrorBody>` is caught as it was.
///
/// Two enums are the same when their cases are: the same names, in the
/// same order, with the same payload types and doc comments. A payload
/// type counts as the same as another when both are, or alias, one
/// declaration (``typeAliases(in:)``). The enum kept is the first in
/// document order.
enum SharedResultAnalysis {
    /// Enum name -> the name of the enum it repeats, for every per-status
    /// enum of `operations` that repeats an earlier one's cases.
    static func repeatedResults(_ operations: [OperationDeclaration], typeAliases: [String: String]) -> [String: String] {
        var keptByCases: [[StatusCase]: String] = [:]
        var repeated: [String: String] = [:]
        for operation in operations {
            for result in [operation.success, operation.failure] {
                guard case .perStatus(let name, let cases)? = result else { continue }
                let canonical = cases.map { item in
                    var item = item
                    item.type = item.type?.renamingReferences { typeAliases[$0] ?? $0 }
                    return item
                }
                if let kept = keptByCases[canonical] {
                    repeated[name] = kept
                } else {
                    keptByCases[canonical] = name
                }
            }
        }
        return repeated
    }

    /// Name -> the type it finally names, for every declaration of
    /// `declarations` (nested ones by qualified name) that is a typealias
    /// of a named type: `NullableSimpleUser` -> `SimpleUser`.
    static func typeAliases(in declarations: [TypeDeclaration]) -> [String: String] {
        var direct: [String: String] = [:]
        for entry in SharedShapeAnalysis.flatten(declarations) {
            if case .alias(.named(let target)) = entry.declaration.kind { direct[entry.qualified] = target }
        }
        var resolved: [String: String] = [:]
        for (name, first) in direct {
            var target = first
            var steps = 0
            // An alias of an alias names the last one's target; a cycle (which
            // Swift would reject anyway) stops after as many steps as aliases.
            while let next = direct[target], steps < direct.count {
                target = next
                steps += 1
            }
            resolved[name] = target
        }
        return resolved
    }
}
