import Foundation

/// What the platform's URL-loading adapter asks about a server-trust
/// challenge, and the answer it carries out. Rules for implementers:
///
/// - ``handles(host:)`` is cheap and says whether ``decide(_:)`` should be
///   asked at all; a host it does not handle gets the platform's default
///   handling, which evaluates trust as if no one had looked.
/// - ``decide(_:)`` never trusts a chain the platform refused, except in
///   development for the one host configured for self-signed certificates.
/// - A ``ServerTrustDecision/cancel`` ends the connection before any byte
///   of a request leaves: the implementer records why, for the transport to
///   throw a typed error instead of the cancellation.
///
/// An Apple adapter's seam: this file imports Foundation only.
public protocol ServerTrustEvaluating: Sendable {
    /// Whether connections to `host` are evaluated here.
    func handles(host: String) -> Bool
    /// What to do with a connection that presented `trust`.
    func decide(_ trust: PresentedServerTrust) -> ServerTrustDecision
}

/// The answer to a server-trust challenge.
public enum ServerTrustDecision: Sendable, Hashable {
    /// Let the platform decide as it would without pinning.
    case performDefaultHandling
    /// Accept the server's chain (pins matched after the platform's own
    /// evaluation passed, or the development host's self-signed certificate).
    case useServerTrust
    /// Refuse the connection: nothing is sent on it.
    case cancel
}
