/// The Components Object: reusable parts of the root document.
public struct Components: Sendable {
    /// `schemas`.
    public var schemas = OrderedMap<RefOr<Schema>>()
    /// `responses`.
    public var responses = OrderedMap<RefOr<Response>>()
    /// `parameters`.
    public var parameters = OrderedMap<RefOr<Parameter>>()
    /// `examples`.
    public var examples = OrderedMap<RefOr<Example>>()
    /// `requestBodies`.
    public var requestBodies = OrderedMap<RefOr<RequestBody>>()
    /// `headers`.
    public var headers = OrderedMap<RefOr<Header>>()
    /// `securitySchemes`.
    public var securitySchemes = OrderedMap<RefOr<SecurityScheme>>()
    /// `links`.
    public var links = OrderedMap<RefOr<Link>>()
    /// `callbacks`.
    public var callbacks = OrderedMap<RefOr<Callback>>()
    /// `pathItems` (3.1).
    public var pathItems = OrderedMap<RefOr<PathItem>>()
    /// `x-` extensions.
    public var extensions = OrderedMap<JSONValue>()
}

/// Every `$ref` target of a document, parsed once, keyed by where it lives.
///
/// Local references (`#/components/schemas/Pet`) and references into other
/// files (`common.yaml#/Error`) both land here, so one look-up resolves any
/// ``Reference``.
public struct ResolvedReferences: Sendable {
    /// Schemas by target.
    public var schemas: [ReferenceTarget: Schema] = [:]
    /// Parameters by target.
    public var parameters: [ReferenceTarget: Parameter] = [:]
    /// Request bodies by target.
    public var requestBodies: [ReferenceTarget: RequestBody] = [:]
    /// Responses by target.
    public var responses: [ReferenceTarget: Response] = [:]
    /// Headers by target.
    public var headers: [ReferenceTarget: Header] = [:]
    /// Examples by target.
    public var examples: [ReferenceTarget: Example] = [:]
    /// Links by target.
    public var links: [ReferenceTarget: Link] = [:]
    /// Callbacks by target.
    public var callbacks: [ReferenceTarget: Callback] = [:]
    /// Security schemes by target.
    public var securitySchemes: [ReferenceTarget: SecurityScheme] = [:]
    /// Path items by target.
    public var pathItems: [ReferenceTarget: PathItem] = [:]
}

/// A value that a `$ref` can point at.
public protocol Referenceable: Sendable {
    /// What the value is called in messages ("schema", "parameter").
    static var kindName: String { get }
    /// The `components` key that holds values of this kind.
    static var componentsKey: String { get }
    /// Where resolved values of this kind are kept.
    static var referenceStore: WritableKeyPath<ResolvedReferences, [ReferenceTarget: Self]> { get }
}

extension Referenceable {
    /// Looks up a resolved target.
    public static func resolved(_ target: ReferenceTarget, in references: ResolvedReferences) -> Self? {
        references[keyPath: referenceStore][target]
    }
}

/// A typed, `$ref`-resolved OpenAPI 3.0 or 3.1 document.
///
/// Load one with ``OpenAPILoader``. Every model value keeps the
/// ``SourceLocation`` it was read from; every ``Reference`` resolves through
/// ``resolve(_:)`` (recursive schemas stay references, so nothing loops).
public struct OpenAPIDocument: Sendable {
    /// The `openapi` version.
    public var version: OpenAPIVersion
    /// `info`.
    public var info: Info
    /// `jsonSchemaDialect` (3.1).
    public var jsonSchemaDialect: String?
    /// `$self` (3.2): the document's own URI, the base its relative
    /// references resolve against.
    public var selfURI: String?
    /// `servers` (a single `/` server when absent, as the specification says).
    public var servers: [Server] = []
    /// `paths`: template -> path item, in document order.
    public var paths = OrderedMap<RefOr<PathItem>>()
    /// `webhooks` (3.1).
    public var webhooks = OrderedMap<RefOr<PathItem>>()
    /// `components`.
    public var components = Components()
    /// `security`: the default requirements (nil when not written).
    public var security: [SecurityRequirement]?
    /// `tags`.
    public var tags: [Tag] = []
    /// `externalDocs`.
    public var externalDocs: ExternalDocumentation?
    /// `x-` extensions.
    public var extensions = OrderedMap<JSONValue>()
    /// Every `$ref` target, parsed.
    public internal(set) var references = ResolvedReferences()
    /// The root file's name.
    public var file: String

    /// The value a reference points at; `nil` when it could not be resolved
    /// (the loader reported an error for it).
    public func resolve<T: Referenceable>(_ reference: Reference, as type: T.Type = T.self) -> T? {
        guard let target = reference.target else { return nil }
        return T.resolved(target, in: references)
    }

    /// The value itself, or what its reference points at.
    public func resolve<T: Referenceable>(_ value: RefOr<T>) -> T? {
        switch value {
        case .value(let value): return value
        case .reference(let reference): return resolve(reference, as: T.self)
        }
    }

    /// The parameters an operation takes: its path item's, overridden by its
    /// own with the same name and location (OpenAPI's rule), references
    /// resolved, in declaration order.
    public func parameters(of operation: Operation, in pathItem: PathItem) -> [Parameter] {
        var result: [Parameter] = []
        for candidate in (pathItem.parameters + operation.parameters).compactMap({ resolve($0) }) {
            if let index = result.firstIndex(where: { $0.name == candidate.name && $0.location == candidate.location }) {
                result[index] = candidate
            } else {
                result.append(candidate)
            }
        }
        return result
    }

    /// Every operation in document order: path, method, operation, and the
    /// path item's shared parameters.
    public var operations: [(path: String, method: HTTPMethod, operation: Operation, pathItem: PathItem)] {
        var result: [(path: String, method: HTTPMethod, operation: Operation, pathItem: PathItem)] = []
        for (path, item) in paths {
            guard let item = resolve(item) else { continue }
            for (method, operation) in item.operations { result.append((path, method, operation, item)) }
        }
        return result
    }
}

extension Schema: Referenceable {
    /// "schema".
    public static var kindName: String { "schema" }
    /// "schemas".
    public static var componentsKey: String { "schemas" }
    /// `ResolvedReferences.schemas`.
    public static var referenceStore: WritableKeyPath<ResolvedReferences, [ReferenceTarget: Schema]> { \.schemas }
}
extension Parameter: Referenceable {
    /// "parameter".
    public static var kindName: String { "parameter" }
    /// "parameters".
    public static var componentsKey: String { "parameters" }
    /// `ResolvedReferences.parameters`.
    public static var referenceStore: WritableKeyPath<ResolvedReferences, [ReferenceTarget: Parameter]> { \.parameters }
}
extension RequestBody: Referenceable {
    /// "request body".
    public static var kindName: String { "request body" }
    /// "requestBodies".
    public static var componentsKey: String { "requestBodies" }
    /// `ResolvedReferences.requestBodies`.
    public static var referenceStore: WritableKeyPath<ResolvedReferences, [ReferenceTarget: RequestBody]> { \.requestBodies }
}
extension Response: Referenceable {
    /// "response".
    public static var kindName: String { "response" }
    /// "responses".
    public static var componentsKey: String { "responses" }
    /// `ResolvedReferences.responses`.
    public static var referenceStore: WritableKeyPath<ResolvedReferences, [ReferenceTarget: Response]> { \.responses }
}
extension Header: Referenceable {
    /// "header".
    public static var kindName: String { "header" }
    /// "headers".
    public static var componentsKey: String { "headers" }
    /// `ResolvedReferences.headers`.
    public static var referenceStore: WritableKeyPath<ResolvedReferences, [ReferenceTarget: Header]> { \.headers }
}
extension Example: Referenceable {
    /// "example".
    public static var kindName: String { "example" }
    /// "examples".
    public static var componentsKey: String { "examples" }
    /// `ResolvedReferences.examples`.
    public static var referenceStore: WritableKeyPath<ResolvedReferences, [ReferenceTarget: Example]> { \.examples }
}
extension Link: Referenceable {
    /// "link".
    public static var kindName: String { "link" }
    /// "links".
    public static var componentsKey: String { "links" }
    /// `ResolvedReferences.links`.
    public static var referenceStore: WritableKeyPath<ResolvedReferences, [ReferenceTarget: Link]> { \.links }
}
extension Callback: Referenceable {
    /// "callback".
    public static var kindName: String { "callback" }
    /// "callbacks".
    public static var componentsKey: String { "callbacks" }
    /// `ResolvedReferences.callbacks`.
    public static var referenceStore: WritableKeyPath<ResolvedReferences, [ReferenceTarget: Callback]> { \.callbacks }
}
extension SecurityScheme: Referenceable {
    /// "security scheme".
    public static var kindName: String { "security scheme" }
    /// "securitySchemes".
    public static var componentsKey: String { "securitySchemes" }
    /// `ResolvedReferences.securitySchemes`.
    public static var referenceStore: WritableKeyPath<ResolvedReferences, [ReferenceTarget: SecurityScheme]> { \.securitySchemes }
}
extension PathItem: Referenceable {
    /// "path item".
    public static var kindName: String { "path item" }
    /// "pathItems".
    public static var componentsKey: String { "pathItems" }
    /// `ResolvedReferences.pathItems`.
    public static var referenceStore: WritableKeyPath<ResolvedReferences, [ReferenceTarget: PathItem]> { \.pathItems }
}
