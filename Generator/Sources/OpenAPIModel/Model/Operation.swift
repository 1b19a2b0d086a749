/// The HTTP methods an operation can use, in the order OpenAPI lists them.
public enum HTTPMethod: String, Sendable, Hashable, CaseIterable {
    /// GET.
    case get
    /// PUT.
    case put
    /// POST.
    case post
    /// DELETE.
    case delete
    /// OPTIONS.
    case options
    /// HEAD.
    case head
    /// PATCH.
    case patch
    /// TRACE.
    case trace

    /// The method in upper case, as sent on the wire.
    public var wireName: String { rawValue.uppercased() }
}

/// A Path Item: the operations on one path, and parameters they share.
public struct PathItem: Sendable {
    /// `summary`.
    public var summary: String?
    /// `description`.
    public var description: String?
    /// The operations, in the order of ``HTTPMethod/allCases``.
    public var operations: [(method: HTTPMethod, operation: Operation)] = []
    /// Servers that override the document's for this path.
    public var servers: [Server] = []
    /// Parameters shared by all operations on the path.
    public var parameters: [RefOr<Parameter>] = []
    /// `x-` extensions.
    public var extensions = OrderedMap<JSONValue>()
    /// Where it is written.
    public var location: SourceLocation

    /// The operation for `method`, if defined.
    public func operation(_ method: HTTPMethod) -> Operation? {
        operations.first { $0.method == method }?.operation
    }
}

/// An Operation: one method on one path.
public struct Operation: Sendable {
    /// `tags`.
    public var tags: [String] = []
    /// `summary`.
    public var summary: String?
    /// `description`.
    public var description: String?
    /// `externalDocs`.
    public var externalDocs: ExternalDocumentation?
    /// `operationId`.
    public var operationId: String?
    /// Parameters of this operation (path-level ones are on the ``PathItem``).
    public var parameters: [RefOr<Parameter>] = []
    /// `requestBody`.
    public var requestBody: RefOr<RequestBody>?
    /// Responses by status code (`200`, `4XX`, `default`), in document order.
    public var responses = OrderedMap<RefOr<Response>>()
    /// `callbacks`: name -> expression -> path item.
    public var callbacks = OrderedMap<RefOr<Callback>>()
    /// `deprecated`.
    public var deprecated: Bool = false
    /// The operation's own `security` (nil: the document's applies; empty: none).
    public var security: [SecurityRequirement]?
    /// Servers that override the path's and the document's.
    public var servers: [Server] = []
    /// `x-` extensions.
    public var extensions = OrderedMap<JSONValue>()
    /// Where it is written.
    public var location: SourceLocation
}

/// A Callback: runtime expressions mapped to path items.
public struct Callback: Sendable {
    /// Expression (`{$request.body#/callbackUrl}`) -> path item.
    public var expressions = OrderedMap<RefOr<PathItem>>()
    /// Where it is written.
    public var location: SourceLocation
}

/// Where a parameter goes.
public enum ParameterLocation: String, Sendable, Hashable, CaseIterable {
    /// In the URL path template.
    case path
    /// In the query string.
    case query
    /// In a request header.
    case header
    /// In the `Cookie` header.
    case cookie
}

/// A Parameter Object.
public struct Parameter: Sendable {
    /// The wire name.
    public var name: String = ""
    /// Where it goes.
    public var location: ParameterLocation = .query
    /// `description`.
    public var description: String?
    /// `required` (always true for path parameters).
    public var required: Bool = false
    /// `deprecated`.
    public var deprecated: Bool = false
    /// `allowEmptyValue`.
    public var allowEmptyValue: Bool = false
    /// `style` as written (`form`, `simple`, `deepObject`, ...); see ``effectiveStyle``.
    public var style: String?
    /// `explode` as written; see ``effectiveExplode``.
    public var explode: Bool?
    /// `allowReserved`.
    public var allowReserved: Bool = false
    /// `schema`.
    public var schema: RefOr<Schema>?
    /// `content` (instead of `schema`, for complex serialisation).
    public var content = OrderedMap<MediaType>()
    /// `example`.
    public var example: JSONValue?
    /// `examples`, by name.
    public var examples = OrderedMap<RefOr<Example>>()
    /// `x-` extensions.
    public var extensions = OrderedMap<JSONValue>()
    /// Where it is written.
    public var sourceLocation: SourceLocation

    /// The style that applies: as written, else `form` for query and cookie,
    /// `simple` for path and header.
    public var effectiveStyle: String {
        style ?? ((location == .query || location == .cookie) ? "form" : "simple")
    }

    /// `explode` as written, else true exactly for the `form` style.
    public var effectiveExplode: Bool { explode ?? (effectiveStyle == "form") }
}

/// A Request Body Object.
public struct RequestBody: Sendable {
    /// `description`.
    public var description: String?
    /// Media type -> content, in document order.
    public var content = OrderedMap<MediaType>()
    /// `required`.
    public var required: Bool = false
    /// `x-` extensions.
    public var extensions = OrderedMap<JSONValue>()
    /// Where it is written.
    public var location: SourceLocation
}

/// A Media Type Object: the schema and examples of one content type.
public struct MediaType: Sendable {
    /// `schema`.
    public var schema: RefOr<Schema>?
    /// The schema of each element of a sequential media type (server-sent
    /// events, JSON Lines, JSON Sequences): OpenAPI 3.2's `itemSchema`, or
    /// `x-item-schema` in a document of any version.
    public var itemSchema: RefOr<Schema>?
    /// `example`.
    public var example: JSONValue?
    /// `examples`, by name.
    public var examples = OrderedMap<RefOr<Example>>()
    /// `encoding` per property (form and multipart bodies).
    public var encoding = OrderedMap<Encoding>()
    /// `x-` extensions.
    public var extensions = OrderedMap<JSONValue>()
    /// Where it is written.
    public var location: SourceLocation
}

/// An Encoding Object: how one property of a form or multipart body is sent.
public struct Encoding: Sendable {
    /// `contentType`.
    public var contentType: String?
    /// `headers` (multipart).
    public var headers = OrderedMap<RefOr<Header>>()
    /// `style`.
    public var style: String?
    /// `explode`.
    public var explode: Bool?
    /// `allowReserved`.
    public var allowReserved: Bool = false
    /// Where it is written.
    public var location: SourceLocation
}

/// A Response Object.
public struct Response: Sendable {
    /// `description`.
    public var description: String = ""
    /// Response headers by name.
    public var headers = OrderedMap<RefOr<Header>>()
    /// Media type -> content.
    public var content = OrderedMap<MediaType>()
    /// `links`.
    public var links = OrderedMap<RefOr<Link>>()
    /// `x-` extensions.
    public var extensions = OrderedMap<JSONValue>()
    /// Where it is written.
    public var location: SourceLocation
}

/// A Header Object (a parameter without `name` and `in`).
public struct Header: Sendable {
    /// `description`.
    public var description: String?
    /// `required`.
    public var required: Bool = false
    /// `deprecated`.
    public var deprecated: Bool = false
    /// `style` (only `simple` is allowed).
    public var style: String?
    /// `explode`.
    public var explode: Bool?
    /// `schema`.
    public var schema: RefOr<Schema>?
    /// `content`.
    public var content = OrderedMap<MediaType>()
    /// `example`.
    public var example: JSONValue?
    /// `examples`, by name.
    public var examples = OrderedMap<RefOr<Example>>()
    /// `x-` extensions.
    public var extensions = OrderedMap<JSONValue>()
    /// Where it is written.
    public var location: SourceLocation
}

/// An Example Object.
public struct Example: Sendable {
    /// `summary`.
    public var summary: String?
    /// `description`.
    public var description: String?
    /// `value`.
    public var value: JSONValue?
    /// `externalValue`.
    public var externalValue: String?
    /// Where it is written.
    public var location: SourceLocation
}

/// A Link Object.
public struct Link: Sendable {
    /// `operationRef`.
    public var operationRef: String?
    /// `operationId`.
    public var operationId: String?
    /// `parameters`: name -> value or runtime expression.
    public var parameters = OrderedMap<JSONValue>()
    /// `requestBody`.
    public var requestBody: JSONValue?
    /// `description`.
    public var description: String?
    /// `server`.
    public var server: Server?
    /// Where it is written.
    public var location: SourceLocation
}
