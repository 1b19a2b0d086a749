/// Where the app runs, as pinning sees it: production checks pins;
/// development does not, as Safepocket's guide asks ("Disable TLS
/// certificate pinning during development"). Neither accepts a certificate
/// the system refuses: only a development build can, and only the one
/// certificate it names for one host
/// (`CertificatePinning/developmentCertificates`).
public enum PinningEnvironment: Sendable, Hashable, CustomStringConvertible {
    /// Pins are checked for every pinned host, after the platform's own
    /// trust evaluation has passed.
    case production
    /// No pin is checked; the platform's own trust evaluation still
    /// decides every connection.
    case development

    /// `production` or `development`.
    public var description: String {
        switch self {
        case .production: return "production"
        case .development: return "development"
        }
    }
}
