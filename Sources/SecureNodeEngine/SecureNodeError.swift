import Resilience

/// Why the SecureNode SDK could not start.
public enum SecureNodeError: Error, Sendable, Hashable, CustomStringConvertible {
    /// No API key was given and none is stored from an earlier launch.
    case noAPIKey
    /// The API URL is not https (http only to a loopback host, for a local
    /// test server): the API key and call data would travel in clear.
    case insecureAPIURL(String)
    /// The pins cannot be checked as configured (too few per host, or a
    /// transport of the app's own that does not enforce them); nothing was
    /// opened or sent.
    case invalidPinning(PinningConfigurationError)
    /// The SDK's files could not be opened or created: what, and the file
    /// system's or SQLite's reason.
    case storageFailed(String)

    /// What went wrong and how to fix it.
    public var description: String {
        switch self {
        case .noAPIKey:
            return "no API key: pass Configuration.apiKey at least once (it is kept in the key store for later launches)"
        case .insecureAPIURL(let url):
            return "the API URL \(url) must use https (http only to a loopback host): the API key would travel in clear"
        case .invalidPinning(let error):
            return "the pinning cannot be enforced: \(error)"
        case .storageFailed(let reason):
            return "the SDK's files cannot be opened: \(reason) (the folder must be writable: an App Group container on iOS)"
        }
    }

    /// `body`'s result, or ``storageFailed(_:)`` naming `what` and why.
    static func storage<T>(_ what: String, _ body: () throws -> T) throws(SecureNodeError) -> T {
        do {
            return try body()
        } catch {
            throw .storageFailed("\(what): \(error)")
        }
    }
}
