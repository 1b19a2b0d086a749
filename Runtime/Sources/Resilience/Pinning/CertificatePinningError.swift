/// A connection to a pinned host that could not be verified, so nothing
/// was sent on it: no request body, no token. It is never retried (another
/// attempt meets the same certificate) and never means "offline" (the
/// network works; the server it reached is not the one pinned).
///
/// It carries what the log line needs to investigate: the host, the pins of
/// the keys the chain presented (public values, never secrets) and the pins
/// expected.
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
    }

    /// The host connected to.
    public let host: String
    /// Why it was refused.
    public let reason: Reason
    /// The pins of the keys the chain presented, leaf first (empty when no
    /// chain was seen).
    public let presented: [PublicKeyPin]
    /// The host's pins.
    public let expected: [PublicKeyPin]

    /// Creates an error.
    public init(host: String, reason: Reason, presented: [PublicKeyPin] = [], expected: [PublicKeyPin]) {
        self.host = host
        self.reason = reason
        self.presented = presented
        self.expected = expected
    }

    /// What happened, in a few words: "its chain has no pinned public key".
    public var summary: String {
        switch reason {
        case .noPinnedKey: return "its chain has no pinned public key"
        case .untrustedChain: return "the system does not trust its certificate chain"
        case .notEncrypted: return "it is pinned but the request would go over plain http"
        case .cannotCheck: return "it is pinned but this platform's URLSession cannot show its certificates"
        }
    }

    /// `the secure connection to <host> could not be verified: <summary>
    /// (presented sha256/..., ...; pinned sha256/..., ...)`.
    public var description: String {
        let presentedText = presented.isEmpty ? "no chain" : presented.map(\.description).joined(separator: ", ")
        return "the secure connection to \(host) could not be verified: \(summary) (presented \(presentedText); pinned "
            + expected.map(\.description).joined(separator: ", ") + ")"
    }
}
