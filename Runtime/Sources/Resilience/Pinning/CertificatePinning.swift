import Foundation

/// Public-key pinning for a client's hosts (RFC 7469 pins), and the
/// decision for one TLS connection, in plain Swift: which pins apply to the
/// host, whether any certificate of the chain has one of the keys, in which
/// environment, with the platform's own trust verdict as an input.
///
/// ```swift
/// let pinning = try CertificatePinning([
///     PinnedHost("api.safepocket.app", pins: ["sha256/4sEB...L/A=", "sha256/MKSw...Y0E="]),
/// ])
/// let verdict = pinning.evaluate(presented, in: .production)   // .matched, .rejected(...), ...
/// ```
///
/// Rules, in order:
///
/// 1. A chain the platform refused is refused (by the platform's own
///    handling, or here for a pinned host), whatever the environment.
///    The one exception exists in `DEBUG` builds only: a certificate the app
///    named for development (``acceptingForDevelopment(host:pins:)``), from
///    its host alone, accepted and logged.
/// 2. Development: no pin is checked; the platform decides.
/// 3. Production, a host without pins: left to the platform.
/// 4. Production, a pinned host: the platform's evaluation must have passed
///    (pins never replace it: a chain that is expired, self-signed or for
///    another host is refused even when a pin matches), and then one
///    certificate of the chain, whichever, must have a pinned key.
///
/// Every SDK's configuration takes one value of this type and applies it to
/// every connection the SDK opens (its API, its sign-in, SecureNode's logo
/// downloads).
///
/// Apps rarely call ``evaluate(_:in:)`` themselves: a ``ServerTrustEvaluator``
/// answers the platform's challenges with it and records each refusal for
/// ``CertificatePinningTransport``.
public struct CertificatePinning: Sendable, Hashable {
    /// What the decision says about one connection.
    public enum Verdict: Sendable, Hashable {
        /// No pins apply (an unpinned host, or development): the platform's
        /// own evaluation decides.
        case notPinned
        /// The platform trusted the chain and the certificate at
        /// `certificateIndex` (0 is the leaf) has the pinned key `pin`.
        case matched(PublicKeyPin, certificateIndex: Int)
        /// A `DEBUG` build, a certificate the platform refused from the host
        /// it was named for (`CertificatePinning/developmentCertificates`),
        /// whose chain has the named key `pin`: accepted without the
        /// platform's approval.
        case acceptedForDevelopment(PublicKeyPin)
        /// Refused: nothing may be sent on this connection.
        case rejected(CertificatePinningError)
    }

    /// The pinned hosts.
    public let hosts: [PinnedHost]
    /// Certificates the system refuses that a `DEBUG` build accepts, each
    /// from its own host (empty in every release build's configuration:
    /// only ``acceptingForDevelopment(host:pins:)`` adds them).
    package private(set) var developmentCertificates: [DevelopmentCertificate] = []

    /// Whether nothing is pinned and nothing accepted for development.
    public var isEmpty: Bool { hosts.isEmpty && developmentCertificates.isEmpty }

    /// Pins for `hosts`. Throws ``PinningConfigurationError/duplicateHost(_:)``
    /// when a host appears twice. Each ``PinnedHost`` already refused fewer
    /// than two pins. No hosts at all pins nothing (a development set-up).
    public init(_ hosts: [PinnedHost]) throws(PinningConfigurationError) {
        var seen = Set<String>()
        for entry in hosts where !seen.insert(entry.host).inserted { throw .duplicateHost(entry.host) }
        self.hosts = hosts
    }

    /// Pins from a dictionary of host to pin texts (`sha256/<base64>`), the
    /// rules of ``PinnedHost/init(_:pins:includingSubdomains:)`` for each.
    public init(pins: [String: [String]]) throws(PinningConfigurationError) {
        var hosts: [PinnedHost] = []
        for host in pins.keys.sorted() { hosts.append(try PinnedHost(host, pins: pins[host] ?? [])) }
        try self.init(hosts)
    }

    /// Nothing pinned, nothing accepted for development.
    public static let none = CertificatePinning(unchecked: [])

    private init(unchecked hosts: [PinnedHost]) { self.hosts = hosts }

    /// The pins that apply to `host`: an exact entry first, else the
    /// closest one that includes subdomains; nil when none.
    public func pinnedHost(for host: String) -> PinnedHost? {
        guard let name = PinnedHost.normalised(host) else { return nil }
        if let exact = hosts.first(where: { $0.host == name }) { return exact }
        return hosts.filter { $0.applies(to: name) }.max { $0.host.count < $1.host.count }
    }

    #if DEBUG
    /// This pinning, also accepting from `host` a certificate the system
    /// refuses when a certificate of its chain has one of `pins` (the
    /// `sha256/` of the development server's key, or of the development
    /// CA's): a local server with a self-signed certificate. Exists in
    /// `DEBUG` builds only, so a release build cannot be configured to trust
    /// a certificate the system refuses; each acceptance is logged as a
    /// warning. Throws ``PinningConfigurationError/invalidHost(_:)``,
    /// ``PinningConfigurationError/invalidPin(_:reason:)``, or
    /// ``PinningConfigurationError/tooFewPins(host:count:)`` for no pin.
    public func acceptingForDevelopment(host: String, pins: [String]) throws(PinningConfigurationError) -> CertificatePinning {
        guard let name = PinnedHost.normalised(host) else { throw .invalidHost(host) }
        var keys: [PublicKeyPin] = []
        for text in pins {
            let key = try PublicKeyPin(text)
            if !keys.contains(key) { keys.append(key) }
        }
        guard !keys.isEmpty else { throw .tooFewPins(host: name, count: 0) }
        var copy = self
        copy.developmentCertificates.removeAll { $0.host == name }
        copy.developmentCertificates.append(DevelopmentCertificate(host: name, pins: keys))
        return copy
    }
    #endif

    /// Whether a connection to `host` needs a decision in `environment`
    /// (a pinned host in production; in a `DEBUG` build, a host with a
    /// development certificate).
    public func evaluates(host: String, in environment: PinningEnvironment) -> Bool {
        if developmentCertificate(for: host) != nil { return true }
        switch environment {
        case .production: return pinnedHost(for: host) != nil
        case .development: return false
        }
    }

    /// The development certificate named for `host`, in a `DEBUG` build;
    /// always nil in a release build.
    func developmentCertificate(for host: String) -> DevelopmentCertificate? {
        #if DEBUG
        guard let name = PinnedHost.normalised(host) else { return nil }
        return developmentCertificates.first { $0.host == name }
        #else
        return nil
        #endif
    }

    /// The decision for a connection that presented `trust` (the rules above).
    public func evaluate(_ trust: PresentedServerTrust, in environment: PinningEnvironment) -> Verdict {
        if !trust.platformTrusted, let development = developmentCertificate(for: trust.host) {
            for certificate in trust.certificates {
                if let key = try? PublicKeyPin(certificate: certificate), development.pins.contains(key) { return .acceptedForDevelopment(key) }
            }
        }
        switch environment {
        case .development:
            return .notPinned
        case .production:
            guard let pinned = pinnedHost(for: trust.host) else { return .notPinned }
            // A certificate the platform handed over but that cannot be read has no key to match.
            let keys = trust.certificates.map { try? PublicKeyPin(certificate: $0) }
            let presented = keys.compactMap { $0 }
            guard trust.platformTrusted else {
                return .rejected(CertificatePinningError(host: trust.host, reason: .untrustedChain, presented: presented, expected: pinned.pins))
            }
            for (index, key) in keys.enumerated() {
                if let key, pinned.pins.contains(key) { return .matched(key, certificateIndex: index) }
            }
            return .rejected(CertificatePinningError(host: trust.host, reason: .noPinnedKey, presented: presented, expected: pinned.pins))
        }
    }
}
