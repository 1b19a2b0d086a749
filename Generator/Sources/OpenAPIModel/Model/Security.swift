/// A Security Scheme Object.
public struct SecurityScheme: Sendable {
    /// The kind of scheme.
    public enum Kind: String, Sendable, Hashable {
        /// An API key in a header, query parameter or cookie.
        case apiKey
        /// HTTP authentication (`bearer`, `basic`, ...).
        case http
        /// Mutual TLS (3.1).
        case mutualTLS
        /// OAuth 2 flows.
        case oauth2
        /// OpenID Connect discovery.
        case openIdConnect
    }

    /// `type`.
    public var kind: Kind = .http
    /// `description`.
    public var description: String?
    /// `name`: the header, query or cookie name of an API key (`X-API-Key`).
    public var name: String?
    /// `in` for API keys: `header`, `query` or `cookie`.
    public var keyLocation: String?
    /// `scheme` for HTTP (`bearer`, `basic`).
    public var scheme: String?
    /// `bearerFormat` (`JWT`).
    public var bearerFormat: String?
    /// `flows` for OAuth 2.
    public var flows = OrderedMap<OAuthFlow>()
    /// `openIdConnectUrl`.
    public var openIdConnectURL: String?
    /// `oauth2MetadataUrl` (3.2): the authorization server's metadata (RFC 8414).
    public var oauth2MetadataURL: String?
    /// `deprecated` (3.2).
    public var deprecated = false
    /// `x-` extensions.
    public var extensions = OrderedMap<JSONValue>()
    /// Where it is written.
    public var location: SourceLocation
}

/// One OAuth 2 flow (`authorizationCode`, `clientCredentials`, ...).
public struct OAuthFlow: Sendable {
    /// `deviceAuthorizationUrl` (3.2's `deviceAuthorization` flow, RFC 8628).
    public var deviceAuthorizationURL: String?
    /// `authorizationUrl`.
    public var authorizationURL: String?
    /// `tokenUrl`.
    public var tokenURL: String?
    /// `refreshUrl`.
    public var refreshURL: String?
    /// `scopes`: name -> description.
    public var scopes = OrderedMap<String>()
    /// Where it is written.
    public var location: SourceLocation
}

/// A Security Requirement Object: all of its schemes together satisfy it.
/// An empty requirement (`{}`) means "no authentication" is acceptable.
public struct SecurityRequirement: Sendable, Hashable {
    /// Scheme name -> required scopes, in document order.
    public var schemes = OrderedMap<[String]>()
    /// Where it is written.
    public var location: SourceLocation

    /// Hashes the schemes and scopes (not the location).
    public func hash(into hasher: inout Hasher) { hasher.combine(schemes) }
    /// Equal when the same schemes need the same scopes.
    public static func == (lhs: SecurityRequirement, rhs: SecurityRequirement) -> Bool { lhs.schemes == rhs.schemes }
}
