import OpenAPIModel

/// What the spec says of an operation's values in a log, for the runtime's
/// redaction (`OperationDescriptor.secretFields`,
/// `OperationDescriptor.secretPathParameters`,
/// `OperationDescriptor.loggableFields`):
///
/// - secret: a parameter, a property or a schema with `x-secret: true`, or
///   a string with `format: password`; masked wherever it appears.
/// - loggable: a property or a schema with `x-loggable: true`; a body's log
///   shows its value, where every other field shows only its shape.
///
/// A property is marked when it or the schema it names is marked; a path
/// parameter the same way. The runtime's redactor already masks the common
/// names of credentials and personal data; the secret marks add what no
/// list of names can know (a `linkToken`, a tracking `session_id` that also
/// appears in a URL path), and the loggable marks are the only way a
/// body's value reaches a log.
struct LogMarkAnalysis {
    let document: OpenAPIDocument

    /// How deep properties are followed into nested objects and arrays.
    private static let maximumDepth = 6

    /// An operation's marked names.
    struct Marks {
        /// The wire names of the secret query, header and cookie parameters
        /// and body properties, sorted.
        var secretFields: [String] = []
        /// The names of the secret path parameters, sorted.
        var secretPathParameters: [String] = []
        /// The wire names of the loggable body properties that are not also
        /// secret, sorted.
        var loggableFields: [String] = []
    }

    /// What `operation` marks: the wire names of its query, header and
    /// cookie parameters and of the properties of its request and response
    /// bodies, and the names of its path parameters.
    func marks(of operation: OpenAPIModel.Operation, parameters: [Parameter]) -> Marks {
        var found = Found()
        for parameter in parameters where isSecret(parameter) {
            if parameter.location == .path { found.pathParameters.insert(parameter.name) } else { found.secret.insert(parameter.name) }
        }
        var visited = Set<String>()
        if let body = operation.requestBody.flatMap({ document.resolve($0) }) {
            for media in body.content.values { collect(media.schema, depth: 0, into: &found, visited: &visited) }
        }
        for reference in operation.responses.values {
            guard let response = document.resolve(reference) else { continue }
            for media in response.content.values { collect(media.schema, depth: 0, into: &found, visited: &visited) }
        }
        return Marks(
            secretFields: found.secret.sorted(), secretPathParameters: found.pathParameters.sorted(),
            loggableFields: found.loggable.subtracting(found.secret).sorted())
    }

    /// Whether the parameter, or its schema, is marked secret.
    func isSecret(_ parameter: Parameter) -> Bool {
        Self.marks(parameter.extensions, "x-secret") || isMarked(parameter.schema ?? parameter.content.values.first?.schema, by: Self.isSecret)
    }

    /// The names found so far.
    private struct Found {
        var secret = Set<String>()
        var pathParameters = Set<String>()
        var loggable = Set<String>()
    }

    /// Whether the schema, or the schema it refers to (or one of its
    /// `allOf` parts), carries the mark `test` looks for.
    private func isMarked(_ schema: RefOr<Schema>?, by test: (Schema) -> Bool) -> Bool {
        guard let schema else { return false }
        if case .value(let value) = schema, test(value) { return true }
        guard let resolved = document.resolve(schema) else { return false }
        return test(resolved) || resolved.allOf.contains { isMarked($0, by: test) }
    }

    /// Adds the marked properties under `schema` (through `items`, `allOf`,
    /// `oneOf`, `anyOf` and nested objects), each named schema once.
    private func collect(_ schema: RefOr<Schema>?, depth: Int, into found: inout Found, visited: inout Set<String>) {
        guard let schema, depth <= Self.maximumDepth else { return }
        if let reference = schema.reference {
            guard visited.insert(reference.target.map(\.description) ?? reference.ref).inserted else { return }
        }
        guard let resolved = document.resolve(schema) else { return }
        for (name, property) in resolved.properties {
            if isMarked(property, by: Self.isSecret) { found.secret.insert(name) }
            if isMarked(property, by: Self.isLoggable) { found.loggable.insert(name) }
        }
        for property in resolved.properties.values { collect(property, depth: depth + 1, into: &found, visited: &visited) }
        collect(resolved.items, depth: depth + 1, into: &found, visited: &visited)
        for part in resolved.allOf + resolved.oneOf + resolved.anyOf { collect(part, depth: depth + 1, into: &found, visited: &visited) }
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
