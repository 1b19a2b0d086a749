import OpenAPIModel

/// Which of an operation's values the spec marks secret, for the runtime's
/// log redaction (`OperationDescriptor.secretFields`,
/// `OperationDescriptor.secretPathParameters`): a parameter, a property or a
/// schema with `x-secret: true`, or a string with `format: password`. A
/// property is secret when it or the schema it names is marked; a path
/// parameter the same way.
///
/// The runtime's redactor already masks the common names of credentials
/// and personal data; the marks add what no list of names can know (a
/// `linkToken`, a tracking `session_id` that also appears in a URL path).
struct SecretAnalysis {
    let document: OpenAPIDocument

    /// How deep properties are followed into nested objects and arrays.
    private static let maximumDepth = 6

    /// What `operation` marks secret: the wire names of its query, header
    /// and cookie parameters and of the properties of its request and
    /// response bodies, and the names of its path parameters.
    func secrets(of operation: OpenAPIModel.Operation, parameters: [Parameter]) -> (fields: [String], pathParameters: [String]) {
        var fields = Set<String>()
        var pathParameters = Set<String>()
        for parameter in parameters where isMarked(parameter) {
            if parameter.location == .path { pathParameters.insert(parameter.name) } else { fields.insert(parameter.name) }
        }
        var visited = Set<String>()
        if let body = operation.requestBody.flatMap({ document.resolve($0) }) {
            for media in body.content.values { collect(media.schema, depth: 0, into: &fields, visited: &visited) }
        }
        for reference in operation.responses.values {
            guard let response = document.resolve(reference) else { continue }
            for media in response.content.values { collect(media.schema, depth: 0, into: &fields, visited: &visited) }
        }
        return (fields.sorted(), pathParameters.sorted())
    }

    /// Whether the parameter, or its schema, is marked.
    func isMarked(_ parameter: Parameter) -> Bool {
        Self.marks(parameter.extensions) || isMarked(parameter.schema ?? parameter.content.values.first?.schema)
    }

    /// Whether the schema, or the schema it refers to, is marked.
    func isMarked(_ schema: RefOr<Schema>?) -> Bool {
        guard let schema else { return false }
        if case .value(let value) = schema, Self.marks(value) { return true }
        guard let resolved = document.resolve(schema) else { return false }
        return Self.marks(resolved) || resolved.allOf.contains { isMarked($0) }
    }

    /// Adds the marked properties under `schema` (through `items`, `allOf`,
    /// `oneOf`, `anyOf` and nested objects), each named schema once.
    private func collect(_ schema: RefOr<Schema>?, depth: Int, into fields: inout Set<String>, visited: inout Set<String>) {
        guard let schema, depth <= Self.maximumDepth else { return }
        if let reference = schema.reference {
            guard visited.insert(reference.target.map(\.description) ?? reference.ref).inserted else { return }
        }
        guard let resolved = document.resolve(schema) else { return }
        for (name, property) in resolved.properties where isMarked(property) { fields.insert(name) }
        for property in resolved.properties.values { collect(property, depth: depth + 1, into: &fields, visited: &visited) }
        collect(resolved.items, depth: depth + 1, into: &fields, visited: &visited)
        for part in resolved.allOf + resolved.oneOf + resolved.anyOf { collect(part, depth: depth + 1, into: &fields, visited: &visited) }
    }

    private static func marks(_ schema: Schema) -> Bool {
        marks(schema.extensions) || schema.format == "password"
    }

    private static func marks(_ extensions: OrderedMap<JSONValue>) -> Bool {
        if case .bool(true)? = extensions["x-secret"] { return true }
        return false
    }
}
