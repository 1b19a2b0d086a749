/// `x-assumed: true`: what the spec states but the API's own document does
/// not, a guess of the spec's author (a pattern, a bound, a field, a whole
/// payload). Code generation treats a guess as a guess: it never refuses a
/// request for breaking an assumed constraint, and it decodes an assumed
/// field of a response leniently (absent, `null` or of another type: `nil`,
/// reported once), so a real backend that differs from the guess is still
/// reachable. What the document does state stays strict.
///
/// Where it goes:
/// - on a parameter (or its schema): its constraints are assumed;
/// - on a property: its presence, type and constraints are assumed;
/// - on a schema: its own constraints are assumed, and, for an object, every
///   property's (a property can opt out with `x-assumed: false`).
public enum AssumedExtension {
    /// `x-assumed`.
    public static let extensionName = "x-assumed"

    /// The mark in `extensions`: true, false (an explicit opt-out), or nil
    /// when there is none (or it is not a boolean).
    public static func value(_ extensions: OrderedMap<JSONValue>) -> Bool? {
        if case .bool(let value)? = extensions[extensionName] { return value }
        return nil
    }

    /// Whether `extensions` marks a guess.
    public static func isMarked(_ extensions: OrderedMap<JSONValue>) -> Bool {
        value(extensions) == true
    }

    /// Whether a property is a guess: its own mark (`x-assumed: false` opts
    /// out), else its object's (`objectAssumed`).
    public static func isAssumed(_ property: RefOr<Schema>, objectAssumed: Bool) -> Bool {
        let own: Bool? = if case .value(let inline) = property { value(inline.extensions) } else { nil }
        return own ?? objectAssumed
    }

    /// Every guess `document` marks, in file order: component schemas
    /// and their properties (nested inline objects too), component
    /// parameters, and the parameters and inline body schemas of operations.
    public static func marks(in document: OpenAPIDocument) -> [AssumedMark] {
        var marks: [AssumedMark] = []
        func walk(_ schema: RefOr<Schema>?, name: String, depth: Int, parentAssumed: Bool) {
            guard depth < 8, case .value(let node)? = schema else { return }
            let marked = value(node.extensions)
            if marked == true, !parentAssumed {
                let kind = depth == 0 ? "schema" : "property"
                let scope = !node.properties.isEmpty ? "its constraints and every property"
                    : depth == 0 ? "its constraints" : "its presence, type and constraints"
                marks.append(AssumedMark(subject: "\(kind) \(name)", scope: scope, location: node.location))
            }
            let assumed = marked ?? parentAssumed
            for (property, child) in node.properties { walk(child, name: "\(name).\(property)", depth: depth + 1, parentAssumed: assumed) }
            walk(node.items, name: "\(name)[]", depth: depth + 1, parentAssumed: assumed)
        }
        for (name, schema) in document.components.schemas { walk(schema, name: name, depth: 0, parentAssumed: false) }
        func parameter(_ reference: RefOr<Parameter>, of owner: String?) {
            guard case .value(let parameter) = reference else { return }
            let schemaMarked = parameter.schema.flatMap { reference -> Bool? in
                if case .value(let schema) = reference { return isMarked(schema.extensions) }
                return nil
            } ?? false
            guard isMarked(parameter.extensions) || schemaMarked else { return }
            let subject = "parameter \(parameter.name) (\(parameter.location.rawValue))" + (owner.map { " of \($0)" } ?? "")
            marks.append(AssumedMark(subject: subject, scope: "its constraints", location: parameter.sourceLocation))
        }
        for (_, reference) in document.components.parameters { parameter(reference, of: nil) }
        for (path, method, operation, item) in document.operations {
            let owner = operation.operationId ?? "\(method.rawValue.uppercased()) \(path)"
            for reference in operation.parameters { parameter(reference, of: owner) }
            for reference in item.parameters { parameter(reference, of: owner) }
            if case .value(let body)? = operation.requestBody {
                for (_, media) in body.content { walk(media.schema, name: "body of \(owner)", depth: 0, parentAssumed: false) }
            }
        }
        return marks.sorted { ($0.location.file, $0.location.line, $0.location.column) < ($1.location.file, $1.location.line, $1.location.column) }
    }
}

/// One guess a spec marks with `x-assumed: true`.
public struct AssumedMark: Sendable, Hashable, CustomStringConvertible {
    /// What is marked: `schema Mood`, `property Mood.score`, `parameter from (query) of listTransactions`.
    public let subject: String
    /// What of it is assumed: `its constraints`, `its presence, type and constraints`, ...
    public let scope: String
    /// Where the mark is.
    public let location: SourceLocation

    /// `file:line:column: assumed: schema Mood (its constraints and every property)`.
    public var description: String {
        "\(location.file):\(location.line):\(location.column): assumed: \(subject) (\(scope))"
    }
}
