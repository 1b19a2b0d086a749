/// A certificate the system refuses (a local server's self-signed one, or
/// one from a development CA) that a development build accepts from one
/// host: the app names the key (`sha256/` of the certificate's or its CA's
/// public key) and the host, so nothing else is ever accepted.
///
/// Made only by ``CertificatePinning/acceptingForDevelopment(host:pins:)``,
/// which exists in `DEBUG` builds alone: a release build cannot be
/// configured to trust a certificate the system refuses, and its evaluation
/// ignores these entries. Every acceptance is logged as a warning.
package struct DevelopmentCertificate: Sendable, Hashable {
    /// The host it is accepted from (lower-cased, without a trailing dot).
    package let host: String
    /// The keys, any of which a certificate of the chain must have.
    package let pins: [PublicKeyPin]
}
