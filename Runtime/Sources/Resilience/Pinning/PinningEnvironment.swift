/// Where the app runs, as pinning sees it: production checks pins;
/// development does not (a local server's self-signed certificate may be
/// in play, as Safepocket's guide says: "Disable TLS certificate pinning
/// during development").
public enum PinningEnvironment: Sendable, Hashable, CustomStringConvertible {
    /// Pins are checked for every pinned host, after the platform's own
    /// trust evaluation has passed.
    case production
    /// No pin is checked. A certificate the platform refuses (self-signed,
    /// from a local CA) is accepted from `selfSignedHost` alone, never from
    /// another host; nil accepts none.
    case development(selfSignedHost: String?)

    /// `production`, or `development (self-signed accepted from <host>)`.
    public var description: String {
        switch self {
        case .production: return "production"
        case .development(let host?): return "development (self-signed accepted from \(host))"
        case .development(nil): return "development"
        }
    }
}
