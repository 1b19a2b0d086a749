import YAMLReader

/// Typed readers for field values: each returns `nil` and reports a
/// diagnostic when the node does not hold the expected kind of value.
extension LoadSession {
    /// The deepest object nesting read. Real specs stay far below it; the
    /// limit keeps the recursive reader's stack bounded on hostile input.
    static let maximumObjectDepth = 150

    func describe(_ node: Node) -> String {
        switch node.kind {
        case .mapping: return "a mapping"
        case .sequence: return "a list"
        case .scalar:
            switch node.tree.scalar(node.id) {
            case .null?: return "null"
            case .bool?: return "a boolean"
            case .int?: return "an integer"
            case .double?: return "a number"
            default: return "a string"
            }
        }
    }

    /// Checks that a node is a mapping (an OpenAPI object); an error otherwise.
    func expectObject(_ node: Node, _ objectName: String) -> Bool {
        if node.depth > Self.maximumObjectDepth {
            report(
                .nestingTooDeep, "objects nest more than \(Self.maximumObjectDepth) levels deep here; the rest is not read", at: node,
                hint: "move nested schemas into components and reference them with $ref")
            return false
        }
        guard node.kind != .mapping else { return true }
        report(.wrongKind, "expected \(objectName) (a mapping), found \(describe(node))", at: node,
              hint: "write \(objectName) as 'key: value' lines indented under its key")
        return false
    }

    /// A string; numbers and booleans are accepted as their text.
    func string(_ node: Node) -> String? {
        guard node.kind == .scalar, let text = node.text else {
            report(.wrongValueKind, "expected a string, found \(describe(node)); the value is ignored", at: node)
            return nil
        }
        if node.tree.style(node.id) == .plain, node.tree.tag(node.id) == nil, case .null? = node.tree.scalar(node.id) {
            return nil
        }
        return text
    }

    func bool(_ node: Node) -> Bool? {
        switch node.tree.scalar(node.id) {
        case .bool(let value)?: return value
        case .string(let text)? where text == "true" || text == "false":
            report(.quotedBoolean, "expected a boolean, found the string '\(text)'; it is read as a boolean", at: node, hint: "remove the quotes")
            return text == "true"
        default:
            report(.wrongValueKind, "expected true or false, found \(describe(node)); the value is ignored", at: node)
            return nil
        }
    }

    func int(_ node: Node) -> Int? {
        switch node.tree.scalar(node.id) {
        case .int(let value)?: return value
        case .double(let value)? where value.rounded() == value && abs(value) < 9e15: return Int(value)
        default:
            report(.wrongValueKind, "expected an integer, found \(describe(node)); the value is ignored", at: node)
            return nil
        }
    }

    func number(_ node: Node) -> Double? {
        switch node.tree.scalar(node.id) {
        case .int(let value)?: return Double(value)
        case .double(let value)?: return value
        case .string(let text)?:
            if let value = Double(text) {
                report(.quotedNumber, "expected a number, found the string '\(text)'; it is read as a number", at: node, hint: "remove the quotes")
                return value
            }
            fallthrough
        default:
            report(.wrongValueKind, "expected a number, found \(describe(node)); the value is ignored", at: node)
            return nil
        }
    }

    /// A list of strings; a single string is accepted as a one-item list with a warning.
    func stringList(_ node: Node) -> [String] {
        switch node.kind {
        case .sequence:
            return node.items.compactMap { string($0) }
        case .scalar:
            guard let value = string(node) else { return [] }
            report(.wrongValueKind, "expected a list of strings, found a single string", at: node, hint: "write it as a list: [\(value)]")
            return [value]
        case .mapping:
            report(.wrongValueKind, "expected a list of strings, found a mapping; the value is ignored", at: node)
            return []
        }
    }

    /// Any JSON value (examples, defaults, extensions).
    func json(_ node: Node) -> JSONValue {
        json(node.tree, node.id)
    }

    private func json(_ tree: YAMLTree, _ id: YAMLNodeID) -> JSONValue {
        switch tree.kind(id) {
        case .scalar:
            switch tree.scalar(id) ?? .null {
            case .null: return .null
            case .bool(let value): return .bool(value)
            case .int(let value): return .int(value)
            case .double(let value): return .double(value)
            case .string(let value): return .string(value)
            }
        case .sequence:
            return .array(tree.items(id).map { json(tree, $0) })
        case .mapping:
            var map = OrderedMap<JSONValue>()
            for pair in tree.pairs(id) {
                map[tree.text(pair.key) ?? json(tree, pair.key).description] = json(tree, pair.value)
            }
            return .object(map)
        }
    }

    /// Reads the fields of an OpenAPI object. `body` handles one field and
    /// returns false when it does not know it; `x-` keys go to `extensions`;
    /// any other unknown key is reported with the closest known field.
    func fields(
        of node: Node, _ objectName: String, known: [String], extensions: inout OrderedMap<JSONValue>,
        _ body: (String, Node) -> Bool
    ) {
        guard expectObject(node, objectName) else { return }
        node.forEachPair(complexKey: { key in
            self.report(.complexKey, "a non-string key in \(objectName) is ignored", at: key)
        }) { key, value in
            if key.hasPrefix("x-") {
                extensions[key] = json(value)
                return
            }
            if !body(key, value) {
                reportUnknownField(key, in: node, objectName, known: known)
            }
        }
    }

    func reportUnknownField(_ key: String, in node: Node, _ objectName: String, known: [String]) {
        let at = node.keyNode(key) ?? node
        let suggestion = closest(to: key, in: known).map { "did you mean '\($0)'? " } ?? ""
        report(
            .unknownField, "unknown field '\(key)' in \(objectName) is ignored", at: at,
            hint: "\(suggestion)custom fields must start with 'x-'")
    }

    /// A map whose values are read by `read`; `nil` values are dropped.
    func map<V>(_ node: Node, _ what: String, _ read: (String, Node) -> V?) -> OrderedMap<V> {
        var result = OrderedMap<V>()
        if isEmptyValue(node, what) { return result }
        guard expectObject(node, what) else { return result }
        node.forEachPair { key, value in
            if let item = read(key, value) { result[key] = item }
        }
        return result
    }

    /// A list whose items are read by `read`.
    func list<V>(_ node: Node, _ what: String, _ read: (Node) -> V?) -> [V] {
        if isEmptyValue(node, "a list of \(what)") { return [] }
        guard node.kind == .sequence else {
            report(.wrongKind, "expected a list of \(what), found \(describe(node))", at: node, hint: "write each item on its own line starting with '- '")
            return []
        }
        return node.items.compactMap(read)
    }

    /// A key written with no value (`parameters:` and nothing after it): read
    /// as empty, with a warning.
    private func isEmptyValue(_ node: Node, _ what: String) -> Bool {
        guard node.kind == .scalar, node.tree.style(node.id) == .plain, case .null? = node.tree.scalar(node.id) else { return false }
        report(.emptyValue, "expected \(what), found no value; it is read as empty", at: node, hint: "remove the key, or write [] or {}")
        return true
    }

    /// Reports a missing required field: `missing-essential-field` when
    /// nothing can be read without it, else `missing-field`.
    func missing(_ field: String, in node: Node, _ objectName: String, isEssential: Bool = false, hint: String? = nil) {
        report(
            isEssential ? .missingEssentialField : .missingField, "\(objectName) has no '\(field)', which is required", at: node,
            hint: hint ?? "add '\(field):' to it")
    }
}

/// The candidate closest to `word` by edit distance, if close enough to be a likely typo.
func closest(to word: String, in candidates: [String]) -> String? {
    let lowered = word.lowercased()
    var best: (String, Int)?
    for candidate in candidates {
        let distance = editDistance(lowered, candidate.lowercased())
        if distance <= max(1, candidate.count / 3), distance < (best?.1 ?? .max) { best = (candidate, distance) }
    }
    return best?.0
}

/// Levenshtein distance.
func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a.unicodeScalars)
    let b = Array(b.unicodeScalars)
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var previous = Array(0...b.count)
    var current = Array(repeating: 0, count: b.count + 1)
    for i in 1...a.count {
        current[0] = i
        for j in 1...b.count {
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
        }
        swap(&previous, &current)
    }
    return previous[b.count]
}
