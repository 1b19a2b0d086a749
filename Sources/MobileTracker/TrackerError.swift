import Resilience
/// The errors the tracker reports, as the MobileTracker document names them.
/// Only ``MobileTracker/initialize(brandId:config:)`` throws; every other
/// call logs and carries on.
public enum TrackerError: Error, Sendable, CustomStringConvertible {
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
    /// The network is why the call failed (no connection, a timeout, a
    /// connection lost): `underlying` is what the transport threw. The next
    /// call tries again.
    ///
    /// A connection that could not be verified (the system does not trust
    /// the server's certificate or the TLS handshake failed, its chain has
    /// none of the pinned keys, or the server redirected to another host)
    /// arrives here too, with a `CertificatePinningError` underneath, so the
    /// reference's exhaustive `switch` over these five cases still compiles;
    /// ``connectionRefusal`` tells it apart: not a network failure but an
    /// interception or a misconfigured server, and nothing was sent.
    case networkError(underlying: any Error)

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

    /// The refusal of a connection that could not be verified, when that is
    /// why the call failed (a ``networkError(underlying:)`` that is not the
    /// network's fault); nil otherwise.
    public var connectionRefusal: CertificatePinningError? {
        if case .networkError(let underlying as CertificatePinningError) = self { return underlying }
        return nil
    }

    /// What went wrong.
    public var description: String {
        switch self {
        case .invalidBrandId: return "invalid brand id: it must be a non-empty numeric string such as \"925\""
        case .invalidConfiguration(let reason): return "invalid configuration: \(reason)"
        case .sessionCreationFailed(let reason): return "the tracking session could not be created: \(reason)"
        case .serializationFailed(let path): return "the value at \(path) cannot be sent as JSON (use strings, numbers, booleans, arrays, objects or null)"
        case .networkError(let underlying as CertificatePinningError):
            return "the secure connection could not be verified (\(underlying.host): \(underlying.summary))"
        case .networkError(let underlying): return "network error: \(NetworkFailure(underlying).map { "\($0)" } ?? String(describing: underlying))"
        }
    }
}

extension TrackerError: Hashable {
    /// Equal when the case and what it says are (an underlying network
    /// error compares by its description).
    public static func == (lhs: TrackerError, rhs: TrackerError) -> Bool {
        lhs.kind == rhs.kind && lhs.description == rhs.description
    }

    /// Hashes the case and what it says.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(kind)
        hasher.combine(description)
    }
}
