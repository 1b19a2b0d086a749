import HTTPTypes

/// What a generated client knows about one operation, available to
/// middlewares while the operation's request is on its way.
///
/// Generated clients declare one per operation (`Client.Operations.verifyOTP`)
/// and bind it to ``current`` around the middleware chain, so an auth
/// middleware can read which credential the operation needs without a
/// hand-written table:
///
/// ```swift
/// if let operation = OperationDescriptor.current,
///    operation.accepts(scheme: "bearerAuth") { ... }
/// ```
public struct OperationDescriptor: Sendable, Equatable {
    /// The `operationId` (also passed to middlewares as `operationID`).
    public let id: String
    /// The HTTP method.
    public let method: HTTPRequest.Method
    /// The path template as written in the spec (`/pets/{petId}`).
    public let pathTemplate: String
    /// The alternatives of security requirements: any one of them (all of its
    /// schemes together) satisfies the server. An empty list means the
    /// operation is public; a list holding an empty requirement means
    /// authentication is optional.
    public let security: [[SecuritySchemeDescriptor]]
    /// Whether the spec marks the operation `deprecated`.
    public let isDeprecated: Bool
    /// Whether sending the request twice has the effect of sending it once,
    /// so a retry layer may repeat it. Decided from the spec when the client
    /// was generated: the method's semantics (GET, HEAD, OPTIONS, TRACE, PUT,
    /// DELETE), unless the operation's `x-idempotent` says otherwise (a write
    /// the server deduplicates). An `Idempotency-Key` header alone does not
    /// make a request repeatable.
    public let isIdempotent: Bool
    /// Whether a response cache may keep the operation's responses: only a
    /// GET is cached, as its response headers allow, unless the spec's
    /// `x-cache` says `false` (``Caching/never``) or gives a freshness for
    /// responses that state none (``Caching/maxAge(seconds:)``).
    public let cache: Caching
    /// Whether the spec marks the write `x-offline-queue: true`: the app may
    /// store it while offline and send it once connectivity returns.
    public let isOfflineQueueable: Bool
    /// The wire names of the operation's parameters and body properties the
    /// spec marks secret (`x-secret: true`, `format: password`): a log
    /// redactor masks them besides the names it knows.
    public let secretFields: Set<String>
    /// The path parameters the spec marks secret: a log redactor masks
    /// their segments of the path.
    public let secretPathParameters: Set<String>
    /// Where in the operation's bodies the properties the spec marks safe
    /// to log (`x-loggable: true`) stand: `traceId`, `error.code`,
    /// `transactions[].status` (`[]` for an array's elements). A body's log
    /// shows their values there, and only the shape (members, types,
    /// lengths) of everything else.
    public let loggablePaths: Set<String>
    /// The property names the spec declares in its bodies (the whole
    /// spec's): a body's log shows an object's key only when it is one of
    /// them, since any other key (a map's) is data. Nil: not known (a
    /// descriptor made by hand), every key shown.
    public let memberNames: Set<String>?

    /// How a response cache treats the operation's responses.
    public enum Caching: Sendable, Hashable {
        /// Cached when the method is GET, as the response headers allow.
        case byHeaders
        /// Never cached (`x-cache: false`).
        case never
        /// Cached, fresh for `seconds` when the response states no freshness
        /// (`x-cache: {max-age: N}`).
        case maxAge(seconds: Int)
    }

    /// Creates a descriptor; `isIdempotent` defaults to the method's semantics.
    public init(
        id: String, method: HTTPRequest.Method, pathTemplate: String, security: [[SecuritySchemeDescriptor]], isIdempotent: Bool? = nil,
        isDeprecated: Bool = false, cache: Caching = .byHeaders, isOfflineQueueable: Bool = false, secretFields: Set<String> = [],
        secretPathParameters: Set<String> = [], loggablePaths: Set<String> = [], memberNames: Set<String>? = nil
    ) {
        self.secretFields = secretFields
        self.secretPathParameters = secretPathParameters
        self.loggablePaths = loggablePaths
        self.memberNames = memberNames
        self.id = id
        self.method = method
        self.pathTemplate = pathTemplate
        self.security = security
        self.isIdempotent = isIdempotent ?? Self.idempotentMethods.contains(method)
        self.isDeprecated = isDeprecated
        self.cache = method == .get ? cache : .never
        self.isOfflineQueueable = isOfflineQueueable
    }

    /// Whether a response cache may keep this operation's responses at all.
    public var isCacheable: Bool { cache != .never }

    /// The methods RFC 9110 (section 9.2.2) defines as idempotent, and
    /// `QUERY` (safe and idempotent, as OpenAPI 3.2 and the HTTP working
    /// group's QUERY method define it).
    public static let idempotentMethods: Set<HTTPRequest.Method> = [.get, .head, .options, .trace, .put, .delete, .named("QUERY")]

    /// Whether the operation can be called without a credential: no security
    /// requirement, or an empty one among the alternatives (optional
    /// authentication).
    public var isPublic: Bool { security.isEmpty || security.contains { $0.isEmpty } }

    /// Whether the operation cannot be called without a credential of the
    /// scheme `name`: it is not public and some requirement names the scheme.
    /// A 401 from such an operation means the credential is missing or stale.
    public func requires(scheme name: String) -> Bool { !isPublic && accepts(scheme: name) }

    /// Whether some requirement of the operation names the scheme `name`.
    public func accepts(scheme name: String) -> Bool {
        security.contains { requirement in requirement.contains { $0.name == name } }
    }

    /// The operation whose request is being sent by the current task, set by
    /// generated clients around their middleware chain.
    @TaskLocal public static var current: OperationDescriptor?
}

/// A security scheme as the operation needs it: which scheme, where the
/// credential goes, and the scopes asked for.
public struct SecuritySchemeDescriptor: Sendable, Hashable {
    /// Where a credential is sent.
    public enum Kind: Sendable, Hashable {
        /// An API key in a header (`X-API-Key`).
        case apiKeyHeader(name: String)
        /// An API key in the query string.
        case apiKeyQuery(name: String)
        /// An API key in a cookie.
        case apiKeyCookie(name: String)
        /// HTTP authentication with a scheme (`bearer`, `basic`, `digest`) in
        /// `Authorization`, as the spec spells it: compare case-insensitively.
        case http(scheme: String)
        /// OAuth 2 (a bearer token in `Authorization`).
        case oauth2
        /// OpenID Connect (a bearer token in `Authorization`).
        case openIDConnect
        /// Mutual TLS: the credential is the client certificate.
        case mutualTLS
    }

    /// The scheme's name in `components/securitySchemes` (`bearerAuth`).
    public let name: String
    /// Where the credential goes.
    public let kind: Kind
    /// The scopes the operation asks for (OAuth 2, OpenID Connect).
    public let scopes: [String]

    /// Creates a descriptor.
    public init(name: String, kind: Kind, scopes: [String] = []) {
        self.name = name
        self.kind = kind
        self.scopes = scopes
    }

    /// The header that carries the credential, when it is a header.
    public var headerName: HTTPField.Name? {
        switch kind {
        case .apiKeyHeader(let name): return HTTPField.Name(name)
        case .http, .oauth2, .openIDConnect: return .authorization
        case .apiKeyQuery, .apiKeyCookie, .mutualTLS: return nil
        }
    }
}

extension HTTPRequest.Method {
    /// A method swift-http-types has no constant for (`QUERY`, or an
    /// OpenAPI 3.2 `additionalOperations` method such as `PURGE`), by its
    /// name as sent. The generator writes only names that are HTTP tokens
    /// (it refuses others: `invalid-additional-method`); should another
    /// reach here, the request goes out as `INVALID-METHOD-NAME`, which a
    /// server refuses, rather than the app crashing.
    public static func named(_ name: String) -> HTTPRequest.Method {
        // The fallback literal is a valid token, so its initialiser cannot fail.
        HTTPRequest.Method(name) ?? HTTPRequest.Method("INVALID-METHOD-NAME")!
    }
}
