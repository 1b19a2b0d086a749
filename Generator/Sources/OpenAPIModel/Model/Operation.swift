/// The HTTP method of an operation: a Path Item's fixed fields (`get` ...
/// `trace`, and OpenAPI 3.2's `query`), in the order OpenAPI lists them, or
/// a method of 3.2's `additionalOperations` (`PURGE`, `LINK`), sent as the
/// spec writes it.
public struct HTTPMethod: Sendable, Hashable, CaseIterable, RawRepresentable {
    /// The name as the spec writes it: the fixed field (`get`, `query`), or
    /// the `additionalOperations` key (`PURGE`).
    public let rawValue: String
    /// Whether it is a fixed field of the Path Item (not an additional operation).
    public let isFixedField: Bool

    private init(fixed name: String) {
        rawValue = name
        isFixedField = true
    }

    /// The fixed field `rawValue` (`get`); nil for any other text.
    public init?(rawValue: String) {
        guard let method = Self.allCases.first(where: { $0.rawValue == rawValue }) else { return nil }
        self = method
    }

    /// A method of `additionalOperations` (OpenAPI 3.2), sent as written.
    public init(additional name: String) {
        rawValue = name
        isFixedField = false
    }

    /// GET.
    public static let get = HTTPMethod(fixed: "get")
    /// PUT.
    public static let put = HTTPMethod(fixed: "put")
    /// POST.
    public static let post = HTTPMethod(fixed: "post")
    /// DELETE.
    public static let delete = HTTPMethod(fixed: "delete")
    /// OPTIONS.
    public static let options = HTTPMethod(fixed: "options")
    /// HEAD.
    public static let head = HTTPMethod(fixed: "head")
    /// PATCH.
    public static let patch = HTTPMethod(fixed: "patch")
    /// TRACE.
    public static let trace = HTTPMethod(fixed: "trace")
    /// QUERY (OpenAPI 3.2): a safe, idempotent request with a body.
    public static let query = HTTPMethod(fixed: "query")

    /// The fixed fields, in the order OpenAPI lists them.
    public static let allCases: [HTTPMethod] = [.get, .put, .post, .delete, .options, .head, .patch, .trace, .query]

    /// The method as sent on the wire: a fixed field in upper case, an
    /// additional operation's as written.
    public var wireName: String { isFixedField ? rawValue.uppercased() : rawValue }
}

/// A Path Item: the operations on one path, and parameters they share.
public struct PathItem: Sendable {
    /// `summary`.
    public var summary: String?
    /// `description`.
    public var description: String?
    /// The operations, in the order of ``HTTPMethod/allCases``, then the
    /// additional operations (3.2) in the spec's order.
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
    /// The whole query string, one value written as its `content`'s media
    /// type (OpenAPI 3.2).
    case querystring
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
    /// `itemEncoding` (3.2): how each item of a sequential multipart body is encoded.
    public var itemEncoding: Encoding?
    /// `prefixEncoding` (3.2): how the first items of a sequential multipart body are encoded, in order.
    public var prefixEncoding: [Encoding] = []
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
    /// `dataValue` (3.2): the value as data, before it is serialised.
    public var dataValue: JSONValue?
    /// `serializedValue` (3.2): the value as it goes on the wire.
    public var serializedValue: String?
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
