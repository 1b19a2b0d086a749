import YAMLReader

/// `x-assumed` and `x-secret` mark schemas, properties and parameters
/// anywhere in a spec, and code generation reads only a boolean: any other
/// value (`'yes'`, `1`, a quoted `'true'`) is ignored. For `x-secret` that
/// would leave a secret unmasked in the logs, so every such value, in every
/// file the load read, is reported where it stands.
extension LoadSession {
    /// The marks whose value must be a boolean, with their diagnostics.
    private static let booleanMarks: [(name: String, code: DiagnosticCode, consequence: String, hint: String)] = [
        ("x-assumed", .invalidXAssumed, "the constraints beside it are checked and the field is decoded strictly",
         "write 'x-assumed: true' to mark a guess of the spec, or 'x-assumed: false' to opt a property out"),
        ("x-secret", .invalidXSecret, "the value is not masked in logs",
         "write 'x-secret: true' (unquoted) on the parameter, property or schema whose value is a secret"),
    ]

    func checkBooleanMarks() {
        for name in files.keys.sorted() {
            guard let file = files[name], let root = file.tree.root else { continue }
            var path: [Step] = []
            scanMarks(in: file, node: root, path: &path)
        }
    }

    /// One step from a file's root: a mapping key (its node) or a sequence index.
    private enum Step {
        case key(YAMLNodeID)
        case index(Int)
    }

    /// Walks `node` without building pointers; a pointer is spelled only for a mark reported.
    private func scanMarks(in file: SourceFile, node: YAMLNodeID, path: inout [Step]) {
        let tree = file.tree
        switch tree.kind(node) {
        case .scalar:
            return
        case .sequence:
            for (index, item) in tree.items(node).enumerated() {
                path.append(.index(index))
                scanMarks(in: file, node: item, path: &path)
                path.removeLast()
            }
        case .mapping:
            for pair in tree.pairs(node) {
                if tree.scalar(pair.key, hasPrefix: "x-") {
                    for mark in Self.booleanMarks where tree.isScalar(pair.key, equalTo: mark.name) {
                        if tree.kind(pair.value) == .scalar, tree.style(pair.value) == .plain, case .bool? = tree.scalar(pair.value) { continue }
                        path.append(.key(pair.key))
                        report(mark, value: pair.value, in: file, path: path)
                        path.removeLast()
                    }
                    continue
                }
                path.append(.key(pair.key))
                scanMarks(in: file, node: pair.value, path: &path)
                path.removeLast()
            }
        }
    }

    private func report(
        _ mark: (name: String, code: DiagnosticCode, consequence: String, hint: String), value: YAMLNodeID, in file: SourceFile, path: [Step]
    ) {
        let tree = file.tree
        var pointer = JSONPointer.root
        for step in path {
            switch step {
            case .key(let key): pointer = pointer.appending(tree.text(key) ?? "")
            case .index(let index): pointer = pointer.appending(index)
            }
        }
        let shown: String
        switch tree.kind(value) {
        case .scalar: shown = tree.style(value) == .plain ? "'\(tree.text(value) ?? "")'" : "the quoted text '\(tree.text(value) ?? "")'"
        case .sequence: shown = "a list"
        case .mapping: shown = "a mapping"
        }
        diagnostics.append(
            Diagnostic(
                mark.code, "\(mark.name) is \(shown), not true or false: it is ignored, so \(mark.consequence)",
                at: SourceLocation(file: file.name, mark: tree.mark(value), pointer: pointer), hint: mark.hint))
    }
}
