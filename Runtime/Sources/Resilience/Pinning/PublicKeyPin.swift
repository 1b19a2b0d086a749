import Foundation
import RuntimeSupport

/// A public-key pin (RFC 7469): the SHA-256 of a certificate's
/// `SubjectPublicKeyInfo` DER, written `sha256/<base64>` as every mobile
/// pinning library and HPKP write it.
///
/// A pin names a key, not a certificate: it survives a certificate renewed
/// on the same key, and changes only when the key does. Compute one from a
/// certificate with
///
/// ```sh
/// openssl x509 -in cert.pem -pubkey -noout | openssl pkey -pubin -outform der | openssl dgst -sha256 -binary | base64
/// ```
///
/// ```swift
/// let pin = try PublicKeyPin("sha256/4sEBer2Lpb8nKWkQmA0+1KulJEtftPQA9TsEAJRvL/A=")
/// let served = try PublicKeyPin(certificate: derBytes)   // the pin of a certificate's key
/// ```
public struct PublicKeyPin: Sendable, Hashable, CustomStringConvertible {
    /// The 32 bytes of the SHA-256.
    public let sha256: [UInt8]

    /// A pin from its text: `sha256/` then the base64 of 32 bytes (the
    /// prefix may be left out). Throws ``PinningConfigurationError/invalidPin(_:reason:)``
    /// naming what is wrong.
    public init(_ text: String) throws(PinningConfigurationError) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        var encoded = Substring(trimmed)
        // An algorithm prefix (`sha256/`, `sha1/`): base64 has slashes too, but never this shape before one.
        if let slash = encoded.firstIndex(of: "/"), case let algorithm = encoded[..<slash].lowercased(), algorithm.count <= 6,
            algorithm.hasPrefix("sha"), algorithm.dropFirst(3).allSatisfy(\.isNumber)
        {
            guard algorithm == "sha256" else { throw .invalidPin(text, reason: "only sha256 pins exist (RFC 7469), this one says \(algorithm)") }
            encoded = encoded[encoded.index(after: slash)...]
        }
        guard let bytes = Data(base64Encoded: String(encoded)) else {
            throw .invalidPin(text, reason: "not base64 (expected sha256/ and 44 characters ending in '=')")
        }
        guard bytes.count == 32 else {
            throw .invalidPin(text, reason: "decodes to \(bytes.count) bytes, a SHA-256 has 32 (expected sha256/ and 44 characters ending in '=')")
        }
        sha256 = Array(bytes)
    }

    /// A pin from the 32 bytes of a SHA-256 (nil for another length).
    public init?(sha256: [UInt8]) {
        guard sha256.count == 32 else { return nil }
        self.sha256 = sha256
    }

    /// The pin of a certificate's public key: the SHA-256 of the full DER
    /// of its `subjectPublicKeyInfo`. `certificate` is the certificate's
    /// DER (what `SecCertificateCopyData` returns, or a PEM block's base64
    /// decoded).
    public init(certificate: some DataProtocol) throws(CertificateDecodingError) {
        let spki = try CertificateDER.subjectPublicKeyInfo(of: Array(certificate))
        sha256 = SHA256.hash(spki)
    }

    /// The base64 of the hash, as `openssl ... | base64` prints it.
    public var base64: String { Data(sha256).base64EncodedString() }

    /// `sha256/<base64>`.
    public var description: String { "sha256/" + base64 }
}
