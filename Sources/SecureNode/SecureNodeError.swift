/// Why the SecureNode SDK could not start.
public enum SecureNodeError: Error, Sendable, Hashable, CustomStringConvertible {
    /// No API key was given and none is stored from an earlier launch.
    case noAPIKey

    /// What went wrong and how to fix it.
    public var description: String {
        switch self {
        case .noAPIKey:
            return "no API key: pass Configuration.apiKey at least once (it is kept in the key store for later launches)"
        }
    }
}
