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
///   `transactions[].status`), and only the shape of everything else. A
///   name inside a map (`additionalProperties`) is data, so no path goes
///   through one.
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
/// Each named schema is walked once per client (memoised; a schema met
/// again inside itself is not walked again, and what was found below it
/// then is kept only once the walk is back at it), so a large spec costs
/// the size of its schemas, not of its paths.
struct LogMarkAnalysis {
    let document: OpenAPIDocument
    private let memo = Memo()

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
        /// Every property name the operation's bodies declare.
        var memberNames: Set<String> = []
    }

    /// What a schema holds, its paths relative to it.
    private struct Found {
        var secret = Set<String>()
        var loggable = Set<String>()
        var members = Set<String>()
        /// The named schemas met again inside themselves below this one and
        /// not walked there: while one is above, what was found is not all
        /// there is, and is not kept for reuse.
        var cut = Set<String>()

        /// Adds `other`, found at `segment` below this schema (`nil`: at the
        /// same place, a part of a composition).
        mutating func add(_ other: Found, at segment: String?) {
            secret.formUnion(other.secret)
            members.formUnion(other.members)
            cut.formUnion(other.cut)
            guard let segment else { return loggable.formUnion(other.loggable) }
            for path in other.loggable { loggable.insert(LogMarkAnalysis.join(segment, path)) }
        }
    }

    /// The named schemas already walked, and the ones being walked.
    private final class Memo {
        var found: [String: Found] = [:]
        var walking: Set<String> = []
    }

    /// An analysis of `document`, shared by all its operations.
    init(document: OpenAPIDocument) {
        self.document = document
    }

    /// What `operation` marks: the wire names of its query, header and
    /// cookie parameters and of the properties of its request and response
    /// bodies, the names of its path parameters, and the paths of its
    /// loggable properties.
    func marks(of operation: OpenAPIModel.Operation, parameters: [Parameter]) -> Marks {
        var found = Found()
        var pathParameters = Set<String>()
        for parameter in parameters where isSecret(parameter) {
            if parameter.location == .path { pathParameters.insert(parameter.name) } else { found.secret.insert(parameter.name) }
        }
        if let body = operation.requestBody.flatMap({ document.resolve($0) }) {
            for media in body.content.values { found.add(walk(media.schema), at: nil) }
        }
        for reference in operation.responses.values {
            guard let response = document.resolve(reference) else { continue }
            for media in response.content.values { found.add(walk(media.schema), at: nil) }
        }
        let loggable = found.loggable.filter { path in !found.secret.contains(Self.lastName(of: path)) }
        return Marks(
            secretFields: found.secret.sorted(), secretPathParameters: pathParameters.sorted(), loggablePaths: loggable.sorted(),
            memberNames: found.members)
    }

    /// Whether the parameter, or its schema, is marked secret.
    func isSecret(_ parameter: Parameter) -> Bool {
        Self.marks(parameter.extensions, "x-secret") || isMarked(parameter.schema ?? parameter.content.values.first?.schema, by: Self.isSecret)
    }

    /// `child` below `segment`: `items` and `status` give `items.status`,
    /// `items` and `[].status` give `items[].status`.
    static func join(_ segment: String, _ child: String) -> String {
        child.isEmpty ? segment : child.hasPrefix("[]") ? segment + child : segment + "." + child
    }

    /// The last property name of a path (`status` of `items[].status`).
    private static func lastName(of path: String) -> String {
        let last = path.split(separator: ".").last.map(String.init) ?? path
        return last.hasSuffix("[]") ? String(last.dropLast(2)) : last
    }

    /// Whether the schema, or the schema it refers to (or one of its
    /// `allOf` parts), carries the mark `test` looks for.
    private func isMarked(_ schema: RefOr<Schema>?, by test: (Schema) -> Bool) -> Bool {
        guard let schema else { return false }
        if case .value(let value) = schema, test(value) { return true }
        guard let resolved = document.resolve(schema) else { return false }
        return test(resolved) || resolved.allOf.contains { isMarked($0, by: test) }
    }

    /// The marks under `schema`, through `properties`, `items`, the values
    /// of a map (their names and secrets, never a loggable path), `allOf`,
    /// `oneOf` and `anyOf`.
    private func walk(_ schema: RefOr<Schema>?) -> Found {
        guard let schema else { return Found() }
        let name = schema.reference.map { $0.target.map(\.description) ?? $0.ref }
        if let name {
            if let known = memo.found[name] { return known }
            // Met again inside itself: its marks are those found where it began.
            guard memo.walking.insert(name).inserted else { return Found(cut: [name]) }
        }
        var found = Found()
        if let resolved = document.resolve(schema) {
            for (property, value) in resolved.properties {
                found.members.insert(property)
                if isMarked(value, by: Self.isSecret) { found.secret.insert(property) }
                if isMarked(value, by: Self.isLoggable) { found.loggable.insert(property) }
                found.add(walk(value), at: property)
            }
            found.add(walk(resolved.items), at: "[]")
            if case .schema(let values)? = resolved.additionalProperties {
                var inMap = walk(values)
                inMap.loggable = []
                found.add(inMap, at: nil)
            }
            for part in resolved.allOf + resolved.oneOf + resolved.anyOf { found.add(walk(part), at: nil) }
        }
        if let name {
            memo.walking.remove(name)
            found.cut.remove(name)
            if found.cut.isEmpty { memo.found[name] = found }
        }
        return found
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
