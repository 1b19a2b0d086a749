import Foundation

/// Where an OAuth 2.0 device authorization grant (RFC 8628; OpenAPI 3.2's
/// `deviceAuthorization` flow) asks for a code and polls for the token, as
/// the spec's security scheme writes them: a generated client's
/// `SecuritySchemes` holds one per such flow, for `DeviceAuthorizationFlow`
/// (in Resilience) to sign in with.
public struct OAuthDeviceFlowEndpoints: Sendable, Hashable {
    /// `deviceAuthorizationUrl`, as written (it may be relative to the server URL).
    public let deviceAuthorization: String
    /// `tokenUrl`, as written (it may be relative to the server URL).
    public let token: String
    /// The scopes the flow documents.
    public let scopes: [String]

    /// The endpoints as a spec writes them.
    public init(deviceAuthorization: String, token: String, scopes: [String] = []) {
        self.deviceAuthorization = deviceAuthorization
        self.token = token
        self.scopes = scopes
    }

    /// The device authorization endpoint, resolved against `serverURL` when
    /// the spec writes it relative (nil when it is no URL).
    public func deviceAuthorizationURL(relativeTo serverURL: URL? = nil) -> URL? { Self.resolve(deviceAuthorization, serverURL) }

    /// The token endpoint, resolved against `serverURL` when the spec writes
    /// it relative (nil when it is no URL).
    public func tokenURL(relativeTo serverURL: URL? = nil) -> URL? { Self.resolve(token, serverURL) }

    private static func resolve(_ text: String, _ base: URL?) -> URL? {
        guard let url = URL(string: text, relativeTo: base)?.absoluteURL, let scheme = url.scheme?.lowercased(), ["https", "http"].contains(scheme) else {
            return nil
        }
        return url
    }
}
