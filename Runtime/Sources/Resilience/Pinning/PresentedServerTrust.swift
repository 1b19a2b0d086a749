import Foundation

/// What a TLS handshake presented to the app, as the platform's adapter
/// reads it (on Apple platforms, from the `SecTrust` of a server-trust
/// challenge): the host, the certificate chain, and the platform's own
/// verdict on it. The pinning decision reads this and nothing else, so it is
/// plain Swift, tested on Linux with real chains.
///
/// An Apple adapter's seam: this file imports Foundation only.
public struct PresentedServerTrust: Sendable, Hashable {
    /// The host the connection was made to.
    public let host: String
    /// The chain's certificates as DER, leaf first (as
    /// `SecTrustCopyCertificateChain` returns them: the leaf, the
    /// intermediates and the anchor the evaluation reached).
    public let certificates: [Data]
    /// Whether the platform's trust evaluation passed (a chain to a trusted
    /// root, in date, for this host): `SecTrustEvaluateWithError`'s answer.
    public let platformTrusted: Bool

    /// Creates a presented chain.
    public init(host: String, certificates: [Data], platformTrusted: Bool) {
        self.host = host
        self.certificates = certificates
        self.platformTrusted = platformTrusted
    }
}
