import OpenAPIModel

/// One operation, ready to render as client methods.
public struct OperationDeclaration: Sendable, Hashable {
    /// The `operationId`, or the name made from method and path.
    public var id: String
    /// The method name (`verifyOTP`).
    public var methodName: String
    /// The name of the variant that returns the full response (`verifyOTPResponse`).
    public var responseMethodName: String
    /// The HTTP method.
    public var method: HTTPMethod
    /// The path template.
    public var path: String
    /// The doc comment (summary and description).
    public var documentation: String?
    /// `deprecated`.
    public var isDeprecated: Bool
    /// The arguments, in signature order.
    public var parameters: [ParameterDeclaration]
    /// The request body, if any.
    public var body: BodyDeclaration?
    /// What a success returns.
    public var success: ResultDeclaration
    /// What an error status throws.
    public var failure: ResultDeclaration?
    /// Every documented status -> how it is read.
    public var responses: [ResponseCase]
    /// Security alternatives: requirement -> (scheme name, scopes).
    public var security: [[SecurityUse]]
    /// The `Accept` header value.
    public var accept: String?
    /// Whether a retry layer may send the operation more than once: the
    /// method's semantics, or the spec's `x-idempotent`.
    public var isIdempotent: Bool

    /// Whether RFC 9110 (section 9.2.2) makes the method idempotent: GET,
    /// HEAD, OPTIONS, TRACE, PUT and DELETE, and QUERY (OpenAPI 3.2). The
    /// runtime assumes the same when a descriptor does not say.
    public var isIdempotentByMethod: Bool { [.get, .head, .options, .trace, .put, .delete, .query].contains(method) }
    /// The method that decodes the success body's array while it arrives,
    /// when the spec asks for one (`x-stream-array`).
    public var streaming: StreamingDeclaration?
    /// The method that reads a success body of a sequential media type
    /// (server-sent events, JSON Lines, JSON Sequences) one element at a time.
    public var events: EventStreamDeclaration?
    /// The request body of a sequential media type, which the events method
    /// takes as the app's `AsyncSequence` of elements, written while they
    /// are produced (the plain method takes the body's bytes or text).
    public var requestEvents: RequestEventStreamDeclaration?
    /// How the operation pages, when its spec shows it: the `...Pages`
    /// method (``PaginationAnalysis``).
    public var pagination: PaginationDeclaration?
    /// The events method's name (`uploadLogsEvents`): the method whose
    /// sequential bodies, the request's or the response's or both, are
    /// sequences of typed elements. Nil when neither body is sequential.
    public var eventsMethodName: String? { events?.methodName ?? requestEvents?.methodName }
    /// Whether the runtime's response cache may keep the responses, and
    /// their freshness when the server states none (`x-cache`).
    public var cache: CacheExtension = .byHeaders
    /// Whether the app may queue the write while offline (`x-offline-queue`).
    public var isOfflineQueueable: Bool = false
    /// The wire names of the parameters and body properties the spec marks
    /// secret (`x-secret: true`, `format: password`), sorted.
    public var secretFields: [String] = []
    /// The path parameters the spec marks secret, sorted.
    public var secretPathParameters: [String] = []
    /// Where in its bodies the properties the spec marks safe to log
    /// (`x-loggable: true`, and not secret) stand (`transactions[].status`),
    /// sorted.
    public var loggablePaths: [String] = []

    /// One argument of the generated method.
    public enum Argument: Sendable, Hashable {
        /// A parameter.
        case parameter(ParameterDeclaration)
        /// The request body (label `body`).
        case body(BodyDeclaration)
    }

    /// The generated method's arguments in order: required parameters, the
    /// body, then optional parameters (so defaulted arguments come last).
    /// The renderer and the spec diff's Swift symbols both read this order.
    public var arguments: [Argument] {
        parameters.filter { !$0.isOptional }.map(Argument.parameter)
            + (body.map { [Argument.body($0)] } ?? [])
            + parameters.filter(\.isOptional).map(Argument.parameter)
    }
}

/// A method that decodes a success response's JSON array element by element
/// (`StreamedJSONArray`).
public struct StreamingDeclaration: Sendable, Hashable {
    /// The method name (`syncBrandingStreamed`).
    public var methodName: String
    /// The success status whose body is streamed (`200`, `2XX`).
    public var status: String
    /// The array's property in the body's object; nil when the body is the array.
    public var member: String?
    /// The array's element type.
    public var elementType: SwiftType
    /// What the rest of the body decodes into: the success type (its array
    /// empty), or `EmptyBody` when the body is the array.
    public var envelopeType: SwiftType
}

/// A method that reads a success response of a sequential media type one
/// element at a time (`EventStream`).
public struct EventStreamDeclaration: Sendable, Hashable {
    /// The method name (`createChatCompletionEvents`).
    public var methodName: String
    /// The success status whose body is the stream (`200`, `2XX`).
    public var status: String
    /// The sequential media types of that response, as the spec writes
    /// them, in its order (the method's `Accept`).
    public var mediaTypes: [String]
    /// The runtime's `EventStreamFormat` case of the first one
    /// (`serverSentEvents`): how a body without a `Content-Type` is read.
    public var expectedFormat: String
    /// The type each element's data decodes into; nil when the spec gives
    /// the elements no schema, so each arrives as its text.
    public var payloadType: SwiftType?
}

/// The media types of a multipart body's parts by position (3.2's
/// `prefixEncoding`, then `itemEncoding`); nil for the default.
package struct PositionalPartsDeclaration: Sendable, Hashable {
    /// The first items' media types, in order.
    package var prefixContentTypes: [String?]
    /// The media type of every later item.
    package var itemContentType: String?
}

/// A request body of a sequential media type, sent from the app's sequence
/// of elements (`RequestBuilder.setEventStreamBody`).
public struct RequestEventStreamDeclaration: Sendable, Hashable {
    /// The events method's name (`uploadLogsEvents`), shared with
    /// ``EventStreamDeclaration/methodName`` when the response streams too.
    public var methodName: String
    /// The media type sent as `Content-Type`, as the spec writes it.
    public var contentType: String
    /// The runtime's `EventStreamFormat` case (`jsonLines`).
    public var format: String
    /// Each element's type; nil when the spec gives the elements no schema,
    /// so the app passes each element's text.
    public var elementType: SwiftType?
}

/// A security scheme used by an operation.
public struct SecurityUse: Sendable, Hashable {
    /// The scheme name.
    public var name: String
    /// How the scheme is applied.
    public var kind: SecurityKind
    /// The scopes.
    public var scopes: [String]
}

/// A path, query, header or cookie parameter as a method argument.
public struct ParameterDeclaration: Sendable, Hashable {
    /// The argument label.
    public var label: String
    /// The wire name.
    public var wireName: String
    /// Where the value goes.
    public var location: ParameterLocation
    /// The argument type (optional ones end in `?`).
    public var type: SwiftType
    /// Whether the argument may be left out.
    public var isOptional: Bool
    /// How the value is written (the location's default filled in).
    public var style: ParameterStyle
    /// `explode`.
    public var explode: Bool
    /// Whether the spec gives `content` with a JSON media type instead of a
    /// `schema`: the value is sent as its JSON text.
    public var isJSONContent: Bool = false
    /// The doc comment.
    public var documentation: String?
    /// The constraints on the value (string, number, or array count).
    public var constraints: ConstraintDeclaration?
    /// The constraints on each element of an array value.
    public var elementConstraints: ConstraintDeclaration?
    /// `allowReserved`: RFC 3986 reserved characters go unescaped (query parameters).
    package var allowReserved: Bool = false
    /// The media type of its `content` (a 3.2 `querystring` parameter's:
    /// how the whole query string is written).
    package var contentType: String?

    /// The validation path of the value: `query.limit`.
    public var validationKey: String { "\(location.rawValue).\(wireName)" }
}

/// The request body argument.
public struct BodyDeclaration: Sendable, Hashable {
    /// How the body is encoded.
    public enum Encoding: String, Sendable, Hashable {
        /// JSON.
        case json
        /// `application/x-www-form-urlencoded`.
        case form
        /// `multipart/form-data`.
        case multipart
        /// Text.
        case text
        /// Raw bytes.
        case data
    }

    /// The Swift type.
    public var type: SwiftType
    /// Whether it may be left out.
    public var isOptional: Bool
    /// How it is encoded.
    public var encoding: Encoding
    /// The media type sent.
    public var contentType: String
    /// The doc comment.
    public var documentation: String?
    /// The constraints on a body that is not a type of its own (an array's count, a string).
    public var constraints: ConstraintDeclaration?
    /// The constraints on each element of an array body.
    public var elementConstraints: ConstraintDeclaration?
    /// A multipart body's parts, when its type is a declared structure; nil
    /// for other multipart bodies (each member of their JSON is a part).
    public var multipartParts: [MultipartPart]?
    /// The media type's `encoding` entries, by property wire name, sorted:
    /// how each field of a form body (or part of a multipart body) is written.
    package var fieldEncodings: [FieldEncodingDeclaration] = []
    /// A multipart body whose schema is an array: each item a part of its
    /// own, by position, with OpenAPI 3.2's `prefixEncoding` and
    /// `itemEncoding` media types; nil for a form of named fields.
    package var positionalParts: PositionalPartsDeclaration?
}

/// The spec's Encoding object for one property of a form or multipart body.
package struct FieldEncodingDeclaration: Sendable, Hashable {
    /// The property's wire name.
    package var name: String
    /// `style` (`form`, `spaceDelimited`, `pipeDelimited`, `deepObject`); nil for the default.
    package var style: String?
    /// `explode`; nil for the style's default.
    package var explode: Bool?
    /// `allowReserved`.
    package var allowReserved: Bool
    /// `contentType`: the first media type listed.
    package var contentType: String?

    /// An encoding.
    package init(name: String, style: String? = nil, explode: Bool? = nil, allowReserved: Bool = false, contentType: String? = nil) {
        self.name = name
        self.style = style
        self.explode = explode
        self.allowReserved = allowReserved
        self.contentType = contentType
    }
}

/// The type a method returns or throws.
public enum ResultDeclaration: Sendable, Hashable {
    /// Nothing (`Void`; `EmptyBody` in `Response`/`APIError`).
    case empty
    /// One type for every status.
    case single(SwiftType)
    /// A generated enum with a case per status.
    case perStatus(name: String, cases: [StatusCase])

    /// The type in `Response<...>`/`APIError<...>`.
    package var bodyType: String {
        switch self {
        case .empty: return "EmptyBody"
        case .single(let type): return type.description
        case .perStatus(let name, _): return name
        }
    }
}

/// A case of a per-status enum.
public struct StatusCase: Sendable, Hashable {
    /// The case name (`created`, `status418`).
    package var name: String
    /// The payload, if the response has content.
    package var type: SwiftType?
    /// The status description.
    package var documentation: String?
}

/// How one documented status is read.
public struct ResponseCase: Sendable, Hashable {
    /// How the body is decoded.
    public enum Decoding: Sendable, Hashable {
        /// No content.
        case none
        /// JSON into a type.
        case json(SwiftType)
        /// Text.
        case text
        /// Raw bytes.
        case data
    }

    /// `200`, `4XX` or `default`.
    package var status: String
    /// Whether it is a success.
    package var isSuccess: Bool
    /// How the body is decoded.
    package var decoding: Decoding
    /// The case of the per-status enum, when the result has one.
    package var caseName: String?
}
