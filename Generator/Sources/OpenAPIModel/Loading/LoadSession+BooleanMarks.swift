import YAMLReader

/// `x-assumed`, `x-secret` and `x-loggable` mark schemas, properties and
/// parameters anywhere in a spec, and code generation reads only a boolean:
/// any other value (`'yes'`, `1`, a quoted `'true'`) is ignored. For
/// `x-secret` that would leave a secret unmasked in the logs, so every such
/// value, in every file the load read, is reported where it stands.
extension LoadSession {
    /// The marks whose value must be a boolean, with their diagnostics.
    private static let booleanMarks: [(name: String, code: DiagnosticCode, consequence: String, hint: String)] = [
        ("x-assumed", .invalidXAssumed, "the constraints beside it are checked and the field is decoded strictly",
         "write 'x-assumed: true' to mark a guess of the spec, or 'x-assumed: false' to opt a property out"),
        ("x-secret", .invalidXSecret, "the value is not masked in logs",
         "write 'x-secret: true' (unquoted) on the parameter, property or schema whose value is a secret"),
        ("x-loggable", .invalidXLoggable, "a body's log shows the field's shape, not its value",
         "write 'x-loggable: true' (unquoted) on the property or schema whose values are safe in a log (no personal data, no secret)"),
    ]

    func checkBooleanMarks() {
        for name in files.keys.sorted() {
            guard let file = files[name], let root = file.tree.root else { continue }
            var walk = MarkWalk(visited: [Bool](repeating: false, count: file.tree.nodeCount))
            scanMarks(in: file, node: root, keysAreNames: false, walk: &walk)
        }
    }

    /// One step from a file's root: a mapping key (its node) or a sequence index.
    private enum Step {
        case key(YAMLNodeID)
        case index(Int)
    }

    /// Where a walk is: its steps, and the collections already walked (an
    /// alias shares its anchor's nodes: each is walked once).
    private struct MarkWalk {
        var visited: [Bool]
        var path: [Step] = []
    }

    /// Fields whose value is data, never a schema or a parameter: a key
    /// named like a mark there is data.
    private static let dataFields: Set<String> = ["example", "examples", "default", "enum", "const", "security", "scopes", "value"]
    /// Fields whose value maps names (of properties, headers, media types,
    /// components, ...) to objects: a key there is a name, even `x-secret`.
    private static let nameMaps: Set<String> = [
        "properties", "patternProperties", "dependentSchemas", "definitions", "$defs", "headers", "schemas", "responses", "parameters",
        "requestBodies", "securitySchemes", "links", "callbacks", "pathItems", "paths", "webhooks", "content", "encoding", "variables",
    ]
    /// Deeper than any schema the loader reads (it stops at 150 levels).
    private static let deepestWalk = 512

    /// Walks `node` without building pointers; a pointer is spelled only for a mark reported.
    private func scanMarks(in file: SourceFile, node: YAMLNodeID, keysAreNames: Bool, walk: inout MarkWalk) {
        let tree = file.tree
        let kind = tree.kind(node)
        guard kind != .scalar, !walk.visited[Int(node.index)], walk.path.count < Self.deepestWalk else { return }
        walk.visited[Int(node.index)] = true
        if kind == .sequence {
            for (index, item) in tree.items(node).enumerated() {
                walk.path.append(.index(index))
                scanMarks(in: file, node: item, keysAreNames: false, walk: &walk)
                walk.path.removeLast()
            }
            return
        }
        for pair in tree.pairs(node) {
            var namesBelow = false
            if !keysAreNames {
                guard let key = tree.text(pair.key) else { continue }
                if let mark = Self.booleanMarks.first(where: { $0.name == key }) {
                    if tree.kind(pair.value) == .scalar, tree.style(pair.value) == .plain, case .bool? = tree.scalar(pair.value) { continue }
                    walk.path.append(.key(pair.key))
                    report(mark, value: pair.value, in: file, path: walk.path)
                    walk.path.removeLast()
                    continue
                }
                // Another extension's value, or data: not the spec's objects.
                if key.hasPrefix("x-") || Self.dataFields.contains(key) { continue }
                namesBelow = Self.nameMaps.contains(key)
            }
            walk.path.append(.key(pair.key))
            scanMarks(in: file, node: pair.value, keysAreNames: namesBelow, walk: &walk)
            walk.path.removeLast()
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
