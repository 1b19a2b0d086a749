import Foundation
import Resilience

/// The tracker's options, with the document's defaults.
public struct TrackerConfig: Sendable, Hashable {
    /// Detailed logs (`debug` level) of initialization, calls and errors.
    public var debug: Bool
    /// The backend's base URL: https, no trailing slash (`https://api.example.com`;
    /// one given with a trailing slash is used without it, with a warning).
    public var apiUrl: String?
    /// The API key sent as `X-API-Key` on every request.
    public var xApiKey: String?
    /// Cross-domain tracking (web only; kept for parity, unused on mobile).
    public var crossSiteCookie: Bool
    /// Cookie domain (web only; kept for parity, unused on mobile).
    public var cookieDomain: String?
    /// Days before stored values (session, device, identity) expire. Default 365.
    public var cookieExpiration: Int

    /// Creates a configuration; unset options take the defaults.
    public init(
        debug: Bool = false, apiUrl: String? = nil, xApiKey: String? = nil, crossSiteCookie: Bool = false, cookieDomain: String? = nil,
        cookieExpiration: Int = 365
    ) {
        self.debug = debug
        self.apiUrl = apiUrl
        self.xApiKey = xApiKey
        self.crossSiteCookie = crossSiteCookie
        self.cookieDomain = cookieDomain
        self.cookieExpiration = cookieExpiration
    }

    /// The checked configuration: the URL and key present and well formed,
    /// the expiration positive. http is accepted for loopback hosts only
    /// (local test servers). An `apiUrl` ending in slashes ("should not
    /// include trailing slash") is used without them, with a warning to log.
    func validated() throws(TrackerError) -> (url: URL, apiKey: String, expiration: TimeInterval, warning: String?) {
        guard let given = apiUrl, !given.isEmpty else { throw .invalidConfiguration(reason: "apiUrl is required") }
        var text = given
        while text.hasSuffix("/") { text.removeLast() }
        let warning = text == given ? nil : "apiUrl should not end with a slash: using \(text) (write it so in TrackerConfig)"
        guard !text.isEmpty, let url = URL(string: text), let scheme = url.scheme?.lowercased(), url.host?.isEmpty == false else {
            throw .invalidConfiguration(reason: "apiUrl is not a valid URL")
        }
        // The family's one loopback rule: a host named 127.example.com is not this machine.
        guard scheme == "https" || (scheme == "http" && BaseURLPolicy.isLoopback(url.host)) else {
            throw .invalidConfiguration(reason: "apiUrl must use https (http only to a loopback host)")
        }
        guard let key = xApiKey, !key.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw .invalidConfiguration(reason: "xApiKey is required")
        }
        guard cookieExpiration > 0 else { throw .invalidConfiguration(reason: "cookieExpiration must be more than 0 days") }
        return (url, key, TimeInterval(cookieExpiration) * 86_400, warning)
    }
}
