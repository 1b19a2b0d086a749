import Foundation

/// Which redirects an SDK's connections follow. A redirect is a request
/// the server asks for and the app never wrote: followed to another host, it
/// would carry the request's headers there (URLSession copies them: the API
/// key, the bearer token, the `Idempotency-Key`). So the SDKs' sessions
/// follow a redirect only within the policy, and re-check the new URL's pins
/// before they do; a refused redirect ends the call with
/// ``CertificatePinningError`` (``CertificatePinningError/Reason/redirectRefused``).
public enum RedirectPolicy: Sendable, Hashable {
    /// Only to the request's own origin: the same scheme, host and port (an
    /// API's sessions).
    case sameOrigin
    /// Only over https to one of these hosts, at every hop (downloads from an
    /// assets host, which may redirect within it).
    case httpsHosts(Set<String>)

    /// Whether a request to `from` may follow a redirect to `to`.
    public func allows(from: URL, to: URL) -> Bool {
        switch self {
        case .sameOrigin:
            guard let origin = Origin(from), let target = Origin(to) else { return false }
            return origin == target
        case .httpsHosts(let hosts):
            guard to.scheme?.lowercased() == "https", let host = to.host.flatMap(PinnedHost.normalised) else { return false }
            return hosts.contains { PinnedHost.normalised($0) == host }
        }
    }

    /// `url` as an error names a redirect's target: origin and path, without
    /// the query or fragment (which could carry a secret).
    public static func describe(_ url: URL) -> String {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: true) else { return "an unreadable URL" }
        components.query = nil
        components.fragment = nil
        components.user = nil
        components.password = nil
        return components.string ?? "an unreadable URL"
    }
}

/// A URL's origin (RFC 6454): scheme, host and port, the port made explicit.
struct Origin: Hashable {
    let scheme: String
    let host: String
    let port: Int

    init?(_ url: URL) {
        guard let scheme = url.scheme?.lowercased(), let host = url.host.flatMap(PinnedHost.normalised) else { return nil }
        guard let port = url.port ?? Self.defaultPorts[scheme] else { return nil }
        self.scheme = scheme
        self.host = host
        self.port = port
    }

    private static let defaultPorts = ["http": 80, "https": 443]
}
