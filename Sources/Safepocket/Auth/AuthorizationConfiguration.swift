import Foundation

/// How the app reaches the authorization server (Safepocket signs in through
/// the Cognito Hosted UI with Authorization Code + PKCE).
public struct AuthorizationConfiguration: Sendable, Hashable {
    /// The authorization endpoint (`https://<domain>/oauth2/authorize`).
    public var authorizeEndpoint: URL
    /// The app client's id.
    public var clientID: String
    /// Where the authorization server sends the browser back; a custom
    /// scheme registered with it (`safepocket://auth/callback`). Sent again,
    /// unchanged, with the code exchange.
    public var redirectURI: String
    /// The scopes asked for.
    public var scopes: [String]

    /// Creates a configuration.
    public init(
        authorizeEndpoint: URL, clientID: String, redirectURI: String = "safepocket://auth/callback",
        scopes: [String] = ["openid", "email", "profile"]
    ) {
        self.authorizeEndpoint = authorizeEndpoint
        self.clientID = clientID
        self.redirectURI = redirectURI
        self.scopes = scopes
    }

    /// Whether `url` is a redirect to ``redirectURI``: the same scheme and
    /// host (without case) and the same path. Anything else (another app's
    /// scheme, another path) is not read.
    public func isRedirect(_ url: URL) -> Bool {
        guard let expected = URLComponents(string: redirectURI), let actual = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
            return false
        }
        func path(_ components: URLComponents) -> String { components.path.isEmpty ? "/" : components.path }
        return expected.scheme?.lowercased() == actual.scheme?.lowercased() && expected.host?.lowercased() == actual.host?.lowercased()
            && expected.port == actual.port && path(expected) == path(actual)
    }

    /// The URL to open in the browser for one sign-in: `response_type=code`,
    /// the client, the redirect URI, the scopes, `state` and the S256 challenge.
    public func authorizationURL(state: String, pkce: PKCE) -> URL {
        var components = URLComponents(url: authorizeEndpoint, resolvingAgainstBaseURL: false)!
        components.queryItems = (components.queryItems ?? []) + [
            URLQueryItem(name: "response_type", value: "code"),
            URLQueryItem(name: "client_id", value: clientID),
            URLQueryItem(name: "redirect_uri", value: redirectURI),
            URLQueryItem(name: "scope", value: scopes.joined(separator: " ")),
            URLQueryItem(name: "state", value: state),
            URLQueryItem(name: "code_challenge", value: pkce.challenge),
            URLQueryItem(name: "code_challenge_method", value: pkce.method),
        ]
        // URLComponents leaves `+` alone in queries; a space must not become one.
        components.percentEncodedQuery = components.percentEncodedQuery?.replacingOccurrences(of: "+", with: "%2B")
        return components.url!
    }
}
