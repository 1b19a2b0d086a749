/// Why bytes given as a certificate could not be read as X.509 DER.
public struct CertificateDecodingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What was wrong ("expected subjectPublicKeyInfo (tag 0x30), found tag 0x02").
    public let reason: String
    /// The byte offset in the certificate where it was found.
    public let offset: Int

    /// `not an X.509 certificate in DER: <reason> at byte <offset>`.
    public var description: String { "not an X.509 certificate in DER: \(reason) at byte \(offset)" }
}
