/// How an operation's security scheme is applied: the generated
/// `SecuritySchemeDescriptor.Kind`.
public enum SecurityKind: Sendable, Hashable {
    /// An API key in the named header.
    case apiKeyHeader(name: String)
    /// An API key in the named query parameter.
    case apiKeyQuery(name: String)
    /// An API key in the named cookie.
    case apiKeyCookie(name: String)
    /// HTTP authentication with a scheme (`bearer`, `basic`, `digest`), as the
    /// spec spells it (scheme names are case-insensitive).
    case http(scheme: String)
    /// OAuth 2.
    case oauth2
    /// OpenID Connect.
    case openIDConnect
    /// Mutual TLS.
    case mutualTLS
}
