import OpenAPIModel

/// What the spec says of an operation's values in a log, for the runtime's
/// redaction (`OperationDescriptor.secretFields`,
/// `OperationDescriptor.secretPathParameters`,
/// `OperationDescriptor.loggablePaths`, `OperationDescriptor.memberNames`):
///
/// - secret: a parameter, a property or a schema with `x-secret: true`, or
///   a string with `format: password`; masked wherever its name appears.
/// - loggable: a property (or the schema it names) with `x-loggable: true`;
///   a body's log shows its value at that place in the body (its path,
///   `transactions[].status`), and only the shape of everything else. No
///   path goes through a map (`additionalProperties`), whose names are
///   data, nor through a name holding `.`, `[` or `]`.
/// - members: the property names the bodies declare; a body's log shows an
///   object's key only when it is one (a map's keys are data).
///
/// A property is marked when it or the schema it names is marked; a path
/// parameter the same way. The runtime's redactor already masks the common
/// names of credentials and personal data; the secret marks add what no
/// list of names can know (a `linkToken`, a tracking `session_id` that also
/// appears in a URL path), and the loggable marks are the only way a body's
/// value reaches a log.
///
/// The spec's named schemas are walked once for all operations: each one's
/// own property names, secret names and loggable mark, and the named
/// schemas it refers to (a graph, recursions included). Which schemas lead
/// to a mark is worked out once, backwards from the marked ones; an
/// operation then walks only those of its schemas that lead to one (in most
/// specs, none), so the whole costs about the spec's size, not the spec's
/// size per operation. Paths are looked for only when an operation's walk
/// met a loggable mark, each named schema at most once on a path (a
/// recursion is followed one level), and within a budget of steps per
/// operation: a path past it is not found, so its value stays a shape.
final class LogMarkAnalysis {
    let document: OpenAPIDocument

    /// How many schemas the path search visits for one operation at most.
    static let pathSearchBudget = 20_000
    /// How many properties deep a path goes at most.
    static let maximumPathDepth = 16

    /// An operation's marked names and paths.
    struct Marks {
        /// The wire names of the secret query, header and cookie parameters
        /// and body properties, sorted.
        var secretFields: [String] = []
        /// The names of the secret path parameters, sorted.
        var secretPathParameters: [String] = []
        /// The paths of the loggable body properties whose name is not also
        /// secret, sorted.
        var loggablePaths: [String] = []
    }

    /// What one named schema holds itself (through its inline parts, up to
    /// the named schemas it refers to).
    private struct Node {
        var secrets = Set<String>()
        var isLoggable = false
        var references: [String] = []
    }

    /// The names under an operation's bodies.
    private struct Names {
        var secret = Set<String>()
        var hasLoggableMark = false
        var visited = Set<String>()
    }

    /// Every named schema the bodies reach, by its key.
    private var nodes: [String: Node] = [:]
    /// The named schemas from which a secret or loggable mark can be reached.
    private var leadsToMark: Set<String> = []
    /// Every property name the document's bodies declare (a body's log shows
    /// an object's key only when it is one: `ClientRepresentation.memberNames`).
    private(set) var memberNames: Set<String> = []

    /// Walks every named schema the operations' bodies reach, once.
    init(document: OpenAPIDocument) {
        self.document = document
        var pending: [(key: String, schema: RefOr<Schema>)] = []
        var scratch = Node()
        for (_, _, operation, _) in document.operations {
            for root in Self.bodySchemas(of: operation, in: document) { scan(root, into: &scratch, pending: &pending) }
        }
        while let (key, schema) = pending.popLast() {
            guard nodes[key] == nil else { continue }
            nodes[key] = Node()
            var node = Node()
            if let resolved = document.resolve(schema) { scanProperties(of: resolved, into: &node, pending: &pending) }
            nodes[key] = node
        }
        // Backwards from the marked schemas, along the references.
        var referrers: [String: [String]] = [:]
        for (key, node) in nodes {
            for target in node.references { referrers[target, default: []].append(key) }
        }
        var stack = nodes.filter { !$0.value.secrets.isEmpty || $0.value.isLoggable }.map(\.key)
        while let key = stack.popLast() {
            guard leadsToMark.insert(key).inserted else { continue }
            stack += referrers[key] ?? []
        }
    }

    /// The schemas of an operation's request and response bodies.
    private static func bodySchemas(of operation: OpenAPIModel.Operation, in document: OpenAPIDocument) -> [RefOr<Schema>?] {
        var roots: [RefOr<Schema>?] = []
        if let body = operation.requestBody.flatMap({ document.resolve($0) }) { roots += body.content.values.map(\.schema) }
        for reference in operation.responses.values {
            guard let response = document.resolve(reference) else { continue }
            roots += response.content.values.map(\.schema)
        }
        return roots
    }

    /// Adds an inline schema's names to `node`, or records the named schema
    /// a reference names (queued in `pending` for its own walk).
    private func scan(_ schema: RefOr<Schema>?, into node: inout Node, pending: inout [(key: String, schema: RefOr<Schema>)]) {
        guard let schema else { return }
        if let key = Self.referenceKey(schema) {
            node.references.append(key)
            if nodes[key] == nil { pending.append((key, schema)) }
            return
        }
        guard case .value(let inline) = schema else { return }
        scanProperties(of: inline, into: &node, pending: &pending)
    }

    /// A schema's properties, items, map values and `allOf`, `oneOf` and
    /// `anyOf` parts.
    private func scanProperties(of schema: Schema, into node: inout Node, pending: inout [(key: String, schema: RefOr<Schema>)]) {
        for (property, value) in schema.properties {
            memberNames.insert(property)
            if isMarked(value, by: Self.isSecret) { node.secrets.insert(property) }
            if !node.isLoggable, isMarked(value, by: Self.isLoggable) { node.isLoggable = true }
            scan(value, into: &node, pending: &pending)
        }
        scan(schema.items, into: &node, pending: &pending)
        if case .schema(let values)? = schema.additionalProperties { scan(values, into: &node, pending: &pending) }
        for part in schema.allOf + schema.oneOf + schema.anyOf { scan(part, into: &node, pending: &pending) }
    }

    /// What `operation` marks: the wire names of its query, header and
    /// cookie parameters and of the properties of its request and response
    /// bodies, the names of its path parameters, and the paths of its
    /// loggable properties.
    func marks(of operation: OpenAPIModel.Operation, parameters: [Parameter]) -> Marks {
        var names = Names()
        var pathParameters = Set<String>()
        for parameter in parameters where isSecret(parameter) {
            if parameter.location == .path { pathParameters.insert(parameter.name) } else { names.secret.insert(parameter.name) }
        }
        let roots = Self.bodySchemas(of: operation, in: document)
        for root in roots {
            // An inline root holds names of its own; a named one is a node.
            var inline = Node()
            var ignored: [(key: String, schema: RefOr<Schema>)] = []
            if case .value(let schema)? = root { scanProperties(of: schema, into: &inline, pending: &ignored) }
            if let root, let key = Self.referenceKey(root) { inline.references = [key] }
            names.secret.formUnion(inline.secrets)
            if inline.isLoggable { names.hasLoggableMark = true }
            var stack = inline.references.filter { leadsToMark.contains($0) }
            while let key = stack.popLast() {
                guard names.visited.insert(key).inserted, let node = nodes[key] else { continue }
                names.secret.formUnion(node.secrets)
                if node.isLoggable { names.hasLoggableMark = true }
                stack += node.references.filter { leadsToMark.contains($0) }
            }
        }
        var paths = Set<String>()
        if names.hasLoggableMark {
            var budget = Self.pathSearchBudget
            for root in roots { collectPaths(root, at: "", depth: 0, above: [], budget: &budget, into: &paths) }
        }
        let loggable = paths.filter { path in !names.secret.contains(Self.lastName(of: path)) }
        return Marks(secretFields: names.secret.sorted(), secretPathParameters: pathParameters.sorted(), loggablePaths: loggable.sorted())
    }

    /// Whether the parameter, or its schema, is marked secret.
    func isSecret(_ parameter: Parameter) -> Bool {
        Self.marks(parameter.extensions, "x-secret") || isMarked(parameter.schema ?? parameter.content.values.first?.schema, by: Self.isSecret)
    }

    /// The last property name of a path (`status` of `items[].status`).
    private static func lastName(of path: String) -> String {
        let last = path.split(separator: ".").last.map(String.init) ?? path
        return last.hasSuffix("[]") ? String(last.dropLast(2)) : last
    }

    /// Whether `name` can be a segment of a path: not empty, no `.`, `[`
    /// or `]`, so no other path reads the same.
    private static func isPathSegment(_ name: String) -> Bool {
        !name.isEmpty && !name.contains { $0 == "." || $0 == "[" || $0 == "]" }
    }

    /// The named schema a reference names, as a key.
    private static func referenceKey(_ schema: RefOr<Schema>) -> String? {
        schema.reference.map { $0.target.map(\.description) ?? $0.ref }
    }

    /// Whether the schema, or the schema it refers to (or one of its
    /// `allOf` parts, each named one once), carries the mark `test` looks for.
    private func isMarked(_ schema: RefOr<Schema>?, by test: (Schema) -> Bool) -> Bool {
        var seen = Set<String>()
        return isMarked(schema, by: test, seen: &seen)
    }

    private func isMarked(_ schema: RefOr<Schema>?, by test: (Schema) -> Bool, seen: inout Set<String>) -> Bool {
        guard let schema else { return false }
        if case .value(let value) = schema, test(value) { return true }
        if let key = Self.referenceKey(schema), !seen.insert(key).inserted { return false }
        guard let resolved = document.resolve(schema) else { return false }
        if test(resolved) { return true }
        for part in resolved.allOf where isMarked(part, by: test, seen: &seen) { return true }
        return false
    }

    /// The paths of the loggable properties under `schema`, which stands at
    /// `path` (`""` for a body's root); `above` holds the named schemas on
    /// the way there, so a recursion is followed one level.
    private func collectPaths(
        _ schema: RefOr<Schema>?, at path: String, depth: Int, above: Set<String>, budget: inout Int, into paths: inout Set<String>
    ) {
        guard let schema, depth <= Self.maximumPathDepth, budget > 0 else { return }
        budget -= 1
        var above = above
        if let key = Self.referenceKey(schema), !above.insert(key).inserted { return }
        guard let resolved = document.resolve(schema) else { return }
        for (property, value) in resolved.properties where Self.isPathSegment(property) {
            let child = path.isEmpty ? property : path + "." + property
            if isMarked(value, by: Self.isLoggable) { paths.insert(child) }
            collectPaths(value, at: child, depth: depth + 1, above: above, budget: &budget, into: &paths)
        }
        collectPaths(resolved.items, at: path + "[]", depth: depth + 1, above: above, budget: &budget, into: &paths)
        for part in resolved.allOf + resolved.oneOf + resolved.anyOf {
            collectPaths(part, at: path, depth: depth + 1, above: above, budget: &budget, into: &paths)
        }
    }

    private static func isSecret(_ schema: Schema) -> Bool {
        marks(schema.extensions, "x-secret") || schema.format == "password"
    }

    private static func isLoggable(_ schema: Schema) -> Bool {
        marks(schema.extensions, "x-loggable")
    }

    private static func marks(_ extensions: OrderedMap<JSONValue>, _ name: String) -> Bool {
        if case .bool(true)? = extensions[name] { return true }
        return false
    }
}
