/// A connection that could not be verified, so nothing was sent on it: no
/// request body, no token, no API key. It is the SDKs' one security error:
/// a chain without a pinned key, a certificate the system refuses (on any
/// host, pinned or not), a pinned host that cannot be checked, or a
/// redirect to another host. It is never retried (another attempt meets the
/// same certificate), never means "offline" (the network works; the server
/// it reached is not the one it should be), never answers from a cache and
/// never queues a write: an active interception must not look like a dead
/// network.
///
/// It carries what the log line needs to investigate: the host, the pins of
/// the keys the chain presented (public values, never secrets), the pins
/// expected, and for a redirect the target it was not followed to.
public struct CertificatePinningError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Why the connection was refused.
    public enum Reason: String, Sendable, Hashable {
        /// No certificate of the chain has a pinned key.
        case noPinnedKey
        /// The platform's own trust evaluation refused the chain (expired,
        /// self-signed, another host's, an unknown root): pins are never a
        /// substitute for it.
        case untrustedChain
        /// The request would go over plain http, where there is no
        /// certificate to check.
        case notEncrypted
        /// The transport cannot show the app the server's certificates
        /// (swift-corelibs URLSession on Linux has no server-trust
        /// challenge), so the pins cannot be checked.
        case cannotCheck
        /// The system refused the server's certificate, or the TLS
        /// handshake failed, on a host with or without pins: what an
        /// interception with a certificate the device does not trust looks like.
        case systemRefused
        /// The server answered with a redirect to another origin (scheme,
        /// host or port); it was not followed, so nothing (no credential, no
        /// idempotency key) went there.
        case redirectRefused
    }

    /// The host connected to.
    public let host: String
    /// Why it was refused.
    public let reason: Reason
    /// The pins of the keys the chain presented, leaf first (empty when no
    /// chain was seen).
    public let presented: [PublicKeyPin]
    /// The host's pins (empty for a host without pins).
    public let expected: [PublicKeyPin]
    /// For ``Reason/redirectRefused``: where the server redirected, as
    /// origin and path (`https://other.example:8443/accounts`; the query,
    /// which could carry a secret, left out).
    public let redirectTarget: String?

    /// Creates an error.
    public init(host: String, reason: Reason, presented: [PublicKeyPin] = [], expected: [PublicKeyPin], redirectTarget: String? = nil) {
        self.host = host
        self.reason = reason
        self.presented = presented
        self.expected = expected
        self.redirectTarget = redirectTarget
    }

    /// What happened, in a few words: "its chain has no pinned public key".
    public var summary: String {
        switch reason {
        case .noPinnedKey: return "its chain has no pinned public key"
        case .untrustedChain: return "the system does not trust its certificate chain"
        case .notEncrypted: return "it is pinned but the request would go over plain http"
        case .cannotCheck: return "it is pinned but this platform's URLSession cannot show its certificates"
        case .systemRefused: return "the system does not trust its certificate, or the TLS handshake failed"
        case .redirectRefused: return "it redirected to another host, \(redirectTarget ?? "elsewhere"); the redirect was not followed"
        }
    }

    /// `the secure connection to <host> could not be verified: <summary>
    /// (presented sha256/..., ...; pinned sha256/..., ...)`; without the
    /// parenthesis when neither a chain nor pins are known (an unpinned
    /// host the system refused, a redirect).
    public var description: String {
        if expected.isEmpty && presented.isEmpty { return "the secure connection to \(host) could not be verified: \(summary)" }
        let presentedText = presented.isEmpty ? "no chain" : presented.map(\.description).joined(separator: ", ")
        return "the secure connection to \(host) could not be verified: \(summary) (presented \(presentedText); pinned "
            + expected.map(\.description).joined(separator: ", ") + ")"
    }
}
