/// The errors the tracker reports, as the MobileTracker document names them.
/// Only ``MobileTracker/initialize(brandId:config:)`` throws; every other
/// call logs and carries on.
public enum TrackerError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The brand id is empty or not numeric ("925").
    case invalidBrandId
    /// The configuration is invalid; `reason` says which option and why.
    case invalidConfiguration(reason: String)
    /// The backend did not create a session (network, status, or a body
    /// without a session id); the next call tries again.
    case sessionCreationFailed(reason: String)
    /// Attributes, metadata or profile data hold a value JSON cannot carry
    /// (a date, a custom object, NaN); `path` names it. Nothing was queued.
    case serializationFailed(path: String)
    /// An HTTP request failed.
    case networkError(reason: String)

    /// The case's name (`invalidBrandId`), for analytics and scripts.
    public var kind: String {
        switch self {
        case .invalidBrandId: return "invalidBrandId"
        case .invalidConfiguration: return "invalidConfiguration"
        case .sessionCreationFailed: return "sessionCreationFailed"
        case .serializationFailed: return "serializationFailed"
        case .networkError: return "networkError"
        }
    }

    /// What went wrong.
    public var description: String {
        switch self {
        case .invalidBrandId: return "invalid brand id: it must be a non-empty numeric string such as \"925\""
        case .invalidConfiguration(let reason): return "invalid configuration: \(reason)"
        case .sessionCreationFailed(let reason): return "the tracking session could not be created: \(reason)"
        case .serializationFailed(let path): return "the value at \(path) cannot be sent as JSON (use strings, numbers, booleans, arrays, objects or null)"
        case .networkError(let reason): return "network error: \(reason)"
        }
    }
}
