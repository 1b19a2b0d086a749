/// Why the SecureNode SDK could not start.
public enum SecureNodeError: Error, Sendable, Hashable, CustomStringConvertible {
    /// No API key was given and none is stored from an earlier launch.
    case noAPIKey
    /// The API URL is not https (http only to a loopback host, for a local
    /// test server): the API key and call data would travel in clear.
    case insecureAPIURL(String)

    /// What went wrong and how to fix it.
    public var description: String {
        switch self {
        case .noAPIKey:
            return "no API key: pass Configuration.apiKey at least once (it is kept in the key store for later launches)"
        case .insecureAPIURL(let url):
            return "the API URL \(url) must use https (http only to a loopback host): the API key would travel in clear"
        }
    }
}
